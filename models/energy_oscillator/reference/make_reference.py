#!/usr/bin/python3
"""Reference solution of models/energy_oscillator (EnergyOscillator).

    der(x) = v, der(v) = F/m, 0 = F + k x,  m = k = 1, x(0) = 1, v(0) = 0
Exact: x = cos t, v = -sin t, F = -cos t; the energy E = m v^2/2 + k x^2/2 = 0.5.
Writes EnergyOscillator.csv (time, x, v, der(x), der(v), F, E) at t = 0, 0.01, ..., 10.
Cross-check: solve_ivp (DOP853, rtol = atol = 1e-13) on the ODE agrees (asserted).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kit"))
import reference_tools  # noqa: E402

reference_tools.require_numpy_scipy(__file__)

import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
M, K = 1.0, 1.0


def main():
    t = np.arange(1001) / 100.0
    w = np.sqrt(K / M)
    x = np.cos(w * t)
    v = -w * np.sin(w * t)
    f = -K * x
    e = 0.5 * M * v * v + 0.5 * K * x * x
    sol = solve_ivp(lambda _t, s: [s[1], -K * s[0] / M], (0, 10), [1.0, 0.0], method="DOP853", t_eval=t,
                    rtol=1e-13, atol=1e-13)
    assert sol.success
    worst = max(np.max(np.abs(sol.y[0] - x)), np.max(np.abs(sol.y[1] - v)))
    print(f"max |exact - solve_ivp(DOP853)|: {worst:.3e}")
    assert worst < 1e-10
    print(f"energy: {e.min():.17g} .. {e.max():.17g}")
    path = os.path.join(HERE, "EnergyOscillator.csv")
    reference_tools.write_csv(path, ["time", "x", "v", "der(x)", "der(v)", "F", "E"],
                              ([t[i], x[i], v[i], v[i], f[i] / M, f[i], e[i]] for i in range(len(t))))
    print(f"wrote {path}: {len(t)} rows")


if __name__ == "__main__":
    main()
