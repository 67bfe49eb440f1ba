#!/usr/bin/env python3
"""bench/sweep/device_sweep16.py -- issue 30's 16-core measurement, in one command on a lent machine.

Runs on the `device` machine (16 cores, nothing installed, nothing to fetch) from the bundle
bench/sweep/device_bundle.sh made here (.device/: lsdae with its libraries, the ACTIVSg10k
all-disturbances FMU, the MATPOWER case and contingency table), within one time budget:

  1. simulate: a fresh, full 10 s `lsdae simulate` of two sampled contingencies (the work
     ratio's denominator: CPU per contingency of a sweep over this);
  2. the 64-contingency sample (every 184th outage of contab_ACTIVSg10k.m) with
     --jobs 1, 2, 4, 8 and 16: wall, CPU (the sweep's worker processes included), speed-up and
     parallel efficiency against --jobs 1, and every row equal to --jobs 1's but the wall time;
  3. 256 contingencies (every 46th) with --jobs 16;
  4. the whole table (11,806 outages) with --jobs 16 for the budget left: its wall time if it
     ends, else the rows done and the rate (the summary is written row by row).

The screening settings are docs/performance.md's (sweep_snapshot.py's SCREENING). Writes
<out>/sweep16.json (machine, every run), <out>/sweep16.md (the tables for
docs/performance/sweeps.md), <out>/log.txt and the whole table's summary (xz). Not a test.

    python3 bench/sweep/device_sweep16.py --bundle .device --out $OUT [--budget 540] [--quick]

--quick (to try the script here): 8 contingencies, --jobs 1 and 2, no whole table.
"""
import argparse
import json
import lzma
import os
import platform
import shutil
import signal
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
from child_timing import measure  # noqa: E402
from sweep_snapshot import SCREENING, from_buses, rows_of, sample_table, simulate_command  # noqa: E402

START = time.monotonic()
LOG = []


def log(msg):
    line = f"[{time.monotonic() - START:7.1f} s] {msg}"
    print(line, flush=True)
    LOG.append(line)


def machine():
    info = {"processors": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            names = [ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name")]
        info["cpu"] = names[0] if names else "?"
    except OSError:
        info["cpu"] = "?"
    try:
        with open("/proc/meminfo") as f:
            info["memory_kB"] = int(f.readline().split()[1])
    except (OSError, ValueError, IndexError):
        pass
    try:
        info["load_before"] = os.getloadavg()
    except OSError:
        pass
    return info


def unpack(bundle, work):
    for name in ("lsdae.tar.xz", "grids.tar.xz"):
        path = os.path.join(bundle, name)
        if not os.path.exists(path):
            sys.exit(f"device_sweep16: {path} is missing → run bench/sweep/device_bundle.sh here first, and carry .device")
        with tarfile.open(path) as t:
            t.extractall(work)
    lsdae = os.path.join(work, "lsdae", "bin", "lsdae")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(work, "lsdae", "lib"))
    os.environ.update(env)  # the runs below inherit it
    r = subprocess.run([lsdae, "--version"], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"device_sweep16: the bundled lsdae does not start (exit {r.returncode}): {r.stderr.strip()}\n"
                 "→ a library the bundle left out (glibc's own are the machine's): rebuild the bundle with it")
    log(f"lsdae: {r.stdout.strip()}")
    return lsdae


def sweep(lsdae, fmu, table, case, jobs, summary, timeout=None):
    """One `lsdae sweep` with the screening settings; returns its record (wall, CPU, rows, exit)."""
    cmd = [lsdae, "sweep", fmu, "--contingencies", table, "--case", case, "--jobs", str(jobs),
           "--no-progress", "--summary", summary, "--overwrite"] + SCREENING
    if timeout is None:
        proc, wall, cpu = measure(cmd, stdout=subprocess.DEVNULL)
        code, err = proc.returncode, proc.stderr
    else:  # the whole table: stopped at the budget's end, with its workers
        start = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            _, err = p.communicate(timeout=timeout)
            code = p.returncode
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            _, err = p.communicate()
            code = "stopped"
        wall, cpu = time.perf_counter() - start, None
    rows = rows_of(summary) if os.path.exists(summary) else {}
    failed = sum(1 for r in rows.values() if len(r) > 1 and r[1] == "failed")
    rec = {"jobs": jobs, "wall_s": wall, "cpu_s": cpu, "rows": len(rows), "failed_rows": failed, "exit": code}
    log(f"sweep --jobs {jobs}: {len(rows)} rows, wall {wall:.2f} s" + (f", CPU {cpu:.2f} s" if cpu else "")
        + f", exit {code}" + (f"; stderr tail: {err.strip()[-300:]}" if code not in (0, 12) and err else ""))
    return rec, rows


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bundle", default=".device")
    p.add_argument("--out", default=os.environ.get("OUT", "/tmp/sweep16"))
    p.add_argument("--budget", type=float, default=540.0, help="seconds for everything (the device call's limit is 600)")
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = "/tmp/lsdae-device"
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    result = {"machine": machine(), "runs": {}}
    log(f"machine: {result['machine']}")
    lsdae = unpack(args.bundle, work)
    fmu = os.path.join(args.bundle, "PowerGrid_ACTIVSg10k_all.fmu")
    case = os.path.join(work, "case_ACTIVSg10k.m")
    contab = os.path.join(work, "contab_ACTIVSg10k.m")
    fb = from_buses(case)
    with open(os.path.join(args.bundle, "manifest.txt")) as f:
        result["bundle"] = f.read()
    jobs_list = [1, 2] if args.quick else [1, 2, 4, 8, 16]
    every, count = (1475, 8) if args.quick else (184, 64)

    # 1. The denominator: fresh, full 10 s runs of two sampled contingencies.
    sample = os.path.join(work, "sample.m")
    picked = sample_table(contab, sample, every, count)
    sims = []
    for label, branch in picked[:2]:
        out_csv = os.path.join(work, f"sim_{label}.csv")
        proc, wall, cpu = measure(simulate_command(lsdae, fmu, fb[branch - 1], branch, out_csv),
                                  stdout=subprocess.DEVNULL)
        sims.append({"contingency": label, "branch": branch, "wall_s": wall, "cpu_s": cpu, "exit": proc.returncode})
        log(f"simulate contingency {label} (branch {branch}): CPU {cpu:.2f} s, exit {proc.returncode}")
    result["runs"]["simulate"] = sims
    sim_cpu = sum(s["cpu_s"] for s in sims) / len(sims)

    # 2. The sample at 1 .. 16 processes, rows compared with --jobs 1's.
    result["runs"]["sample"] = {"contingencies": len(picked), "every": every, "jobs": []}
    reference = None
    for jobs in jobs_list:
        rec, rows = sweep(lsdae, fmu, sample, case, jobs, os.path.join(work, f"sample_j{jobs}.csv"))
        if reference is None:
            reference = rows
        rec["rows_equal_to_jobs1"] = rows == reference
        rec["cpu_per_contingency_s"] = rec["cpu_s"] / max(1, rec["rows"])
        rec["work_ratio"] = rec["cpu_per_contingency_s"] / sim_cpu
        result["runs"]["sample"]["jobs"].append(rec)
    base = result["runs"]["sample"]["jobs"][0]["wall_s"]
    for rec in result["runs"]["sample"]["jobs"]:
        rec["speedup"] = base / rec["wall_s"]
        rec["efficiency"] = rec["speedup"] / rec["jobs"]
        rec["contingencies_per_s_per_process"] = rec["rows"] / rec["wall_s"] / rec["jobs"]

    if not args.quick:
        # 3. 256 contingencies on 16 processes.
        big = os.path.join(work, "sample256.m")
        picked256 = sample_table(contab, big, 46, 256)
        rec, _ = sweep(lsdae, fmu, big, case, 16, os.path.join(work, "sample256.csv"))
        rec["contingencies"] = len(picked256)
        rec["efficiency_vs_sample_jobs1"] = (base / result["runs"]["sample"]["contingencies"]) * rec["rows"] \
            / rec["wall_s"] / 16
        result["runs"]["sample256"] = rec
        # 4. The whole table, for the budget left.
        left = args.budget - (time.monotonic() - START) - 15
        if left > 30:
            summary = os.path.join(work, "whole.csv")
            rec, _ = sweep(lsdae, fmu, contab, case, 16, summary, timeout=left)
            rec["budget_s"] = left
            rec["rate_per_s"] = rec["rows"] / rec["wall_s"]
            rec["estimate_whole_table_s"] = 11806 / rec["rate_per_s"] if rec["rows"] else None
            result["runs"]["whole_table"] = rec
            if os.path.exists(summary):
                with open(summary, "rb") as f, lzma.open(os.path.join(args.out, "whole_summary.csv.xz"), "wb") as g:
                    shutil.copyfileobj(f, g)
        else:
            log(f"whole table skipped: {left:.0f} s left of the budget")

    with open(os.path.join(args.out, "sweep16.json"), "w") as f:
        json.dump(result, f, indent=1)
    md = [f"machine: {result['machine'].get('cpu')}, {result['machine']['processors']} processors; "
          f"bundle: {result['bundle'].splitlines()[0]}", "",
          f"simulate (fresh, 10 s): CPU {sim_cpu:.2f} s per contingency (mean of {len(sims)})", "",
          "| run | --jobs | rows | wall s | speed-up | efficiency | CPU per contingency s | work ratio | rows = --jobs 1 |",
          "|---|---|---|---|---|---|---|---|---|"]
    for rec in result["runs"]["sample"]["jobs"]:
        md.append(f"| {len(picked)} sampled | {rec['jobs']} | {rec['rows']} | {rec['wall_s']:.2f} | {rec['speedup']:.2f} | "
                  f"{rec['efficiency']:.2f} | {rec['cpu_per_contingency_s']:.3f} | {rec['work_ratio']:.2f} | "
                  f"{rec['rows_equal_to_jobs1']} |")
    if "sample256" in result["runs"]:
        r = result["runs"]["sample256"]
        md.append(f"| 256 sampled | 16 | {r['rows']} | {r['wall_s']:.2f} | | {r['efficiency_vs_sample_jobs1']:.2f} | "
                  f"{r['cpu_s'] / max(1, r['rows']):.3f} | | |")
    if "whole_table" in result["runs"]:
        r = result["runs"]["whole_table"]
        md.append(f"| whole table | 16 | {r['rows']} | {r['wall_s']:.1f} ({r['exit']}) | | | | | |")
        if r.get("estimate_whole_table_s"):
            md.append("")
            md.append(f"whole table: {r['rate_per_s']:.1f} contingencies/s → {r['estimate_whole_table_s'] / 60:.1f} min "
                      "for all 11,806")
    with open(os.path.join(args.out, "sweep16.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    with open(os.path.join(args.out, "log.txt"), "w") as f:
        f.write("\n".join(LOG) + "\n")
    print("\n".join(md))
    ok = all(r["rows_equal_to_jobs1"] for r in result["runs"]["sample"]["jobs"])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
