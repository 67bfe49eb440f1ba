#!/usr/bin/env python3
"""bench/sweep/sweep_snapshot.py -- issue 30's work ratio, before and after shared stretches.

The ratio (issue 30, goal 1): the CPU per contingency of `lsdae sweep` over the CPU of one
fresh, full 10 s `lsdae simulate` of the same contingency, with the same FMU (the PowerGrid
FMU built with fault_buses=all trip_branches=all fmu_state=serialize). Measured side by side
in one go, on a sample of a contingency table, with the screening settings of docs/sweeps.md.
Two samples:

  - every K-th outage (--every K --count N): mostly one outage per fault bus, so only the
    pre-fault stretch is shared;
  - B fault buses with all their M outages (--fault-buses B --outages-per-bus M): the buses
    (from-buses of the outaged branches) that exactly M outages of the table fault, B of them
    spread evenly over the table's order, each bus's outages one after another; the fault-on
    stretch is shared too (by the outages of one bus that one worker runs).

The runs:

  - simulate: each sampled contingency alone, 10 s, --output-interval 0.05 (the denominator);
  - before:   `lsdae sweep ... --no-shared-stretches` (every scenario from its start);
  - after:    `lsdae sweep ...` (shared stretches: docs/sweeps.md);
each sweep with --jobs 1 and 2, in alternating rounds so that all see the same load. CPU is
the children's user + system time (getrusage: the sweep's worker processes included). Checks
that the before and after rows are equal but for the wall time. Not a test: it measures
(docs/performance/sweeps.md, "Sweeps: shared stretches").

    bench/sweep/sweep_snapshot.py LSDAE FMU CASE.m CONTAB.m [--every K] [--count N]
        [--fault-buses B --outages-per-bus M] [--rounds R] [--jobs 1,2]
"""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # bench/
from child_timing import measure  # noqa: E402

SCREENING = ["--stop-when", "maxdev(gen[*].delta, gen[*].H) > 3.14159", "--settle", "0.3,2",
             "--output-interval", "0.05", "--stop", "10", "--fault-on", "1", "--clear-after", "0.1",
             "--metric", "max:maxdev(gen[*].delta, gen[*].H)", "--metric", "min:min(hypot(bus[*].Vr, bus[*].Vi))"]


def simulate_command(lsdae, fmu, fault_bus, branch, output):
    """One fresh, full 10 s `lsdae simulate` of a contingency: the scenario a sweep row runs."""
    return [lsdae, "simulate", fmu, "--stop", "10", "--output-interval", "0.05",
            "--set", f"fault.bus={fault_bus}", "--set", f"trip.branch={branch}",
            "--set", "fault.t_on=1", "--set", "fault.t_off=1.1", "--set", "trip.time=1.1",
            "--no-progress", "-o", output]


def sweep_command(lsdae, fmu, table, case, jobs, summary):
    """`lsdae sweep` of the contingency table with the screening settings."""
    return [lsdae, "sweep", fmu, "--contingencies", table, "--case", case, "--jobs", str(jobs),
            "--no-progress", "--summary", summary, "--overwrite"] + SCREENING


def cpu_of(cmd):
    """Runs cmd; returns (exit code, children's CPU seconds, wall seconds, stderr)."""
    r, wall, cpu = measure(cmd, stdout=subprocess.DEVNULL)
    return r.returncode, cpu, wall, r.stderr


def by_fault_bus(rows, fb, buses, per_bus):
    """`buses` fault buses with exactly `per_bus` outages in `rows`, evenly spread over the
    order of their first outage; their outages grouped by bus, in table order within one."""
    groups = {}
    for row in rows:
        groups.setdefault(fb[row[1] - 1], []).append(row)
    candidates = [g for g in groups.values() if len(g) == per_bus]
    if len(candidates) < buses:
        sys.exit(f"only {len(candidates)} fault buses have exactly {per_bus} outages; {buses} asked for")
    step = len(candidates) / buses
    return [row for i in range(buses) for row in candidates[int(step * i + step / 2)]]


def sample_table(contab, out, every, count, fb=None, buses=0, per_bus=0):
    """Every `every`-th single-branch outage row of CONTAB.m, at most `count` (or, with `buses`,
    by_fault_bus); returns [(label, branch)]."""
    rows = []
    with open(contab) as f:
        for line in f:
            m = re.match(r"\s*(\d+)\s+\S+\s+(CT_TBRCH|2)\s+(\d+)\s+(BR_STATUS|11)\s+(CT_REP|1)\s+0\s*;", line)
            if m:
                rows.append((m.group(1), int(m.group(3)), line.strip()))
    picked = by_fault_bus(rows, fb, buses, per_bus) if buses > 0 else rows[::every][:count]
    with open(out, "w") as f:
        f.write("function chgtab = sample\ndefine_constants;\nchgtab = [\n")
        for _, _, line in picked:
            f.write(line + "\n")
        f.write("];\n")
    return [(label, branch) for label, branch, _ in picked]


def from_buses(case):
    text = open(case).read()
    body = text[text.index("mpc.branch"):]
    body = body[body.index("[") + 1:body.index("];")]
    out = []
    for line in body.splitlines():
        line = line.split("%")[0].strip().rstrip(";")
        if line:
            out.append(int(float(line.split()[0])))
    return out


def rows_of(summary):
    with open(summary) as f:
        rows = list(csv.reader(f))[1:]
    return {r[0]: r[:5] + r[6:] for r in rows}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("lsdae")
    p.add_argument("fmu")
    p.add_argument("case")
    p.add_argument("contab")
    p.add_argument("--every", type=int, default=369)
    p.add_argument("--count", type=int, default=32)
    p.add_argument("--fault-buses", type=int, default=0, help="sample B fault buses with all their outages")
    p.add_argument("--outages-per-bus", type=int, default=4, help="with --fault-buses: buses with exactly M outages")
    p.add_argument("--rounds", type=int, default=1)
    p.add_argument("--jobs", default="1,2")
    args = p.parse_args()
    jobs = [int(j) for j in args.jobs.split(",")]
    fb = from_buses(args.case)
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "sample.m")
        picked = sample_table(args.contab, table, args.every, args.count, fb, args.fault_buses, args.outages_per_bus)
        n = len(picked)
        how = (f"{args.fault_buses} fault buses with {args.outages_per_bus} outages each" if args.fault_buses > 0
               else f"every {args.every}th")
        print(f"{n} contingencies ({how} of {os.path.basename(args.contab)}), "
              f"{len(set(fb[b - 1] for _, b in picked))} distinct fault buses: "
              f"{sorted(set(fb[b - 1] for _, b in picked))}", flush=True)
        simulate_cpu, before, after = [], {j: [] for j in jobs}, {j: [] for j in jobs}
        rows = {}
        for rnd in range(args.rounds):
            # The denominator: one fresh, full 10 s simulate per contingency.
            for label, branch in picked:
                cmd = simulate_command(args.lsdae, args.fmu, fb[branch - 1], branch, os.path.join(tmp, "sim.csv"))
                code, cpu, _, err = cpu_of(cmd)
                if code != 0:
                    print(f"  simulate {label}: exit {code} ({err.strip().splitlines()[-1] if err.strip() else ''})")
                simulate_cpu.append(cpu)
            for j in jobs:
                for name, extra, store in (("before", ["--no-shared-stretches"], before), ("after", [], after)):
                    summary = os.path.join(tmp, f"{name}{j}.csv")
                    cmd = sweep_command(args.lsdae, args.fmu, table, args.case, j, summary) + extra
                    code, cpu, wall, err = cpu_of(cmd)
                    if code not in (0, 12):
                        sys.exit(f"{' '.join(cmd)}: exit {code}\n{err}")
                    store[j].append((cpu, wall))
                    rows[(name, j)] = rows_of(summary)
        reference = rows[("before", jobs[0])]
        equal = all(r == reference for r in rows.values())
        sim = statistics.mean(simulate_cpu)
        print(f"simulate, 10 s, one contingency: {sim:.3f} s CPU (mean of {len(simulate_cpu)})")
        print("| sweep | --jobs | CPU per contingency | ratio to simulate | wall |")
        print("|---|---|---|---|---|")
        for j in jobs:
            for name, store in (("before (--no-shared-stretches)", before), ("after (shared stretches)", after)):
                cpu = statistics.mean(c for c, _ in store[j]) / n
                wall = statistics.mean(w for _, w in store[j])
                print(f"| {name} | {j} | {cpu:.3f} s | {cpu / sim:.2f} | {wall:.1f} s |")
        statuses = {}
        for r in reference.values():
            statuses[r[1]] = statuses.get(r[1], 0) + 1
        print(f"rows before = after (but the wall time), every --jobs: {equal}; statuses {statuses}")
        if not equal:
            sys.exit(1)


if __name__ == "__main__":
    main()
