#!/usr/bin/env python3
"""Exact reference of SliderCrank (models/slider_crank, README.md).

    phi = w t, w = 2 pi;  free: p = r (1 - cos phi);  latched: p = p_latch
    r = 1, p_latch = 1.5, dwell = 0.4

The slider reaches p_latch on the way up when cos phi = 1 - p_latch/r = -1/2, at
phi = 2 pi/3 + 2 pi k, i.e. t = 1/3 + k; the latch releases it at t = 1/3 + 0.4 + k,
where p = 1 - cos(2 pi (1/3 + 0.4)) = 1.1045 < p_latch, so it stays free until the
next turn. Writes, next to this script:
  events.csv       index,time,kind (1 latch, 2 release)
  SliderCrank.csv  time,phi,der(phi),p,z on the grid t = i*0.01, i = 0..200 (no grid
                   point falls within 1e-9 s of an event)
Plain Python (math only).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

W = 2.0 * math.pi
R = 1.0
P_LATCH = 1.5
DWELL = 0.4
STOP, INTERVALS = 2.0, 200


def events():
    phi_latch = math.acos(1.0 - P_LATCH / R)  # 2 pi/3
    out = []
    k = 0
    while True:
        t = (phi_latch + 2.0 * math.pi * k) / W
        if t > STOP:
            return out
        out.append((t, 1))
        if t + DWELL <= STOP:
            out.append((t + DWELL, 2))
        k += 1


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ev = events()
    with open(os.path.join(here, "events.csv"), "w") as f:
        f.write("index,time,kind\n")
        for i, (t, kind) in enumerate(ev, 1):
            f.write("%d,%.17g,%d\n" % (i, t, kind))
    latches = [t for t, kind in ev if kind == 1]
    rows = []
    for i in range(INTERVALS + 1):
        t = i * STOP / INTERVALS
        if any(abs(t - te) <= 1e-9 for te, _ in ev):
            continue
        latched = any(tl < t < tl + DWELL for tl in latches)
        phi = W * t
        p = P_LATCH if latched else R * (1.0 - math.cos(phi))
        rows.append((t, phi, W, p, p - P_LATCH))
    reference_tools.write_csv(os.path.join(here, "SliderCrank.csv"), ["time", "phi", "der(phi)", "p", "z"], rows)


if __name__ == "__main__":
    main()
