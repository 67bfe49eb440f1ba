#!/usr/bin/env python3
"""Reference solution of TwoCapacitors (Cellier's two capacitors in parallel).

    source.v = V sin(omega t), R.v = R R.i, C1.i = C1 der(C1.v), C2.i = C2 der(C2.v),
    source.v = R.v + C1.v, C2.v = C1.v, R.i = C1.i + C2.i
    V = 1, omega = 1, R = 1, C1 = 1, C2 = 2, C1.v(0) = C2.v(0) = 0

With v = C1.v = C2.v the circuit is the RC low-pass tau v' + v = V sin(omega t),
tau = R (C1 + C2), whose exact solution from v(0) = 0 is

    v  = V/(1 + omega^2 tau^2) (sin(omega t) - omega tau cos(omega t) + omega tau e^(-t/tau))
    v' = V/(1 + omega^2 tau^2) (omega cos(omega t) + omega^2 tau sin(omega t) - omega e^(-t/tau))

The algebraic variables follow from the equations: source.v = V sin(omega t),
R.v = source.v - v, R.i = R.v / R, C1.i = C1 v', C2.i = C2 v'.
The script checks every residual of the FMU on every row and, independently,
checks the closed form against a fine classical Runge-Kutta integration of the
RC equation. Rows every 0.01 s over 0..10 s (the default experiment).
Standard library only. Run: python3 make_reference.py (writes TwoCapacitors.csv next to it).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

V, OMEGA, R, C1, C2 = 1.0, 1.0, 1.0, 1.0, 2.0
STOP, ROWS = 10.0, 1000  # 0.01 s output interval
TAU = R * (C1 + C2)
A = V / (1.0 + OMEGA * OMEGA * TAU * TAU)

COLUMNS = ["C1.v", "C2.v", "der(C1.v)", "der(C2.v)", "source.v", "R.v", "R.i", "C1.i", "C2.i"]


def row(t):
    s, c, e = math.sin(OMEGA * t), math.cos(OMEGA * t), math.exp(-t / TAU)
    v = A * (s - OMEGA * TAU * c + OMEGA * TAU * e)
    dv = A * (OMEGA * c + OMEGA * OMEGA * TAU * s - OMEGA * e)
    v0 = V * math.sin(OMEGA * t)
    vr = v0 - v
    i0 = vr / R
    return {"C1.v": v, "C2.v": v, "der(C1.v)": dv, "der(C2.v)": dv,
            "source.v": v0, "R.v": vr, "R.i": i0, "C1.i": C1 * dv, "C2.i": C2 * dv}


def residuals(t, r):
    """The FMU's residuals r[1..7] and dr[6], as model.cpp computes them."""
    return [r["source.v"] - V * math.sin(OMEGA * t),
            r["R.v"] - R * r["R.i"],
            r["C1.i"] - C1 * r["der(C1.v)"],
            r["C2.i"] - C2 * r["der(C2.v)"],
            r["source.v"] - r["R.v"] - r["C1.v"],
            r["C2.v"] - r["C1.v"],
            r["der(C2.v)"] - r["der(C1.v)"],
            r["R.i"] - r["C1.i"] - r["C2.i"]]


def rk4_check():
    """Integrate tau v' = V sin(omega t) - v with RK4 (h = 1e-3) and compare."""
    f = lambda t, v: (V * math.sin(OMEGA * t) - v) / TAU
    h, v, worst = 1e-3, 0.0, 0.0
    steps = int(round(STOP / h))
    for n in range(steps):
        t = n * h
        k1 = f(t, v)
        k2 = f(t + h / 2, v + h / 2 * k1)
        k3 = f(t + h / 2, v + h / 2 * k2)
        k4 = f(t + h, v + h * k3)
        v += h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        worst = max(worst, abs(v - row((n + 1) * h)["C1.v"]))
    return worst


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "TwoCapacitors.csv")
    worst, rows = 0.0, []
    for k in range(ROWS + 1):
        t = STOP * k / ROWS
        r = row(t)
        worst = max(worst, max(abs(x) for x in residuals(t, r)))
        rows.append([t] + [r[c] for c in COLUMNS])
    reference_tools.write_csv(path, ["time"] + COLUMNS, rows)
    assert worst < 1e-14, worst
    rk4 = rk4_check()
    assert rk4 < 1e-12, rk4
    print("wrote %s: %d rows, max |residual| %.3g, closed form vs RK4 %.3g" % (path, ROWS + 1, worst, rk4))


if __name__ == "__main__":
    main()
