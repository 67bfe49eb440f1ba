#!/usr/bin/python3
"""bench/systems_transmission_line.py -- issue 19, case 2: the TransmissionLine
N = 1280 split into 8 FMUs of 160 segments, coupled acausally at the 7 cut
nodes (models/systems/transmission_line_1280, build/systems/*.ssp), against
the monolithic FMU, side by side in one run. Acceptance: the split within
1.3x of the monolithic run's time.

Runs, interleaved (the order alternates between repetitions, so drift in the
machine's load hits both alike), each a separate process:

  monolithic  lsdae simulate build/fmus/TransmissionLine_dae_shapeA_<N>.fmu
  split       lsdae simulate build/systems/transmission_line_<N>.ssp

both with the DefaultExperiment's grid (0 .. 4e-6 s every 2e-9 s, rtol 1e-8
unless --rtol), the same extra options (--threads, --jacobian ...) and the
same amount of output (the voltage at the load only). Times: wall time from
spawn to exit and the statistics' own phases (time_s; the integration alone
is what the coupling costs). Keeps the best of --repeat runs of each and
prints both, their ratios (split / monolithic) and the verdict against
--limit (1.3); also the counters (steps, residual calls, Jacobians, Newton
iterations), which say whether a slower split takes more steps or costs more
per step. Exit 0 when the wall-time ratio is within the limit, 1 when not,
2 when a run fails.

    cmake --build build --target lsdae lsdae_fmus lsdae_systems
    /usr/bin/python3 bench/systems_transmission_line.py              # N = 1280, 3 repetitions
    /usr/bin/python3 bench/systems_transmission_line.py -N 80 --repeat 5
    /usr/bin/python3 bench/systems_transmission_line.py --json out.json -- --threads 2

With --threads A,B the two runs compared are the split system with
--threads A and with --threads B (the components evaluated in parallel:
docs/systems.md, "Threads"), interleaved the same way; the monolithic FMU
is not run and the verdict is only printed (exit 0).

    /usr/bin/python3 bench/systems_transmission_line.py --threads 1,2 --repeat 5

CPU time (user + system of the run's process, all its threads) is printed
beside the wall time: on a loaded machine a second thread may cost CPU
without giving wall time back.

Nothing here is run by ctest: time it on a quiet machine (the load average
is printed with the result).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from child_timing import run_with_statistics

SECTIONS = {80: 4, 1280: 8}


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-N", type=int, default=1280, choices=sorted(SECTIONS), help="segments of the line")
    p.add_argument("--build", default="build", help="the build folder (default: build)")
    p.add_argument("--repeat", type=int, default=3, help="runs of each; the best is kept")
    p.add_argument("--rtol", default=None, help="relative tolerance (default: the experiment's, 1e-8)")
    p.add_argument("--limit", type=float, default=1.3, help="acceptable wall-time ratio split/monolithic")
    p.add_argument("--json", default=None, help="write every run and the result here")
    p.add_argument("--threads", default=None,
                   help="A,B: compare the split system at --threads A and B instead of split vs monolithic")
    p.add_argument("extra", nargs="*", help="further lsdae simulate options for both (after --)")
    a = p.parse_args()

    lsdae = os.path.join(a.build, "bin", "lsdae")
    mono = os.path.join(a.build, "fmus", "TransmissionLine_dae_shapeA_%d.fmu" % a.N)
    split = os.path.join(a.build, "systems", "transmission_line_%d.ssp" % a.N)
    last = "s%d.v_load" % SECTIONS[a.N]
    for path in (lsdae, mono, split):
        if not os.path.exists(path):
            sys.stderr.write("%s does not exist → cmake --build %s --target lsdae lsdae_fmus lsdae_systems\n"
                             % (path, a.build))
            return 2
    common = ["--no-progress"] + (["--rtol", a.rtol] if a.rtol else []) + a.extra
    # Two configurations: (name, target, output variable, extra options).
    if a.threads:
        t = a.threads.split(",")
        if len(t) != 2:
            sys.stderr.write("--threads takes two counts, e.g. 1,2\n")
            return 2
        first, second = "threads=" + t[0], "threads=" + t[1]
        configs = {first: (split, last, ["--threads", t[0]]), second: (split, last, ["--threads", t[1]])}
    else:
        first, second = "monolithic", "split"
        configs = {first: (mono, "v_load", []), second: (split, last, [])}
    runs = {first: [], second: []}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="lsdae-bench-") as tmp:
        for r in range(a.repeat):
            order = [first, second] if r % 2 == 0 else [second, first]
            for name in order:
                stats_path = os.path.join(tmp, "run.json")
                target, var, own = configs[name]
                cmd = [lsdae, "simulate", target, "-o", os.path.join(tmp, "run.csv"), "--output-vars", var,
                       "--stats", stats_path] + common + own
                wall, cpu, stats = run_with_statistics(cmd, stats_path)
                runs[name].append({"wall_s": wall, "cpu_s": cpu, "stats": stats})
                print("  %-10s run %d: %.3f s wall, %.3f s CPU, integration %.3f s" %
                      (name, r + 1, wall, cpu, stats.get("time_s", {}).get("integrate", float("nan"))), flush=True)

    best = {k: min(v, key=lambda x: x["wall_s"]) for k, v in runs.items()}
    m, s = best[first], best[second]
    what = ("the split system at %s vs %s" % (first, second)) if a.threads else "monolithic FMU vs split"
    print("\nTransmissionLine N = %d, %d FMUs of %d segments: %s (best of %d; load average before %s, after %s)"
          % (a.N, SECTIONS[a.N], a.N // SECTIONS[a.N], what, a.repeat,
             " ".join("%.2f" % x for x in load_before), " ".join("%.2f" % x for x in os.getloadavg())))
    print("%-28s %14s %14s %10s" % ("", first, second, "ratio"))
    rows = [("wall time [s]", m["wall_s"], s["wall_s"]), ("CPU time [s]", m["cpu_s"], s["cpu_s"]),
            ("median wall time [s]", sorted(x["wall_s"] for x in runs[first])[len(runs[first]) // 2],
             sorted(x["wall_s"] for x in runs[second])[len(runs[second]) // 2])]
    for phase in sorted(set(m["stats"].get("time_s", {})) & set(s["stats"].get("time_s", {}))):
        rows.append(("time_s." + phase + " [s]", m["stats"]["time_s"][phase], s["stats"]["time_s"][phase]))
    for counter in ("steps", "residual_calls", "jacobian_evaluations", "nonlinear_iterations",
                    "directional_calls"):
        mc, sc = m["stats"].get("counters", {}).get(counter), s["stats"].get("counters", {}).get(counter)
        if mc is not None and sc is not None:
            rows.append(("counters." + counter, mc, sc))
    for member in ("unknowns", "structural_index"):
        mc, sc = m["stats"].get("model", {}).get(member), s["stats"].get("model", {}).get(member)
        if mc is not None and sc is not None:
            rows.append(("model." + member, mc, sc))
    for label, x, y in rows:
        ratio = ("%10.3f" % (y / x)) if isinstance(x, (int, float)) and x else "%10s" % "-"
        fmt = "%-28s %14.4f %14.4f %s" if isinstance(x, float) else "%-28s %14d %14d %s"
        print(fmt % (label, x, y, ratio))
    ratio = s["wall_s"] / m["wall_s"]
    ok = ratio <= a.limit or bool(a.threads)
    if a.threads:
        print("\n%s / %s wall time: %.3f" % (second, first, ratio))
    else:
        print("\nsplit / monolithic wall time: %.3f (limit %.2f): %s" % (ratio, a.limit, "OK" if ok else "TOO SLOW"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"N": a.N, "sections": SECTIONS[a.N], "repeat": a.repeat, "limit": a.limit,
                       "options": common, "compared": [first, second], "runs": runs, "ratio": ratio, "ok": ok}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
