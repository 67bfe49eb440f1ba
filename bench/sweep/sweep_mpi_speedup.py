#!/usr/bin/env python3
"""bench/sweep/sweep_mpi_speedup.py -- the 1 → 2 ranks speed-up of `lsdae sweep`.

Runs the same sweep (reuse: one model per rank) side by side in one go,
interleaved over a few rounds so that every variant sees the same machine:

  one     `lsdae sweep` without mpirun (one worker process: the 1-rank baseline)
  np2     `mpirun -np 2 lsdae sweep` (each rank one worker process, its model reused)
  pair    two independent `lsdae sweep`s started together, each on half of the
          scenarios: what this machine gives two processes at all (the ceiling
          any 2-rank run can reach here)
  jobs2   `lsdae sweep --jobs 2` (two worker processes, no MPI)
  + np2 with extra mpirun options given by --variant (e.g. "--bind-to none", or
    "--mca odls_base_sigkill_timeout 0": without it Open MPI's mpirun waits 2 s
    after a rank exits non-zero, i.e. after any sweep with a failed scenario)

For each run: the wall time (started → exited), the CPU time of every
`lsdae` process and its worker processes (each run through this script as a
wrapper that reads RUSAGE_CHILDREN: mpirun itself is not counted), the load
average before it, and the summary's rows. CPU per scenario includes each
process's opening of the FMU (once per rank). Prints per-round lines and a table
of the best and median round per variant, the speed-ups against `one`, and
checks that every variant's rows equal `one`'s but for the wall time. Not a
test: it measures (docs/performance/sweeps.md, "Sweeps: 1 → 2 ranks").
Meaningful only on a quiet machine: `uptime`'s load average below 1 (the
script prints it before every run and warns when it is not).

    bench/sweep/sweep_mpi_speedup.py LSDAE FMU SCENARIOS [--count N] [--stop T]
        [--rounds R] [--mpirun mpirun] [--variant "--bind-to none"]... [--out DIR]

SCENARIOS: a `lsdae sweep --scenarios` CSV table, or the `.scenarios` file of
bench/sweep/contingency_scenarios.py (one line per scenario: id then
name=value settings; turned into a CSV table here).
"""
import argparse
import csv
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time


def read_scenarios(path):
    """[(id, {name: value})] from a CSV table or a .scenarios file."""
    with open(path) as f:
        text = f.read()
    out = []
    if path.endswith(".csv"):
        rows = list(csv.reader(text.splitlines()))
        header = rows[0]
        for k, row in enumerate(rows[1:]):
            cells = dict(zip(header, row))
            sid = cells.pop("id", str(k))
            out.append((sid, {n: v for n, v in cells.items() if v != ""}))
        return out
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        out.append((words[0], dict(w.split("=", 1) for w in words[1:])))
    return out


def write_table(path, scenarios):
    names = sorted({n for _, s in scenarios for n in s})
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id"] + names)
        for sid, sets in scenarios:
            w.writerow([sid] + [sets.get(n, "") for n in names])


def load():
    return os.getloadavg()[0]


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def read_rows(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return {r[0]: r[:5] + r[6:] for r in rows[1:]}, [float(r[5]) for r in rows[1:]]


def wrap(argv):
    """--cpu-into FILE CMD...: runs CMD (a rank under mpirun inherits the
    launcher's environment), then appends the CPU seconds of CMD and what it
    waited for (its worker processes) to FILE. mpirun's own accounting of
    its ranks is not to be trusted, so every lsdae is wrapped the same way."""
    out, cmd = argv[0], argv[1:]
    code = subprocess.call(cmd)
    with open(out, "a") as f:
        f.write(f"{children_cpu()}\n")
    sys.exit(code)


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--cpu-into":
        wrap(sys.argv[2:])
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("lsdae")
    p.add_argument("fmu")
    p.add_argument("scenarios")
    p.add_argument("--count", type=int, default=24, help="first N scenarios (default 24)")
    p.add_argument("--stop", type=float, default=10)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--metric", default="max:maxdev(gen[*].delta)", help="the summary's metric (a PowerGrid one)")
    p.add_argument("--variant", action="append", default=[],
                   help="extra mpirun options for one more np2 variant (repeatable)")
    p.add_argument("--sweep-options", default="",
                   help="more `lsdae sweep` options for every run, one string (e.g. the screening settings: "
                        "\"--stop-when 'maxdev(gen[*].delta, gen[*].H) > 3.14159' --settle 0.3,2,1.1 --output-interval 0.05\")")
    p.add_argument("--no-pair", action="store_true", help="skip the two independent processes")
    p.add_argument("--no-jobs", action="store_true", help="skip --jobs 2")
    p.add_argument("--out", default="sweep-mpi-speedup", help="folder for tables and summaries")
    args = p.parse_args()

    os.makedirs(args.out, exist_ok=True)
    scenarios = read_scenarios(args.scenarios)[: args.count]
    if len(scenarios) < 2:
        sys.exit("sweep_mpi_speedup: fewer than 2 scenarios → give a longer table or a larger --count")
    every = os.path.join(args.out, "all.csv")
    half = [os.path.join(args.out, "half0.csv"), os.path.join(args.out, "half1.csv")]
    write_table(every, scenarios)
    write_table(half[0], scenarios[0::2])
    write_table(half[1], scenarios[1::2])
    mpirun = [args.mpirun, "--oversubscribe", "--allow-run-as-root"]

    def sweep_cmd(table, summary, extra=()):
        return [sys.executable, os.path.abspath(__file__), "--cpu-into", summary + ".cpu", args.lsdae, "sweep", args.fmu, "--scenarios", table, "--stop", str(args.stop),
                "--metric", args.metric, "--no-progress", "--overwrite",
                "--summary", summary, *shlex.split(args.sweep_options), *extra]

    variants = [("one", lambda s: [sweep_cmd(every, s)]),
                ("np2", lambda s: [mpirun + ["-np", "2"] + sweep_cmd(every, s)])]
    for k, v in enumerate(args.variant):
        variants.append((f"np2[{v}]", lambda s, v=v: [mpirun + shlex.split(v) + ["-np", "2"] + sweep_cmd(every, s)]))
    if not args.no_jobs:
        variants.append(("jobs2", lambda s: [sweep_cmd(every, s, ["--jobs", "2"])]))
    if not args.no_pair:
        variants.append(("pair", lambda s: [sweep_cmd(half[0], s + ".0"), sweep_cmd(half[1], s + ".1")]))

    print(f"# {len(scenarios)} scenarios of {args.fmu}, {args.stop} s each; {args.rounds} rounds, interleaved;"
          f" {os.cpu_count()} CPUs; {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}", flush=True)
    results = {name: [] for name, _ in variants}
    reference = None
    for r in range(args.rounds):
        for name, make in variants:
            summary = os.path.join(args.out, f"{name.replace(' ', '_')}-{r}.csv")
            commands = make(summary)
            before = load()
            for path in [summary + ".cpu", summary + ".0.cpu", summary + ".1.cpu"]:
                if os.path.exists(path):
                    os.remove(path)
            t0 = time.monotonic()
            procs = [subprocess.Popen(c, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                     for c in commands]
            errs = [pr.communicate()[1] for pr in procs]
            wall = time.monotonic() - t0
            cpu = 0.0  # every lsdae (each rank) and its workers, from the wrappers
            for path in [summary + ".cpu", summary + ".0.cpu", summary + ".1.cpu"]:
                if os.path.exists(path):
                    with open(path) as f:
                        cpu += sum(float(x) for x in f.read().split())
            for pr, c, e in zip(procs, commands, errs):
                if pr.returncode not in (0, 12):
                    sys.exit(f"{' '.join(c)}: exit {pr.returncode}\n{e}")
            rows, walls = {}, []
            for path in ([summary] if len(commands) == 1 else [summary + ".0", summary + ".1"]):
                got, w = read_rows(path)
                rows.update(got)
                walls += w
            if reference is None:
                reference = rows
            elif rows != reference:
                sys.exit(f"round {r + 1}, {name}: the rows differ from the first run's (but for the wall time)")
            reuse = [ln for e in errs for ln in e.splitlines() if "made for" in ln]
            results[name].append((wall, cpu, before))
            warn = "  (load >= 1: not a quiet machine)" if before >= 1 else ""
            print(f"round {r + 1} {name:24s} wall {wall:7.2f} s  CPU {cpu:7.2f} s ({cpu / len(scenarios):.3f} s "
                  f"per scenario)  scenario walls mean {statistics.mean(walls):.3f} s  load before {before:.2f}{warn}",
                  flush=True)
            for ln in reuse:
                print("    " + ln.strip(), flush=True)
    print("# rows equal in every run (but for the wall time): yes")
    base = statistics.median(w for w, _, _ in results["one"])
    best_base = min(w for w, _, _ in results["one"])
    print(f"# {'variant':24s} {'best wall':>10s} {'median wall':>12s} {'speed-up (median)':>18s} "
          f"{'speed-up (best)':>16s} {'CPU/scenario':>13s} {'max load':>9s}")
    for name, runs in results.items():
        walls = [w for w, _, _ in runs]
        med = statistics.median(walls)
        print(f"  {name:24s} {min(walls):10.2f} {med:12.2f} {base / med:18.2f} {best_base / min(walls):16.2f} "
              f"{statistics.median(c for _, c, _ in runs) / len(scenarios):13.3f} {max(l for _, _, l in runs):9.2f}")


if __name__ == "__main__":
    main()
