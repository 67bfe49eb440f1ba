#!/usr/bin/python3
"""Reference solution of the Cartesian pendulum (models/pendulum).

Writes Pendulum.csv next to this script: the exact solution from Jacobi
elliptic functions at t = 0, 0.01, ..., 10 s, with every state, every state
derivative and the algebraic variable `lambda`. lsdae is not involved.

Model (y axis up, unit-mass form, see ../README.md):
    der(x) = vx,  der(y) = vy,  der(vx) = lambda*x,  der(vy) = lambda*y - g,
    0 = x^2 + y^2 - L^2,
    x(0) = L, y(0) = 0, vx(0) = vy(0) = 0.

Exact solution. theta is the angle from the downward vertical,
x = L sin(theta), y = -L cos(theta), theta'' = -(g/L) sin(theta), released at
rest from theta0 = pi/2. With w = sqrt(g/L), k = sin(theta0/2), m = k^2 and
u = K(m) - w t:
    sin(theta/2) = k sn(u | m),     theta' = -2 k w cn(u | m).
The velocities follow by the chain rule, vx = L cos(theta) theta',
vy = L sin(theta) theta', so x*vx + y*vy = 0 and x^2 + y^2 = L^2 hold to
rounding. lambda comes from the index-1 constraint
vx^2 + vy^2 + x der(vx) + y der(vy) = 0:  lambda = (g y - (vx^2 + vy^2)) / L^2
(negative: lambda = -T/(m L) with T the rod tension). The derivative columns
are evaluated from the other columns with the model's own formulas, so every
residual of the FMU vanishes to rounding when the row is set into it.

Cross-checks (the script fails if one does not hold):
  * solve_ivp (DOP853, rtol = atol = 1e-12) on theta'' = -(g/L) sin(theta);
  * mpmath's Jacobi functions at 50 digits at a few times (if mpmath exists).

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

# Parameters at their defaults (model.cpp).
L = 1.0
g = 9.81
THETA0 = np.pi / 2  # x = L, y = 0: horizontal
T_STOP = 10.0
N_INTERVALS = 1000  # rows every 0.01 s

COLUMNS = ["x", "y", "vx", "vy", "der(x)", "der(y)", "der(vx)", "der(vy)", "lambda"]


def exact(t):
    """theta, theta' at the times t (numpy array)."""
    w = np.sqrt(g / L)
    k = np.sin(THETA0 / 2)
    m = k * k
    u = ellipk(m) - w * t
    sn, cn, _dn, _ph = ellipj(u, m)
    theta = 2.0 * np.arcsin(k * sn)
    dtheta = -2.0 * k * w * cn
    return theta, dtheta


def columns_from_theta(theta, dtheta, t=None):
    """All CSV columns from theta and theta', with the model's formulas.

    At t = 0 the states are set to the exact start values (x = L, y = vx =
    vy = 0), which the trigonometric formulas only give to ~1e-16."""
    x = L * np.sin(theta)
    y = -L * np.cos(theta)
    vx = L * np.cos(theta) * dtheta
    vy = L * np.sin(theta) * dtheta
    if t is not None:
        at0 = t == 0.0
        x[at0], y[at0], vx[at0], vy[at0] = L, 0.0, 0.0, 0.0
    lam = (g * y - (vx * vx + vy * vy)) / (L * L)
    return {
        "x": x,
        "y": y,
        "vx": vx,
        "vy": vy,
        "der(x)": vx.copy(),
        "der(y)": vy.copy(),
        "der(vx)": lam * x,
        "der(vy)": lam * y - g,
        "lambda": lam,
    }


def check_against_ivp(t, theta, dtheta):
    sol = solve_ivp(lambda _t, s: [s[1], -(g / L) * np.sin(s[0])], (0.0, T_STOP), [THETA0, 0.0],
                    method="DOP853", t_eval=t, rtol=1e-12, atol=1e-12)
    assert sol.success, sol.message
    ref = columns_from_theta(sol.y[0], sol.y[1])
    ex = columns_from_theta(theta, dtheta)
    worst = max(np.max(np.abs(ref[c] - ex[c])) for c in ("x", "y", "vx", "vy", "lambda"))
    print(f"max |elliptic - solve_ivp(DOP853, rtol=1e-12)| over x, y, vx, vy, lambda: {worst:.3e}")
    assert worst < 1e-8, "elliptic solution disagrees with the numerical integration"


def check_against_mpmath():
    try:
        import mpmath
    except ImportError:
        print("mpmath not available: high-precision check skipped")
        return
    mpmath.mp.dps = 50
    k = mpmath.sin(mpmath.pi / 4)
    m = k * k
    w = mpmath.sqrt(mpmath.mpf(g) / mpmath.mpf(L))
    worst = 0.0
    for tt in (0.0, 0.37, 1.0, 2.5, 5.0, 7.77, 10.0):
        u = mpmath.ellipk(m) - w * mpmath.mpf(tt)
        th = 2 * mpmath.asin(k * mpmath.ellipfun("sn", u, m=m))
        dth = -2 * k * w * mpmath.ellipfun("cn", u, m=m)
        th_d, dth_d = exact(np.array([tt]))
        worst = max(worst, abs(float(th - th_d[0])), abs(float(dth - dth_d[0])))
    print(f"max |scipy ellipj - mpmath (50 digits)| over theta, theta': {worst:.3e}")
    assert worst < 1e-12, "scipy's Jacobi functions are not accurate enough"


def main():
    t = np.arange(N_INTERVALS + 1) / (N_INTERVALS / T_STOP)  # exact decimals i/100
    theta, dtheta = exact(t)
    check_against_ivp(t, theta, dtheta)
    check_against_mpmath()
    cols = columns_from_theta(theta, dtheta, t)

    # Constraint residuals of the rows (rounding level).
    c0 = cols["x"] ** 2 + cols["y"] ** 2 - L * L
    c1 = cols["x"] * cols["vx"] + cols["y"] * cols["vy"]
    c2 = (cols["vx"] ** 2 + cols["vy"] ** 2 + cols["x"] * cols["der(vx)"] + cols["y"] * cols["der(vy)"])
    print(f"max |c0|, |c1|, |c2| on the rows: {np.max(np.abs(c0)):.3e} {np.max(np.abs(c1)):.3e} "
          f"{np.max(np.abs(c2)):.3e}")
    energy = 0.5 * (cols["vx"] ** 2 + cols["vy"] ** 2) + g * cols["y"]
    print(f"max |energy - energy(0)| (m = 1): {np.max(np.abs(energy - energy[0])):.3e}")

    path = os.path.join(HERE, "Pendulum.csv")
    reference_tools.write_csv(path, ["time"] + COLUMNS,
                              ([t[i]] + [cols[c][i] for c in COLUMNS] for i in range(len(t))))
    print(f"wrote {path}: {len(t)} rows")


if __name__ == "__main__":
    main()
