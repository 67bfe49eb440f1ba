#!/usr/bin/python3
"""Reference solution of models/clutch (Clutch).

Writes Clutch.csv next to this script: the exact solution at t = 0, 0.01,
..., 12 s, plus two rows (before, after) at each event, with w[1], w[2],
der(w[1]), der(w[2]) and tc, and prints the event times and the post-lock
speed. lsdae is not involved.

Model (see ../README.md): J1 w1' = T1 - tc, J2 w2' = -d w2 + tc;
released tc = 0; locked w1 = w2. Locks at t_lock; released when tc > tc_max.

Exact solution, piecewise:
  released (0 <= t < t_lock):  w1 = w10 + T1 t / J1,  w2 = w20 exp(-d t / J2)
  lock: the impulse conserves J1 w1 + J2 w2:  w+ = (J1 w1 + J2 w2) / (J1 + J2)
  locked: (J1 + J2) w' = T1 - d w:  w = winf + (w+ - winf) exp(-d (t - t_lock) / (J1 + J2)),
          winf = T1 / d,  tc = T1 - J1 w' = (T1 J2 + J1 d w) / (J1 + J2)
  release when tc = tc_max:  w_rel = (tc_max (J1 + J2) - T1 J2) / (J1 d),
          t_rel = t_lock - (J1 + J2) / d * ln((w_rel - winf) / (w+ - winf))
  released again: w1 = w_rel + T1 (t - t_rel) / J1,  w2 = w_rel exp(-d (t - t_rel) / J2)

Independent cross-check (the script fails otherwise): solve_ivp (DOP853,
rtol = atol = 1e-13) on each phase, the lock as the momentum balance
and the release located by an event function on tc - tc_max.

Run: python3 make_reference.py   (numpy and scipy).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

reference_tools.require_numpy_scipy(__file__)

import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

J1, J2, T1, D = 0.8, 2.5, 5.0, 0.5
W10, W20 = 0.0, 10.0
T_LOCK, TC_MAX = 1.0, 4.9
T_STOP = 12.0
N_INTERVALS = 1200
COLUMNS = ["w[1]", "w[2]", "der(w[1])", "der(w[2])", "tc"]

W1_LOCK = W10 + T1 * T_LOCK / J1
W2_LOCK = W20 * np.exp(-D * T_LOCK / J2)
W_PLUS = (J1 * W1_LOCK + J2 * W2_LOCK) / (J1 + J2)
W_INF = T1 / D
W_REL = (TC_MAX * (J1 + J2) - T1 * J2) / (J1 * D)
T_REL = T_LOCK - (J1 + J2) / D * np.log((W_REL - W_INF) / (W_PLUS - W_INF))


def released(t, w1_0, w2_0, t0):
    w1 = w1_0 + T1 * (t - t0) / J1
    w2 = w2_0 * np.exp(-D * (t - t0) / J2)
    return [w1, w2, T1 / J1, -D * w2 / J2, 0.0]


def locked(t):
    w = W_INF + (W_PLUS - W_INF) * np.exp(-D * (t - T_LOCK) / (J1 + J2))
    dw = (T1 - D * w) / (J1 + J2)
    return [w, w, dw, dw, T1 - J1 * dw]


def exact(t, side=+1):
    """side = -1: the left limit at an event time."""
    if t < T_LOCK or (t == T_LOCK and side < 0):
        return released(t, W10, W20, 0.0)
    if t < T_REL or (t == T_REL and side < 0):
        return locked(t)
    return released(t, W_REL, W_REL, T_REL)


def cross_check():
    opts = dict(method="DOP853", rtol=1e-13, atol=1e-13, dense_output=True)
    p1 = solve_ivp(lambda t, w: [T1 / J1, -D * w[1] / J2], (0, T_LOCK), [W10, W20], **opts)
    w1, w2 = p1.y[:, -1]
    w_plus = (J1 * w1 + J2 * w2) / (J1 + J2)

    def tc_of(w):
        return T1 - J1 * (T1 - D * w) / (J1 + J2)

    def release(t, w):
        return tc_of(w[0]) - TC_MAX
    release.terminal = True
    p2 = solve_ivp(lambda t, w: [(T1 - D * w[0]) / (J1 + J2)], (T_LOCK, T_STOP), [w_plus], events=release, **opts)
    t_rel = p2.t_events[0][0]
    w_rel = p2.y_events[0][0][0]
    p3 = solve_ivp(lambda t, w: [T1 / J1, -D * w[1] / J2], (t_rel, T_STOP), [w_rel, w_rel], **opts)
    assert abs(w_plus - W_PLUS) < 1e-12 * W_PLUS, (w_plus, W_PLUS)
    assert abs(t_rel - T_REL) < 1e-9, (t_rel, T_REL)
    worst = 0.0
    for t in np.linspace(0, T_STOP, 241):
        if t < T_LOCK:
            num = p1.sol(t)
        elif t < t_rel:
            num = [p2.sol(t)[0]] * 2
        else:
            num = p3.sol(t)
        ref = exact(t)
        worst = max(worst, abs(num[0] - ref[0]), abs(num[1] - ref[1]))
    assert worst < 1e-10, worst
    return worst


def main():
    worst = cross_check()
    times = [k * T_STOP / N_INTERVALS for k in range(N_INTERVALS + 1)]
    rows = []
    for t in times:
        for event in (T_LOCK, T_REL):
            if rows and rows[-1][0] < event < t or (t == event):
                if not any(r[0] == event for r in rows):
                    rows.append([event] + exact(event, -1))
                    rows.append([event] + exact(event, +1))
        if not any(r[0] == t for r in rows):
            rows.append([t] + exact(t))
    with open(os.path.join(HERE, "Clutch.csv"), "w") as f:
        f.write(",".join(["time"] + COLUMNS) + "\n")
        for r in rows:
            f.write(",".join(repr(float(v)) for v in r) + "\n")
    print(f"lock at {T_LOCK}: w1 = {W1_LOCK!r}, w2 = {W2_LOCK!r} -> w+ = {W_PLUS!r} "
          f"(the minimum-norm mean would be {(W1_LOCK + W2_LOCK) / 2!r})")
    print(f"release at t = {T_REL!r} (tc = {TC_MAX}), w = {W_REL!r}; solve_ivp agrees to {worst:.1e}")


if __name__ == "__main__":
    main()
