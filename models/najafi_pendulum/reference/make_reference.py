#!/usr/bin/python3
"""Reference solution of the Najafi pendulum (models/najafi_pendulum).

Writes NajafiPendulum_10s.csv (t = 0, 0.01, ..., 10 s) and
NajafiPendulum_300s.csv (t = 0, 0.2, ..., 300 s) next to this script: the
states x, y, vx, vy, their derivatives and the outputs drift and totalEnergy of
the pendulum released at rest from the horizontal. lsdae is not involved.

Model (y axis up, unit mass, see ../README.md):
    F = (g y - (vx^2 + vy^2)) / L^2,
    der(x) = vx, der(y) = vy, der(vx) = F x, der(vy) = F y - g,
    x(0) = L, y(0) = 0, vx(0) = vy(0) = 0, g = 9.81, L = 1.

Method: the exact motion stays on the circle, so it is integrated in the
angle coordinate theta (from the downward vertical; x = L sin(theta),
y = -L cos(theta)): theta'' = -(g/L) sin(theta), theta(0) = pi/2,
theta'(0) = 0, with scipy's solve_ivp (DOP853, rtol = atol = 1e-12, dense
output off, evaluated at the output times). Then vx = L cos(theta) theta',
vy = L sin(theta) theta'; the derivative columns and the outputs are
evaluated from the states with the model's formulas, so drift is the
reference's own rounding (~1e-16) and totalEnergy stays at 0.

Cross-check (the script fails if it does not hold): the exact solution from
Jacobi elliptic functions, sin(theta/2) = k sn(K(m) - w t | m),
theta' = -2 k w cn(K(m) - w t | m), k = sin(theta0/2), m = k^2, w = sqrt(g/L),
agrees with the integration to 1e-9 over 10 s and 1e-7 over 300 s.

Run: python3 make_reference.py   (needs numpy and scipy; Debian python3-numpy
python3-scipy. If the first python3 on PATH lacks them, the script re-runs
itself with /usr/bin/python3.)
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

reference_tools.require_numpy_scipy(__file__)

import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402
from scipy.special import ellipj, ellipk  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

L = 1.0
g = 9.81
THETA0 = np.pi / 2

HEADER = ["time", "x", "y", "vx", "vy", "der(x)", "der(y)", "der(vx)", "der(vy)", "drift", "totalEnergy"]


def integrate(times):
    def rhs(_t, u):
        return [u[1], -(g / L) * np.sin(u[0])]

    sol = solve_ivp(rhs, (times[0], times[-1]), [THETA0, 0.0], method="DOP853", rtol=1e-12, atol=1e-12,
                    t_eval=times)
    if not sol.success:
        sys.exit("solve_ivp failed: " + sol.message)
    return sol.y[0], sol.y[1]


def exact(times):
    w = np.sqrt(g / L)
    k = np.sin(THETA0 / 2)
    m = k * k
    sn, cn, _dn, _ph = ellipj(ellipk(m) - w * times, m)
    theta = 2 * np.arcsin(k * sn)
    return theta, -2 * k * w * cn


def rows(times, theta, omega):
    x = L * np.sin(theta)
    y = -L * np.cos(theta)
    vx = L * np.cos(theta) * omega
    vy = L * np.sin(theta) * omega
    F = (g * y - (vx * vx + vy * vy)) / (L * L)
    drift = x * x + y * y - L * L
    energy = (vx * vx + vy * vy) / 2 + g * y
    return np.column_stack([times, x, y, vx, vy, vx, vy, F * x, F * y - g, drift, energy])


def make(name, stop, intervals, tolerance):
    times = np.linspace(0.0, stop, intervals + 1)
    theta, omega = integrate(times)
    theta_e, omega_e = exact(times)
    table = rows(times, theta, omega)
    check = rows(times, theta_e, omega_e)
    error = np.max(np.abs(table[:, 1:5] - check[:, 1:5]))
    if error > tolerance:
        sys.exit("%s: solve_ivp and the elliptic-function solution differ by %.3g > %.3g" % (name, error, tolerance))
    reference_tools.write_csv(os.path.join(HERE, name), HEADER, table)
    print("%s: %d rows, max |integrated - exact| = %.3g" % (name, len(times), error))


make("NajafiPendulum_10s.csv", 10.0, 1000, 1e-9)
make("NajafiPendulum_300s.csv", 300.0, 1500, 1e-7)
