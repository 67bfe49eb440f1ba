#!/usr/bin/env python3
"""The OMIB case of the PSS/E ladder (Test01: GENCLS against an infinite bus,
one of two lines opened at 1 s): how far PSS/E's trajectory is from the exact
solution of the same model, and how close it is to the same model integrated
as PSS/E integrates (modified Euler, a fixed step of half a cycle).

Independent of lsdae: the two-bus network and the classical machine are
written here from the case's files (OMIB.raw: V1 = 1.05, V2 = 1.04, lines
j0.1 each, P2 = 50 MW, ZSORCE j0.2995 and j1e-5; OMIB.dyr: H = 3.148,
D = 2), the swing equation 2H dw/dt = (Pm - D w - Pe)/(1 + w) (lsdae's GENCLS).

Prints the largest difference to Test01_delta.csv, in rad:
  exact (scipy Radau, rtol 1e-11)                      ~1.1e-3
  modified Euler (Heun), h = 1/120 s, on its own grid  ~1.2e-4
so PSS/E's reference carries about 1e-3 rad of its own time discretization
(docs/psse.md, "Validation").
"""
import os
import sys

if "/usr/bin" not in sys.executable and os.path.exists("/usr/bin/python3"):
    os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)

import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.environ.get("LSDAE_PSSE_CASES_DIR", os.path.join(HERE, "..", "..", "..", "..", "shared", "data", "grids", "psse"))
W0 = 2 * np.pi * 60
H, D = 3.148, 2.0
X1, X2 = 1e-5, 0.2995  # ZSORCE of the infinite bus and of the machine
Y_LINE = 1 / 0.1j


def ybus(lines):
    return np.array([[lines * Y_LINE, -lines * Y_LINE], [-lines * Y_LINE, lines * Y_LINE]])


Y0, Y1 = ybus(2), ybus(1)
# Power flow: bus 1 at 1.05/0, bus 2 PV at 1.04 with P = 0.5.
angle = brentq(lambda a: (np.array([1.05, 1.04 * np.exp(1j * a)]) * np.conj(Y0 @ np.array([1.05, 1.04 * np.exp(1j * a)])))[1].real - 0.5, -1, 1, xtol=1e-15)
V = np.array([1.05, 1.04 * np.exp(1j * angle)])
S = V * np.conj(Y0 @ V)
E1 = V[0] + 1j * X1 * np.conj(S[0] / V[0])
E2 = V[1] + 1j * X2 * np.conj(S[1] / V[1])
EP, DELTA0 = abs(E2), np.angle(E2)
PM = (E2 * np.conj(np.conj(S[1] / V[1]))).real


def rhs(_t, x, y):
    w, d = x
    e = EP * np.exp(1j * d)
    a = y.astype(complex)
    a[0, 0] += 1 / (1j * X1)
    a[1, 1] += 1 / (1j * X2)
    v = np.linalg.solve(a, np.array([E1 / (1j * X1), e / (1j * X2)]))
    pe = (e * np.conj((e - v[1]) / (1j * X2))).real
    return np.array([(PM - D * w - pe) / (2 * H * (1 + w)), W0 * w])


ref = np.loadtxt(os.path.join(DATA, "Test01", "Test01_delta.csv"), delimiter=",")
t = np.round(ref[:, 0], 3)
keep = np.concatenate([t[1:] != t[:-1], [True]])
t, r = t[keep], np.radians(ref[keep, 1])

s1 = solve_ivp(rhs, [0, 1], [0, DELTA0], args=(Y0,), rtol=1e-11, atol=1e-12, method="Radau", dense_output=True)
s2 = solve_ivp(rhs, [1, 20], s1.y[:, -1], args=(Y1,), rtol=1e-11, atol=1e-12, method="Radau", dense_output=True)
exact = np.array([(s1.sol(x) if x < 1 else s2.sol(x))[1] for x in t])
print(f"initial rotor angle {np.degrees(DELTA0):.6f} deg (PSS/E {ref[0, 1]})")
print(f"exact solution vs PSS/E: {np.abs(exact - r).max():.3e} rad")

h = 1 / 120
x = np.array([0.0, DELTA0])
heun = {}
for k in range(int(round(20 / h)) + 1):
    tk = k * h
    heun[round(tk, 6)] = x[1]
    y = Y0 if tk < 1 - 1e-9 else Y1
    f1 = rhs(tk, x, y)
    f2 = rhs(tk + h, x + h * f1, y)
    x = x + h / 2 * (f1 + f2)
common = [i for i, x in enumerate(t) if round(x, 6) in heun]
err = max(abs(heun[round(t[i], 6)] - r[i]) for i in common)
print(f"modified Euler (h = 1/120 s) vs PSS/E at {len(common)} common times: {err:.3e} rad")
