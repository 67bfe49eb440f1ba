#!/usr/bin/python3
"""bench/psse_activsg2000.py -- issue 31's speed benchmark: ACTIVSg2000 with
EVERY dynamic model of its PSS/E .dyr against today's classical ACTIVSg2000
PowerGrid FMU, the same fault, side by side in one run; then the scaling
ladder -> WECC240 -> ACTIVSg2000 as time per unknown per simulated second.

  psse       lsdae simulate <work>/activsg2000_fault.fmu, built here by
             lsdae-grid ACTIVSg2000.RAW ACTIVSg2000_dynamics.dyr --skip-unsupported
                        --fault 7346:1:1.15:0:0.01 (every model; initial limits widened;
                        the 98 generators without a machine record held as --unmodelled says:
                        source, lsdae-grid's default since 2026-11-30, or current, the rule of
                        every measurement before it; docs/psse.md)
  classical  lsdae simulate build/fmus/PowerGrid_case_ACTIVSg2000_fault.fmu --set fault.X=0.01
             (fault_bus=7346 fault_on=1 fault_off=1.15)

both 0 .. 10 s at the FMUs' default experiment (rtol 1e-6 unless --rtol), the
same extra options, output only the statistics (-o to a scratch file, one
variable). Runs alternate (drift in the machine's load hits both alike); the
best CPU time (user + system of the process) of --repeat runs of each is kept.
Prints the CPU ratio psse / classical against the goal (2), steps, residual
calls, Jacobians and the PsseGrid FMU's limit events (limits.events at 10 s),
and with --ladder the scaling table (docs/performance/psse-activsg2000.md).
Exit 0 when the ratio is within the goal, 1 when not, 2 when a run fails.

    cmake --build build --target lsdae lsdae-grid fmu_pack_PowerGrid_case_ACTIVSg2000_fault
    /usr/bin/python3 bench/psse_activsg2000.py --repeat 3 --ladder

Nothing here is run by ctest: time it on a quiet machine (the load average is
printed with the result).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

from child_timing import run_with_statistics

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, stats_path):
    wall, cpu, stats = run_with_statistics(cmd, stats_path)
    return {"wall": wall, "cpu": cpu, "stats": stats}


def last_value(csv_path, column):
    with open(csv_path) as f:
        header = f.readline().strip().split(",")
        last = None
        for line in f:
            if line.strip():
                last = line
    k = header.index(column)
    return float(last.strip().split(",")[k])


def simulate(lsdae, fmu, work, name, extra, output_var):
    stats = os.path.join(work, name + ".json")
    out = os.path.join(work, name + ".csv")
    cmd = [lsdae, "simulate", fmu, "--stats", stats, "-o", out, "--no-progress", "--output-vars", output_var] + extra
    r = run(cmd, stats)
    r["last"] = last_value(out, output_var)
    return r


def build_every_model_fmu(build, path, unmodelled="source"):
    """lsdae-grid's every-model ACTIVSg2000 FMU with the fault at bus 7346 (1.00-1.15 s, X = 0.01), 10 s; returns path."""
    case = os.path.join(ROOT, "..", "shared", "data", "grids", "psse", "no_reference", "ACTIVSg2000")
    subprocess.run([os.path.join(build, "bin", "lsdae-grid"), os.path.join(case, "ACTIVSg2000.RAW"),
                    os.path.join(case, "ACTIVSg2000_dynamics.dyr"), "-o", path, "--skip-unsupported", "--quiet",
                    "--unmodelled-generators", unmodelled, "--fault", "7346:1:1.15:0:0.01", "--stop-time", "10"],
                   check=True, stdout=subprocess.DEVNULL)
    return path


def counters(stats):
    c = stats["counters"]
    return {"steps": c["steps"], "residual_calls": c["residual_calls"], "jacobians": c["jacobian_evaluations"],
            "state_events": c["state_events"], "time_events": c["time_events"],
            "unknowns": stats["model"]["unknowns"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--rtol", default=None)
    ap.add_argument("--goal", type=float, default=2.0)
    ap.add_argument("--stop", default=None, help="stop time for both runs (default: the FMUs' 10 s)")
    ap.add_argument("--ladder", action="store_true", help="also the scaling ladder -> WECC240 -> ACTIVSg2000")
    ap.add_argument("--json", help="write the results here")
    ap.add_argument("--unmodelled", choices=["source", "current"], default="source",
                    help="lsdae-grid --unmodelled-generators for ACTIVSg2000's 98 generators without a machine record")
    ap.add_argument("extra", nargs="*", help="options for both runs (after --)")
    a = ap.parse_args()
    lsdae = os.path.join(a.build, "bin", "lsdae")
    fmus = os.path.join(a.build, "fmus")
    classical = os.path.join(fmus, "PowerGrid_case_ACTIVSg2000_fault.fmu")
    extra = list(a.extra) + (["--rtol", a.rtol] if a.rtol else []) + (["--stop", a.stop] if a.stop else [])
    work = tempfile.mkdtemp(prefix="lsdae_psse_bench_")
    psse = build_every_model_fmu(a.build, os.path.join(work, "activsg2000_fault.fmu"), a.unmodelled)
    best = {}
    for i in range(a.repeat):
        order = [("psse", psse, [], "limits.events"),
                 ("classical", classical, ["--set", "fault.X=0.01"], "fault.active")]
        if i % 2:
            order.reverse()
        for name, fmu, own, var in order:
            r = simulate(lsdae, fmu, work, name, own + extra, var)
            if name not in best or r["cpu"] < best[name]["cpu"]:
                best[name] = r
    p, c = best["psse"], best["classical"]
    ratio = p["cpu"] / c["cpu"]
    load = os.getloadavg()[0]
    print(f"ACTIVSg2000, fault X = 0.01 at bus 7346, 1.00-1.15 s, 10 s; best of {a.repeat}; load {load:.2f}")
    print(f"{'':12s} {'CPU s':>8s} {'wall s':>8s} {'unknowns':>9s} {'steps':>6s} {'res.calls':>9s} {'Jacobians':>9s} "
          f"{'st.events':>9s}")
    for name, r in (("every model", p), ("classical", c)):
        k = counters(r["stats"])
        print(f"{name:12s} {r['cpu']:8.3f} {r['wall']:8.3f} {k['unknowns']:9d} {k['steps']:6d} {k['residual_calls']:9d} "
              f"{k['jacobians']:9d} {k['state_events']:9d}")
    print(f"limit events (limits.events at 10 s): {p['last']:.0f}")
    print(f"CPU ratio every model / classical: {ratio:.2f} (goal <= {a.goal})")
    result = {"psse": {"cpu": p["cpu"], "wall": p["wall"], "limit_events": p["last"], **counters(p["stats"])},
              "classical": {"cpu": c["cpu"], "wall": c["wall"], **counters(c["stats"])}, "ratio": ratio,
              "load": load}
    if a.ladder:
        result["ladder"] = ladder(a, lsdae, fmus, work, extra, best)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=2)
    return 0 if ratio <= a.goal else 1


def ladder(a, lsdae, fmus, work, extra, best):
    """Time per unknown per simulated second: the PSS/E ladder's FMUs (20 s, a trip at 1 s),
    WECC240 with every model (a fault at bus 1301, 10 s, built here with lsdae-grid) and the
    ACTIVSg2000 run above."""
    grid = os.path.join(a.build, "bin", "lsdae-grid")
    wecc = os.path.join(ROOT, "..", "shared", "data", "grids", "psse", "no_reference", "WECC240")
    wecc_fmu = os.path.join(work, "wecc240_fault.fmu")
    subprocess.run([grid, os.path.join(wecc, "240busWECC_2018_PSS33.raw"), os.path.join(wecc, "240busWECC_2018_PSS.dyr"),
                    "-o", wecc_fmu, "--skip-unsupported", "--quiet", "--fault", "1301:1:1.15:0:0.01"], check=True,
                   stdout=subprocess.DEVNULL)
    cases = [("GENROU (3 buses)", os.path.join(fmus, "PsseGrid_GENROU_semi_explicit.fmu"), 20.0),
             ("GENSAL (3 buses)", os.path.join(fmus, "PsseGrid_GENSAL_semi_explicit.fmu"), 20.0),
             ("LOAD, constant power", os.path.join(fmus, "PsseGrid_LOAD_constant_power_semi_explicit.fmu"), 20.0),
             ("WECC240", wecc_fmu, 10.0)]
    rows = []
    print(f"\n{'case':24s} {'unknowns':>9s} {'simulated s':>11s} {'CPU s':>8s} {'steps':>6s} {'us per unknown per s':>21s}")
    for name, fmu, horizon in cases:
        if not os.path.exists(fmu):
            print(f"{name:24s} (no {fmu})")
            continue
        r = None
        for _ in range(a.repeat):
            t = simulate(lsdae, fmu, work, "ladder", extra, "limits.events")
            r = t if r is None or t["cpu"] < r["cpu"] else r
        rows.append((name, r, horizon))
    rows.append(("ACTIVSg2000, every model", best["psse"], 10.0))
    rows.append(("ACTIVSg2000, classical", best["classical"], 10.0))
    out = []
    for name, r, horizon in rows:
        k = counters(r["stats"])
        per = r["cpu"] / k["unknowns"] / horizon * 1e6
        print(f"{name:24s} {k['unknowns']:9d} {horizon:11.0f} {r['cpu']:8.3f} {k['steps']:6d} {per:21.2f}")
        out.append({"case": name, "unknowns": k["unknowns"], "horizon": horizon, "cpu": r["cpu"], "steps": k["steps"],
                    "us_per_unknown_second": per})
    return out


if __name__ == "__main__":
    sys.exit(main())
