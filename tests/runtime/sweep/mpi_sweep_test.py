#!/usr/bin/env python3
"""`lsdae sweep` under mpirun: the N-1 sweep of case39 over 3 ranks gives the
rows of the same sweep run in one process (every column but the wall time),
each rank making its model once, and a resumed MPI sweep runs only what is
missing.

    mpi_sweep_test.py LSDAE MPIEXEC FMU CASE39 FOLDER
"""
import csv
import os
import shutil
import subprocess
import sys

lsdae, mpiexec, fmu, case39, folder = sys.argv[1:6]
shutil.rmtree(folder, ignore_errors=True)
os.makedirs(folder)
table = os.path.join(folder, "contab_case39.m")
with open(table, "w") as f:
    f.write("function chgtab = contab_case39\ndefine_constants;\nchgtab = [\n")
    for branch in range(1, 47):  # every branch of case39
        f.write(f"\t{branch}\t0\tCT_TBRCH\t{branch}\tBR_STATUS\tCT_REP\t0;\n")
    f.write("];\n")
metrics = ["max:maxdev(gen[*].delta)", "tmax:maxdev(gen[*].delta)", "min:min(bus[*].Vr)", "final:gen[1].omega"]
common = [fmu, "--contingencies", table, "--case", case39, "--stop", "3", "--no-progress"]
for m in metrics:
    common += ["--metric", m]
mpi = [mpiexec, "--oversubscribe", "--allow-run-as-root", "-np", "3", lsdae, "sweep"]
env = dict(os.environ, TMPDIR=folder)


def run(argv, summary, expect=0, extra=()):
    r = subprocess.run(argv + common + ["--summary", summary, *extra], env=env, cwd=folder,
                       capture_output=True, text=True, timeout=600)
    print(" ".join(argv[-3:]), "->", r.returncode, r.stderr.strip().splitlines()[-1:] if r.stderr else "")
    if r.returncode != expect:
        sys.exit(f"exit {r.returncode}, expected {expect}:\n{r.stdout}\n{r.stderr}")
    return r


def rows(path):
    with open(path, newline="") as f:
        table = list(csv.reader(f))
    header = table[0]
    wall = header.index("wall_time_s")
    return header, sorted(tuple(r[:wall] + r[wall + 1:]) for r in table[1:])


serial = os.path.join(folder, "serial.csv")
distributed = os.path.join(folder, "mpi.csv")
run([lsdae, "sweep"], serial)
r = run(mpi, distributed)
# Reuse under MPI: each rank made its model once for all its scenarios.
if "3 models made for 46 scenarios in 3 worker processes" not in r.stderr:
    sys.exit(f"each of the 3 ranks should make its model once:\n{r.stderr}")
h1, a = rows(serial)
h2, b = rows(distributed)
if h1 != h2:
    sys.exit(f"headers differ: {h1} / {h2}")
if len(a) != 46 or a != b:
    diff = sorted(set(a) ^ set(b))[:6]
    sys.exit(f"the MPI sweep's rows differ from the one-process sweep's ({len(a)} / {len(b)} rows): {diff}")

# Resume under MPI: keep the header and 10 rows, the rest is run again.
with open(distributed) as f:
    lines = f.readlines()
with open(distributed, "w") as f:
    f.writelines(lines[:11])
r = run(mpi, distributed, extra=["--resume"])
if "36 to run" not in r.stderr:
    sys.exit(f"resume should run the 36 missing scenarios:\n{r.stderr}")
_, c = rows(distributed)
if c != a:
    sys.exit("after --resume the summary differs from the full sweep's")

# An existing summary without --resume: rank 0 refuses and the whole job ends.
r = subprocess.run(mpi + common + ["--summary", distributed], env=env, cwd=folder, capture_output=True, text=True,
                   timeout=120)
if r.returncode == 0 or "exists" not in r.stderr:
    sys.exit(f"an existing summary must end the job with a message (exit {r.returncode}):\n{r.stderr}")
print("ok: 46 rows equal over 3 ranks (one model each) and in one process; resume ran the 36 missing")
