#!/usr/bin/env python3
"""bench/sweep/sweep_ab.py -- two builds' CPU per contingency on one sample, side by side.

Issue 30, goal 1: the CPU per contingency of `lsdae sweep` (shared stretches, the screening
settings of bench/sweep/sweep_snapshot.py) with build A and with build B, each an lsdae binary
and the FMU packed with that build's PowerGrid binary (the same modelDescription), on the same
contingency sample, in alternating rounds (A B, then B A, ...) so that drift in the machine's load
hits both alike. CPU is the children's user + system time (getrusage: the sweep's worker included).
Prints, per build, the mean / median / least CPU per contingency over the rounds, the ratio B / A
of each round's pair and their median, and whether every row of every run (but the wall time) is
the same. With --simulate K, also one fresh 10 s `lsdae simulate` of each of the first K sampled
contingencies per build and round (the denominator of issue 30's work ratio). Not a test: it
measures (docs/performance/sweeps.md).

    bench/sweep/sweep_ab.py --a LSDAE_A FMU_A --b LSDAE_B FMU_B CASE.m CONTAB.m
        [--every K --count N | --fault-buses B --outages-per-bus M] [--rounds R] [--jobs J] [--simulate K]

An lsdae binary may be a script that sets LD_LIBRARY_PATH for a copied build.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # bench/sweep/
from child_timing import measure  # noqa: E402
from sweep_snapshot import from_buses, rows_of, sample_table, simulate_command, sweep_command  # noqa: E402


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--a", nargs=2, required=True, metavar=("LSDAE", "FMU"))
    p.add_argument("--b", nargs=2, required=True, metavar=("LSDAE", "FMU"))
    p.add_argument("case")
    p.add_argument("contab")
    p.add_argument("--every", type=int, default=737)
    p.add_argument("--count", type=int, default=16)
    p.add_argument("--fault-buses", type=int, default=0)
    p.add_argument("--outages-per-bus", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--simulate", type=int, default=0, help="simulate the first K contingencies per build and round")
    args = p.parse_args()
    builds = {"A": args.a, "B": args.b}
    fb = from_buses(args.case)
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "sample.m")
        picked = sample_table(args.contab, table, args.every, args.count, fb, args.fault_buses, args.outages_per_bus)
        n = len(picked)
        print(f"{n} contingencies, {len(set(fb[b - 1] for _, b in picked))} distinct fault buses; "
              f"{args.rounds} rounds, --jobs {args.jobs}; load average before {os.getloadavg()[0]:.2f}", flush=True)
        cpu = {k: [] for k in builds}
        sim = {k: [] for k in builds}
        rows = []
        for rnd in range(args.rounds):
            order = ["A", "B"] if rnd % 2 == 0 else ["B", "A"]
            for k in order:
                lsdae, fmu = builds[k]
                summary = os.path.join(tmp, f"{k}{rnd}.csv")
                cmd = sweep_command(lsdae, fmu, table, args.case, args.jobs, summary)
                r, wall, c = measure(cmd, stdout=subprocess.DEVNULL)
                if r.returncode not in (0, 12):
                    sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
                cpu[k].append(c / n)
                rows.append(rows_of(summary))
                for label, branch in picked[:args.simulate]:
                    cmd = simulate_command(lsdae, fmu, fb[branch - 1], branch, os.path.join(tmp, "sim.csv"))
                    r, _, c = measure(cmd, stdout=subprocess.DEVNULL)
                    sim[k].append(c)
                print(f"  round {rnd + 1} {k}: {cpu[k][-1]:.3f} s CPU per contingency, wall {wall:.1f} s", flush=True)
        print(f"load average after {os.getloadavg()[0]:.2f}")
        print("| build | CPU per contingency, mean / median / least | simulate, 10 s (mean) | ratio to simulate |")
        print("|---|---|---|---|")
        for k in builds:
            s = statistics.mean(sim[k]) if sim[k] else float("nan")
            print(f"| {k} | {statistics.mean(cpu[k]):.3f} / {statistics.median(cpu[k]):.3f} / {min(cpu[k]):.3f} s "
                  f"| {s:.3f} s | {statistics.mean(cpu[k]) / s:.2f} |")
        pairs = [b / a for a, b in zip(cpu["A"], cpu["B"])]
        print("B / A per round: " + ", ".join(f"{x:.3f}" for x in pairs) + f"; median {statistics.median(pairs):.3f}")
        equal = all(r == rows[0] for r in rows)
        print(f"rows of every run equal (but the wall time): {equal}")
        if not equal:
            sys.exit(1)


if __name__ == "__main__":
    main()
