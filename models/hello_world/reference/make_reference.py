#!/usr/bin/python3
"""Exact solution of the Hello World DAE (FMI-LS-DAE draft, section 2):
x' = y, y + 2z = x, y - 3z = 2x, x(0) = 1  =>  x = e^(7t/5), y = 7x/5, z = -x/5.
Writes hello_world.csv (time, x, der(x), y, z) on the default output grid 0..1 s, step 0.01."""
import math

with open("hello_world.csv", "w") as out:
    out.write("time,x,der(x),y,z\n")
    for k in range(101):
        t = k / 100.0
        x = math.exp(1.4 * t)
        out.write(",".join(repr(v) for v in (t, x, 1.4 * x, 1.4 * x, -0.2 * x)) + "\n")
