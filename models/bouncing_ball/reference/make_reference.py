#!/usr/bin/env python3
"""Analytic reference for the BouncingBall model (models/bouncing_ball).

    h' = v,  v' = -g          while the ball flies
    at h = 0 with v < 0:      v := -e*v  (h := 0)
    if the rebound speed e*|v| < v_min: the ball rests, h = v = h' = v' = 0 for good

Parameters at their defaults: g = 9.81, e = 0.7, v_min = 0.1; starts h0 = 1, v0 = 0.

Flight k (k = 0, 1, ...) starts at t_k with h = h_k, v = v_k (t_0 = 0, h_0 = h0, v_0 = v0;
h_k = 0 for k >= 1) and is a parabola:
    h(t) = h_k + v_k (t - t_k) - g/2 (t - t_k)^2,   v(t) = v_k - g (t - t_k).
It hits the floor at t_{k+1} = t_k + (v_k + w_{k+1})/g with impact speed
w_{k+1} = sqrt(v_k^2 + 2 g h_k); the rebound speed is v_{k+1} = e w_{k+1}.
With v0 = 0: t_1 = sqrt(2 h0/g), w_1 = sqrt(2 g h0), v_k = e^k w_1, t_{k+1} = t_k + 2 v_k/g.

Writes, next to this script:
  bounce_times.csv  index,time,impact_speed,rebound_speed   (rebound_speed 0 at the
                    impact where the ball comes to rest; that impact is the last row)
  BouncingBall.csv  time,h,v,der(h),der(v) on the output grid t = i*0.01, i = 0..300,
                    leaving out grid points within 1e-9 s of an impact (the value there
                    depends on which side of the event is meant).

With v_min = 0 (BouncingBall_zeno) the ball never rests by rule: the k-th impact is at
    t_k = t_1 + (2 w_1 e / g) (1 - e^(k-1)) / (1 - e),   k >= 1,
and the impacts accumulate at the Zeno time
    t_inf = t_1 (1 + e) / (1 - e) = 2.5586339656 s
(t_1 = sqrt(2 h0/g), w_1 = g t_1), where h = v = 0; the ball rests on the floor from then on
(h = v = 0 for t >= t_inf: the only continuation with h >= 0). Written next to the above:
  bounce_times_zeno.csv  index,time,impact_speed,rebound_speed for the impacts whose flight
                         before them lasts at least 1e-9 s (k = 1..58), then a row index 0
                         with the Zeno time t_inf and speeds 0
  BouncingBall_zeno.csv  time,h,v,der(h),der(v) on the same grid (no grid point falls within
                         1e-9 s of an impact or of t_inf)
Plain Python (math only), so every number is a closed-form expression of the defaults.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

G = 9.81
E = 0.7
V_MIN = 0.1
H0 = 1.0
V0 = 0.0
START, STOP, INTERVALS = 0.0, 3.0, 300  # output step 0.01
EVENT_GAP = 1e-9


def bounces():
    """[(index, time, impact_speed, rebound_speed)]; the last entry is the resting impact."""
    out = []
    t, h, v = 0.0, H0, V0
    k = 0
    while True:
        w = math.sqrt(v * v + 2.0 * G * h)  # impact speed
        t = t + (v + w) / G
        k += 1
        rebound = E * w
        if rebound < V_MIN:
            out.append((k, t, w, 0.0))
            return out
        out.append((k, t, w, rebound))
        h, v = 0.0, rebound


def state_at(t, events):
    """(h, v, der(h), der(v)) at a time t that is not an impact time."""
    t0, h0, v0 = 0.0, H0, V0
    for _, ti, _, rebound in events:
        if t < ti:
            break
        t0, h0, v0 = ti, 0.0, rebound
    else:  # past the resting impact
        return 0.0, 0.0, 0.0, 0.0
    tau = t - t0
    h = h0 + v0 * tau - 0.5 * G * tau * tau
    v = v0 - G * tau
    return h, v, v, -G


def zeno_time():
    t1 = math.sqrt(2.0 * H0 / G)
    return t1 * (1.0 + E) / (1.0 - E)


def zeno_impacts(min_flight=1e-9):
    """[(k, t_k, impact_speed, rebound_speed)] for v_min = 0, while the flight before t_k
    lasts at least min_flight."""
    t1 = math.sqrt(2.0 * H0 / G)
    w1 = G * t1
    out = [(1, t1, w1, E * w1)]
    k = 1
    while True:
        k += 1
        flight = 2.0 * w1 * E ** (k - 1) / G  # the flight that ends at impact k
        if flight < min_flight:
            return out
        t = t1 + (2.0 * w1 * E / G) * (1.0 - E ** (k - 1)) / (1.0 - E)
        out.append((k, t, w1 * E ** (k - 1), w1 * E ** k))


def zeno_state_at(t):
    """(h, v, der(h), der(v)) for v_min = 0 at a time t that is no impact time."""
    t1 = math.sqrt(2.0 * H0 / G)
    w1 = G * t1
    t_inf = zeno_time()
    if t >= t_inf:
        return 0.0, 0.0, 0.0, 0.0
    if t < t1:
        return H0 - 0.5 * G * t * t, -G * t, -G * t, -G
    # Flight k (k >= 1) starts at t_k with rebound speed w1 e^k; find the last impact before t.
    k = 1 + int(math.floor(math.log(1.0 - (t - t1) * G * (1.0 - E) / (2.0 * w1 * E)) / math.log(E)))
    tk = lambda j: t1 + (2.0 * w1 * E / G) * (1.0 - E ** (j - 1)) / (1.0 - E)
    while tk(k + 1) <= t:
        k += 1
    while tk(k) > t:
        k -= 1
    tau = t - tk(k)
    vk = w1 * E ** k
    v = vk - G * tau
    return vk * tau - 0.5 * G * tau * tau, v, v, -G


def write_zeno(here):
    impacts = zeno_impacts()
    with open(os.path.join(here, "bounce_times_zeno.csv"), "w") as f:
        f.write("index,time,impact_speed,rebound_speed\n")
        for k, t, w, r in impacts:
            f.write("%d,%.17g,%.17g,%.17g\n" % (k, t, w, r))
        f.write("0,%.17g,0,0\n" % zeno_time())
    rows = []
    for i in range(INTERVALS + 1):
        t = START + i * (STOP - START) / INTERVALS
        if abs(t - zeno_time()) <= EVENT_GAP or any(abs(t - ti) <= EVENT_GAP for _, ti, _, _ in impacts):
            continue
        rows.append((t,) + zeno_state_at(t))
    reference_tools.write_csv(os.path.join(here, "BouncingBall_zeno.csv"), ["time", "h", "v", "der(h)", "der(v)"],
                              rows)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    events = bounces()
    with open(os.path.join(here, "bounce_times.csv"), "w") as f:
        f.write("index,time,impact_speed,rebound_speed\n")
        for k, t, w, r in events:
            f.write("%d,%.17g,%.17g,%.17g\n" % (k, t, w, r))
    rows = []
    for i in range(INTERVALS + 1):
        t = START + i * (STOP - START) / INTERVALS  # nearest double to i/100
        if any(abs(t - ti) <= EVENT_GAP for _, ti, _, _ in events):
            continue
        rows.append((t,) + state_at(t, events))
    reference_tools.write_csv(os.path.join(here, "BouncingBall.csv"), ["time", "h", "v", "der(h)", "der(v)"], rows)
    write_zeno(here)


if __name__ == "__main__":
    main()
