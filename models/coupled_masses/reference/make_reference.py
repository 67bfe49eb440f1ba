#!/usr/bin/python3
"""Reference solution of two rigidly coupled masses (models/coupled_masses).

Writes CoupledMasses.csv next to this script: the exact solution at
t = 0, 0.01, ..., 10 s with every state, every state derivative and the
algebraic variable Fz. lsdae is not involved.

Model (see ../README.md):
    Fa = F0 sin(omega t)
    der(s1) = v1,  der(s2) = v2,  der(v1) = (Fa - Fz)/m1,  der(v2) = Fz/m2,
    0 = v1 - v2,
    s1(0) = s2(0) = v1(0) = v2(0) = 0.

Exact solution. Both masses move as one body of mass m1 + m2 under Fa:
    v1 = v2 = F0 (1 - cos(omega t)) / (omega (m1 + m2))
            = 2 F0 sin^2(omega t / 2) / (omega (m1 + m2))        (no cancellation)
    s1 = s2 = F0 (omega t - sin(omega t)) / (omega^2 (m1 + m2))
            (omega t - sin(omega t) by its Taylor series where omega t < 1)
    Fz = m2 Fa / (m1 + m2)
The derivative columns are evaluated from the other columns with the model's
own formulas, so the FMU's derivatives and residuals match them to rounding.

Cross-check (the script fails if it does not hold): solve_ivp (DOP853,
rtol = atol = 1e-12) on the index-reduced ODE, where gdot = 0 gives
Fz = m2 Fa/(m1 + m2) and the state is (s1, s2, v1, v2).

Run: python3 make_reference.py   (needs numpy and scipy; Debian python3-numpy
python3-scipy. If the first python3 on PATH lacks them, the script re-runs
itself with /usr/bin/python3.)
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

reference_tools.require_numpy_scipy(__file__)

import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# Parameters at their defaults (model.cpp).
m1 = 1.0
m2 = 2.0
F0 = 1.0
omega = 2.0
T_STOP = 10.0
N_INTERVALS = 1000  # rows every 0.01 s

COLUMNS = ["s1", "s2", "v1", "v2", "der(s1)", "der(s2)", "der(v1)", "der(v2)", "Fz"]


def z_minus_sin(z):
    """z - sin(z) without cancellation for small |z| (Taylor series below 1)."""
    z = np.asarray(z, dtype=float)
    out = z - np.sin(z)
    small = np.abs(z) < 1.0
    zs = z[small]
    term = zs ** 3 / 6.0
    acc = np.zeros_like(zs)
    n = 3
    while np.any(term != 0.0) and n < 41:
        acc += term
        term = -term * zs * zs / ((n + 1) * (n + 2))
        n += 2
    out[small] = acc
    return out


def driving_force(t):
    """Fa = F0 sin(omega t) with the C library's sin, as the FMU evaluates it."""
    return np.array([F0 * math.sin(omega * float(tt)) for tt in t])


def exact(t):
    M = m1 + m2
    wt = omega * t
    v = 2.0 * F0 * np.sin(0.5 * wt) ** 2 / (omega * M)
    s = F0 * z_minus_sin(wt) / (omega * omega * M)
    Fa = driving_force(t)
    Fz = m2 * Fa / M
    return {
        "s1": s,
        "s2": s.copy(),
        "v1": v,
        "v2": v.copy(),
        "der(s1)": v.copy(),
        "der(s2)": v.copy(),
        "der(v1)": (Fa - Fz) / m1,
        "der(v2)": Fz / m2,
        "Fz": Fz,
    }


def check_against_ivp(t, cols):
    def rhs(tt, x):
        Fa = F0 * np.sin(omega * tt)
        Fz = m2 * Fa / (m1 + m2)
        return [x[2], x[3], (Fa - Fz) / m1, Fz / m2]

    sol = solve_ivp(rhs, (0.0, T_STOP), [0.0, 0.0, 0.0, 0.0], method="DOP853", t_eval=t,
                    rtol=1e-12, atol=1e-12)
    assert sol.success, sol.message
    worst = max(np.max(np.abs(sol.y[i] - cols[c])) for i, c in enumerate(["s1", "s2", "v1", "v2"]))
    print(f"max |exact - solve_ivp(DOP853, rtol=1e-12)| over s1, s2, v1, v2: {worst:.3e}")
    assert worst < 1e-9, "exact solution disagrees with the numerical integration"


def main():
    t = np.arange(N_INTERVALS + 1) / (N_INTERVALS / T_STOP)  # exact decimals i/100
    cols = exact(t)
    check_against_ivp(t, cols)
    Fa = driving_force(t)
    g = cols["v1"] - cols["v2"]
    gdot = (Fa - cols["Fz"]) / m1 - cols["Fz"] / m2
    print(f"max |g|, |gdot| on the rows: {np.max(np.abs(g)):.3e} {np.max(np.abs(gdot)):.3e}")

    path = os.path.join(HERE, "CoupledMasses.csv")
    reference_tools.write_csv(path, ["time"] + COLUMNS,
                              ([t[i]] + [cols[c][i] for c in COLUMNS] for i in range(len(t))))
    print(f"wrote {path}: {len(t)} rows")


if __name__ == "__main__":
    main()
