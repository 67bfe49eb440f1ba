#!/usr/bin/python3
"""bench/compare_builds.py -- whole runs of two lsdae builds side by side.

For each FMU, runs every variant as its own process, interleaved and rotating
the order between repetitions (so drift in the machine's load hits every
variant alike), and keeps the best and the median wall time (spawn to exit),
the integration time and the deterministic counters from each run's
statistics JSON. A variant is a label, an lsdae binary and extra options, e.g.

    base            the baseline build (e.g. main's HEAD)    BASE/bin/lsdae
    new             this build                               build/bin/lsdae
    new-no-const    this build, --no-constant-entries        build/bin/lsdae

The programs are copied first (a build may change under a long run). Writes
<out>.json (machine, load average before and after, commits, every run) and
<out>.md (one table row per FMU and variant). Usage, from the repository root:

    /usr/bin/python3 bench/compare_builds.py --base /tmp/lsdae-base/build/bin/lsdae \\
        --new build/bin/lsdae --repeat 5 --out /tmp/compare \\
        --fmu build/fmus/TransmissionLine_dae_shapeA_1280.fmu \\
        --fmu build-grid/fmus/PowerGrid_case13659pegase_semi_explicit.fmu
    # options after -- go to every run, e.g. -- --threads 1
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def loadavg():
    with open("/proc/loadavg") as f:
        return [float(x) for x in f.read().split()[:3]]


def git_commit():
    try:
        return subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "?"


def run(binary, fmu, options, extra, work, timeout):
    stats = os.path.join(work, "stats.json")
    if os.path.exists(stats):
        os.remove(stats)
    cmd = [binary, "simulate", fmu, "--no-progress", "-o", os.path.join(work, "result.csv"), "--stats", stats]
    cmd += options + extra
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=timeout)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"compare_builds: {' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
    with open(stats) as f:
        s = json.load(f)
    return {"wall_s": wall, "integrate_s": s.get("time_s", {}).get("integrate"), "jacobian": s.get("jacobian"),
            "counters": s.get("counters")}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--base", required=True, help="the baseline lsdae binary")
    p.add_argument("--new", required=True, help="this build's lsdae binary")
    p.add_argument("--fmu", action="append", required=True, help="an FMU to run (repeatable)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--no-const-variant", dest="no_const", action="store_false",
                   help="leave out the new build with --no-constant-entries")
    p.add_argument("--timeout", type=float, default=900.0)
    p.add_argument("--out", required=True, help="output path without extension")
    p.add_argument("extra", nargs="*", help="options for every run (after --)")
    a = p.parse_args()
    work = tempfile.mkdtemp(prefix="lsdae-compare-")
    programs = {}
    for label, path in (("base", a.base), ("new", a.new)):
        programs[label] = os.path.join(work, "lsdae-" + label)
        shutil.copy2(path, programs[label])
    variants = [("base", programs["base"], []), ("new", programs["new"], [])]
    if a.no_const:
        variants.append(("new --no-constant-entries", programs["new"], ["--no-constant-entries"]))
    doc = {"machine": {"nproc": os.cpu_count(), "cpu": cpu_model()}, "commit": git_commit(),
           "base": os.path.abspath(a.base), "new": os.path.abspath(a.new), "extra": a.extra,
           "repeat": a.repeat, "load_before": loadavg(), "started": time.strftime("%Y-%m-%d %H:%M:%S UTC",
                                                                                  time.gmtime()), "fmus": {}}
    for fmu in a.fmu:
        runs = {label: [] for label, _, _ in variants}
        for r in range(a.repeat):
            order = variants[r % len(variants):] + variants[:r % len(variants)]
            for label, binary, options in order:
                runs[label].append(run(binary, fmu, options, a.extra, work, a.timeout))
                print(f"{os.path.basename(fmu)} {label}: {runs[label][-1]['wall_s']:.3f} s", file=sys.stderr)
        doc["fmus"][fmu] = runs
    doc["load_after"] = loadavg()
    shutil.rmtree(work, ignore_errors=True)
    with open(a.out + ".json", "w") as f:
        json.dump(doc, f, indent=1)
    lines = ["| FMU | variant | wall best (median) s | integration best s | ratio to base (best wall) | colours "
             "(varying) | Jacobians | directional calls | residual-call FD | steps |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for fmu, runs in doc["fmus"].items():
        base_best = min(x["wall_s"] for x in runs["base"])
        for label, rs in runs.items():
            best = min(x["wall_s"] for x in rs)
            med = statistics.median(x["wall_s"] for x in rs)
            integ = min(x["integrate_s"] or 0 for x in rs)
            j, c = rs[0]["jacobian"] or {}, rs[0]["counters"] or {}
            lines.append(f"| {os.path.basename(fmu)} | {label} | {best:.3f} ({med:.3f}) | {integ:.3f} | "
                         f"{best / base_best:.2f} | {j.get('colors')} ({j.get('varying_colors', '–')}) | "
                         f"{c.get('jacobian_evaluations')} | {c.get('directional_calls')} | "
                         f"{c.get('jacobian_residual_calls')} | {c.get('steps')} |")
    lines.append("")
    lines.append(f"load average before {doc['load_before']}, after {doc['load_after']}; commit {doc['commit']}; "
                 f"{a.repeat} runs per variant, interleaved")
    with open(a.out + ".md", "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
