#!/usr/bin/python3
"""Najafi et al.'s pendulum experiments (issue 16), redrawn from lsdae runs.

Runs `lsdae simulate` on the kit's FMI 2.0 Najafi pendulum (an index-reduced ODE
that exports the constraint functions of Najafi et al.'s FMI 2.0 extension) and
draws two figures from the FMU's outputs `drift` (x² + y² − L²) and
`totalEnergy`:

  docs/images/najafi_drift.png   10 s from horizontal at rest, rtol 1e-6,
      projection tolerance 1e-5: |x²+y²−L²| and |x·vx+y·vy| with
      --constraints none (the drift grows) and with each projection path
      (the FMU's fmi2Projection; lsdae's Gauss-Newton with
      fmi2ConstraintJacobian; with finite differences of fmi2Constraint).
  docs/images/najafi_energy_300s.png   T = 300 s, |E(t) − E(0)|: projected
      onto the length and velocity constraints only, also onto the energy
      constraint (NajafiPendulum_fmi2_energy), and not projected (the ODE
      leaves the manifold and the run stops where it blows up).

    /usr/bin/python3 scripts/plot_najafi_pendulum.py [build-dir]
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
fmus = os.path.join(build, "fmus")
images = os.path.join(root, "docs", "images")


def run(tmp, name, fmu, options):
    """Simulates and returns (rows by column, statistics); a run that fails keeps its rows."""
    csv = os.path.join(tmp, name + ".csv")
    stats = os.path.join(tmp, name + ".json")
    done = subprocess.run([lsdae, "simulate", os.path.join(fmus, fmu + ".fmu"), "-o", csv, "--stats", stats,
                           "--no-progress", "--output-vars", "x,y,vx,vy,drift,totalEnergy"] + options,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        print(f"{name}: exit code {done.returncode}: {done.stderr.strip().splitlines()[-1]}")
    data = np.genfromtxt(csv, delimiter=",", names=True)
    return data, (json.load(open(stats)) if os.path.exists(stats) else None)


floor = 1e-17
with tempfile.TemporaryDirectory() as tmp:
    base = ["--rtol", "1e-6", "--projection-tolerance", "1e-5", "--stop", "10"]
    drift_runs = [
        ("no projection (--constraints none)", run(tmp, "none", "NajafiPendulum_fmi2", base + ["--constraints", "none"])),
        ("fmi2Projection (the FMU's)", run(tmp, "fmu", "NajafiPendulum_fmi2", base)),
        ("Gauss-Newton, fmi2ConstraintJacobian", run(tmp, "jac", "NajafiPendulum_fmi2_no_projection", base)),
        ("Gauss-Newton, finite differences of fmi2Constraint",
         run(tmp, "fd", "NajafiPendulum_fmi2_values_only", base)),
    ]
    fig, axes = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for label, (d, s) in drift_runs:
        pos = np.abs(d["drift"])
        vel = np.abs(d["x"] * d["vx"] + d["y"] * d["vy"])
        extra = f", {s['counters']['projections']} projections" if s and s["counters"]["projections"] else ""
        axes[0].semilogy(d["time"], np.maximum(pos, floor), label=label + extra)
        axes[1].semilogy(d["time"], np.maximum(vel, floor), label=label)
        print(f"{label}: max |x²+y²-1| {pos.max():.3g}, max |x vx + y vy| {vel.max():.3g}{extra}")
    axes[0].set_ylabel("|x² + y² − L²|  [m²]")
    axes[1].set_ylabel("|x·vx + y·vy|  [m²/s]")
    axes[1].set_xlabel("time [s]")
    for ax in axes:
        ax.axhline(1e-5, color="grey", linestyle=":", linewidth=1)
        ax.grid(True, which="major", alpha=0.3)
    axes[0].legend(loc="lower right", fontsize=8)
    axes[0].set_title("Najafi pendulum (FMI 2.0), 10 s, rtol 1e-6, tolerance 1e-5 (the three paths coincide)", fontsize=10)
    fig.tight_layout()
    fig.savefig(os.path.join(images, "najafi_drift.png"), dpi=110)
    plt.close(fig)

    long = ["--rtol", "1e-6", "--projection-tolerance", "1e-5", "--stop", "300", "--output-interval", "0.1"]
    energy_runs = [
        ("no projection (--constraints none)", run(tmp, "e_none", "NajafiPendulum_fmi2", long + ["--constraints", "none"])),
        ("length and velocity constraints", run(tmp, "e_two", "NajafiPendulum_fmi2", long)),
        ("and the energy constraint", run(tmp, "e_three", "NajafiPendulum_fmi2_energy", long)),
    ]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, (d, s) in energy_runs:
        error = np.abs(d["totalEnergy"] - d["totalEnergy"][0])
        ax.semilogy(d["time"], np.maximum(error, floor), label=label)
        print(f"{label}: reached t = {d['time'][-1]:.4g}, |E - E0| at the end {error[-1]:.3g}, max {error.max():.3g}")
    ax.axhline(1e-5, color="grey", linestyle=":", linewidth=1)
    ax.set_ylabel("|E(t) − E(0)|  [J/kg]")
    ax.set_xlabel("time [s]")
    ax.set_ylim(bottom=1e-12)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(loc="center right", fontsize=8)
    ax.set_title("Najafi pendulum over T = 300 s: energy drift (rtol 1e-6, tolerance 1e-5)")
    fig.tight_layout()
    fig.savefig(os.path.join(images, "najafi_energy_300s.png"), dpi=110)
    plt.close(fig)
print("wrote", os.path.join(images, "najafi_drift.png"), "and", os.path.join(images, "najafi_energy_300s.png"))
