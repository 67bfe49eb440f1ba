#!/usr/bin/env python3
"""Exact references of the clock FMUs (models/clocks, README.md), and of the
system models/systems/clocked_counter: tick times in closed form, the
continuous states between ticks in closed form.

Every CSV has a header line, then rows on the output grid of the FMU's
DefaultExperiment (t = i*(stop-start)/n) and, at every tick inside
[start, stop], two rows with the same time: the values just before the tick
and just after it. A grid point that is a tick time is given by that pair
only. A reader that wants values between events skips rows whose time
repeats; a test that replays the ticks finds the states at each tick in the
"before" row.

    ClockTicks_<clock>.csv   time,x,der(x),count       (count after k ticks is k)
    SampleHold.csv           time,s,c,y,der(s),der(c),der(y),held
    CrankIgnition.csv        time,theta,der(theta),sparks,spark_angle
    Trigger.csv              time,x,der(x),crossings
    ../../systems/reference/clocked_counter.csv
                             time,trigger.x,trigger.crossings,counter.x,counter.count

Tick times (start time 0):
    constant   k/5                        (intervalCounter 1 / resolution 5)
    fixed      0.1 + 0.25 k
    tunable    0.05 + 0.3 k
    changing   0.1 (k+1)(k+2)/2           (the interval after the k-th tick is 0.1 (k+1))
    SampleHold 0.05 + 0.2 k
    CrankIgnition  sparks at 0.35 + k     (the crank passes pi/2 + 2 pi k at 0.25 + k)
    Trigger    0.3 + 0.4 k
ClockTicks: x(t) = sum over ticks t_k <= t of (t - t_k), der(x) = count.
SampleHold: s = sin(w t), c = cos(w t), w = 2 pi; held_k = sin(w t_k);
y(t) = held_k + (y(t_k) - held_k) exp(-(t - t_k)/T), T = 0.1, y(0) = 0, held = 0 before the first tick.
Plain Python (math only).
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SYSTEMS = os.path.join(HERE, "..", "..", "systems", "reference")
EVENT_GAP = 1e-9


def grid(start, stop, n):
    return [start + i * (stop - start) / n for i in range(n + 1)]


def ticks_upto(first, stop):
    """Tick times from the generator `first` (yields increasing times) up to stop."""
    out = []
    for t in first:
        if t > stop + EVENT_GAP:
            break
        out.append(t)
    return out


def periodic(shift, interval):
    k = 0
    while True:
        yield shift + k * interval
        k += 1


def fraction_periodic(counter, resolution):
    k = 0
    while True:
        yield k * counter / resolution
        k += 1


def triangular(step):
    k = 0
    while True:
        yield step * (k + 1) * (k + 2) / 2
        k += 1


def rows_with_ticks(times, ticks, state_at):
    """Grid rows plus a before/after pair at every tick. state_at(t, after_ticks)
    gives the row (without time) at t with `after_ticks` ticks done."""
    rows = []
    events = sorted(ticks)
    points = [(t, None) for t in times if all(abs(t - e) > EVENT_GAP for e in events)]
    points += [(e, k) for k, e in enumerate(events)]
    points.sort(key=lambda p: (p[0], -1 if p[1] is None else p[1]))
    for t, k in points:
        if k is None:
            done = sum(1 for e in events if e < t)
            rows.append([t] + state_at(t, done))
        else:
            rows.append([t] + state_at(t, k))
            rows.append([t] + state_at(t, k + 1))
    return rows


def clock_ticks(kind):
    stop, n = 2.0, 20
    gens = {
        "constant": fraction_periodic(1, 5),
        "fixed": periodic(0.1, 0.25),
        "tunable": periodic(0.05, 0.3),
        "changing": triangular(0.1),
    }
    ticks = ticks_upto(gens[kind], stop) if kind in gens else []

    def state_at(t, done):
        x = sum(t - ticks[i] for i in range(done))
        return [x, float(done), float(done)]

    return ["time", "x", "der(x)", "count"], rows_with_ticks(grid(0.0, stop, n), ticks, state_at)


def sample_hold():
    stop, n = 2.0, 20
    w, T = 2.0 * math.pi, 0.1
    ticks = ticks_upto(periodic(0.05, 0.2), stop)
    held = [math.sin(w * t) for t in ticks]
    # y at each tick, from the previous interval's relaxation.
    y_at = []
    y, t_prev, h_prev = 0.0, 0.0, 0.0
    for t, h in zip(ticks, held):
        y = h_prev + (y - h_prev) * math.exp(-(t - t_prev) / T)
        y_at.append(y)
        t_prev, h_prev = t, h

    def state_at(t, done):
        if done == 0:
            h, y0, t0 = 0.0, 0.0, 0.0
        else:
            h, y0, t0 = held[done - 1], y_at[done - 1], ticks[done - 1]
        y = h + (y0 - h) * math.exp(-(t - t0) / T)
        s, c = math.sin(w * t), math.cos(w * t)
        return [s, c, y, w * c, -w * s, (h - y) / T, h]

    header = ["time", "s", "c", "y", "der(s)", "der(c)", "der(y)", "held"]
    return header, rows_with_ticks(grid(0.0, stop, n), ticks, state_at)


def crank_ignition():
    stop, n = 3.0, 60
    w = 2.0 * math.pi
    sparks = ticks_upto(periodic(0.35, 1.0), stop)

    def state_at(t, done):
        angle = w * sparks[done - 1] if done else 0.0
        return [w * t, w, float(done), angle]

    return ["time", "theta", "der(theta)", "sparks", "spark_angle"], rows_with_ticks(grid(0.0, stop, n), sparks,
                                                                                      state_at)


def trigger():
    stop, n = 2.0, 20
    ticks = ticks_upto(periodic(0.3, 0.4), stop)

    def state_at(t, done):
        return [t, 1.0, float(done)]

    return ["time", "x", "der(x)", "crossings"], rows_with_ticks(grid(0.0, stop, n), ticks, state_at)


def clocked_counter():
    """Trigger's output clock drives ClockTicks_triggered's input clock."""
    stop, n = 2.0, 20
    ticks = ticks_upto(periodic(0.3, 0.4), stop)

    def state_at(t, done):
        x = sum(t - ticks[i] for i in range(done))
        return [t, float(done), x, float(done)]

    header = ["time", "trigger.x", "trigger.crossings", "counter.x", "counter.count"]
    return header, rows_with_ticks(grid(0.0, stop, n), ticks, state_at)


def main():
    for kind in ("constant", "fixed", "tunable", "changing", "triggered"):
        header, rows = clock_ticks(kind)
        reference_tools.write_csv(os.path.join(HERE, "ClockTicks_%s.csv" % kind), header, rows)
    for name, make in (("SampleHold", sample_hold), ("CrankIgnition", crank_ignition), ("Trigger", trigger)):
        header, rows = make()
        reference_tools.write_csv(os.path.join(HERE, name + ".csv"), header, rows)
    header, rows = clocked_counter()
    reference_tools.write_csv(os.path.join(SYSTEMS, "clocked_counter.csv"), header, rows)


if __name__ == "__main__":
    main()
