#!/usr/bin/env python3
"""Reference solutions of the PowerGrid FMUs' default fault scenarios.

For case9 and case39 (MATPOWER files in ../../../../shared/data/grids, or the
folder given as the first argument), computed independently of the C++ code
with matpower.py (reader, Ybus, Newton power flow, machine initialization from
the documented typical data, all in numpy/scipy):

Classical machines behind x'd and constant-impedance loads make the network
linear in the bus voltages:
    A V = Σ_m E'_m e^(jδ_m) / (j x'd_m) e_(bus m),
    A = Ybus + diag(y_load) + Σ_m e_(bus m) e_(bus m)^T / (j x'd_m)
        [+ y_f e_f e_f^T while the fault is on] [− the tripped branch's π entries],
so the DAE reduces (Kron reduction, here: a dense LU of A per topology) to the
ODE in (δ, ω)
    dδ/dt = ω_s (ω − 1),  2H dω/dt = Pm − Pe(δ) − D (ω − 1),
    Pe_m = E'_m (sin δ_m Vr − cos δ_m Vi) / x'd_m at the machine's bus.
It is integrated piecewise between the events (scipy DOP853, rtol = atol =
1e-12), restarting at the fault (t_on), its clearing (t_off) and the trip. At
every output row the bus voltages come from the linear network, the
derivatives from the swing equation, and the script checks that every
residual of the FMU's equations vanishes to rounding.

Rows every 0.05 s over 0 .. 10 s, WITHOUT the event times (1.0 and 1.1): the
algebraic variables and derivatives jump there. Columns: time, per machine
gen[k].delta, gen[k].omega and their der(...), per bus bus[i].Vr, bus[i].Vi.
It also prints the largest rotor-angle excursion relative to the centre of
inertia, the first-swing maximum and the final spread, so a scenario's
stability can be judged. Needs numpy and scipy (Debian python3-numpy,
python3-scipy); run: python3 make_reference.py [grid folder]
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

reference_tools.require_numpy_scipy(__file__)

import numpy as np  # noqa: E402
import scipy.integrate  # noqa: E402
import scipy.linalg  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matpower  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
GRIDS = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared/data/grids")

# The default scenarios of models/powergrid/CMakeLists.txt.
SCENARIOS = {
    "case9": dict(frequency=60.0, fault_bus=8, t_on=1.0, t_off=1.1, fault_z=1e-4j, trip_row=8, t_trip=1.1),
    "case39": dict(frequency=60.0, fault_bus=16, t_on=1.0, t_off=1.1, fault_z=1e-4j, trip_row=26, t_trip=1.1),
}
STOP, STEP = 10.0, 0.05


def build(name):
    case = matpower.read_case(os.path.join(GRIDS, name + ".m"))
    flow = matpower.power_flow(case, tol=1e-13, flat=True)
    assert flow["converged"], name + ": power flow did not converge"
    mach = matpower.machines(case, flow)
    y = flow["ybus"].toarray() + np.diag(matpower.load_admittance(case, flow))
    return case, flow, mach, y


def branch_entries(case, index, row):
    """The π-model entries (f, t, yff, yft, ytf, ytt) of MATPOWER branch row `row` (1-based)."""
    br = case["branch"][row - 1]
    ys = 1.0 / (br[2] + 1j * br[3])
    tap = (br[8] if br[8] != 0 else 1.0) * np.exp(1j * np.pi / 180 * br[9])
    ytt = ys + 1j * br[4] / 2
    return index[int(br[0])], index[int(br[1])], ytt / (tap * np.conj(tap)), -ys / np.conj(tap), -ys / tap, ytt


def network_matrix(y, mach, fault, trip):
    a = y.astype(complex).copy()
    for b, xd in zip(mach["bus"], mach["xd"]):
        a[b, b] += 1.0 / (1j * xd)
    if fault is not None:
        a[fault[0], fault[0]] += fault[1]
    if trip is not None:
        f, t, yff, yft, ytf, ytt = trip
        a[f, f] -= yff
        a[f, t] -= yft
        a[t, f] -= ytf
        a[t, t] -= ytt
    return scipy.linalg.lu_factor(a)


def voltages(lu, mach, delta, n):
    rhs = np.zeros(n, complex)
    np.add.at(rhs, mach["bus"], mach["e"] * np.exp(1j * delta) / (1j * mach["xd"]))
    return scipy.linalg.lu_solve(lu, rhs)


def reference(name):
    sc = SCENARIOS[name]
    case, flow, mach, y = build(name)
    n, nm = len(case["bus"]), len(mach["row"])
    index = flow["index"]
    ws = 2 * np.pi * sc["frequency"]
    fault = (index[sc["fault_bus"]], 1.0 / sc["fault_z"])
    trip = branch_entries(case, index, sc["trip_row"])

    def topology(t):
        on = sc["t_on"] <= t < sc["t_off"]
        opened = t >= sc["t_trip"]
        return (on, opened)

    cache = {}

    def lu_for(key):
        if key not in cache:
            cache[key] = network_matrix(y, mach, fault if key[0] else None, trip if key[1] else None)
        return cache[key]

    def pe(delta, v):
        vb = v[mach["bus"]]
        return mach["e"] * (np.sin(delta) * vb.real - np.cos(delta) * vb.imag) / mach["xd"]

    def rhs(key):
        lu = lu_for(key)

        def f(_t, x):
            delta, omega = x[:nm], x[nm:]
            v = voltages(lu, mach, delta, n)
            return np.concatenate([ws * (omega - 1), (mach["pm"] - pe(delta, v) - mach["d"] * (omega - 1)) / (2 * mach["h"])])
        return f

    events = sorted({sc["t_on"], sc["t_off"], sc["t_trip"]})
    bounds = [0.0] + [e for e in events if 0 < e < STOP] + [STOP]
    x = np.concatenate([mach["delta0"], np.ones(nm)])
    segments = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        key = topology(a)
        sol = scipy.integrate.solve_ivp(rhs(key), (a, b), x, method="DOP853", rtol=1e-12, atol=1e-12,
                                        dense_output=True)
        assert sol.success, sol.message
        segments.append((a, b, key, sol))
        x = sol.y[:, -1]

    times = [round(k * STEP, 10) for k in range(int(round(STOP / STEP)) + 1)]
    times = [t for t in times if all(abs(t - e) > 1e-9 for e in events)]
    buses = case["bus"][:, 0].astype(int)
    header = ["time"]
    for r in mach["row"]:
        header += ["gen[%d].delta" % r, "gen[%d].omega" % r]
    for r in mach["row"]:
        header += ["der(gen[%d].delta)" % r, "der(gen[%d].omega)" % r]
    for b in buses:
        header += ["bus[%d].Vr" % b, "bus[%d].Vi" % b]
    rows, worst, swing = [], 0.0, []
    for t in times:
        a, b, key, sol = next(s for s in segments if s[0] <= t < s[1] or (t == STOP and s[1] == STOP))
        x = sol.sol(t)
        delta, omega = x[:nm], x[nm:]
        v = voltages(lu_for(key), mach, delta, n)
        ddelta = ws * (omega - 1)
        domega = (mach["pm"] - pe(delta, v) - mach["d"] * (omega - 1)) / (2 * mach["h"])
        # Every residual of the FMU (network current balance) must vanish.
        res = y @ v
        if key[0]:
            res[fault[0]] += fault[1] * v[fault[0]]
        if key[1]:
            f, tt, yff, yft, ytf, ytt = trip
            res[f] -= yff * v[f] + yft * v[tt]
            res[tt] -= ytf * v[f] + ytt * v[tt]
        np.subtract.at(res, mach["bus"], (mach["e"] * np.exp(1j * delta) - v[mach["bus"]]) / (1j * mach["xd"]))
        worst = max(worst, np.max(np.abs(res)))
        coi = np.sum(mach["h"] * delta) / np.sum(mach["h"])
        swing.append(np.max(np.abs(delta - coi - (mach["delta0"] - np.sum(mach["h"] * mach["delta0"]) / np.sum(mach["h"])))))
        row = [t]
        for k in range(nm):
            row += [delta[k], omega[k]]
        for k in range(nm):
            row += [ddelta[k], domega[k]]
        for k in range(n):
            row += [v[k].real, v[k].imag]
        rows.append(row)
    assert worst < 1e-10, "%s: residual %g" % (name, worst)
    path = os.path.join(HERE, name + "_fault.csv")
    with open(path, "w") as out:
        out.write(",".join(header) + "\n")
        for row in rows:
            out.write(",".join(repr(float(x)) for x in row) + "\n")
    swing = np.degrees(swing)
    print("%s: power flow %d iterations, mismatch %.2e p.u.; %d rows, largest residual %.1e; "
          "largest rotor-angle deviation from the pre-fault COI frame %.1f deg (at t = %.2f s), %.2f deg at t = %g s"
          % (name, flow["iterations"], flow["mismatch"], len(rows), worst, swing.max(), times[int(np.argmax(swing))],
             swing[-1], times[-1]))


if __name__ == "__main__":
    for case_name in SCENARIOS:
        reference(case_name)
