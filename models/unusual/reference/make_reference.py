#!/usr/bin/python3
"""Exact solutions of the models in models/unusual (closed form, standard library only).

unusual_oscillator.csv, UnusualOscillator on 0..5 s, step 0.05 (k = 0.5, w = 2):
    x = e^(-k t), p = cos(w t), v = -w sin(w t), f = -w^2 p, s = x + p
    columns: time, x, der(x), p, der(p), v, der(v), f, s, sum, twice_v, rs
unusual_constraint.csv, UnusualConstraint on 0..2 s, step 0.02 (C1 = 1, C2 = 2, a = 2):
    x2 = 1 - t/(a C1 + C2), x1 = a x2, y = a C1/(a C1 + C2)
    columns: time, x1, der(x1), x2, der(x2), y

Cross-checks (the script fails if one does not hold): each derivative column matches a
central difference of its state column, and the residuals of the model equations vanish.
Run it in this folder: python3 make_reference.py
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402


def oscillator_row(t, k=0.5, w=2.0):
    x, p, v = math.exp(-k * t), math.cos(w * t), -w * math.sin(w * t)
    f = -w * w * p
    s = x + p
    return [t, x, -k * x, p, v, v, f, f, s, s, 2.0 * v, 0.0]


def constraint_row(t, c1=1.0, c2=2.0, a=2.0):
    rate = 1.0 / (a * c1 + c2)
    x2 = 1.0 - rate * t
    return [t, a * x2, -a * rate, x2, -rate, a * c1 * rate]


def check_derivatives(row_of, columns, pairs, times):
    h = 1e-5
    for t in times:
        lo, hi, mid = row_of(t - h), row_of(t + h), row_of(t)
        for state, der in pairs:
            i, j = columns.index(state), columns.index(der)
            fd = (hi[i] - lo[i]) / (2 * h)
            if abs(fd - mid[j]) > 1e-6 * max(1.0, abs(mid[j])):
                sys.exit("%s at t=%g: d/dt by differences %r, column %r" % (der, t, fd, mid[j]))


def main():
    osc_cols = ["time", "x", "der(x)", "p", "der(p)", "v", "der(v)", "f", "s", "sum", "twice_v", "rs"]
    osc_times = [k * 0.05 for k in range(101)]
    check_derivatives(oscillator_row, osc_cols, [("x", "der(x)"), ("p", "der(p)"), ("v", "der(v)")], osc_times[1:])
    for t in osc_times:
        r = oscillator_row(t)
        if abs(r[7] + 4.0 * r[3]) > 1e-12 or abs(r[8] - r[1] - r[3]) > 1e-12:
            sys.exit("oscillator residuals do not vanish at t=%g" % t)
    reference_tools.write_csv("unusual_oscillator.csv", osc_cols, [oscillator_row(t) for t in osc_times])

    con_cols = ["time", "x1", "der(x1)", "x2", "der(x2)", "y"]
    con_times = [k * 0.02 for k in range(101)]
    check_derivatives(constraint_row, con_cols, [("x1", "der(x1)"), ("x2", "der(x2)")], con_times[1:])
    for t in con_times:
        _, x1, dx1, x2, dx2, y = constraint_row(t)
        residuals = [dx1 + y, 2.0 * dx2 - y + 1.0, x1 - 2.0 * x2, dx1 - 2.0 * dx2]
        if max(abs(r) for r in residuals) > 1e-12:
            sys.exit("constraint residuals do not vanish at t=%g: %r" % (t, residuals))
    reference_tools.write_csv("unusual_constraint.csv", con_cols, [constraint_row(t) for t in con_times])


if __name__ == "__main__":
    main()
