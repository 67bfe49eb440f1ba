#!/usr/bin/python3
"""bench/psse_tolerance.py -- issue 31's accuracy-cost curve: ACTIVSg2000 with EVERY
dynamic model of its .dyr (the FMU of bench/psse_activsg2000.py: fault X = 0.01 at
bus 7346, 1.00-1.15 s) at several relative tolerances, against a run at a tight one.

  reference  lsdae simulate <fmu> --rtol 1e-8 (--reference-rtol), once; kept in
             --work (reference_<rtol>_<stop>.csv and .npz) and reused while the FMU's
             bytes are the same
  accuracy   lsdae simulate <fmu> --rtol R for each R of --rtols, the same output:
             every machine's delta and speed deviation dw, every exciter's field
             voltage (Efd or EFD, as the model names it), every governor's Pm, every
             stabilizer's output Vs, every bus |V| (from Vr, Vi), a row every
             --interval (5 ms). On the grid's times only (a state event's own rows
             differ between runs), the last row of a time (after an event at it).
             Errors against the reference: max and rms over all units and rows of
             each quantity, in the windows [0, --split] and (--split, stop].
  timing     as bench/psse_activsg2000.py: lsdae simulate with one output variable
             (statistics only) of the every-model FMU and of the classical
             PowerGrid_case_ACTIVSg2000_fault (--set fault.X=0.01) at each R, runs
             alternating (every model / classical, the order reversed every
             round), the best CPU (user + sys) of --repeat kept. On the same
             --interval grid as the accuracy runs: the output grid moves the
             every-model run's steps and events a little (0-1.2 s at rtol 1e-4:
             349 steps at 10 ms, 367 at 5 ms; not traced why), the number of
             output variables does not, so the timed run is the one whose
             errors are reported.

atol: not passed, so lsdae's default, atol = rtol scaled by each variable's nominal;
the PsseGrid and PowerGrid FMUs declare no nominal, so atol = rtol for every unknown.
Prints per R: CPU, steps, residual calls, Jacobians, state events, limit events
(limits.events at the stop), the ratios every-model(R) / classical(1e-6) and
every-model(R) / classical(R), and the errors. Also whether the accuracy run (5 ms
output) took the same steps as the timing run (one output variable).

    cmake --build build --target lsdae lsdae-grid fmu_pack_PowerGrid_case_ACTIVSg2000_fault
    /usr/bin/python3 bench/psse_tolerance.py --repeat 3 --work /tmp/h31tol

Not run by ctest. CPU times are for a quiet machine (the load average is printed).
Exit 0, or 2 when a run fails.
"""
import argparse
import hashlib
import json
import os
import sys

import numpy as np

from child_timing import run_with_statistics
from psse_activsg2000 import build_every_model_fmu, counters, last_value

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# Output variables (globs) and the quantities they make; |V| from the buses' Vr and Vi.
OUTPUT_VARS = "gen[*].delta,gen[*].dw,exc[*].Efd,exc[*].EFD,gov[*].Pm,pss[*].Vs,bus[*].Vr,bus[*].Vi"
QUANTITIES = (("delta", "rad"), ("dw", "p.u."), ("Efd", "p.u."), ("Pm", "p.u."), ("Vs", "p.u."), ("|V|", "p.u."))


def quantity_of(name):
    """The quantity a column belongs to, or None (bus Vr/Vi are combined separately)."""
    tail = name.rsplit(".", 1)[-1]
    return {"delta": "delta", "dw": "dw", "Efd": "Efd", "EFD": "Efd", "Pm": "Pm", "Vs": "Vs"}.get(tail)


def load_grid(csv_path, interval):
    """The CSV's rows on the output grid (the last row at each grid time), as
    {"t": times, quantity: 2-D array (rows x units)}."""
    with open(csv_path) as f:
        header = f.readline().strip().split(",")
    data = np.loadtxt(csv_path, delimiter=",", skiprows=1, ndmin=2)
    t = data[:, 0]
    k = np.rint(t / interval)
    on_grid = np.abs(t - k * interval) < 1e-9
    keep = []
    for i in np.nonzero(on_grid)[0]:  # the last row of each grid time
        if keep and k[keep[-1]] == k[i]:
            keep[-1] = i
        else:
            keep.append(i)
    rows = data[keep]
    out = {"t": rows[:, 0]}
    groups = {}
    vr, vi = {}, {}
    for c, name in enumerate(header[1:], start=1):
        q = quantity_of(name)
        if q:
            groups.setdefault(q, []).append(c)
        elif name.startswith("bus[") and name.endswith("].Vr"):
            vr[name[:-3]] = c
        elif name.startswith("bus[") and name.endswith("].Vi"):
            vi[name[:-3]] = c
    for q, cols in groups.items():
        out[q] = rows[:, cols]
    buses = sorted(vr)
    out["|V|"] = np.hypot(rows[:, [vr[b] for b in buses]], rows[:, [vi[b] for b in buses]])
    out["units"] = {q: int(out[q].shape[1]) for q, _ in QUANTITIES if q in out}
    return out


def errors(run, ref, split):
    """max and rms of run - ref per quantity in [0, split] and (split, end]."""
    n = min(len(run["t"]), len(ref["t"]))
    if not np.allclose(run["t"][:n], ref["t"][:n], atol=1e-9, rtol=0):
        raise SystemExit("the runs' grids differ: check --interval and --stop")
    t = ref["t"][:n]
    windows = {"early": t <= split + 1e-9, "late": t > split + 1e-9}
    out = {}
    for q, _ in QUANTITIES:
        if q not in ref:
            continue
        d = run[q][:n] - ref[q][:n]
        out[q] = {}
        for w, mask in windows.items():
            e = d[mask]
            out[q][w] = {"max": float(np.max(np.abs(e))) if e.size else 0.0,
                         "rms": float(np.sqrt(np.mean(e * e))) if e.size else 0.0}
    return out


def accuracy_run(lsdae, fmu, work, name, rtol, a):
    out = os.path.join(work, name + ".csv")
    stats = os.path.join(work, name + ".json")
    cmd = [lsdae, "simulate", fmu, "--rtol", rtol, "--stop", str(a.stop), "--output-interval", str(a.interval),
           "--output-vars", OUTPUT_VARS, "--no-progress", "-o", out, "--stats", stats]
    wall, cpu, st = run_with_statistics(cmd, stats)
    return out, {"wall": wall, "cpu": cpu, **counters(st)}


def reference(lsdae, fmu, work, a):
    """The tight run's grid data, from --work when the same FMU and options made it."""
    with open(fmu, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    key = f"reference_{a.reference_rtol}_{a.stop:g}"
    npz = os.path.join(work, key + ".npz")
    meta_path = os.path.join(work, key + ".meta.json")
    meta_want = {"fmu_sha256": digest, "rtol": a.reference_rtol, "stop": a.stop, "interval": a.interval,
                 "vars": OUTPUT_VARS}
    if os.path.exists(npz) and os.path.exists(meta_path):
        with open(meta_path) as f:
            meta = json.load(f)
        if {k: meta.get(k) for k in meta_want} == meta_want:
            z = np.load(npz, allow_pickle=False)
            ref = {k: z[k] for k in z.files}
            ref["units"] = meta["units"]
            print(f"reference: {npz} (rtol {a.reference_rtol}, made {meta['made']})", flush=True)
            return ref, meta["run"]
    print(f"reference: running rtol {a.reference_rtol} to {a.stop:g} s ...", flush=True)
    csv, run = accuracy_run(lsdae, fmu, work, key, a.reference_rtol, a)
    ref = load_grid(csv, a.interval)
    np.savez(npz, **{k: v for k, v in ref.items() if k != "units"})
    with open(meta_path, "w") as f:
        json.dump({**meta_want, "units": ref["units"], "run": run, "made": csv}, f, indent=1)
    return ref, run


def fmt(x):
    return f"{x:.1e}" if x else "0"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--fmu", help="take this every-model FMU instead of building it with lsdae-grid")
    ap.add_argument("--work", default="/tmp/lsdae_psse_tolerance", help="scratch folder; keeps the reference")
    ap.add_argument("--rtols", default="1e-6,1e-5,1e-4,1e-3")
    ap.add_argument("--reference-rtol", default="1e-8")
    ap.add_argument("--classical-base", default="1e-6", help="the classical run's rtol of the issue's ratio")
    ap.add_argument("--stop", type=float, default=10.0)
    ap.add_argument("--interval", type=float, default=0.005)
    ap.add_argument("--split", type=float, default=2.0, help="the errors' windows: [0, split] and (split, stop]")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-timing", action="store_true", help="the errors only")
    ap.add_argument("--no-errors", action="store_true", help="the timing only (no reference, no accuracy runs)")
    ap.add_argument("--keep", action="store_true", help="keep the accuracy runs' CSVs")
    ap.add_argument("--unmodelled", choices=["source", "current"], default="source")
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args()
    lsdae = os.path.join(a.build, "bin", "lsdae")
    classical = os.path.join(a.build, "fmus", "PowerGrid_case_ACTIVSg2000_fault.fmu")
    rtols = a.rtols.split(",")
    os.makedirs(a.work, exist_ok=True)
    fmu = a.fmu or build_every_model_fmu(a.build, os.path.join(a.work, "activsg2000_fault.fmu"), a.unmodelled)

    result = {"rtols": {r: {} for r in rtols}}
    if not a.no_errors:
        ref, ref_run = reference(lsdae, fmu, a.work, a)
        result |= {"reference": {"rtol": a.reference_rtol, **ref_run}, "units": ref["units"]}
    for r in rtols if not a.no_errors else []:
        print(f"accuracy: rtol {r} ...", flush=True)
        csv, run = accuracy_run(lsdae, fmu, a.work, f"accuracy_{r}", r, a)
        result["rtols"][r] = {"accuracy_run": run, "errors": errors(load_grid(csv, a.interval), ref, a.split)}
        if not a.keep:
            os.remove(csv)

    if not a.no_timing:
        best = {}
        timing_rtols = list(dict.fromkeys(rtols + [a.classical_base]))
        stop = ["--stop", str(a.stop), "--output-interval", str(a.interval)]
        for i in range(a.repeat):
            for r in timing_rtols:
                order = [("psse", fmu, [], "limits.events"),
                         ("classical", classical, ["--set", "fault.X=0.01"], "fault.active")]
                if (i + timing_rtols.index(r)) % 2:
                    order.reverse()
                for name, f, own, var in order:
                    if name == "psse" and r not in rtols:
                        continue
                    stats = os.path.join(a.work, "timing.json")
                    out = os.path.join(a.work, "timing.csv")
                    cmd = [lsdae, "simulate", f, "--rtol", r, "--stats", stats, "-o", out, "--no-progress",
                           "--output-vars", var] + own + stop
                    wall, cpu, st = run_with_statistics(cmd, stats)
                    if (name, r) not in best or cpu < best[(name, r)]["cpu"]:
                        best[(name, r)] = {"cpu": cpu, "wall": wall, **counters(st),
                                           "last": last_value(out, var)}
        base = best[("classical", a.classical_base)]["cpu"]
        for r in rtols:
            p, c = best[("psse", r)], best[("classical", r)]
            result["rtols"][r]["every_model"] = {k: v for k, v in p.items() if k != "last"} | {"limit_events": p["last"]}
            result["rtols"][r]["classical"] = {k: v for k, v in c.items() if k != "last"}
            result["rtols"][r]["ratio_classical_base"] = p["cpu"] / base
            result["rtols"][r]["ratio_classical_same"] = p["cpu"] / c["cpu"]
            acc = result["rtols"][r].get("accuracy_run")
            if acc:
                result["rtols"][r]["same_steps_as_accuracy_run"] = all(acc[k] == p[k] for k in ("steps", "residual_calls", "jacobians"))
        result["classical_base"] = {"rtol": a.classical_base, **best[("classical", a.classical_base)]}

    result["load"] = os.getloadavg()
    report(result, rtols, a)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(result, f, indent=2)
    return 0


def report(result, rtols, a):
    print(f"\nACTIVSg2000, every model, fault X = 0.01 at bus 7346, 1.00-1.15 s, 0-{a.stop:g} s; load "
          + " ".join(f"{x:.2f}" for x in result["load"]))
    ref = result.get("reference")
    if ref:
        print(f"reference rtol {ref['rtol']}: {ref['steps']} steps, {ref['residual_calls']} residual calls, "
              f"{ref['jacobians']} Jacobians, {ref['state_events']} state events, CPU {ref['cpu']:.1f} s (with output)")
        print("units: " + ", ".join(f"{q} {n}" for q, n in result["units"].items()))
    if "classical_base" in result:
        print(f"\nbest of {a.repeat}; ratios against classical at rtol {a.classical_base} and at the same rtol")
        print(f"{'rtol':>6s} {'CPU s':>7s} {'steps':>6s} {'res.calls':>9s} {'Jacobians':>9s} {'st.events':>9s} "
              f"{'limit ev.':>9s} | {'cl. CPU':>7s} {'cl.steps':>8s} | {'/cl(1e-6)':>9s} {'/cl(same)':>9s} same-steps")
        for r in rtols:
            x = result["rtols"][r]
            p, c = x["every_model"], x["classical"]
            print(f"{r:>6s} {p['cpu']:7.2f} {p['steps']:6d} {p['residual_calls']:9d} {p['jacobians']:9d} "
                  f"{p['state_events']:9d} {p['limit_events']:9.0f} | {c['cpu']:7.3f} {c['steps']:8d} | "
                  f"{x['ratio_classical_base']:9.2f} {x['ratio_classical_same']:9.2f} {x.get('same_steps_as_accuracy_run', '-')}")
    if not ref:
        return
    for w, label in (("early", f"0-{a.split:g} s"), ("late", f"{a.split:g}-{a.stop:g} s")):
        print(f"\nerrors against rtol {ref['rtol']}, {label}: max / rms")
        qs = [q for q, _ in QUANTITIES if q in result["units"]]
        print(f"{'rtol':>6s} " + " ".join(f"{q + ' (' + u + ')':>19s}" for q, u in QUANTITIES if q in qs))
        for r in rtols:
            e = result["rtols"][r]["errors"]
            print(f"{r:>6s} " + " ".join(f"{fmt(e[q][w]['max']) + ' / ' + fmt(e[q][w]['rms']):>19s}" for q in qs))


if __name__ == "__main__":
    sys.exit(main())
