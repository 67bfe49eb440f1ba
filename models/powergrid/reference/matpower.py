"""Independent Python (numpy/scipy) implementation of what models/powergrid does
in C++: read a MATPOWER version-2 case, build Ybus (MATPOWER makeYbus), solve
the AC power flow (Newton, polar, MATPOWER newtonpf/bustypes) and initialize
classical machines with the typical data documented in ../README.md.

Written from the MATPOWER manual, not from the C++ sources, so that a
reference computed with it checks the C++ code. Used by make_reference.py.
"""
import re

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

BUS_COLUMNS, GEN_COLUMNS, BRANCH_COLUMNS = 13, 10, 11


def read_case(path):
    """Returns dict(name, base_mva, bus, gen, branch) with numpy arrays."""
    text = open(path).read()
    name = re.search(r"function\s+mpc\s*=\s*(\w+)", text).group(1)
    base = float(re.search(r"mpc\.baseMVA\s*=\s*([-+.\deE]+)", text).group(1))
    out = {"name": name, "base_mva": base}
    for field, ncol in (("bus", BUS_COLUMNS), ("gen", GEN_COLUMNS), ("branch", BRANCH_COLUMNS)):
        body = re.search(r"mpc\." + field + r"\s*=\s*\[(.*?)\];", text, re.S).group(1)
        rows = []
        for line in body.split("\n"):
            line = line.split("%")[0].replace(";", " ").strip()
            if line:
                rows.append([float(x) for x in line.split()][:13])
        out[field] = np.array([r + [0.0] * (13 - len(r)) for r in rows])
    return out


def make_ybus(case):
    bus, branch, base = case["bus"], case["branch"], case["base_mva"]
    n = len(bus)
    index = {int(b): i for i, b in enumerate(bus[:, 0])}
    on = branch[:, 10] > 0
    br = branch[on]
    f = np.array([index[int(x)] for x in br[:, 0]])
    t = np.array([index[int(x)] for x in br[:, 1]])
    ys = 1.0 / (br[:, 2] + 1j * br[:, 3])
    bc = br[:, 4]
    tap = np.where(br[:, 8] != 0, br[:, 8], 1.0) * np.exp(1j * np.pi / 180 * br[:, 9])
    ytt = ys + 1j * bc / 2
    yff = ytt / (tap * np.conj(tap))
    yft = -ys / np.conj(tap)
    ytf = -ys / tap
    ysh = (bus[:, 4] + 1j * bus[:, 5]) / base
    rows = np.concatenate([f, f, t, t, np.arange(n)])
    cols = np.concatenate([f, t, f, t, np.arange(n)])
    vals = np.concatenate([yff, yft, ytf, ytt, ysh])
    return sp.csr_matrix((vals, (rows, cols)), shape=(n, n)), index


def power_flow(case, tol=1e-12, flat=True, max_it=30):
    bus, gen, base = case["bus"], case["gen"], case["base_mva"]
    y, index = make_ybus(case)
    n = len(bus)
    on = gen[:, 7] > 0
    gbus = np.array([index[int(b)] for b in gen[on, 0]])
    ngen_at = np.bincount(gbus, minlength=n)
    btype = bus[:, 1].astype(int)
    btype = np.where(ngen_at == 0, 1, btype)
    ref = list(np.where(btype == 3)[0])
    pv = list(np.where(btype == 2)[0])
    if not ref:
        ref = [pv.pop(0)]
        btype[ref[0]] = 3
    pq = list(np.where(btype == 1)[0])
    sbus = np.zeros(n, complex)
    np.add.at(sbus, gbus, (gen[on, 1] + 1j * gen[on, 2]) / base)
    sbus -= (bus[:, 2] + 1j * bus[:, 3]) / base
    vm = np.ones(n) if flat else bus[:, 7].copy()
    va = np.zeros(n) if flat else bus[:, 8] * np.pi / 180
    va[ref] = bus[ref, 8] * np.pi / 180
    vg = np.ones(n)
    vg[gbus] = gen[on, 5]  # the last generator at a bus wins, as in MATPOWER
    vm[btype != 1] = vg[btype != 1]
    v = vm * np.exp(1j * va)
    pvpq = np.array(pv + pq, int)
    pq = np.array(pq, int)
    it = 0
    while True:
        ibus = y @ v
        mis = v * np.conj(ibus) - sbus
        F = np.concatenate([mis[pvpq].real, mis[pq].imag])
        norm = np.max(np.abs(F)) if len(F) else 0.0
        if norm <= tol or it >= max_it:
            break
        dv = sp.diags(v)
        dvn = sp.diags(v / np.abs(v))
        di = sp.diags(ibus)
        ds_dvm = dv @ np.conj(y @ dvn) + np.conj(di) @ dvn
        ds_dva = 1j * dv @ np.conj(di - y @ dv)
        J = sp.vstack([sp.hstack([ds_dva[pvpq][:, pvpq].real, ds_dvm[pvpq][:, pq].real]),
                       sp.hstack([ds_dva[pq][:, pvpq].imag, ds_dvm[pq][:, pq].imag])]).tocsc()
        dx = -spla.spsolve(J, F)
        va[pvpq] += dx[:len(pvpq)]
        vm[pq] += dx[len(pvpq):]
        v = vm * np.exp(1j * va)
        it += 1
    return {"v": v, "iterations": it, "mismatch": norm, "converged": norm <= tol,
            "injection": v * np.conj(y @ v), "ybus": y, "index": index, "type": btype}


# Typical classical-model data on each machine's own base (README.md).
H, D, XD, POWER_FACTOR, MIN_RATING = 5.0, 10.0, 0.3, 0.9, 10.0


def machines(case, flow):
    """One classical machine per in-service generator: dict of arrays."""
    bus, gen, base = case["bus"], case["gen"], case["base_mva"]
    index = flow["index"]
    rows = np.where(gen[:, 7] > 0)[0]
    g = gen[rows]
    b = np.array([index[int(x)] for x in g[:, 0]])
    def rating_of(s_mva):
        return np.maximum.reduce([g[:, 6], g[:, 8], np.abs(s_mva) / POWER_FACTOR, np.full(len(g), MIN_RATING)])
    case_rating = rating_of(g[:, 1] + 1j * g[:, 2])
    n = len(bus)
    rating_sum = np.bincount(b, weights=case_rating, minlength=n)
    sched = np.bincount(b, weights=g[:, 1] / base, minlength=n)
    generation = flow["injection"] + (bus[:, 2] + 1j * bus[:, 3]) / base
    share = case_rating / rating_sum[b]
    p = g[:, 1] / base + (generation.real[b] - sched[b]) * share
    q = generation.imag[b] * share
    rating = rating_of((p + 1j * q) * base)
    h, d, xd = H * rating / base, D * rating / base, XD * base / rating
    v = flow["v"][b]
    current = np.conj((p + 1j * q) / v)
    emf = v + 1j * xd * current
    e = np.abs(emf)
    delta = np.angle(v) + np.angle(emf / v)
    pm = e * (np.sin(delta) * v.real - np.cos(delta) * v.imag) / xd
    return {"row": rows + 1, "bus": b, "rating": rating, "h": h, "d": d, "xd": xd, "e": e, "delta0": delta,
            "pm": pm, "p": p, "q": q}


def load_admittance(case, flow):
    bus, base = case["bus"], case["base_mva"]
    return (bus[:, 2] - 1j * bus[:, 3]) / base / np.abs(flow["v"]) ** 2
