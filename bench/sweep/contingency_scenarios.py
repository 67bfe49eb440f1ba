#!/usr/bin/env python3
"""bench/sweep/contingency_scenarios.py -- N-1 branch outages of a MATPOWER
contingency table as scenarios of the PowerGrid FMU, for sweep_benchmark.

For each chosen contingency (a CT_TBRCH row setting BR_STATUS to 0): a
three-phase fault at the branch's from-bus at t_on, cleared after `clear`
seconds by opening the branch (models/powergrid/README.md "Disturbances").

Writes <out>.scenarios (one line per scenario: id, then name=value
settings) and prints the FMU configuration the scenarios need
(fault_buses=... trip_branches=...: the PowerGrid FMU's candidate sets).

  contingency_scenarios.py --case case_ACTIVSg10k.m --contab contab_ACTIVSg10k.m \
      --count 30 --out build/bench/activsg10k
Contingencies are taken evenly spread over the table (every len/count-th),
skipping out-of-service branches.
"""
import argparse
import re
import sys


def matrix(text, name):
    m = re.search(r"%s\s*=\s*\[(.*?)\];" % re.escape(name), text, re.S)
    if not m:
        sys.exit(f"contingency_scenarios: no {name} = [...] in the file → give a MATPOWER case / contingency table")
    rows = []
    for line in m.group(1).split(";"):
        line = line.split("%")[0].strip()
        if line:
            rows.append(line.split())
    return rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--case", required=True)
    p.add_argument("--contab", required=True)
    p.add_argument("--count", type=int, default=30)
    p.add_argument("--t-on", type=float, default=1.0)
    p.add_argument("--clear", type=float, default=0.1)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    branch = matrix(open(a.case).read(), "mpc.branch")
    table = matrix(open(a.contab).read(), "chgtab")
    outages = []
    for row in table:
        if row[2] == "CT_TBRCH" and row[4] == "BR_STATUS" and row[5] == "CT_REP" and float(row[6]) == 0:
            outages.append((int(row[0]), int(row[3])))
    if not outages:
        sys.exit("contingency_scenarios: no branch outages (CT_TBRCH BR_STATUS CT_REP 0) in " + a.contab)
    step = max(1, len(outages) // a.count)
    chosen = []
    for label, r in outages[::step]:
        if len(chosen) == a.count:
            break
        b = branch[r - 1]
        if int(float(b[10])) != 1:
            continue
        chosen.append((label, r, int(float(b[0]))))
    t_off = a.t_on + a.clear
    with open(a.out + ".scenarios", "w") as f:
        for label, r, bus in chosen:
            f.write(f"c{label} fault.bus={bus} fault.t_on={a.t_on} fault.t_off={t_off} "
                    f"trip.branch={r} trip.time={t_off}\n")
    buses = sorted({bus for _, _, bus in chosen})
    rows = sorted({r for _, r, _ in chosen})
    print(f"fault_buses={','.join(map(str, buses))} trip_branches={','.join(map(str, rows))}")


if __name__ == "__main__":
    main()
