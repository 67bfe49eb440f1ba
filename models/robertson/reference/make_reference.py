#!/usr/bin/python3
"""Reference solution of the Robertson kinetics (models/robertson).

Writes Robertson.csv next to this script: y1, y2, y3, der(y1), der(y2) at the
standard output times of the SUNDIALS examples, t = 0 and 0.4*10^k for
k = 0..11 (0.4 ... 4e10). lsdae is not involved.

Model (see ../README.md):
    der(y1) = -k1 y1 + k3 y2 y3
    der(y2) =  k1 y1 - k3 y2 y3 - k2 y2^2
    0       =  y1 + y2 + y3 - 1
    y1(0) = 1, y2(0) = 0, y3(0) = 0;   k1 = 0.04, k2 = 3e7, k3 = 1e4.

Method. The index-1 DAE is reduced to the ODE in (y1, y2) with
y3 = 1 - y1 - y2 (what the FMU computes in ODE mode) and integrated with
scipy's Radau (5th-order implicit Runge-Kutta) at rtol = 1e-12 with absolute
tolerances far below each component's scale (atol = 1e-22 for y1, 1e-26 for
y2: y2 never exceeds 3.7e-5 and falls to 2e-13 at t = 4e10), analytic
Jacobian. y3 is then 1 - y1 - y2 and the derivative columns are evaluated with
the model's formulas from the y columns, so the FMU's derivatives and its
residual match them to rounding.

Cross-checks (the script fails if one does not hold):
  * the full three-component ODE (der(y3) = k2 y2^2) integrated with scipy's
    BDF (variable-order NDF) at rtol = 1e-12: an independent method on an
    independent formulation; agreement to a relative 1e-7 is required;
  * the reference answer at t = 4e10 that SUNDIALS' idaRoberts_dns.c checks
    against (computed with rtol = 1e-8, atol = 1e-14): y1 = 5.2083474251394888e-08,
    y2 = 2.0833390772616859e-13, y3 = 9.9999994791631752e-01; agreement to a
    relative 1e-6 (the precision of that reference) is required.

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

HERE = os.path.dirname(os.path.abspath(__file__))

# Parameters at their defaults (model.cpp).
k1 = 0.04
k2 = 3e7
k3 = 1e4

TIMES = np.array([0.0] + [float(f"0.4e{k}") for k in range(12)])  # 0.4, 4, ..., 4e10 as exact decimals
COLUMNS = ["y1", "y2", "y3", "der(y1)", "der(y2)"]

# SUNDIALS idaRoberts_dns.c, check_ans(): answer at t = 4e10.
SUNDIALS_4E10 = (5.2083474251394888e-08, 2.0833390772616859e-13, 9.9999994791631752e-01)


def rhs2(_t, y):
    y1, y2 = y
    y3 = 1.0 - y1 - y2
    return [-k1 * y1 + k3 * y2 * y3, k1 * y1 - k3 * y2 * y3 - k2 * y2 * y2]


def jac2(_t, y):
    y1, y2 = y
    y3 = 1.0 - y1 - y2
    return [[-k1 - k3 * y2, k3 * (y3 - y2)],
            [k1 + k3 * y2, -k3 * (y3 - y2) - 2.0 * k2 * y2]]


def rhs3(_t, y):
    y1, y2, y3 = y
    return [-k1 * y1 + k3 * y2 * y3, k1 * y1 - k3 * y2 * y3 - k2 * y2 * y2, k2 * y2 * y2]


def jac3(_t, y):
    y1, y2, y3 = y
    return [[-k1, k3 * y3, k3 * y2],
            [k1, -k3 * y3 - 2.0 * k2 * y2, -k3 * y2],
            [0.0, 2.0 * k2 * y2, 0.0]]


def main():
    sol = solve_ivp(rhs2, (0.0, TIMES[-1]), [1.0, 0.0], method="Radau", t_eval=TIMES, jac=jac2,
                    rtol=1e-12, atol=[1e-22, 1e-26])
    assert sol.success, sol.message
    print(f"Radau (2 states): {sol.nfev} f-evals, {sol.njev} J-evals, {sol.nlu} LU")
    y1 = sol.y[0].copy()
    y2 = sol.y[1].copy()
    y1[0], y2[0] = 1.0, 0.0  # exact start values
    y3 = 1.0 - y1 - y2
    cols = {
        "y1": y1,
        "y2": y2,
        "y3": y3,
        "der(y1)": -k1 * y1 + k3 * y2 * y3,
        "der(y2)": k1 * y1 - k3 * y2 * y3 - k2 * y2 * y2,
    }

    chk = solve_ivp(rhs3, (0.0, TIMES[-1]), [1.0, 0.0, 0.0], method="BDF", t_eval=TIMES, jac=jac3,
                    rtol=1e-12, atol=[1e-22, 1e-26, 1e-22])
    assert chk.success, chk.message
    worst = 0.0
    for i, c in enumerate(["y1", "y2", "y3"]):
        worst = max(worst, np.max(np.abs(chk.y[i][1:] - cols[c][1:]) / np.abs(cols[c][1:])))
    print(f"max relative |Radau(2 states) - BDF(3 states)| over y1, y2, y3: {worst:.3e}")
    assert worst < 1e-7, "the two integrations disagree"

    rel = [abs(cols[c][-1] - r) / r for c, r in zip(["y1", "y2", "y3"], SUNDIALS_4E10)]
    print("at t = 4e10: y1 = %.17g  y2 = %.17g  y3 = %.17g" % (y1[-1], y2[-1], y3[-1]))
    print("relative difference to the SUNDIALS idaRoberts_dns reference: %.3e %.3e %.3e" % tuple(rel))
    assert max(rel) < 1e-6, "disagrees with the SUNDIALS reference answer at t = 4e10"

    g = y1 + y2 + y3 - 1.0
    print(f"max |y1 + y2 + y3 - 1| on the rows: {np.max(np.abs(g)):.3e}")

    path = os.path.join(HERE, "Robertson.csv")
    reference_tools.write_csv(path, ["time"] + COLUMNS,
                              ([TIMES[i]] + [cols[c][i] for c in COLUMNS] for i in range(len(TIMES))))
    print(f"wrote {path}: {len(TIMES)} rows")


if __name__ == "__main__":
    main()
