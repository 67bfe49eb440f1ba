#!/usr/bin/python3
"""Drift of the pendulum's constraints over 10 s with both constraint methods.

Runs `lsdae simulate` on the Pendulum_dae_shapeA FMU with --constraints dummy and
--constraints project, and plots |x²+y²−L²| and |x·vx+y·vy| (the FMU's outputs
drift_pos, drift_vel) and the energy error against time (docs/images/pendulum_drift.png).

    /usr/bin/python3 scripts/plot_pendulum_drift.py [build-dir]
"""
import json
import os
import subprocess
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "build")
lsdae = os.path.join(build, "bin", "lsdae")
fmu = os.path.join(build, "fmus", "Pendulum_dae_shapeA.fmu")

runs = {}
with tempfile.TemporaryDirectory() as tmp:
    for method in ("dummy", "project"):
        csv = os.path.join(tmp, method + ".csv")
        stats = os.path.join(tmp, method + ".json")
        subprocess.run([lsdae, "simulate", fmu, "--constraints", method, "-o", csv, "--stats", stats,
                        "--no-progress"], check=True)
        data = np.genfromtxt(csv, delimiter=",", names=True)
        runs[method] = (data, json.load(open(stats)))

fig, axes = plt.subplots(3, 1, figsize=(8, 9), sharex=True)
labels = {"dummy": "dummy derivatives (re-selected)", "project": "projection"}
for method, (d, s) in runs.items():
    c = s["counters"]
    extra = f"{c['reselections']} re-selections" if method == "dummy" else f"{c['projections']} projections"
    label = f"{labels[method]}: {c['steps']} steps, {extra}"
    floor = 1e-18
    axes[0].semilogy(d["time"], np.maximum(np.abs(d["drift_pos"]), floor), label=label)
    axes[1].semilogy(d["time"], np.maximum(np.abs(d["drift_vel"]), floor), label=label)
    axes[2].semilogy(d["time"], np.maximum(np.abs(d["energy"] - d["energy"][0]), floor), label=label)
    print(f"{method}: max |x²+y²-L²| {np.abs(d['drift_pos']).max():.3g}, max |x vx + y vy| "
          f"{np.abs(d['drift_vel']).max():.3g}, max energy error {np.abs(d['energy'] - d['energy'][0]).max():.3g}")
axes[0].set_ylabel("|x² + y² − L²|  [m²]")
axes[1].set_ylabel("|x·vx + y·vy|  [m²/s]")
axes[2].set_ylabel("|E(t) − E(0)|  [J]")
axes[2].set_xlabel("time [s]")
for ax in axes:
    ax.axhline(1e-6, color="grey", linestyle=":", linewidth=1)
    ax.grid(True, which="major", alpha=0.3)
axes[0].legend(loc="lower right", fontsize=8)
axes[0].set_title("Cartesian pendulum (index 3), 10 s from horizontal, rtol = atol = 1e-8")
fig.tight_layout()
out = os.path.join(root, "docs", "images", "pendulum_drift.png")
fig.savefig(out, dpi=110)
print("wrote", out)
