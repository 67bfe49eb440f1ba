#!/usr/bin/env python3
"""bench/sweep/sweep_reuse.py -- what reuse saves inside `lsdae sweep`.

Runs the N-1 sweep of a PowerGrid FMU (every branch outage of a MATPOWER case,
the change table written here) with the model reused across scenarios (the
default) and with `--no-reuse`, alternating the two in one go so that both see
the same load, and prints the per-scenario wall time (the summary's
wall_time_s column: from making or resetting the model to the row) and the
sweep's elapsed time, and checks that the rows are equal but for the wall time.
Not a test: it measures (docs/performance/sweeps.md, "Reuse inside lsdae sweep").

    bench/sweep/sweep_reuse.py LSDAE FMU CASE.m [--branches N] [--rounds R] [--stop T] [--jobs J]
"""
import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/
from child_timing import measure  # noqa: E402


def chgtab(path, branches):
    with open(path, "w") as f:
        f.write("function chgtab = contab\ndefine_constants;\nchgtab = [\n")
        for b in range(1, branches + 1):
            f.write(f"\t{b}\t0\tCT_TBRCH\t{b}\tBR_STATUS\tCT_REP\t0;\n")
        f.write("];\n")


def sweep(args, table, summary, extra):
    cmd = [args.lsdae, "sweep", args.fmu, "--contingencies", table, "--case", args.case, "--stop", str(args.stop),
           "--jobs", str(args.jobs), "--metric", "max:maxdev(gen[*].delta)", "--metric", "min:min(bus[*].Vr)",
           "--no-progress", "--summary", summary, "--overwrite"] + extra
    r, elapsed, _ = measure(cmd, stdout=subprocess.DEVNULL)
    if r.returncode not in (0, 12):
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stderr}")
    with open(summary) as f:
        rows = list(csv.reader(f))[1:]
    walls = [float(row[5]) for row in rows]
    rows = {row[0]: row[:5] + row[6:] for row in rows}
    return elapsed, walls, rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("lsdae")
    p.add_argument("fmu")
    p.add_argument("case")
    p.add_argument("--branches", type=int, default=46)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument("--stop", type=float, default=3)
    p.add_argument("--jobs", type=int, default=1)
    args = p.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "contab.m")
        chgtab(table, args.branches)
        results = {"reuse": [], "no-reuse": []}
        reference = None
        for r in range(args.rounds):
            for mode, extra in (("reuse", []), ("no-reuse", ["--no-reuse"])):
                elapsed, walls, rows = sweep(args, table, os.path.join(tmp, f"{mode}-{r}.csv"), extra)
                if reference is None:
                    reference = rows
                elif rows != reference:
                    sys.exit(f"round {r}, {mode}: the rows differ from the first run's")
                results[mode].append((elapsed, walls))
                print(f"round {r + 1} {mode:9s} sweep {elapsed:7.2f} s, per scenario mean "
                      f"{statistics.mean(walls):.4f} s, median {statistics.median(walls):.4f} s "
                      f"({len(walls)} scenarios)", flush=True)
    print("rows equal with and without reuse (but for wall time): yes")
    for mode in ("reuse", "no-reuse"):
        best = min(results[mode], key=lambda e: e[0])
        print(f"best of {args.rounds} {mode:9s}: sweep {best[0]:.2f} s, per scenario mean "
              f"{statistics.mean(best[1]):.4f} s, median {statistics.median(best[1]):.4f} s")


if __name__ == "__main__":
    main()
