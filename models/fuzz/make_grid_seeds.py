#!/usr/bin/env python3
"""models/fuzz/make_grid_seeds.py DATA_DIR OUT_DIR -- the seeds of lsdae_fuzz_grids.

Writes, from files we did not write (DATA_DIR = ../shared/data/grids: the PSS/E
validation cases of PowerSimulationsDynamics.jl, the MATPOWER cases and change
tables), one seed per input, the mode as its first character (fuzz_grids.cpp):
  0  every distinct small .raw, and an excerpt of ACTIVSg2000.RAW (v33) and of
     WECC240's .raw (v32): the buses reached from the first generator over
     branches and transformers, up to 14, with the records between them (the
     generator's bus made the swing bus)
  1  every distinct small .dyr, and the excerpts' .dyr records
  2  each case's .raw + "LSDAE-FUZZ-DYR" + its .dyr (skip_unsupported)
  3  a few of the same, strict and fully implicit
  5  case9, case14, case39
  6  the header and the first rows of contab_ACTIVSg2000.m
  7  case9 (its branch table, as `lsdae sweep --case` reads it)
Mode 4 (.con) has no file from elsewhere: its seeds are written by hand
(seeds/con_*), after the PSS/E manual's syntax. Also by hand: case9 with a second
slack bus (bus 2) and a branch between the two slacks
(seeds/matpower_case9_two_slacks_by_hand, mode 5: power flow and grid data), and case9 with
generator 2's MBASE and PMAX at 1.79e308 (seeds/matpower_case9_huge_mbase_by_hand: a machine that
is not finite, refused), and a three-bus case with a load of 1e300 MW at its slack bus at
1e-6 p.u. (seeds/matpower_three_bus_infinite_slack_load_by_hand: an admittance that overflows, refused).
Reproducible (sorted inputs, no time stamps); files over MAX_BYTES are skipped.
"""
import hashlib
import os
import re
import sys
from collections import deque

MAX_BYTES = 20000
SEPARATOR = "\nLSDAE-FUZZ-DYR\n"


def fields(line):
    data = line.split("/")[0]
    return [f.strip().strip("'\"").strip() for f in re.split(r"\s*,\s*|\s+", data.strip()) if f.strip() != ""]


def as_bus(text):
    try:
        return abs(int(float(text)))
    except ValueError:
        return None


def raw_excerpt(text, limit=14):
    """The header, the buses reached from the first generator (breadth first)
    and every bus, load, shunt, generator, branch and transformer record among
    them; the other sections emptied."""
    lines = text.splitlines()
    header, body = lines[:3], lines[3:]
    sections, current = [], []
    for line in body:
        f = fields(line)
        if f == ["0"]:
            sections.append((current, line))
            current = []
        elif f[:1] in (["Q"], ["q"]):
            break
        else:
            current.append(line)
    names = ["bus", "load", "fixed_shunt", "generator", "branch", "transformer"]
    parsed = dict(zip(names, sections[:6]))
    # transformer records: 4 lines (K = 0) or 5
    transformers, rows = [], parsed["transformer"][0]
    i = 0
    while i < len(rows):
        n = 4 if as_bus(fields(rows[i])[2]) == 0 else 5
        transformers.append(rows[i:i + n])
        i += n
    adjacency = {}
    for row in parsed["branch"][0]:
        f = fields(row)
        a, b = as_bus(f[0]), as_bus(f[1])
        adjacency.setdefault(a, []).append(b)
        adjacency.setdefault(b, []).append(a)
    for t in transformers:
        f = fields(t[0])
        ends = [as_bus(x) for x in f[:3] if as_bus(x)]
        for a in ends:
            adjacency.setdefault(a, []).extend(e for e in ends if e != a)
    start = as_bus(fields(parsed["generator"][0][0])[0])
    kept, queue = {start}, deque([start])
    while queue and len(kept) < limit:
        for b in adjacency.get(queue.popleft(), []):
            if b not in kept and len(kept) < limit:
                kept.add(b)
                queue.append(b)
    out = list(header)
    for name, (rows, terminator) in zip(names, sections[:6]):
        if name == "transformer":
            for t in transformers:
                if all(as_bus(x) in kept for x in fields(t[0])[:3] if as_bus(x)):
                    out.extend(t)
        elif name == "bus":  # the first generator's bus becomes the swing bus (IDE 3)
            for r in rows:
                if as_bus(fields(r)[0]) in kept:
                    if as_bus(fields(r)[0]) == start:
                        parts = r.split(",")
                        parts[3] = "3"
                        r = ",".join(parts)
                    out.append(r)
        else:
            width = 2 if name == "branch" else 1
            out.extend(r for r in rows if all(as_bus(x) in kept for x in fields(r)[:width]))
        out.append(terminator)
    for _, terminator in sections[6:]:
        out.append(terminator)
    out.append("Q")
    return "\n".join(out) + "\n", kept


def dyr_excerpt(text, kept):
    records, current = [], ""
    for line in text.splitlines():
        current += line + "\n"
        if "/" in line.split("'")[-1] or line.rstrip().endswith("/"):
            if as_bus(fields(current)[0] if fields(current) else "x") in kept:
                records.append(current)
            current = ""
    return "".join(records)


def main():
    data, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    written = {}

    def emit(name, mode, text):
        content = (str(mode) + text).encode()
        if len(content) > MAX_BYTES:
            print(f"skipped {name}: {len(content)} bytes")
            return
        digest = hashlib.sha1(content).hexdigest()
        if digest in written:
            return
        written[digest] = name
        with open(os.path.join(out, name), "wb") as f:
            f.write(content)

    def read(path):
        with open(path, encoding="latin-1") as f:
            return f.read()

    psse = os.path.join(data, "psse")
    cases = []  # (name, raw, dyr)
    for folder in sorted(os.listdir(psse)):
        d = os.path.join(psse, folder)
        if not os.path.isdir(d) or folder == "no_reference":
            continue
        files = sorted(os.listdir(d))
        raws = [f for f in files if f.lower().endswith(".raw")]
        dyrs = [f for f in files if f.lower().endswith(".dyr")]
        for r in raws:
            emit(f"raw_{folder}_{r[:-4]}", 0, read(os.path.join(d, r)))
        for y in dyrs:
            emit(f"dyr_{folder}_{y[:-4]}", 1, read(os.path.join(d, y)))
        for y in dyrs:
            cases.append((f"{folder}_{y[:-4]}", os.path.join(d, raws[0]), os.path.join(d, y)))
    for name, r, y in cases:
        emit(f"case_{name}", 2, read(r) + SEPARATOR + read(y))
    for name, r, y in cases[:4]:
        emit(f"strict_{name}", 3, read(r) + SEPARATOR + read(y))
    big = [("ACTIVSg2000", "no_reference/ACTIVSg2000/ACTIVSg2000.RAW",
            "no_reference/ACTIVSg2000/ACTIVSg2000_dynamics.dyr"),
           ("WECC240", "no_reference/WECC240/240busWECC_2018_PSS33.raw",
            "no_reference/WECC240/240busWECC_2018_PSS.dyr")]
    for name, r, y in big:
        raw, kept = raw_excerpt(read(os.path.join(psse, r)))
        dyr = dyr_excerpt(read(os.path.join(psse, y)), kept)
        emit(f"raw_{name}_excerpt", 0, raw)
        emit(f"dyr_{name}_excerpt", 1, dyr)
        emit(f"case_{name}_excerpt", 2, raw + SEPARATOR + dyr)
    for case in ("case9", "case14", "case39"):
        emit(f"matpower_{case}", 5, read(os.path.join(data, case + ".m")))
    emit("branches_case9", 7, read(os.path.join(data, "case9.m")))
    contab = read(os.path.join(data, "contab_ACTIVSg2000.m")).splitlines()
    start = next(i for i, l in enumerate(contab) if "chgtab" in l and "[" in l)
    emit("chgtab_ACTIVSg2000_head", 6, "\n".join(contab[:start + 12]) + "\n];\n")
    print(f"make_grid_seeds: {len(written)} seeds in {out}")


if __name__ == "__main__":
    main()
