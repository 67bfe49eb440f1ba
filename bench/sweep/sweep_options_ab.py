#!/usr/bin/env python3
"""bench/sweep/sweep_options_ab.py -- one build, several option sets, the screening sweep side by side.

Issue 30, goal 1 (less CPU per contingency): the ACTIVSg10k screening sweep (the settings of
bench/sweep/sweep_snapshot.py, shared stretches on) of one contingency sample with one lsdae and
one FMU, once per variant (a set of extra options, e.g. "--newton-dcj 0.4"), in rounds whose
order rotates so that drift in the machine's load hits every variant alike. Prints:

  - counts first (deterministic): per variant, the sweep's steps (its summary's column), and,
    per contingency, one fresh `lsdae simulate --stats` to the time that variant's row reached
    (the row's trajectory without the shared stretches): steps, residual calls, Newton
    iterations, linear-solver setups (Jacobians evaluated + re-formed), summed over the sample;
  - CPU per contingency of the sweep (children's user + system time, getrusage): mean, median,
    least over the rounds, and the median over rounds of each variant's ratio to the first;
  - whether every variant's rows have the first variant's status, in how many rows the reached time
    differs, and the largest absolute difference of each metric against the first variant.

Not a test: it measures (docs/performance/sweeps-16-cores.md).

    bench/sweep/sweep_options_ab.py LSDAE FMU CASE.m CONTAB.m --variant "0.25=" \\
        --variant "0.4=--newton-dcj 0.4" [--every K --count N] [--rounds R] [--no-counts]
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # bench/sweep/
from child_timing import measure  # noqa: E402
from sweep_snapshot import from_buses, sample_table, simulate_command, sweep_command  # noqa: E402

COUNTERS = ("steps", "residual_calls", "nonlinear_iterations", "jacobian_evaluations", "jacobian_reforms",
            "linear_solver_setups", "nonlinear_convergence_failures", "error_test_failures")


def summary_rows(path):
    """{id: {column: text}} of a sweep summary CSV."""
    import csv
    with open(path) as f:
        return {r["id"]: r for r in csv.DictReader(f)}


def counts(lsdae, fmu, fault_bus, branch, stop, extra, tmp):
    """The counters of one fresh `lsdae simulate` of a contingency to `stop`."""
    stats = os.path.join(tmp, "stats.json")
    cmd = simulate_command(lsdae, fmu, fault_bus, branch, os.path.join(tmp, "sim.csv"))
    cmd[cmd.index("--stop") + 1] = repr(stop)
    r, _, _ = measure(cmd + ["--stats", stats] + extra, stdout=subprocess.DEVNULL)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd + extra)}: exit {r.returncode}\n{r.stderr}")
    with open(stats) as f:
        c = json.load(f)["counters"]
    return {k: c.get(k, 0) for k in COUNTERS}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("lsdae")
    p.add_argument("fmu")
    p.add_argument("case")
    p.add_argument("contab")
    p.add_argument("--variant", action="append", required=True, metavar="NAME=OPTIONS",
                   help="a name and the extra options of lsdae sweep/simulate (repeatable; the first is the reference)")
    p.add_argument("--every", type=int, default=369)
    p.add_argument("--count", type=int, default=32)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-counts", action="store_true", help="skip the per-contingency simulate counts")
    p.add_argument("--side-by-side", action="store_true",
                   help="two variants at once, pinned one per core (taskset -c 0 / 1, swapped every round): "
                        "both see the same load")
    args = p.parse_args()
    variants = [(v.split("=", 1)[0], shlex.split(v.split("=", 1)[1])) for v in args.variant]
    names = [n for n, _ in variants]
    fb = from_buses(args.case)
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "sample.m")
        picked = sample_table(args.contab, table, args.every, args.count)
        n = len(picked)
        print(f"{n} contingencies (every {args.every}th of {os.path.basename(args.contab)}), "
              f"{len(set(fb[b - 1] for _, b in picked))} distinct fault buses; {args.rounds} rounds, --jobs 1; "
              f"load average before {os.getloadavg()[0]:.2f}", flush=True)
        cpu = {k: [] for k in names}
        rows = {}
        if args.side_by_side and len(variants) != 2:
            sys.exit("--side-by-side takes exactly two variants")
        for rnd in range(args.rounds if args.side_by_side else 0):
            procs = {}
            for core, (name, extra) in enumerate(variants if rnd % 2 == 0 else variants[::-1]):
                summary = os.path.join(tmp, f"{name}-{rnd}.csv")
                cmd = ["taskset", "-c", str(core)] + sweep_command(args.lsdae, args.fmu, table, args.case, 1,
                                                                   summary) + extra
                proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                procs[proc.pid] = (name, core, summary)
            while procs:
                pid, status, usage = os.wait4(-1, 0)
                if pid not in procs:
                    continue
                name, core, summary = procs.pop(pid)
                if os.waitstatus_to_exitcode(status) not in (0, 12):
                    sys.exit(f"{name}: exit {os.waitstatus_to_exitcode(status)}")
                cpu[name].append((usage.ru_utime + usage.ru_stime) / n)
                rows[name] = summary_rows(summary)
                print(f"  round {rnd + 1} {name} (core {core}): {cpu[name][-1]:.3f} s CPU per contingency", flush=True)
        for rnd in range(0 if args.side_by_side else args.rounds):
            order = variants[rnd % len(variants):] + variants[:rnd % len(variants)]
            for name, extra in order:
                summary = os.path.join(tmp, f"{name}-{rnd}.csv")
                cmd = sweep_command(args.lsdae, args.fmu, table, args.case, 1, summary) + extra
                r, wall, c = measure(cmd, stdout=subprocess.DEVNULL)
                if r.returncode not in (0, 12):
                    sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
                cpu[name].append(c / n)
                rows[name] = summary_rows(summary)
                print(f"  round {rnd + 1} {name}: {cpu[name][-1]:.3f} s CPU per contingency, wall {wall:.1f} s",
                      flush=True)
        print(f"load average after {os.getloadavg()[0]:.2f}")

        ref = names[0]
        print("\n| variant | sweep steps | simulate to the row's end: steps | residual calls | Newton iterations "
              "| setups (Jacobians + re-formed) | Newton failures | error-test failures |")
        print("|---|---|---|---|---|---|---|---|")
        for name, extra in variants:
            sweep_steps = sum(int(r["steps"]) for r in rows[name].values())
            if args.no_counts:
                print(f"| {name} | {sweep_steps} | | | | | | |")
                continue
            total = {k: 0 for k in COUNTERS}
            for label, branch in picked:
                row = rows[name][label]
                stop = float(row["reached_time"])
                for k, v in counts(args.lsdae, args.fmu, fb[branch - 1], branch, stop, extra, tmp).items():
                    total[k] += v
            print(f"| {name} | {sweep_steps} | {total['steps']} | {total['residual_calls']} | "
                  f"{total['nonlinear_iterations']} | {total['linear_solver_setups']} ({total['jacobian_evaluations']} "
                  f"+ {total['jacobian_reforms']}) | {total['nonlinear_convergence_failures']} | "
                  f"{total['error_test_failures']} |", flush=True)

        how = "geometric mean of each two rounds' ratios, median" if args.side_by_side else "median of rounds"
        print("\n| variant | CPU per contingency, mean / median / least | ratio to " + ref + f" ({how}) |")
        print("|---|---|---|")
        for name in names:
            ratios = [b / a for a, b in zip(cpu[ref], cpu[name])]
            if args.side_by_side:  # the cores swap every round: a pair of rounds cancels a slower core
                ratios = [(ratios[k] * ratios[k + 1]) ** 0.5 for k in range(0, len(ratios) - 1, 2)] or ratios
            print(f"| {name} | {statistics.mean(cpu[name]):.3f} / {statistics.median(cpu[name]):.3f} / "
                  f"{min(cpu[name]):.3f} s | {statistics.median(ratios):.3f} |")

        metric_columns = [c for c in next(iter(rows[ref].values())) if c not in
                          ("id", "status", "message", "reached_time", "steps", "wall_time_s")]
        print("\n| variant | rows with the reference's status | rows with fewer / more steps | reached time differs "
              "| largest metric |difference| |")
        print("|---|---|---|---|---|")
        for name in names[1:]:
            same = sum(rows[name][i]["status"] == r["status"] for i, r in rows[ref].items())
            fewer = sum(int(rows[name][i]["steps"]) < int(r["steps"]) for i, r in rows[ref].items())
            more = sum(int(rows[name][i]["steps"]) > int(r["steps"]) for i, r in rows[ref].items())
            reached = sum(rows[name][i]["reached_time"] != r["reached_time"] for i, r in rows[ref].items())
            shift = max(abs(float(rows[name][i]["reached_time"] or 0) - float(r["reached_time"] or 0))
                        for i, r in rows[ref].items())
            reached = f"{reached} (by at most {shift:g} s)"
            diffs = []
            for col in metric_columns:
                worst, where = 0.0, ""
                for i, r in rows[ref].items():
                    a, b = r[col], rows[name][i][col]
                    if a and b:
                        d = abs(float(a) - float(b))
                        if d > worst:
                            worst, where = d, i
                diffs.append(f"{col}: {worst:.2e} (row {where})")
            print(f"| {name} | {same} of {len(rows[ref])} | {fewer} / {more} | {reached} | {'; '.join(diffs)} |")


if __name__ == "__main__":
    main()
