#!/usr/bin/env python3
"""Analytic reference for the TimeEvent model (models/time_event).

    x' = (u - x)/T,   y = x,   x(0) = x0
    u = 0 for t < t_switch, u = 1 for t >= t_switch   (discrete, set by a time event)

Parameters at their defaults: T = 0.5, t_switch = 1, x0 = 1 (the start of x).

    t <  t_switch:  x(t) = x0 exp(-t/T)                              (decays towards 0)
    t >= t_switch:  x(t) = 1 + (x_s - 1) exp(-(t - t_switch)/T),      x_s = x0 exp(-t_switch/T)
                                                                     (rises towards 1)
x is continuous at t_switch; der(x) jumps there from -x_s/T to (1 - x_s)/T.

Writes TimeEvent.csv next to this script: time,x,der(x),y on the output grid
t = i*0.01, i = 0..300, leaving out the grid point at t = t_switch (within 1e-9 s), where
der(x) depends on whether the value before or after the event is meant.
Plain Python (math only).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

T = 0.5
T_SWITCH = 1.0
X0 = 1.0
START, STOP, INTERVALS = 0.0, 3.0, 300  # output step 0.01
EVENT_GAP = 1e-9


def solution(t):
    """(x, der(x)) at a time t != t_switch."""
    if t < T_SWITCH:
        x = X0 * math.exp(-t / T)
        u = 0.0
    else:
        xs = X0 * math.exp(-T_SWITCH / T)
        x = 1.0 + (xs - 1.0) * math.exp(-(t - T_SWITCH) / T)
        u = 1.0
    return x, (u - x) / T


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for i in range(INTERVALS + 1):
        t = START + i * (STOP - START) / INTERVALS  # nearest double to i/100
        if abs(t - T_SWITCH) <= EVENT_GAP:
            continue
        x, dx = solution(t)
        rows.append((t, x, dx, x))
    reference_tools.write_csv(os.path.join(here, "TimeEvent.csv"), ["time", "x", "der(x)", "y"], rows)


if __name__ == "__main__":
    main()
