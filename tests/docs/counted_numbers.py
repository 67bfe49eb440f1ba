#!/usr/bin/env python3
"""tests/docs/counted_numbers.py -- the counted numbers that the pages state as
today's, for runs the counters baseline also makes, are the baseline's.

    python3 counted_numbers.py <source dir>

Counted quantities (steps, residual calls, Jacobians, re-selections,
projections) are deterministic; bench/baseline/counters.json records them for a
fixed set of `lsdae simulate` runs, and `bench.counters_baseline` fails when the
program's counts leave the baseline. A page that quotes one of those runs in
the present tense drifts silently when the baseline is updated (the PowerGrid
fault table of models/powergrid/README.md stated issue 8's step counts for
weeks). This check closes the chain program → baseline → page: for each claim
below, the page's line (found by a pattern, not a line number) must carry the
baseline run's counts. Only runs whose options are the page's are listed: the
same FMU, the same options, the FMU's default experiment.

Cost: two file reads per page, no program run (about 0.05 s). Exit 1 with one
line per drift (page → what → value on the page and in the baseline → what to
do), also when a pattern no longer matches the page (the page was reworded:
adapt the pattern here); 0 when every number agrees.
"""
import json
import os
import re
import sys

# (page, pattern whose groups are the numbers, baseline run, its options as the page runs it,
#  the counters the groups are)
CLAIMS = [
    ("models/powergrid/README.md",
     r"^\| case39, semi-explicit \| (\d+), (\d+), (\d+) \(\+(\d+) re-formed\)",
     "PowerGrid_case39_semi_explicit", [],
     ("steps", "residual_calls", "jacobian_evaluations", "jacobian_reforms")),
    ("models/powergrid/README.md",
     r"^\| case39, fully implicit \| (\d+), (\d+), (\d+) \|",
     "PowerGrid_case39_fully_implicit", [],
     ("steps", "residual_calls", "jacobian_evaluations")),
    ("docs/simulation/index-reduction.md",
     r"^\| dummy derivatives, re-selected \| (\d+) \| (\d+) re-selections \|",
     "Pendulum_dae", [],  # scripts/plot_pendulum_drift.py: --constraints dummy, the default
     ("steps", "reselections")),
    ("docs/simulation/index-reduction.md",
     r"^\| projection, every step \| (\d+) \| (\d+) projections \|",
     "Pendulum_dae_project", ["--constraints", "project"],
     ("steps", "projections")),
]


def main(root):
    with open(os.path.join(root, "bench", "baseline", "counters.json"), encoding="utf-8") as f:
        runs = {r["name"]: r for r in json.load(f)["runs"]}
    drifts = []
    for page, pattern, run, options, names in CLAIMS:
        where = f"{page}: run {run}"
        if run not in runs:
            drifts.append(f"{where} → not in bench/baseline/counters.json → drop or rename the claim in "
                          f"tests/docs/counted_numbers.py")
            continue
        if runs[run]["options"] != options:
            drifts.append(f"{where} → the baseline runs it with options {runs[run]['options']}, the page "
                          f"with {options} → the claim compares different runs: drop it")
            continue
        counters = runs[run]["expected"]["counters"]
        with open(os.path.join(root, page), encoding="utf-8") as f:
            lines = f.read().splitlines()
        hits = [(n, m) for n, line in enumerate(lines, 1) if (m := re.search(pattern, line))]
        if len(hits) != 1:
            drifts.append(f"{where} → the pattern {pattern!r} matches {len(hits)} lines (1 expected) → "
                          f"the page was reworded: adapt the pattern in tests/docs/counted_numbers.py")
            continue
        number, match = hits[0]
        for name, stated in zip(names, match.groups()):
            if int(stated) != counters[name]:
                drifts.append(f"{page}:{number}: run {run} → {name} → the page says {stated}, the "
                              f"baseline {counters[name]} → re-run it and correct the page (with the "
                              f"commit it was measured at)")
    for d in drifts:
        print(d)
    if not drifts:
        print(f"counted_numbers: {len(CLAIMS)} claims, every number the baseline's")
    return 1 if drifts else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: counted_numbers.py <source dir>", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
