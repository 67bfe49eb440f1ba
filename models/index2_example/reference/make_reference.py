#!/usr/bin/env python3
"""Reference solution of the FMI-LS-DAE draft's index-2 example (Index2Example).

    r1 = C1 der(x1) + y = 0,  r2 = C2 der(x2) - y + 1 = 0,  r3 = x1 - x2 = 0
    C1 = 1, C2 = 2, x1(0) = x2(0) = x0 = 1

r3 forces der(x1) = der(x2); adding r1 and r2 gives (C1 + C2) der(x) + 1 = 0, so
the exact solution is linear in time:

    x1 = x2 = x0 - t/(C1 + C2),  der(x1) = der(x2) = -1/(C1 + C2),  y = C1/(C1 + C2)

All three manifest cases describe the same equations, so they share one file.
Rows every 0.01 s over 0..1 s (the default experiment). Standard library only.
Run from anywhere: python3 make_reference.py  (writes Index2Example.csv next to it).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

C1, C2, X0 = 1.0, 2.0, 1.0
STOP, ROWS = 1.0, 100  # 0.01 s output interval


def row(t):
    x = X0 - t / (C1 + C2)
    dx = -1.0 / (C1 + C2)
    y = C1 / (C1 + C2)
    return {"x1": x, "x2": x, "der(x1)": dx, "der(x2)": dx, "y": y}


def residuals(t, r):
    res = [C1 * r["der(x1)"] + r["y"],
           C2 * r["der(x2)"] - r["y"] + 1.0,
           r["x1"] - r["x2"],
           r["der(x1)"] - r["der(x2)"]]
    return max(abs(v) for v in res)


def main():
    columns = ["x1", "x2", "der(x1)", "der(x2)", "y"]
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Index2Example.csv")
    worst, rows = 0.0, []
    for k in range(ROWS + 1):
        t = STOP * k / ROWS
        r = row(t)
        worst = max(worst, residuals(t, r))
        rows.append([t] + [r[c] for c in columns])
    reference_tools.write_csv(path, ["time"] + columns, rows)
    assert worst < 1e-15, worst
    print("wrote %s: %d rows, max |residual| %.3g" % (path, ROWS + 1, worst))


if __name__ == "__main__":
    main()
