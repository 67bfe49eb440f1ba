#!/usr/bin/python3
"""Exact reference solution of the MassChain (models/mass_chain) for N = 10 and 100.

Writes N10.csv and N100.csv next to this script: every state s[k], v[k], their
derivatives der(s[k]), der(v[k]) and every constraint force F[k], at t = 0,
0.2, ..., 10 (51 rows). lsdae is not involved.

Model (see ../README.md): N masses m[k] = m (1 + ((k-1) mod 3)/2), mass 1
driven by Fa = F0 sin(omega t), neighbours rigidly coupled at velocity level.
The chain moves as one body of mass M = sum m[k]:
    v[k] = F0 (1 - cos(omega t)) / (omega M) = 2 F0 sin^2(omega t / 2) / (omega M)
    s[k] = F0 (omega t - sin(omega t)) / (omega^2 M)
    F[k] = Fa (m[k+1] + ... + m[N]) / M          (force of mass k on mass k+1)
The derivative columns are evaluated with the model's own formulas from these
columns (der(s[k]) = v[k], der(v[k]) = (F[k-1] - F[k] + (k == 1) Fa)/m[k]), so
the FMU's derivatives and residuals match them to rounding.

Cross-check (the script fails if it does not hold): N = 10 integrated as an
ODE (the constraint forces solved from the tridiagonal system the index-1
formulation gives) with scipy's DOP853 at rtol = 1e-12 agrees with the exact
columns to 1e-9.

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
m = 1.0
F0 = 1.0
omega = 2.0
T_STOP = 10.0
ROWS = 51  # every 0.2 s


def masses(n):
    return [m * (1.0 + 0.5 * (k % 3)) for k in range(n)]


def z_minus_sin(z):
    """z - sin(z) without cancellation for small |z| (Taylor series below 1)."""
    if abs(z) >= 1.0:
        return z - math.sin(z)
    term, acc, n = z ** 3 / 6.0, 0.0, 3
    while term != 0.0 and n < 41:
        acc += term
        term = -term * z * z / ((n + 1) * (n + 2))
        n += 2
    return acc


def exact_row(n, t):
    ms = masses(n)
    M = sum(ms)
    Fa = F0 * math.sin(omega * t)  # the C library's sin, as the FMU evaluates it
    v = 2.0 * F0 * math.sin(0.5 * omega * t) ** 2 / (omega * M)
    s = F0 * z_minus_sin(omega * t) / (omega * omega * M)
    tail = [sum(ms[k + 1:]) for k in range(n - 1)]
    F = [Fa * tail[k] / M for k in range(n - 1)]
    row = {}
    for k in range(n):
        i = f"[{k + 1}]"
        force = (F[k - 1] if k > 0 else 0.0) - (F[k] if k + 1 < n else 0.0) + (Fa if k == 0 else 0.0)
        row["s" + i] = s
        row["v" + i] = v
        row["der(s" + i + ")"] = v
        row["der(v" + i + ")"] = force / ms[k]
        if k + 1 < n:
            row["F" + i] = F[k]
    return row


def columns(n):
    names = []
    for k in range(n):
        i = f"[{k + 1}]"
        names += ["s" + i, "v" + i]
    for k in range(n):
        i = f"[{k + 1}]"
        names += ["der(s" + i + ")", "der(v" + i + ")"]
    names += [f"F[{k + 1}]" for k in range(n - 1)]
    return names


def check_against_ivp(n, times, rows):
    """The index-1 form: 0 = gdot[k] gives A F = b (tridiagonal), then der(v)."""
    ms = masses(n)

    def forces(t):
        Fa = F0 * math.sin(omega * t)
        A = np.zeros((n - 1, n - 1))
        b = np.zeros(n - 1)
        for k in range(n - 1):
            a, c = 1.0 / ms[k], 1.0 / ms[k + 1]
            if k > 0:
                A[k, k - 1] = a
            A[k, k] = -a - c
            if k + 2 < n:
                A[k, k + 1] = c
            if k == 0:
                b[k] = -Fa * a
        return np.linalg.solve(A, b), Fa

    def rhs(t, x):
        F, Fa = forces(t)
        v = x[n:]
        dv = np.empty(n)
        for k in range(n):
            dv[k] = ((F[k - 1] if k > 0 else 0.0) - (F[k] if k + 1 < n else 0.0) + (Fa if k == 0 else 0.0)) / ms[k]
        return np.concatenate([v, dv])

    sol = solve_ivp(rhs, (0.0, T_STOP), np.zeros(2 * n), method="DOP853", t_eval=times, rtol=1e-12, atol=1e-12)
    assert sol.success, sol.message
    worst = 0.0
    for j, row in enumerate(rows):
        for k in range(n):
            worst = max(worst, abs(sol.y[k][j] - row[f"s[{k + 1}]"]), abs(sol.y[n + k][j] - row[f"v[{k + 1}]"]))
    print(f"N = {n}: max |exact - solve_ivp(DOP853, rtol=1e-12)| over s, v: {worst:.3e}")
    assert worst < 1e-9, "exact solution disagrees with the numerical integration"


def main():
    times = [T_STOP * i / (ROWS - 1) for i in range(ROWS)]
    for n in (10, 100):
        rows = [exact_row(n, t) for t in times]
        if n == 10:
            check_against_ivp(n, times, rows)
        names = columns(n)
        path = os.path.join(HERE, f"N{n}.csv")
        reference_tools.write_csv(path, ["time"] + names, ([t] + [r[c] for c in names] for t, r in zip(times, rows)))
        print(f"wrote {path}: {len(times)} rows, {len(names)} columns")


if __name__ == "__main__":
    main()
