#!/usr/bin/env python3
"""Reference tables of models/systems (README.md "References").

SlidingMass.csv  mass 2 of CoupledMasses (m = 2, F0 = 0, driven through its
                 input F by the constraint force): columns time, s, v, F,
                 der(s), der(v), taken from the exact CoupledMasses.csv
                 (s2, v2, Fz, der(s2), der(v2)); also F.csv, the input table
                 (time, F) for `lsdae simulate SlidingMass.fmu --input`.
loop.csv         the algebraic loop of FeedthroughLoop (a = 0.5, b = -0.8,
                 c = 2, x1(0) = 1, x2(0) = 0): x' = M x is linear, so
                 x(t) = expm(M t) x(0) exactly; y1, y2, u1 = y2, u2 = y1,
                 w = b u2 and der(x1), der(x2) follow from x with the
                 model's formulas, so every residual vanishes to rounding.
                 loop_u1.csv, loop_u2.csv: each half's input (the other
                 half's output) every 0.005 s, to run one half alone.
SpeedSource.csv  the ideal velocity source alone: v = sin(2t),
                 s = (1 - cos(2t))/2.

Run in this folder: /usr/bin/python3 make_reference.py (numpy, scipy).
"""
import csv
import os

import numpy as np
from scipy.linalg import expm

HERE = os.path.dirname(os.path.abspath(__file__))


def sliding_mass():
    src = os.path.join(HERE, "..", "..", "coupled_masses", "reference", "CoupledMasses.csv")
    with open(src) as f:
        rows = list(csv.DictReader(f))
    with open(os.path.join(HERE, "SlidingMass.csv"), "w") as out:
        out.write("time,s,v,F,der(s),der(v)\n")
        for r in rows:
            out.write(",".join(r[k] for k in ("time", "s2", "v2", "Fz", "der(s2)", "der(v2)")) + "\n")
    with open(os.path.join(HERE, "F.csv"), "w") as out:
        out.write("time,F\n")
        for r in rows:
            out.write(r["time"] + "," + r["Fz"] + "\n")


def loop():
    a, b, c = 0.5, -0.8, 2.0
    # y1 = (x1 - a x2)/(1 - a b), y2 = b y1 - x2; x1' = -x1 + y2, x2' = y1 - c x2
    k = 1.0 / (1.0 - a * b)
    Y1 = np.array([k, -a * k])
    Y2 = b * Y1 - np.array([0.0, 1.0])
    M = np.array([[-1.0, 0.0], [0.0, -c]]) + np.array([Y2, Y1])
    x0 = np.array([1.0, 0.0])
    with open(os.path.join(HERE, "loop.csv"), "w") as out:
        out.write("time,x1,x2,y1,y2,u1,u2,w,der(x1),der(x2)\n")
        for i in range(101):
            t = i * 0.05
            x1, x2 = expm(M * t) @ x0
            y1 = (x1 - a * x2) / (1.0 - a * b)
            y2 = b * y1 - x2
            w = b * y1
            y2 = w - x2
            d1 = -x1 + y2
            d2 = y1 - c * x2
            # residuals of LoopBoth: y1 - a y2 - x1 is rounding only
            vals = [t, x1, x2, y1, y2, y2, y1, w, d1, d2]
            out.write(",".join(repr(float(v)) for v in vals) + "\n")
    # Input tables for each half run alone (lsdae simulate --input): the
    # other half's output at a finer step, linearly interpolated by lsdae.
    for name, column in (("loop_u1.csv", "u1"), ("loop_u2.csv", "u2")):
        with open(os.path.join(HERE, name), "w") as out:
            out.write("time," + column + "\n")
            for i in range(1001):
                t = i * 0.005
                x1, x2 = expm(M * t) @ x0
                y1 = (x1 - a * x2) / (1.0 - a * b)
                y2 = b * y1 - x2
                out.write(repr(t) + "," + repr(float(y2 if column == "u1" else y1)) + "\n")
    # check against an independent integration
    from scipy.integrate import solve_ivp
    sol = solve_ivp(lambda t, x: M @ x, (0, 5), x0, method="DOP853", rtol=1e-13, atol=1e-15,
                    t_eval=[0.05 * i for i in range(101)])
    ex = np.array([expm(M * t) @ x0 for t in sol.t]).T
    err = np.max(np.abs(sol.y - ex))
    assert err < 1e-10, err
    print("loop: expm vs DOP853 agree to", err)


def speed_source():
    # v = V sin(omega t), s = V (1 - cos(omega t))/omega with V = 1, omega = 2
    with open(os.path.join(HERE, "SpeedSource.csv"), "w") as out:
        out.write("time,s,v\n")
        for i in range(101):
            t = i * 0.01
            out.write("%r,%r,%r\n" % (t, (1.0 - np.cos(2.0 * t)) / 2.0, np.sin(2.0 * t)))


if __name__ == "__main__":
    sliding_mass()
    loop()
    speed_source()
