#!/usr/bin/python3
"""Reference solution of models/cartesian_pendulum (CartesianPendulum).

Writes CartesianPendulum.csv next to this script: the exact solution at
t = 0, 0.01, ..., 10 s with the states r[1], r[2], u[1], u[2], their
derivatives and the rod force F. lsdae is not involved.

Model (r[2] up, see ../README.md):
    m der(u[1]) = -F r[1],   m der(u[2]) = -F r[2] - m g,   der(r) = u,
    0 = r[1]^2 + r[2]^2 - l^2,   r(0) = (l, 0), u(0) = 0,
    l = 0.8 m, m = 0.5 kg, g = 9.81 m/s2.

Exact solution: with theta the angle from the downward vertical,
r = (l sin theta, -l cos theta), theta'' = -(g/l) sin theta, theta0 = pi/2,
released at rest. With w = sqrt(g/l), k = sin(theta0/2), mm = k^2 and
s = K(mm) - w t:  sin(theta/2) = k sn(s | mm),  theta' = -2 k w cn(s | mm).
u follows by the chain rule; F from the index-1 constraint with |r| = l:
F = m (|u|^2 - g r[2]) / l^2; der(u) from the equations of motion.

Independent cross-checks (the script fails otherwise):
  * solve_ivp (DOP853, rtol = atol = 1e-13) on the angle ODE;
  * solve_ivp (Radau, rtol = atol = 1e-12) on the Cartesian index-1 ODE
    (F eliminated), a second, coordinate-based integration.

Run: python3 make_reference.py   (numpy and scipy; re-runs itself with
/usr/bin/python3 when the first python3 lacks them).
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

L = 0.8
M = 0.5
G = 9.81
THETA0 = np.pi / 2
T_STOP = 10.0
N_INTERVALS = 1000

COLUMNS = ["r[1]", "r[2]", "u[1]", "u[2]", "der(r[1])", "der(r[2])", "der(u[1])", "der(u[2])", "F"]


def exact(t):
    w = np.sqrt(G / L)
    k = np.sin(THETA0 / 2)
    mm = k * k
    s = ellipk(mm) - w * t
    sn, cn, _dn, _ph = ellipj(s, mm)
    return 2.0 * np.arcsin(k * sn), -2.0 * k * w * cn


def columns(r1, r2, u1, u2):
    f = M * (u1 * u1 + u2 * u2 - G * r2) / (L * L)
    return {
        "r[1]": r1, "r[2]": r2, "u[1]": u1, "u[2]": u2,
        "der(r[1])": u1.copy(), "der(r[2])": u2.copy(),
        "der(u[1])": -f * r1 / M, "der(u[2])": -f * r2 / M - G,
        "F": f,
    }


def from_theta(theta, dtheta):
    return (L * np.sin(theta), -L * np.cos(theta), L * np.cos(theta) * dtheta, L * np.sin(theta) * dtheta)


def main():
    t = np.arange(N_INTERVALS + 1) / (N_INTERVALS / T_STOP)
    theta, dtheta = exact(t)
    r1, r2, u1, u2 = from_theta(theta, dtheta)
    r1[0], r2[0], u1[0], u2[0] = L, 0.0, 0.0, 0.0
    cols = columns(r1, r2, u1, u2)

    angle = solve_ivp(lambda _t, s: [s[1], -(G / L) * np.sin(s[0])], (0.0, T_STOP), [THETA0, 0.0],
                      method="DOP853", t_eval=t, rtol=1e-13, atol=1e-13)
    assert angle.success, angle.message
    a = from_theta(angle.y[0], angle.y[1])
    worst_angle = max(np.max(np.abs(a[i] - (r1, r2, u1, u2)[i])) for i in range(4))
    print(f"max |exact - solve_ivp(DOP853) on the angle| over r, u: {worst_angle:.3e}")
    assert worst_angle < 1e-9

    def cartesian(_t, s):
        p1, p2, v1, v2 = s
        f = M * (v1 * v1 + v2 * v2 - G * p2) / (p1 * p1 + p2 * p2)
        return [v1, v2, -f * p1 / M, -f * p2 / M - G]

    cart = solve_ivp(cartesian, (0.0, T_STOP), [L, 0.0, 0.0, 0.0], method="Radau", t_eval=t, rtol=1e-12,
                     atol=1e-12)
    assert cart.success, cart.message
    worst_cart = max(np.max(np.abs(cart.y[i] - (r1, r2, u1, u2)[i])) for i in range(4))
    print(f"max |exact - solve_ivp(Radau) on the Cartesian index-1 ODE| over r, u: {worst_cart:.3e}")
    assert worst_cart < 1e-6

    g_pos = r1 * r1 + r2 * r2 - L * L
    g_vel = r1 * u1 + r2 * u2
    print(f"max |g_pos|, |g_vel| on the rows: {np.max(np.abs(g_pos)):.3e} {np.max(np.abs(g_vel)):.3e}")
    print(f"r[1](10) = {r1[-1]:.6f}")
    path = os.path.join(HERE, "CartesianPendulum.csv")
    reference_tools.write_csv(path, ["time"] + COLUMNS,
                              ([t[i]] + [cols[c][i] for c in COLUMNS] for i in range(len(t))))
    print(f"wrote {path}: {len(t)} rows")


if __name__ == "__main__":
    main()
