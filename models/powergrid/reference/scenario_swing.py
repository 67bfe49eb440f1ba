#!/usr/bin/env python3
"""Is a PowerGrid fault scenario first-swing stable? A quick check for choosing
the default scenarios (not a reference: moderate tolerances).

    python3 scenario_swing.py <case> <frequency Hz> <fault bus> <trip row> [grid folder]
                              [--csv out.csv] [--rtol 1e-12]

Same reduction as make_reference.py (classical machines and constant-impedance
loads make the network linear in V), but with a sparse LU per topology so that
it runs on case13659pegase: scipy RK45, rtol 1e-6, segments [0, 1), [1, 1.1)
with the fault (1e-4j p.u.) on, [1.1, 10] with the line open. Prints the
largest rotor-angle deviation from the pre-fault centre-of-inertia frame per
segment and at the end, and the largest speed deviation.

--csv writes every machine's gen[k].delta and gen[k].omega every 0.05 s over
0-10 s without the event times 1.0 and 1.1 (make_reference.py's rows), for
comparing an `lsdae simulate` run of a large case; with --csv the integrator is
DOP853 at rtol = atol = --rtol (default 1e-12, as make_reference.py: about 5 s on
case13659pegase, whose rotor angles then agree with a run at 1e-11 to 1.7e-9 rad).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

reference_tools.require_numpy_scipy(__file__)

import numpy as np  # noqa: E402
import scipy.integrate  # noqa: E402
import scipy.sparse as sp  # noqa: E402
import scipy.sparse.linalg as spla  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import matpower  # noqa: E402


def main():
    args, csv, rtol = [], None, 1e-12
    argv = iter(sys.argv[1:])
    for a in argv:
        if a == "--csv":
            csv = next(argv)
        elif a == "--rtol":
            rtol = float(next(argv))
        else:
            args.append(a)
    name, freq, fault_bus, trip_row = args[0], float(args[1]), int(args[2]), int(args[3])
    grids = args[4] if len(args) > 4 else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "../../../../shared/data/grids")
    case = matpower.read_case(os.path.join(grids, name + ".m"))
    flow = matpower.power_flow(case, flat=True, tol=1e-10)
    if not flow["converged"]:
        flow = matpower.power_flow(case, flat=False, tol=1e-10)
    mach = matpower.machines(case, flow)
    index, n, nm = flow["index"], len(case["bus"]), len(mach["row"])
    ws = 2 * np.pi * freq
    base = (flow["ybus"] + sp.diags(matpower.load_admittance(case, flow))).tolil()
    for b, xd in zip(mach["bus"], mach["xd"]):
        base[b, b] += 1 / (1j * xd)

    def factor(fault, trip):
        a = base.copy()
        if fault:
            a[index[fault_bus], index[fault_bus]] += 1 / 1e-4j
        if trip and trip_row:
            br = case["branch"][trip_row - 1]
            ys = 1 / (br[2] + 1j * br[3])
            tap = (br[8] if br[8] else 1) * np.exp(1j * np.pi / 180 * br[9])
            ytt = ys + 1j * br[4] / 2
            f, t = index[int(br[0])], index[int(br[1])]
            a[f, f] -= ytt / abs(tap) ** 2
            a[f, t] -= -ys / np.conj(tap)
            a[t, f] -= -ys / tap
            a[t, t] -= ytt
        return spla.splu(a.tocsc())

    def rhs(lu):
        def f(_t, x):
            d, w = x[:nm], x[nm:]
            inj = np.zeros(n, complex)
            np.add.at(inj, mach["bus"], mach["e"] * np.exp(1j * d) / (1j * mach["xd"]))
            vb = lu.solve(inj)[mach["bus"]]
            pe = mach["e"] * (np.sin(d) * vb.real - np.cos(d) * vb.imag) / mach["xd"]
            return np.concatenate([ws * (w - 1), (mach["pm"] - pe - mach["d"] * (w - 1)) / (2 * mach["h"])])
        return f

    h = mach["h"]
    ref = mach["delta0"] - np.sum(h * mach["delta0"]) / h.sum()

    def deviation(x):
        d = x[:nm]
        return np.degrees(np.max(np.abs(d - np.sum(h * d) / h.sum() - ref)))

    x = np.concatenate([mach["delta0"], np.ones(nm)])
    grid = np.round(np.arange(201) * 0.05, 10)
    times, rows = [], []
    for a, b, fault, trip in [(0, 1, False, False), (1, 1.1, True, False), (1.1, 10, False, True)]:
        if csv:
            sol = scipy.integrate.solve_ivp(rhs(factor(fault, trip)), (a, b), x, method="DOP853", rtol=rtol,
                                            atol=rtol, dense_output=True)
            inside = grid[((grid > a) | (a == 0)) & ((grid < b) | (b == 10))]
            times.extend(inside)
            rows.extend(sol.sol(t) for t in inside)
        else:
            sol = scipy.integrate.solve_ivp(rhs(factor(fault, trip)), (a, b), x, method="RK45", rtol=1e-6, atol=1e-8)
        x = sol.y[:, -1]
        print("%s [%4.1f, %4.1f) s: %4d steps, largest deviation %6.1f deg, at the end %6.1f deg, |omega - 1| %.1e"
              % (name, a, b, len(sol.t), max(deviation(sol.y[:, k]) for k in range(len(sol.t))), deviation(x),
                 np.abs(x[nm:] - 1).max()))
    if csv:
        names = ["time"] + ["gen[%d].delta" % r for r in mach["row"]] + ["gen[%d].omega" % r for r in mach["row"]]
        np.savetxt(csv, np.column_stack([times, np.array(rows)]), delimiter=",", header=",".join(names),
                   comments="", fmt="%.17g")
        print("wrote %s (%d rows, DOP853 rtol = atol = %g)" % (csv, len(times), rtol))


if __name__ == "__main__":
    main()
