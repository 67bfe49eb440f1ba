#!/usr/bin/env python3
"""bench/sweep/device_checks.py -- issue 30's second call on a lent 16-core machine: where the
efficiency goes, and whether --threads ever slows a run down there.

Runs on the `device` machine from the bundle `bench/sweep/device_bundle.sh --checks PEGASE_FMU`
made here (.device/: lsdae with its libraries, optionally a second lsdae to compare, the static
contention probe, the case13659pegase FMU), in one time budget:

  1. the contention probe (bench/sweep/contention_probe.c) as N copies at once, N = 1, 2, 4, 8,
     16, in three modes: `spin` (registers only: slows down only if the clock does), `cache 10`
     (a 10 MB working set, one ACTIVSg10k run's size), `dram` (3 x 128 MB streams): each copy's
     own seconds, mean, and the ratio to one copy alone. 16 independent `lsdae simulate`s were
     1.39x slower each than one alone on this machine (docs/performance/sweeps-16-cores.md);
     the mode that slows down as much names the cause;
  2. bench/threads.py on case13659pegase (10 s, the fault) with --threads 1,2,16, interleaved,
     --repeat R, with --compare the bundle's second lsdae if there is one: instances, times,
     ratio to --threads 1, and every CSV byte-equal to --threads 1's; then, if the bundle has it,
     TransmissionLine N = 1280 with --no-coloring --stop 5e-8 (6 403 colours: the rule makes up
     to 16 instances), the same way: what threads give where they are made.

Writes <out>/checks.json, <out>/checks.md, <out>/threads/ (threads.py's own output). Not a test.

    python3 bench/sweep/device_checks.py --bundle .device --out $OUT [--budget 200] [--repeat 3]
"""
import argparse
import json
import os
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
START = time.monotonic()


def log(msg):
    print(f"[{time.monotonic() - START:7.1f} s] {msg}", flush=True)


def probe(binary, mode, copies):
    procs = [subprocess.Popen([binary] + mode.split(), stdout=subprocess.PIPE, text=True) for _ in range(copies)]
    times = []
    for p in procs:
        out, _ = p.communicate()
        if p.returncode != 0:
            sys.exit(f"device_checks: contention_probe {mode} exited {p.returncode}")
        times.append(float(out.strip()))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bundle", default=".device")
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=float, default=200.0, help="seconds for everything")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--copies", default="1,2,4,8,16")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join("/tmp", "lsdae-device-checks")
    os.makedirs(work, exist_ok=True)
    for name in ("lsdae.tar.xz", "lsdae-compare.tar.xz"):
        path = os.path.join(args.bundle, name)
        if os.path.exists(path):
            with tarfile.open(path) as t:
                t.extractall(work)
    result = {"machine": {"processors": os.cpu_count()}, "probe": {}, "threads": None}
    try:
        with open("/proc/cpuinfo") as f:
            result["machine"]["cpu"] = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    md = [f"machine: {result['machine'].get('cpu', '?')}, {os.cpu_count()} processors", ""]

    # 1. The contention probe.
    binary = os.path.join(args.bundle, "contention_probe")
    if os.path.exists(binary):
        os.chmod(binary, 0o755)
        md += ["| mode | copies at once | mean s per copy | slowest | against 1 |", "|---|---|---|---|---|"]
        for mode in ("spin", "cache 10", "dram"):
            one = None
            for n in [int(c) for c in args.copies.split(",")]:
                t = probe(binary, mode, n)
                mean = sum(t) / len(t)
                one = one or mean
                result["probe"].setdefault(mode, []).append({"copies": n, "seconds": t})
                md.append(f"| {mode} | {n} | {mean:.3f} | {max(t):.3f} | {mean / one:.2f} |")
                log(f"probe {mode} x{n}: mean {mean:.3f} s ({mean / one:.2f} of one)")
        md.append("")
    else:
        log("no contention_probe in the bundle: skipped")

    # 2. bench/threads.py on case13659pegase.
    pegase = os.path.join(args.bundle, "PowerGrid_case13659pegase_semi_explicit.fmu")
    tl = os.path.join(args.bundle, "TransmissionLine_dae_shapeA_1280.fmu")
    lsdae = os.path.join(work, "lsdae", "bin", "lsdae")
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(work, "lsdae", "lib"))
    other = os.path.join(work, "lsdae-compare", "bin", "lsdae")
    if os.path.exists(other):
        # The second build's own liblsdae first (the first build's lib folder holds the other
        # libraries): a wrapper, since threads.py runs both builds with one environment.
        wrapper = os.path.join(work, "lsdae-compare", "bin", "lsdae-run")
        with open(wrapper, "w") as f:
            f.write("#!/bin/sh\nLD_LIBRARY_PATH=%s:%s exec %s \"$@\"\n"
                    % (os.path.join(work, "lsdae-compare", "lib"), os.path.join(work, "lsdae", "lib"), other))
        os.chmod(wrapper, 0o755)
        other = wrapper
    result["threads"] = {}
    for name, fmu, extra in (("pegase", pegase, ["--fmu-tl", "", "--fmu-pegase", pegase]),
                             ("tl_no_coloring", tl, ["--fmu-tl", tl, "--options=--no-coloring --stop 5e-8"])):
        left = args.budget - (time.monotonic() - START)
        if not os.path.exists(fmu) or left < 40:
            log(f"threads {name} skipped ({'present' if os.path.exists(fmu) else 'absent'}, {left:.0f} s left)")
            continue
        cmd = [sys.executable, os.path.join(os.path.dirname(HERE), "threads.py"), "--lsdae", lsdae] + extra + [
            "--threads", "1,2,16", "--repeat", str(args.repeat), "--out", os.path.join(args.out, "threads-" + name)]
        if os.path.exists(other):
            cmd += ["--compare", other]
        log(f"threads {name}: " + " ".join(cmd[1:]))
        try:
            r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=left - 5)
            result["threads"][name] = {"exit": r.returncode, "stdout": r.stdout[-6000:], "stderr": r.stderr[-3000:]}
            md += [f"threads.py, {name}:", "", r.stdout[-6000:], r.stderr[-2000:]]
            log(f"threads.py {name} exit {r.returncode}")
        except subprocess.TimeoutExpired:
            result["threads"][name] = {"exit": "timeout"}
            log(f"threads.py {name}: out of budget")

    with open(os.path.join(args.out, "checks.json"), "w") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(args.out, "checks.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
