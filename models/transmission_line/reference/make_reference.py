#!/usr/bin/python3
"""Reference solutions of the TransmissionLine model family (exact, independent of lsdae).

The model (ScalableTestSuite TransmissionLineModelica_N) is linear time-invariant with a
constant input u = 1 for t >= 0:

    x' = A x + b,   x = [filter.y, filter.yd, L[1].i, C[1].v, ..., L[N].i, C[N].v],   x(0) = 0

On the output grid t_k = k h (h = 2e-9, k = 0..2000) the solution obeys the exact recurrence
x_{k+1} = Phi x_k + Gamma with Phi = exp(A h), Gamma = int_0^h exp(A s) ds b, both read off
scipy.linalg.expm of the augmented matrix [[A h, b h], [0, 0]].

Checks (printed; the script fails if one is missed):
  * every N: the recurrence at t = 4e-6 against one expm of the augmented matrix over [0, 4e-6]
    (limit 1e-10);
  * N = 10, 20: the rows against scipy.integrate.solve_ivp (Radau, rtol 1e-12; limit 1e-8).
  Differences are scaled per kind of variable by the largest magnitude that kind reaches.
  (An mpmath expm at 40 digits for N = 10 and 40 agreed with the recurrence to ~1e-14.)

Writes next to this script, per N in 10 20 40 80 160 320 640 1280:
  N<N>.csv             t = 0, 5e-7, 1e-6, 2e-6, 3e-6, 4e-6; every state, every der(...),
                       every algebraic variable of the DAE form (R[k].v, L[k].v, C[k].i, load.i).
                       Derivatives and algebraic variables are computed from the states with the
                       model's own formulas (same operation order as model.cpp), so the residuals
                       of the DAE form vanish to rounding.
  N<N>_trajectory.csv  time, filter.y, C[1].v, C[N/2].v, C[N].v, L[1].i, L[N].i at all 2001 points.
Values are written with repr(), the shortest text that reads back to the same double.
"""
import os
import sys

import numpy as np
import scipy.integrate
import scipy.linalg

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [10, 20, 40, 80, 160, 320, 640, 1280]
STEPS = 2000           # output intervals on [0, 4e-6]
STEPS_PER_SECOND = 5e8  # 1/h, exact in binary; t_k = k / 5e8 is the correctly rounded k*h
H = 2e-9
ROW_STEPS = [0, 250, 500, 1000, 1500, 2000]

# Parameter defaults of model.cpp.
r, l, c, length, w = 48e-6, 253e-9, 101e-12, 100.0, 1.0 / 2e-7


def coefficients(n):
    return dict(R=r * length / n, L=l * length / n, C=c * length / n, RL=np.sqrt(l / c))


def system(n):
    """A and b of x' = A x + b in the model's state order."""
    k = coefficients(n)
    m = 2 * n + 2
    a = np.zeros((m, m))
    b = np.zeros(m)
    a[0, 1] = 1.0
    a[1, 0] = -w * w
    a[1, 1] = -2.0 * w
    b[1] = w * w
    for s in range(n):
        i, v = 2 + 2 * s, 3 + 2 * s
        prev = 0 if s == 0 else v - 2
        a[i, prev] += 1.0 / k["L"]
        a[i, i] = -k["R"] / k["L"]
        a[i, v] = -1.0 / k["L"]
        a[v, i] = 1.0 / k["C"]
        if s + 1 < n:
            a[v, i + 2] = -1.0 / k["C"]
        else:
            a[v, v] = -1.0 / (k["RL"] * k["C"])
    return a, b


def propagator(a, b, h):
    m = a.shape[0]
    aug = np.zeros((m + 1, m + 1))
    aug[:m, :m] = a * h
    aug[:m, m] = b * h
    e = scipy.linalg.expm(aug)
    return e[:m, :m], e[:m, m]


def derived(n, x):
    """Derivatives and algebraic variables from the states, as model.cpp computes them in ODE mode."""
    k = coefficients(n)
    inv_l, inv_c, inv_rl = 1.0 / k["L"], 1.0 / k["C"], 1.0 / k["RL"]
    y, yd = x[0], x[1]
    der = np.empty_like(x)
    der[0] = yd
    der[1] = w * (w * (1.0 - y) - 2.0 * yd)
    rv, lv, ci = np.empty(n), np.empty(n), np.empty(n)
    prev = y
    for s in range(n):
        i, v = x[2 + 2 * s], x[3 + 2 * s]
        nxt = x[4 + 2 * s] if s + 1 < n else v * inv_rl
        rv[s] = k["R"] * i
        lv[s] = prev - rv[s] - v
        ci[s] = i - nxt
        der[2 + 2 * s] = lv[s] * inv_l
        der[3 + 2 * s] = ci[s] * inv_c
        prev = v
    load_i = x[-1] * inv_rl
    return der, rv, lv, ci, load_i


def state_names(n):
    names = ["filter.y", "filter.yd"]
    for s in range(1, n + 1):
        names += [f"L[{s}].i", f"C[{s}].v"]
    return names


def fmt(value):
    return repr(float(value))


def solve(n):
    a, b = system(n)
    phi, gamma = propagator(a, b, H)
    x = np.zeros(2 * n + 2)
    traj = np.empty((STEPS + 1, 2 * n + 2))
    traj[0] = x
    for step in range(1, STEPS + 1):
        x = phi @ x + gamma
        traj[step] = x
    return a, b, traj


def scales(n, traj):
    """Per-variable error scale: the largest magnitude its kind (filter.y, filter.yd, currents,
    voltages) reaches on the trajectory. Plain relative errors mean nothing for components that
    pass through or settle at zero."""
    peak = np.max(np.abs(traj), axis=0)
    sc = np.empty(2 * n + 2)
    sc[0], sc[1] = peak[0], peak[1]
    sc[2::2] = np.max(peak[2::2])
    sc[3::2] = np.max(peak[3::2])
    return sc


def check_final(n, a, b, traj):
    _, direct = propagator(a, b, STEPS * H)  # x(0) = 0, so x(T) is the Gamma of one step T
    err = np.max(np.abs(direct - traj[-1]) / scales(n, traj))
    print(f"N={n}: recurrence vs one-shot expm at t=4e-6: max scaled difference {err:.2e}")
    return err < 1e-10


def check_radau(n, a, b, traj):
    times = [s / STEPS_PER_SECOND for s in ROW_STEPS]
    sol = scipy.integrate.solve_ivp(lambda t, x: a @ x + b, (0.0, times[-1]), np.zeros(2 * n + 2),
                                    method="Radau", t_eval=times, rtol=1e-12, atol=1e-15, jac=a)
    ok = sol.success
    sc = scales(n, traj)
    for j, s in enumerate(ROW_STEPS):
        err = np.max(np.abs(sol.y[:, j] - traj[s]) / sc)
        print(f"N={n}: Radau vs exact at t={times[j]:.1e}: max scaled difference {err:.2e}")
        ok = ok and err < 1e-8
    return ok


def write(n, traj):
    names = state_names(n)
    der_names = [f"der({v})" for v in names]
    alg_names = []
    for s in range(1, n + 1):
        alg_names += [f"R[{s}].v", f"L[{s}].v", f"C[{s}].i"]
    alg_names.append("load.i")
    with open(os.path.join(HERE, f"N{n}.csv"), "w") as f:
        f.write(",".join(["time"] + names + der_names + alg_names) + "\n")
        for s in ROW_STEPS:
            x = traj[s]
            der, rv, lv, ci, load_i = derived(n, x)
            alg = np.empty(3 * n + 1)
            alg[0:3 * n:3], alg[1:3 * n:3], alg[2:3 * n:3] = rv, lv, ci
            alg[-1] = load_i
            f.write(",".join(fmt(v) for v in [s / STEPS_PER_SECOND, *x, *der, *alg]) + "\n")
    cols = [0, 3, 3 + 2 * (n // 2 - 1), 2 * n + 1, 2, 2 * n]
    with open(os.path.join(HERE, f"N{n}_trajectory.csv"), "w") as f:
        f.write(",".join(["time", "filter.y", "C[1].v", f"C[{n // 2}].v", f"C[{n}].v", "L[1].i",
                          f"L[{n}].i"]) + "\n")
        for s in range(STEPS + 1):
            f.write(",".join(fmt(v) for v in [s / STEPS_PER_SECOND, *traj[s, cols]]) + "\n")


def main():
    ok = True
    for n in SIZES:
        a, b, traj = solve(n)
        ok = check_final(n, a, b, traj) and ok
        if n <= 20:
            ok = check_radau(n, a, b, traj) and ok
        write(n, traj)
    if not ok:
        sys.exit("make_reference.py: a cross-check failed (see above)")


if __name__ == "__main__":
    main()
