#!/usr/bin/env python3
"""What writing the results costs, format by format, side by side in one go.

Runs `lsdae simulate FMU --all` once per case (CSV, MAT, HDF5 with deflate 1,
HDF5 uncompressed, and, with --baseline-lsdae, the HDF5 cases of another
build, e.g. one from before the HDF5 writer thread) and prints per case:
rows, bytes per row, the time the run loop spent in the result writer
(statistics field time_s.write_results) per row and as a share of the run's
wall time, the wall time, and the CPU time of the process (user + system,
all threads: what compression costs in total, wherever it runs), and the
share of HDF5 value chunks stored raw (writer thread behind or deflate no
help; builds that report it in --stats).
Ratios are printed against the uncompressed HDF5 run of the same binary.

    bench/results_write.py build/bin/lsdae build/fmus/TransmissionLine_dae_shapeA_1280.fmu
    bench/results_write.py build/bin/lsdae FMU --baseline-lsdae ../main/build/bin/lsdae --json out.json
    bench/results_write.py build/bin/lsdae PowerGrid_case13659pegase_semi_explicit.fmu --stop 2

--stop T ends each run at T instead of the FMU's DefaultExperiment (fewer rows,
the same bytes and write time per row: for the largest models).

Cases run interleaved (--repeat K rounds), so a loaded machine's swings hit all
cases alike; the median of each case is shown.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time


def run_case(lsdae, fmu, ext, extra, folder, label):
    out = os.path.join(folder, f"r.{ext}")
    stats = os.path.join(folder, "s.json")
    for f in (out, stats):
        if os.path.exists(f):
            os.remove(f)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    proc = subprocess.run([lsdae, "simulate", fmu, "--all", "-o", out, "--stats", stats, "--no-progress"] + extra,
                          capture_output=True, text=True)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{label}: lsdae exited {proc.returncode}\n{proc.stderr}")
    with open(stats) as f:
        s = json.load(f)
    rows = s["rows_written"]
    write = s["time_s"]["write_results"]
    chunks = s.get("results", {})
    raw = chunks.get("chunks_raw_writer_behind", 0) + chunks.get("chunks_raw_incompressible", 0)
    return {
        "case": label,
        "rows": rows,
        "bytes_per_row": os.path.getsize(out) / max(rows, 1),
        "write_ms_per_row": 1e3 * write / max(rows, 1),
        "write_share": write / s["wall_time_s"],
        "wall_s": wall,
        "cpu_s": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
        # HDF5 of this change on: the share of the value chunks stored raw (the
        # writer thread behind, or deflate no help); -1 when not reported.
        "raw_chunks": raw / chunks["chunks"] if chunks.get("chunks") else -1.0,
    }


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("lsdae")
    p.add_argument("fmu")
    p.add_argument("--baseline-lsdae", help="another lsdae build whose HDF5 writer is compared")
    p.add_argument("--repeat", type=int, default=1, help="rounds of all cases (median shown)")
    p.add_argument("--no-text", action="store_true", help="leave out CSV and MAT")
    p.add_argument("--json", help="write every run's numbers here")
    p.add_argument("--stop", type=float, help="stop time of every run (default: the FMU's)")
    a = p.parse_args()
    stop = ["--stop", repr(a.stop)] if a.stop is not None else []
    cases = []
    if not a.no_text:
        cases += [(a.lsdae, "csv", stop, "CSV"), (a.lsdae, "mat", stop, "MAT")]
    cases += [(a.lsdae, "h5", stop, "HDF5 deflate 1"), (a.lsdae, "h5", stop + ["--hdf5-deflate", "0"], "HDF5 deflate 0")]
    if a.baseline_lsdae:
        cases += [(a.baseline_lsdae, "h5", stop, "baseline HDF5 deflate 1"),
                  (a.baseline_lsdae, "h5", stop + ["--hdf5-deflate", "0"], "baseline HDF5 deflate 0")]
    runs = {label: [] for *_, label in cases}
    with tempfile.TemporaryDirectory(prefix="lsdae-results-bench-") as folder:
        for _ in range(a.repeat):
            for lsdae, ext, extra, label in cases:
                runs[label].append(run_case(lsdae, a.fmu, ext, extra, folder, label))
    med = {label: {k: (statistics.median(r[k] for r in rs) if k != "case" else label) for k in rs[0]}
           for label, rs in runs.items()}
    print(f"{'case':26} {'rows':>6} {'bytes/row':>10} {'write/row':>10} {'write/run':>9} {'wall':>8} {'CPU':>8}"
          f" {'wall/ref':>8} {'CPU/ref':>8} {'raw':>5}")
    for label, m in med.items():
        ref = med["baseline HDF5 deflate 0" if label.startswith("baseline") else "HDF5 deflate 0"]
        raw = "" if m["raw_chunks"] < 0 else f"{100 * m['raw_chunks']:.0f}%"
        print(f"{label:26} {m['rows']:6.0f} {m['bytes_per_row']:10.0f} {m['write_ms_per_row']:8.3f}ms"
              f" {100 * m['write_share']:8.1f}% {m['wall_s']:7.2f}s {m['cpu_s']:7.2f}s"
              f" {m['wall_s'] / ref['wall_s']:8.2f} {m['cpu_s'] / ref['cpu_s']:8.2f} {raw:>5}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(runs, f, indent=1)


if __name__ == "__main__":
    main()
