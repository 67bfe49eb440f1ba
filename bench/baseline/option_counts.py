#!/usr/bin/env python3
"""bench/baseline/option_counts.py -- the counters baseline's runs under several option sets.

Before an option's default changes (e.g. --newton-dcj), see which runs do more work: every run
of bench/baseline/counters.json (its FMU, its options), plus any --run NAME=FMU[ OPTIONS], once
per variant (a set of extra options appended), `lsdae simulate --stats`; prints per run and
variant the steps, residual calls, Newton iterations and linear-solver setups (Jacobians
evaluated + re-formed), and the totals. Counted, not timed: deterministic. Not a test.

    bench/baseline/option_counts.py [--build build] --variant "0.25=" --variant "0.4=--newton-dcj 0.4"
        [--run "big=/path/x.fmu --set fault.X=0.01"] [--only-extra]
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def run(lsdae, fmu, options, work):
    stats = os.path.join(work, "stats.json")
    if os.path.exists(stats):
        os.remove(stats)
    cmd = [lsdae, "simulate", fmu, "--stats", stats, "-o", os.path.join(work, "out.csv"), "--no-progress"] + options
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0 or not os.path.exists(stats):
        return None, f"exit {r.returncode}: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ''}"
    with open(stats) as f:
        s = json.load(f)
    c = s["counters"]
    return {"steps": c["steps"], "res": c["residual_calls"], "newton": c.get("nonlinear_iterations", 0),
            "setups": c.get("linear_solver_setups", 0), "jac": c.get("jacobian_evaluations", 0),
            "reforms": c.get("jacobian_reforms", 0), "reached": s.get("reached_time")}, ""


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--build", default=os.path.join(ROOT, "build"))
    p.add_argument("--variant", action="append", required=True, metavar="NAME=OPTIONS")
    p.add_argument("--run", action="append", default=[], metavar="NAME=FMU [OPTIONS]")
    p.add_argument("--only-extra", action="store_true", help="only the --run runs, not the baseline's")
    args = p.parse_args()
    lsdae = os.path.join(args.build, "bin", "lsdae")
    variants = [(v.split("=", 1)[0], shlex.split(v.split("=", 1)[1])) for v in args.variant]
    runs = []
    if not args.only_extra:
        with open(os.path.join(HERE, "counters.json")) as f:
            for r in json.load(f)["runs"]:
                runs.append((r["name"], os.path.join(args.build, "fmus", r["fmu"] + ".fmu"), r["options"]))
    for spec in args.run:
        name, rest = spec.split("=", 1)
        words = shlex.split(rest)
        runs.append((name, words[0], words[1:]))
    print("| run | " + " | ".join(f"{n}: steps / residual calls / Newton / setups (J + re-formed)" for n, _ in variants)
          + " |")
    print("|---|" + "---|" * len(variants))
    totals = {n: {"steps": 0, "res": 0, "newton": 0, "setups": 0, "jac": 0, "reforms": 0} for n, _ in variants}
    with tempfile.TemporaryDirectory() as work:
        for name, fmu, options in runs:
            cells = []
            for vname, extra in variants:
                c, err = run(lsdae, fmu, options + extra, work)
                if c is None:
                    cells.append(err)
                    continue
                for k in totals[vname]:
                    totals[vname][k] += c[k]
                cells.append(f"{c['steps']} / {c['res']} / {c['newton']} / {c['setups']} ({c['jac']} + {c['reforms']})")
            print(f"| {name} | " + " | ".join(cells) + " |", flush=True)
    t = [totals[n] for n, _ in variants]
    print("| **total** | " + " | ".join(f"{c['steps']} / {c['res']} / {c['newton']} / {c['setups']} ({c['jac']} + "
                                        f"{c['reforms']})" for c in t) + " |")


if __name__ == "__main__":
    sys.exit(main())
