#!/usr/bin/env python3
"""tests/runtime/results/read_results.py -- `lsdae simulate` results read the
way users read them: HDF5 with h5py, MAT with scipy.io.loadmat (the Dymola
layout, as DyMat/FMPy/PyFMI decode it), CSV with the csv module.

    read_results.py LSDAE REFERENCE_FMUS_DIR WORK_DIR WRITE_MIXED_CHUNKS

Checks, against the CSV of the same run (whose numbers are the shortest
round-trip text, so float() gives back the exact double):
  - every column of the HDF5 file, every FMI type, value by value (bitwise
    for reals), with names, units, causality, the event column and the run
    statistics;
  - every numeric column of the MAT file, bitwise, with names, descriptions
    with units, dataInfo pointing at the right matrix and row, and String
    columns left out;
  - a run killed with SIGKILL mid-way leaves an HDF5 file h5py reads, with
    consistent rows;
  - a dataset mixing deflated chunks and chunks stored raw (filter mask
    0b11), as the writer stores them when its thread is behind, written by
    WRITE_MIXED_CHUNKS (mixed_chunks.h): h5py reads every value bitwise.
Exits non-zero on the first failure (a missing file is a failure too).
"""
import csv
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import time

import h5py
import numpy as np
import scipy.io


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)


def bits(x):
    return struct.pack("<d", float(x))


def run(lsdae, args):
    result = subprocess.run([lsdae, "simulate"] + args + ["--no-progress"], capture_output=True, text=True)
    if result.returncode != 0:
        fail("lsdae simulate %s exited %d:\n%s%s" % (" ".join(args), result.returncode, result.stdout, result.stderr))
    return result


def read_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1], rows[2:]  # names, units (--csv-units), values as text


def dymola_names(matrix):
    """binTrans: the names are the columns of a char matrix."""
    return ["".join(chars).rstrip() for chars in zip(*matrix)]


def compare(name, lsdae, fmu, extra, work):
    base = os.path.join(work, name)
    for ext in ("csv", "h5", "mat"):
        run(lsdae, [fmu, "--all", "--csv-units", "-o", base + "." + ext] + extra)
    names, units, rows = read_csv(base + ".csv")
    csv_time = [float(r[0]) for r in rows]
    column = {n: [r[k] for r in rows] for k, n in enumerate(names)}

    # HDF5
    with h5py.File(base + ".h5", "r") as f:
        check(f.attrs["format"] == "lsdae-results 1", "format attribute")
        stats = json.loads(f.attrs["statistics"])
        check(stats["completed"] is True, "statistics say completed")
        check(stats["rows_written"] == len(rows), "statistics count the rows")
        t = f["time"][:]
        check(len(t) == len(rows), "%s: %d HDF5 rows, %d CSV rows" % (name, len(t), len(rows)))
        check(all(bits(a) == bits(b) for a, b in zip(t, csv_time)), name + ": HDF5 time bitwise")
        event = f["event"][:]
        for k in range(1, len(t)):  # a repeated time is an event: before (1), then after (2)
            if t[k] == t[k - 1]:
                check(event[k - 1] == 1 and event[k] == 2, "%s: event marks at row %d" % (name, k))
        seen = 0
        text_names = set()
        float32_names = set()
        for group_name, group in f.items():
            if not isinstance(group, h5py.Group):
                continue
            values = group["values"]
            group_names = [n.decode() for n in group["name"][:]]
            group_units = [u.decode() for u in group["unit"][:]]
            if group_name in ("String", "Binary"):
                text_names.update(group_names)
            for k, n in enumerate(group_names):
                check(n in column, "%s: HDF5 column %s in the CSV" % (name, n))
                check(group_units[k] == units[names.index(n)], "%s: unit of %s" % (name, n))
                series = values[:, k]
                text = column[n]
                if values.dtype == np.float32:  # the CSV prints the float's own shortest form
                    float32_names.add(n)
                    ok = all(np.float32(a).tobytes() == np.float32(b).tobytes() for a, b in zip(series, text))
                elif values.dtype.kind == "f":
                    ok = all(bits(a) == bits(float(b)) for a, b in zip(series, text))
                elif values.dtype.kind in "iu":
                    ok = all(int(a) == int(b) for a, b in zip(series, text))
                else:
                    ok = all((a.decode() if isinstance(a, bytes) else a) == b for a, b in zip(series, text))
                check(ok, "%s: HDF5 values of %s (%s)" % (name, n, values.dtype))
                seen += 1
        check(seen == len(names) - 1, "%s: every CSV column is in the HDF5 file (%d of %d)" % (name, seen, len(names) - 1))

    # MAT (scipy.io.loadmat reads MAT v4)
    mat = scipy.io.loadmat(base + ".mat")
    aclass = [s.rstrip() for s in mat["Aclass"]]
    check(aclass[0] == "Atrajectory" and aclass[3] == "binTrans", "Aclass %r" % aclass)
    mat_names = dymola_names(mat["name"])
    descriptions = dymola_names(mat["description"])
    info = mat["dataInfo"]
    check(mat_names[0] == "time", "the first name is time")
    data_2 = mat["data_2"]
    check(data_2.shape[1] == len(rows), "%s: data_2 has %d columns, CSV %d rows" % (name, data_2.shape[1], len(rows)))
    check(all(bits(a) == bits(b) for a, b in zip(data_2[0], csv_time)), name + ": MAT time bitwise")
    for j, n in enumerate(mat_names[1:], start=1):
        block, row = int(info[0][j]), int(info[1][j])
        check(block in (1, 2), "%s: dataInfo block of %s" % (name, n))
        data = mat["data_%d" % block]
        series = data[abs(row) - 1]
        text = column[n]
        if n in float32_names:  # held as the double of the float
            check(all(bits(a) == bits(float(np.float32(b))) for a, b in zip(series, text)),
                  "%s: MAT values of the Float32 %s" % (name, n))
        elif block == 2:
            check(all(bits(a) == bits(float(b)) for a, b in zip(series, text)), "%s: MAT values of %s" % (name, n))
        else:
            check(bits(series[0]) == bits(float(text[0])), "%s: MAT parameter %s" % (name, n))
        unit = units[names.index(n)]
        if unit:
            check(descriptions[j].endswith("[" + unit + "]"), "%s: description of %s ends with its unit: %r" %
                  (name, n, descriptions[j]))
    left_out = set(names[1:]) - set(mat_names[1:])
    check(left_out == text_names, "%s: the MAT file leaves out the String/Binary columns %s, not %s" %
          (name, sorted(text_names), sorted(left_out)))
    print("%s: %d rows, %d columns: CSV, HDF5 and MAT agree" % (name, len(rows), len(names) - 1))


def killed_run(lsdae, fmu, work):
    path = os.path.join(work, "killed.h5")
    # A process killed with SIGKILL cannot remove its unpacked FMU: keep that
    # folder in the test's work directory, not in the machine's /tmp.
    scratch = os.path.join(work, "tmp")
    shutil.rmtree(scratch, ignore_errors=True)  # what an earlier run's killed process left
    os.makedirs(scratch)
    child = subprocess.Popen([lsdae, "simulate", fmu, "--no-isolate", "--no-progress", "--stop", "1e7",
                              "--output-interval", "1e-3", "--max-rows", "100000000000", "-o", path],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=dict(os.environ, TMPDIR=scratch))
    deadline = time.time() + 60
    while not os.path.exists(path) and time.time() < deadline and child.poll() is None:
        time.sleep(0.05)
    time.sleep(2.5)  # more than one flush interval of rows
    if child.poll() is not None:
        fail("the long run ended before it was killed: " + child.stderr.read().decode())
    child.send_signal(signal.SIGKILL)
    child.wait()
    with h5py.File(path, "r") as f:  # opens without h5clear
        t = f["time"][:]
        values = f["Float64/values"]
        check(len(t) >= 1, "the killed run's file holds the rows of its flushes")
        check(values.shape[0] == len(t) and len(f["event"]) == len(t), "datasets of one length")
        check(np.all(np.diff(t) > 0), "times increase")
        check(np.all(np.isfinite(values[:, :])), "values are numbers")
        check("statistics" not in f.attrs, "no statistics: the run did not end")
    print("killed run: %d rows readable" % len(t))
    os.remove(path)


def splitmix64(x):
    m = (1 << 64) - 1
    z = (x + 0x9E3779B97F4A7C15) & m
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & m
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & m
    return z ^ (z >> 31)


def mixed_value_bits(r, c):
    """mixed_chunks.h's value(r, c), as the bits of the double."""
    if c < 128:
        return bits(float(r) + c / 1024.0)
    b = splitmix64(r * 256 + c)
    exponent = (b >> 52) & 0x7FF
    if exponent in (0, 0x7FF):
        b = (b & ~(0x7FF << 52)) | (0x3FF << 52)
    return struct.pack("<Q", b)


def mixed_chunks(writer, work):
    path = os.path.join(work, "mixed.h5")
    result = subprocess.run([writer, path], capture_output=True, text=True)
    check(result.returncode == 0, "write_mixed_chunks exited %d: %s" % (result.returncode, result.stderr))
    with h5py.File(path, "r") as f:
        values = f["Float64/values"]
        check(values.shape == (2048, 256) and values.chunks == (1024, 128), "mixed: shape %r chunks %r" %
              (values.shape, values.chunks))
        masks = {}
        for row in (0, 1024):
            for column in (0, 128):
                masks[(row, column)] = values.id.get_chunk_info_by_coord((row, column)).filter_mask
        check(masks == {(0, 0): 0, (1024, 0): 0, (0, 128): 3, (1024, 128): 3},
              "mixed: chunk filter masks %r (0 deflated, 3 raw)" % masks)
        data = values[:, :]
        stats = json.loads(f.attrs["statistics"])
        check(stats["results"]["chunks_compressed"] == 2 and stats["results"]["chunks_raw_incompressible"] == 2,
              "mixed: statistics %r" % stats)
    for r in range(0, 2048, 7):
        for c in range(256):
            if bits(data[r, c]) != mixed_value_bits(r, c):
                fail("mixed: h5py reads row %d column %d as %r" % (r, c, data[r, c]))
    print("mixed chunks: h5py reads deflated and raw chunks of one dataset bitwise")


def main():
    if len(sys.argv) != 5:
        fail(__doc__)
    lsdae, corpus, work, mixed_writer = sys.argv[1:]
    os.makedirs(work, exist_ok=True)
    fmi3 = os.path.join(corpus, "fmi3")
    for f in ("Feedthrough.fmu", "Feedthrough_in.csv", "BouncingBall.fmu", "Dahlquist.fmu"):
        check(os.path.isfile(os.path.join(fmi3, f)), "missing " + os.path.join(fmi3, f))
    compare("Feedthrough", lsdae, os.path.join(fmi3, "Feedthrough.fmu"),
            ["--input", os.path.join(fmi3, "Feedthrough_in.csv")], work)
    compare("BouncingBall", lsdae, os.path.join(fmi3, "BouncingBall.fmu"), ["--stop", "3"], work)
    killed_run(lsdae, os.path.join(fmi3, "Dahlquist.fmu"), work)
    mixed_chunks(mixed_writer, work)


if __name__ == "__main__":
    main()
