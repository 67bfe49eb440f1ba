#!/usr/bin/env python3
"""Reference solution of CauerLowPass (Modelica.Electrical.Analog.Examples.CauerLowPassAnalog).

The circuit is linear. With the five independent states x = (C1.v, C3.v, C5.v,
L1.i, L2.i) (the dummy-derivative choice of the FMI-LS-DAE draft) and the
source voltage u = V.v, Kirchhoff's laws give E x' = A x + b u:

    (c1 + c2) C1.v' - c2 C3.v'                = (u - C1.v)/R1 - L1.i     (node n1)
    -c2 C1.v' + (c2 + c3 + c4) C3.v' - c4 C5.v' = L1.i - L2.i            (node n2)
    -c4 C3.v' + (c4 + c5) C5.v'                = L2.i - C5.v/R2          (node n3)
    l1 L1.i' = C1.v - C3.v,   l2 L2.i' = C3.v - C5.v

u = V.offset + (0 if t < V.startTime else V.V) = 0 before t = 1 and 1 from t = 1
on, all states start at 0, so x = 0 for t < 1 and for t >= 1 the exact step
response is x(t) = int_0^(t-1) e^(F s) ds g with F = E^-1 A, g = E^-1 b. It is
evaluated for every row as the upper-right block of the matrix exponential of
the augmented matrix [[F, g], [0, 0]] (t - 1) (scipy.linalg.expm), and checked
against an independent stiff integration (scipy Radau, rtol 1e-12).

Every other column follows from the equations of the FMU: C2.v = L1.v =
C1.v - C3.v, C4.v = L2.v = C3.v - C5.v, (C1.v', C3.v', C5.v') from the node
equations (numpy.linalg.solve), C2.v' = L1.v' = C1.v' - C3.v', C4.v' = L2.v' =
C3.v' - C5.v', L1.i' = L1.v/l1, L2.i' = L2.v/l2, C_k.i = c_k C_k.v',
R1.i = (u - C1.v)/R1, R2.i = C5.v/R2. The script evaluates all 20 residuals of
the FMU on every row and asserts they vanish to rounding.

Rows every 0.1 s over 0..60 s (the default experiment) EXCEPT t = 1, the time
event: the states are continuous there but derivatives and currents jump, so a
single row would be ambiguous (same convention as models/time_event). Rows with
t > 1 need u = V.v = 1, i.e. the time event to have been handled. Needs numpy and scipy (Debian:
python3-numpy, python3-scipy). Run: python3 make_reference.py (writes
CauerLowPass.csv next to it).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

reference_tools.require_numpy_scipy(__file__)  # a python3 earlier in PATH (pyenv, venv) may lack them

import numpy as np  # noqa: E402
import scipy.integrate  # noqa: E402
import scipy.linalg  # noqa: E402

# Parameters, evaluated exactly as model.cpp does.
L = [1.304, 0.8586]
C = [1.072, 1.0 / (1.704992 * 1.704992 * 1.304), 1.682, 1.0 / (1.179945 * 1.179945 * 0.8586), 0.7262]
R1, R2 = 1.0, 1.0
V_HEIGHT, V_OFFSET, V_START = 1.0, 0.0, 1.0
STOP, ROWS = 60.0, 600  # 0.1 s output interval

M = np.array([[C[0] + C[1], -C[1], 0.0],
              [-C[1], C[1] + C[2] + C[3], -C[3]],
              [0.0, -C[3], C[3] + C[4]]])

COLUMNS = (["C1.v", "C2.v", "C3.v", "C4.v", "C5.v", "L1.i", "L2.i", "L1.v", "L2.v"] +
           ["der(%s)" % s for s in ["C1.v", "C2.v", "C3.v", "C4.v", "C5.v", "L1.i", "L2.i", "L1.v", "L2.v"]] +
           ["C1.i", "C2.i", "C3.i", "C4.i", "C5.i", "R1.i", "R2.i"])


assert V_OFFSET == 0.0, "the closed form below assumes the circuit at rest before the step"


def source(t):
    return V_OFFSET + (0.0 if t < V_START else V_HEIGHT)


def system():
    """F, g of x' = F x + g u for x = (C1.v, C3.v, C5.v, L1.i, L2.i)."""
    E = np.zeros((5, 5))
    E[:3, :3] = M
    E[3, 3], E[4, 4] = L[0], L[1]
    A = np.array([[-1.0 / R1, 0.0, 0.0, -1.0, 0.0],
                  [0.0, 0.0, 0.0, 1.0, -1.0],
                  [0.0, 0.0, -1.0 / R2, 0.0, 1.0],
                  [1.0, -1.0, 0.0, 0.0, 0.0],
                  [0.0, 1.0, -1.0, 0.0, 0.0]])
    b = np.array([1.0 / R1, 0.0, 0.0, 0.0, 0.0])
    return np.linalg.solve(E, A), np.linalg.solve(E, b)


def exact_states(times):
    F, g = system()
    aug = np.zeros((6, 6))
    aug[:5, :5] = F
    aug[:5, 5] = g
    x = np.zeros((len(times), 5))
    for k, t in enumerate(times):
        if t >= V_START:
            x[k] = scipy.linalg.expm(aug * (t - V_START))[:5, 5] * V_HEIGHT
    return x


def integrated_states(times):
    F, g = system()
    after = times[times >= V_START]
    sol = scipy.integrate.solve_ivp(lambda t, x: F @ x + g * V_HEIGHT, (V_START, times[-1]), np.zeros(5),
                                    method="Radau", t_eval=after, rtol=1e-12, atol=1e-14, jac=F)
    x = np.zeros((len(times), 5))
    x[times >= V_START] = sol.y.T
    return x


def row(t, x):
    u = source(t)
    v1, v3, v5, i1, i2 = x
    d1, d3, d5 = np.linalg.solve(M, np.array([(u - v1) / R1 - i1, i1 - i2, i2 - v5 / R2]))
    lv1, lv2 = v1 - v3, v3 - v5
    cv = [v1, lv1, v3, lv2, v5]
    dcv = [d1, d1 - d3, d3, d3 - d5, d5]
    vals = cv + [i1, i2, lv1, lv2]
    vals += dcv + [lv1 / L[0], lv2 / L[1], d1 - d3, d3 - d5]
    vals += [C[k] * dcv[k] for k in range(5)] + [(u - v1) / R1, v5 / R2]
    return dict(zip(COLUMNS, (float(v) for v in vals)))


def residuals(t, r):
    """The FMU's residuals r[1..16] and dr[13..16], as model.cpp computes them."""
    u = source(t)
    g = lambda name: r[name]
    res = [g("C%d.i" % (k + 1)) - C[k] * g("der(C%d.v)" % (k + 1)) for k in range(5)]
    res += [g("L%d.v" % (k + 1)) - L[k] * g("der(L%d.i)" % (k + 1)) for k in range(2)]
    res += [u - g("C1.v") - R1 * g("R1.i"),
            g("C5.v") - R2 * g("R2.i"),
            g("R1.i") - g("C1.i") - g("C2.i") - g("L1.i"),
            g("C2.i") + g("L1.i") - g("C3.i") - g("C4.i") - g("L2.i"),
            g("C4.i") + g("L2.i") - g("C5.i") - g("R2.i"),
            g("L1.v") - (g("C1.v") - g("C3.v")), g("der(L1.v)") - (g("der(C1.v)") - g("der(C3.v)")),
            g("C2.v") - g("L1.v"), g("der(C2.v)") - g("der(L1.v)"),
            g("L2.v") - (g("C3.v") - g("C5.v")), g("der(L2.v)") - (g("der(C3.v)") - g("der(C5.v)")),
            g("C4.v") - g("L2.v"), g("der(C4.v)") - g("der(L2.v)")]
    return res


def main():
    times = np.array([STOP * k / ROWS for k in range(ROWS + 1) if STOP * k / ROWS != V_START])
    x = exact_states(times)
    drift = np.max(np.abs(x - integrated_states(times)))
    assert drift < 1e-9, drift
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "CauerLowPass.csv")
    worst, rows = 0.0, []
    for t, xk in zip(times, x):
        r = row(float(t), xk)
        worst = max(worst, max(abs(v) for v in residuals(float(t), r)))
        rows.append([float(t)] + [r[c] for c in COLUMNS])
    reference_tools.write_csv(path, ["time"] + COLUMNS, rows)
    assert worst < 1e-14, worst
    final = row(float(times[-1]), x[-1])
    print("wrote %s: %d rows, max |residual| %.3g, expm vs Radau %.3g, R2 voltage at %g s: %.6f"
          % (path, len(times), worst, drift, STOP, final["C5.v"]))


if __name__ == "__main__":
    main()
