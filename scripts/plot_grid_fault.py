#!/usr/bin/python3
"""Rotor angles of case9 and case39 through their default fault scenario (issue 8).

Runs `lsdae simulate` on PowerGrid_<case>_semi_explicit and _fully_implicit (default
experiment: 0-10 s, rtol 1e-6, rows every 0.01 s; fault at 1 s cleared at 1.1 s by
opening a line), then plots each machine's rotor angle relative to the centre of inertia,
δ_m − δ_COI with δ_COI = Σ H_k δ_k / Σ H_k, and its speed deviation in Hz, against time
(docs/images/grid_<case>_fault.png). H, the bus of each machine and the frequency are read
from the grid data the FMU ships (resources/<case>.grid), so the frame is the FMU's own.

It prints the acceptance numbers: the largest rotor-angle difference to the independent
reference (models/powergrid/reference/<case>_fault.csv, scipy DOP853 at 1e-12) in absolute
and COI terms, the largest difference between the two forms, the first swing and the
settling (spread of the relative angles and of the speeds over the last second), and the
largest drift of an undisturbed run (--set fault.bus=0 --set trip.branch=0, every variable).

    /usr/bin/python3 scripts/plot_grid_fault.py [build-dir]

Without matplotlib (not one of lsdae's dependencies) it prints the numbers and draws nothing.
"""
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

try:  # matplotlib draws the figures only; without it the numbers are still printed
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    plt = None

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
lsdae = os.path.join(build, "bin", "lsdae")
FORMS = ("semi_explicit", "fully_implicit")


def read_grid(path):
    """Bus numbers, frequency and the machines (case row, bus number, H) of a .grid file."""
    lines = [line.split() for line in open(path)]
    buses, machines, frequency, k = [], [], None, 0
    while k < len(lines):
        rec = lines[k]
        if rec and rec[0] == "frequency":
            frequency = float(rec[1])
        elif rec and rec[0] == "buses":
            buses = [int(lines[k + 1 + i][0]) for i in range(int(rec[1]))]
        elif rec and rec[0] == "machines":
            for i in range(int(rec[1])):
                m = lines[k + 1 + i]
                machines.append((int(m[0]), buses[int(m[1])], float(m[3])))
        k += 1
    return frequency, machines


def simulate(fmu, csv, stats, *extra):
    subprocess.run([lsdae, "simulate", fmu, "-o", csv, "--stats", stats, "--no-progress", *extra], check=True)
    return np.genfromtxt(csv, delimiter=",", names=True, deletechars=""), json.load(open(stats))


def relative(data, rows, h):
    """δ_m − δ_COI per machine (columns), in rad."""
    delta = np.column_stack([data[f"gen[{r}].delta"] for r in rows])
    return delta - (delta @ h / h.sum())[:, None]


def study(case, tmp):
    fmu = {form: os.path.join(build, "fmus", f"PowerGrid_{case}_{form}.fmu") for form in FORMS}
    frequency, machines = read_grid(os.path.join(build, "fmus", f"PowerGrid_{case}_semi_explicit", "resources",
                                                 f"{case}.grid"))
    rows = [m[0] for m in machines]
    h = np.array([m[2] for m in machines])
    states = ",".join(f"gen[{r}].delta,gen[{r}].omega" for r in rows)
    runs = {form: simulate(fmu[form], os.path.join(tmp, f"{case}_{form}.csv"), os.path.join(tmp, f"{case}_{form}.json"),
                           "--output-vars", states) for form in FORMS}
    ref = np.genfromtxt(os.path.join(root, "models", "powergrid", "reference", f"{case}_fault.csv"), delimiter=",",
                        names=True, deletechars="")

    print(f"{case}: {len(rows)} machines")
    d_semi, d_impl = runs["semi_explicit"][0], runs["fully_implicit"][0]
    assert np.array_equal(d_semi["time"], d_impl["time"])
    print("  semi-explicit vs fully implicit: largest |Δδ| %.2g rad, |Δω| %.2g"
          % (max(np.abs(d_semi[f"gen[{r}].delta"] - d_impl[f"gen[{r}].delta"]).max() for r in rows),
             max(np.abs(d_semi[f"gen[{r}].omega"] - d_impl[f"gen[{r}].omega"]).max() for r in rows)))
    ref_rel = relative(ref, rows, h)
    for form, (d, s) in runs.items():
        # Reference rows are every 0.05 s without the event times: each matches one result row.
        pick = np.array([np.flatnonzero(np.abs(d["time"] - t) < 1e-9)[0] for t in ref["time"]])
        assert all(np.count_nonzero(np.abs(d["time"] - t) < 1e-9) == 1 for t in ref["time"])
        err = np.column_stack([d[f"gen[{r}].delta"][pick] - ref[f"gen[{r}].delta"] for r in rows])
        werr = np.column_stack([d[f"gen[{r}].omega"][pick] - ref[f"gen[{r}].omega"] for r in rows])
        rerr = relative(d, rows, h)[pick] - ref_rel
        i, j = np.unravel_index(np.abs(err).argmax(), err.shape)
        c = s["counters"]
        print(f"  {form}: {c['steps']} steps, {c['residual_calls']} residual calls, {c['jacobian_evaluations']} "
              f"Jacobians, {c['time_events']} time events; vs reference ({len(pick)} rows): largest |Δδ| "
              f"{abs(err[i, j]):.2g} rad (gen[{rows[j]}] at t = {ref['time'][i]:g} s), relative to COI "
              f"{np.abs(rerr).max():.2g} rad, |Δω| {np.abs(werr).max():.2g} p.u.")

    d = d_semi
    t = d["time"]
    rel = relative(d, rows, h)
    dev = np.degrees(rel - rel[0])
    omega = np.column_stack([d[f"gen[{r}].omega"] for r in rows])
    last = t >= t[-1] - 1.0
    first = t <= 3.0
    k = np.abs(dev[first]).max(axis=0).argmax()
    print("  first swing: largest |δ_m − δ_COI − (its value at 0)| %.1f° (gen[%d]) within 3 s; at 10 s it is %.1f°"
          % (np.abs(dev[first]).max(), rows[k], np.abs(dev[-1]).max()))
    swing = [np.ptp(np.degrees(rel[(t >= a) & (t <= a + 1)]), axis=0).max() for a in range(1, 10)]
    print("  settling: largest peak-to-peak of δ_m − δ_COI per second from 1 s: "
          + " ".join(f"{x:.2g}°" for x in swing)
          + "; over the last second the speeds differ from the COI speed by at most %.2g p.u.; "
          "system (COI) speed at 10 s %.6f p.u. (%+.3f Hz)"
          % (np.abs(omega[last] - (omega[last] @ h / h.sum())[:, None]).max(),
             omega[-1] @ h / h.sum(), (omega[-1] @ h / h.sum() - 1) * frequency))

    for form in FORMS:
        flat, _ = simulate(fmu[form], os.path.join(tmp, f"{case}_{form}_flat.csv"),
                           os.path.join(tmp, f"{case}_{form}_flat.json"), "--all", "--set", "fault.bus=0",
                           "--set", "trip.branch=0")
        drift = {}
        for name in flat.dtype.names:
            kind = name.rsplit(".", 1)[-1]
            if name != "time" and kind in ("delta", "omega", "Vr", "Vi") and not name.startswith("der("):
                drift[kind] = max(drift.get(kind, 0.0), np.abs(flat[name] - flat[name][0]).max())
        print(f"  undisturbed 0-10 s, {form}: largest drift "
              + ", ".join(f"{kind} {drift[kind]:.2g}" for kind in ("delta", "omega", "Vr", "Vi")))

    if plt is None:
        print("  no figure: matplotlib is not installed (apt-get install python3-matplotlib)")
        return
    fig, axes = plt.subplots(2, 1, figsize=(9.5, 7.5), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    every = np.abs(ref["time"] / 0.25 - np.round(ref["time"] / 0.25)) < 1e-9
    for j, (row, bus, _) in enumerate(machines):
        axes[0].plot(t, np.degrees(rel[:, j]), color=f"C{j % 10}", linewidth=1.2,
                     label=f"gen[{row}] (bus {bus})")
        axes[0].plot(ref["time"][every], np.degrees(ref_rel[every, j]), ".", color="black", markersize=2.5,
                     label="reference (scipy DOP853, 1e-12)" if j == 0 else None)
        axes[1].plot(t, (omega[:, j] - 1) * frequency, color=f"C{j % 10}", linewidth=1.0)
    for ax in axes:
        ax.axvspan(1.0, 1.1, color="red", alpha=0.15, linewidth=0)
        ax.grid(True, alpha=0.3)
    stats = runs["semi_explicit"][1]["counters"]
    axes[0].set_ylabel("δ − δ_COI  [deg]")
    axes[1].set_ylabel("(ω − 1)·f  [Hz]")
    axes[1].set_xlabel("time [s]   (shaded: fault on, 1.0–1.1 s; the line is open from 1.1 s)")
    axes[0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    scenario = {"case9": "fault at bus 8, line 8–9 opened", "case39": "fault at bus 16, line 16–17 opened"}[case]
    axes[0].set_title(f"{case}, {scenario} — lsdae simulate, semi-explicit form ({stats['steps']} steps)\n"
                      "rotor angles relative to the centre of inertia δ_COI = Σ H δ / Σ H", fontsize=10)
    fig.tight_layout()
    out = os.path.join(root, "docs", "images", f"grid_{case}_fault.png")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    print("  wrote", out)


with tempfile.TemporaryDirectory() as tmp:
    for case in ("case9", "case39"):
        study(case, tmp)
