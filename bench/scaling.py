#!/usr/bin/python3
"""bench/scaling.py -- the TransmissionLine scaling sweep of issue 7.

Runs, for every N, side by side and interleaved (the order rotates between
repetitions, so drift in machine load hits every variant alike):

  lsdae   ODE FMU   build/bin/lsdae simulate TransmissionLine_ode_<N>.fmu
  native  ODE form  build/bin/tl_native --form ode -N <N>
  lsdae   DAE FMU   build/bin/lsdae simulate TransmissionLine_dae_shapeA_<N>.fmu
  native  DAE form  build/bin/tl_native --form dae -N <N>
  lsdae-elim DAE FMU  lsdae simulate ... --eliminate auto (with --eliminate: the
          linear algebraic unknowns solved away before IDA sees the system)
  native-serial (both forms): tl_native --nvector serial, i.e. IDA's vector
          kernels as Debian ships them (built without optimisation); lsdae and
          the default native use the same kernels compiled with the project
          (runtime/simulation/ida/optimized_nvector.h, bitwise the same results)
  dense   (both forms) lsdae --linear-solver dense          up to --dense-max
  column  (both forms) lsdae --no-coloring (one directional
          call per Jacobian column, as PyFMI 2.0 / fmi-rs)   up to --column-max

with the DefaultExperiment (0 .. 4e-6 s, output every 2e-9 s, rtol 1e-8),
each run a separate process, timed from spawn to exit (and by its own
statistics JSON: the integration alone), its peak RSS from GNU time. The best
of --repeat-small runs is kept for N <= --small-max, of --repeat runs above.
Every run outputs v_load and the reference trajectory's columns, so the
output cost is the same on both sides; afterwards the solutions are compared
with each other and with models/transmission_line/reference/.

Beyond the benchmark (--large, default 2560 5120 10240; FMUs from the target
lsdae_bench_large_fmus): lsdae and native, both forms, with a shorter stop
time (--large-stop), reporting the cost per step and per step and unknown.

Writes <out>/scaling.json (machine, settings, every run, the kept results),
<out>/scaling.png (log-log time against N; cost per step and unknown) and
<out>/scaling_table.md (the tables of docs/performance/transmission-line.md). Uses Debian's
python3-numpy and python3-matplotlib; run it with /usr/bin/python3 from the
repository root on a quiet machine (the load average is recorded):

    cmake --build build --target lsdae lsdae_fmus tl_native lsdae_bench_large_fmus
    /usr/bin/python3 bench/scaling.py                 # about 45 minutes on 2 cores
    /usr/bin/python3 bench/scaling.py --quick         # N <= 160, no large N: a minute
"""

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [10, 20, 40, 80, 160, 320, 640, 1280]
LARGE = [2560, 5120, 10240]


def machine():
    info = {"nproc": os.cpu_count(), "platform": platform.platform()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal"):
                    info["ram_gib"] = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    return info


def build_type(build):
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return "?"


def git_commit():
    try:
        return subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def run_process(cmd, timeout, rss_file):
    """Runs cmd under GNU time; returns (exit code, wall seconds, peak RSS KiB, stderr). Exit None: timed out.

    Peak RSS comes from /usr/bin/time -f %M, not from wait4() here: Linux
    carries the high-water RSS of the pre-exec image into the child's maxrss,
    and Python's (v)fork would put this script's ~14 MiB under every run.
    """
    start = time.perf_counter()
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%U %S %M", "-o", rss_file] + cmd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        return None, time.perf_counter() - start, 0, "timeout"
    wall = time.perf_counter() - start
    rss, cpu = 0, None
    try:
        with open(rss_file) as f:
            lines = [line for line in f.read().split("\n") if line.strip()]
            user, system, rss = lines[-1].split()
            rss, cpu = int(rss), float(user) + float(system)
    except (OSError, ValueError, IndexError):
        pass
    return proc.returncode, wall, rss, err.decode(errors="replace"), cpu


def reference_columns(n):
    half = max(1, n // 2)
    return ["filter.y", "C[1].v", "C[%d].v" % half, "C[%d].v" % n, "L[1].i", "L[%d].i" % n]


def reference_file(n):
    path = os.path.join(REPO, "models", "transmission_line", "reference", "N%d_trajectory.csv" % n)
    return path if os.path.exists(path) else None


def fmu_path(build, form, n):
    name = "TransmissionLine_%s_%d.fmu" % ("ode" if form == "ode" else "dae_shapeA", n)
    for folder in ("fmus", os.path.join("bench", "fmus")):
        path = os.path.join(build, folder, name)
        if os.path.exists(path):
            return path
    return None


class Sweep:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build)
        self.lsdae = os.path.join(self.build, "bin", "lsdae")
        self.native = os.path.join(self.build, "bin", "tl_native")
        self.work = tempfile.mkdtemp(prefix="lsdae-scaling-")
        self.runs = []
        self.snapshot()

    def snapshot(self):
        """Copies the programs and the FMUs into the work folder: the build is
        shared, and a rebuild during a 40-minute sweep must not mix versions."""
        import shutil
        bin_dir = os.path.join(self.work, "bin")
        os.makedirs(bin_dir)
        for tool in ("lsdae", "tl_native"):
            shutil.copy2(os.path.join(self.build, "bin", tool), bin_dir)
        self.lsdae = os.path.join(bin_dir, "lsdae")
        self.native = os.path.join(bin_dir, "tl_native")
        self.fmus = {}
        for n in self.args.sizes + self.args.large:
            for form in ("ode", "dae"):
                path = fmu_path(self.build, form, n)
                if path is not None:
                    self.fmus[(form, n)] = shutil.copy2(path, self.work)
        self.binary_time = datetime.datetime.fromtimestamp(
            os.path.getmtime(os.path.join(self.build, "bin", "lsdae"))).isoformat(timespec="seconds")

    def command(self, variant, form, n, stop, stats, output):
        outputs = ",".join(["v_load"] + (reference_columns(n) if reference_file(n) else []))
        if variant.startswith("native"):
            cmd = [self.native, "--form", form, "-N", str(n), "--stats", stats, "-o", output,
                   "--output-vars", outputs]
            if variant == "native-serial":
                cmd += ["--nvector", "serial"]
        else:
            fmu = self.fmus.get((form, n))
            if fmu is None:
                return None
            cmd = [self.lsdae, "simulate", fmu, "--stats", stats, "-o", output, "--output-vars", outputs,
                   "--no-progress"]
            # the full DAE and IDA's Jacobian rule, as the native solver has them; lsdae-elim: the defaults
            cmd += ["--eliminate", "auto"] if variant == "lsdae-elim" else ["--eliminate", "off", "--no-jacobian-reuse"]
            if variant == "dense":
                cmd += ["--linear-solver", "dense"]
            if variant == "column":
                cmd += ["--no-coloring"]
        if stop is not None:
            cmd += ["--stop", repr(stop)]
        return cmd

    def run(self, variant, form, n, stop, repetition):
        tag = "%s_%s_%d_r%d" % (variant, form, n, repetition)
        stats_path = os.path.join(self.work, tag + ".json")
        output = os.path.join(self.work, "%s_%s_%d.csv" % (variant, form, n))
        cmd = self.command(variant, form, n, stop, stats_path, output)
        if cmd is None:
            print("  %-6s %s N=%d: FMU not built, skipped" % (variant, form, n), flush=True)
            return None
        rc, wall, rss, err, cpu = run_process(cmd, self.args.timeout, os.path.join(self.work, tag + ".rss"))
        record = {"variant": variant, "form": form, "N": n, "stop": stop, "repetition": repetition,
                  "exit": rc, "wall_s": wall, "cpu_s": cpu, "peak_rss_kb": rss, "command": " ".join(cmd)}
        if rc == 0 and os.path.exists(stats_path):
            with open(stats_path) as f:
                s = json.load(f)
            c = s["counters"]
            record.update({
                "unknowns": s["model"]["unknowns"],
                "nonzeros": s["jacobian"]["nonzeros"],
                "colors": s["jacobian"].get("colors"),
                "steps": c["steps"], "residual_calls": c["residual_calls"],
                "jacobian_evaluations": c["jacobian_evaluations"],
                "jacobian_residual_calls": c.get("jacobian_residual_calls", 0),
                "directional_calls": c.get("directional_calls", 0),
                "nonlinear_iterations": c["nonlinear_iterations"],
                "integrate_s": s["time_s"]["integrate"],
                "initialize_s": s["time_s"]["initialize"],
                "inner_wall_s": s["wall_time_s"],
                "klu_lu_nnz": s["klu"]["lnz"] + s["klu"]["unz"] if "klu" in s and "lnz" in s["klu"] else None,
            })
        else:
            record["error"] = err.strip()[-500:]
        self.runs.append(record)
        extra = ("%d steps, %d res, %d jac" % (record["steps"], record["residual_calls"],
                                             record["jacobian_evaluations"])) if "steps" in record else \
            record.get("error", "")
        print("  %-6s %s N=%-5d r%d  %8.3f s (cpu %s s)  %7d KiB  %s" % (
            variant, form, n, repetition, wall, "%.3f" % cpu if cpu is not None else "?", rss, extra), flush=True)
        return record

    def main_variants(self):
        for variant, form in self.all_main_variants():
            if self.args.only is None or variant in self.args.only or "%s:%s" % (variant, form) in self.args.only:
                yield variant, form

    def all_main_variants(self):
        for form in ("ode", "dae"):
            yield ("lsdae", form)
            yield ("native", form)
            if self.args.serial_vectors:
                yield ("native-serial", form)
        if self.args.eliminate:
            yield ("lsdae-elim", "dae")

    def sweep(self):
        a = self.args
        for n in a.sizes:
            variants = list(self.main_variants())
            for form in ("ode", "dae"):
                if n <= a.dense_max:
                    variants.append(("dense", form))
                if n <= a.column_max:
                    variants.append(("column", form))
            repeats = a.repeat_small if n <= a.small_max else a.repeat
            slow = set()
            print("N = %d (%d repetitions), load %.2f" % (n, repeats, os.getloadavg()[0]), flush=True)
            for r in range(repeats):
                k = r % len(variants)
                for variant, form in variants[k:] + variants[:k]:
                    if (variant, form) in slow:
                        continue
                    rec = self.run(variant, form, n, None, r)
                    # Baselines that take long are measured once (they are far off anyway).
                    if rec is not None and variant in ("dense", "column") and \
                            (rec["exit"] != 0 or rec["wall_s"] > a.baseline_once_after):
                        slow.add((variant, form))
        for n in a.large:
            print("N = %d (beyond the benchmark, stop %g s, %d repetitions), load %.2f" % (
                n, a.large_stop, a.repeat, os.getloadavg()[0]), flush=True)
            variants = list(self.main_variants())
            for r in range(a.repeat):
                k = r % len(variants)
                for variant, form in variants[k:] + variants[:k]:
                    self.run(variant, form, n, a.large_stop, r)

    def compare_solutions(self, n, stop):
        """Max differences of lsdae's and native's solutions with each other and the reference."""
        import numpy as np
        out = {}
        ref_path = reference_file(n) if stop is None else None
        ref = None
        if ref_path:
            ref = np.genfromtxt(ref_path, delimiter=",", names=True)
        for form in ("ode", "dae"):
            data = {}
            for variant in ("lsdae", "native", "native-serial", "lsdae-elim"):
                path = os.path.join(self.work, "%s_%s_%d.csv" % (variant, form, n))
                if os.path.exists(path):
                    data[variant] = np.genfromtxt(path, delimiter=",", names=True)
            for a_, b_ in (("lsdae", "native"), ("native-serial", "native"), ("lsdae-elim", "lsdae")):
                if a_ in data and b_ in data and len(data[a_]) == len(data[b_]):
                    peak = max(np.abs(data[b_]["v_load"]).max(), 1e-300)
                    out["%s_%s_vs_%s" % (form, a_, b_)] = float(
                        np.abs(data[a_]["v_load"] - data[b_]["v_load"]).max() / peak)
            if ref is not None:
                for variant, d in data.items():
                    if variant not in ("lsdae", "native", "lsdae-elim"):
                        continue
                    worst = 0.0
                    for column in ref.dtype.names[1:]:
                        if column not in d.dtype.names or len(d) != len(ref):
                            continue
                        scale = max(np.abs(ref[column]).max(), 1e-300)
                        worst = max(worst, float(np.abs(d[column] - ref[column]).max() / scale))
                    out["%s_%s_vs_reference" % (form, variant)] = worst
        return out


def best(runs, variant, form, n, stop):
    ok = [r for r in runs if r["variant"] == variant and r["form"] == form and r["N"] == n and r["stop"] == stop
          and r["exit"] == 0 and "steps" in r]
    return min(ok, key=lambda r: r["wall_s"]) if ok else None


def summarize(sweep):
    a = sweep.args
    results = []
    for n in a.sizes + a.large:
        stop = None if n in a.sizes else a.large_stop
        row = {"N": n, "stop": stop if stop is not None else 4e-6}
        for variant in ("lsdae", "native", "native-serial", "dense", "column", "lsdae-elim"):
            for form in ("ode", "dae"):
                r = best(sweep.runs, variant, form, n, stop)
                if r is None:
                    continue
                cpus = sorted(x["cpu_s"] for x in sweep.runs if x["variant"] == variant and x["form"] == form and
                              x["N"] == n and x["stop"] == stop and x["exit"] == 0 and x.get("cpu_s") is not None)
                keep = {k: r[k] for k in ("wall_s", "cpu_s", "integrate_s", "peak_rss_kb", "steps", "residual_calls",
                                          "jacobian_evaluations", "jacobian_residual_calls", "directional_calls",
                                          "colors", "unknowns", "nonzeros", "klu_lu_nnz")}
                keep["us_per_step"] = 1e6 * r["integrate_s"] / max(1, r["steps"])
                keep["ns_per_step_unknown"] = 1e9 * r["integrate_s"] / max(1, r["steps"]) / r["unknowns"]
                if variant.startswith("lsdae") and r["jacobian_evaluations"]:
                    calls = r["jacobian_residual_calls"] or r["directional_calls"]
                    keep["calls_per_jacobian"] = calls / r["jacobian_evaluations"]
                if cpus:
                    keep["cpu_best_s"], keep["cpu_worst_s"] = cpus[0], cpus[-1]
                row["%s_%s" % (variant, form)] = keep
            timed_out = [x for x in sweep.runs if x["variant"] == variant and x["N"] == n and x["exit"] is None]
            for x in timed_out:
                row.setdefault("%s_%s" % (variant, x["form"]), {"timeout_s": a.timeout})
        elim, native_ode = row.get("lsdae-elim_dae"), row.get("native_ode")
        if elim and native_ode and "wall_s" in elim and "wall_s" in native_ode:
            row["ratio_elim_dae_to_native_ode"] = elim["wall_s"] / native_ode["wall_s"]
            if elim.get("cpu_best_s") and native_ode.get("cpu_best_s"):
                row["ratio_cpu_elim_dae_to_native_ode"] = elim["cpu_best_s"] / native_ode["cpu_best_s"]
        for form in ("ode", "dae"):
            for suffix, lk, nk in (("", "lsdae_", "native_"), ("_serial", "lsdae_", "native-serial_")):
                l, nat = row.get(lk + form), row.get(nk + form)
                if l and nat and "wall_s" in l and "wall_s" in nat:
                    row["ratio%s_%s" % (suffix, form)] = l["wall_s"] / nat["wall_s"]
                    row["ratio_integrate%s_%s" % (suffix, form)] = l["integrate_s"] / nat["integrate_s"]
        row["solutions"] = sweep.compare_solutions(n, stop)
        results.append(row)
    return results


def fmt_time(x):
    if x is None:
        return "–"
    return "%.3g" % x if x < 100 else "%.0f" % x


def tables(doc):
    lines = []
    rows = [r for r in doc["results"] if r["stop"] == 4e-6]
    lines.append("| N | unknowns ODE / DAE | lsdae ODE s | native ODE s | **ratio ODE** (integration) | "
                 "lsdae DAE s | native DAE s | **ratio DAE** (integration) | steps ODE (lsdae = native) | "
                 "steps DAE (lsdae = native) | residual calls ODE / DAE | dense ODE / DAE s | "
                 "one-column ODE / DAE s |")
    lines.append("|" + "---|" * 13)
    for r in rows:
        def g(key, field="wall_s"):
            return r.get(key, {}).get(field)

        def pair(key_a, key_b):
            va, vb = r.get(key_a, {}), r.get(key_b, {})
            ta = "timeout" if "timeout_s" in va else fmt_time(va.get("wall_s"))
            tb = "timeout" if "timeout_s" in vb else fmt_time(vb.get("wall_s"))
            return "%s / %s" % (ta, tb)

        def steps(form):
            a, b = g("lsdae_" + form, "steps"), g("native_" + form, "steps")
            if a is None or b is None:
                return "–"
            return "%d" % a if a == b else "%d ≠ %d" % (a, b)

        lines.append("| %d | %s / %s | %s | %s | **%.3f** (%.3f) | %s | %s | **%.3f** (%.3f) | %s | %s | %s / %s | %s | %s |" % (
            r["N"], g("lsdae_ode", "unknowns"), g("lsdae_dae", "unknowns"),
            fmt_time(g("lsdae_ode")), fmt_time(g("native_ode")), r.get("ratio_ode", float("nan")),
            r.get("ratio_integrate_ode", float("nan")),
            fmt_time(g("lsdae_dae")), fmt_time(g("native_dae")), r.get("ratio_dae", float("nan")),
            r.get("ratio_integrate_dae", float("nan")),
            steps("ode"), steps("dae"), g("lsdae_ode", "residual_calls"), g("lsdae_dae", "residual_calls"),
            pair("dense_ode", "dense_dae"), pair("column_ode", "column_dae")))
    if any("native-serial_ode" in r or "native-serial_dae" in r for r in doc["results"]):
        lines.append("")
        lines.append("The native solver with IDA's vector kernels as Debian builds them (`--nvector serial`, "
                     "-O0; bitwise the same results), against the optimised kernels lsdae and native use:")
        lines.append("")
        lines.append("| N | native ODE s, Debian's kernels | native ODE s | speed-up ODE | "
                     "native DAE s, Debian's kernels | native DAE s | speed-up DAE | lsdae / native-with-Debian's-kernels ODE / DAE |")
        lines.append("|" + "---|" * 8)
        for r in doc["results"]:
            def g(key, field="wall_s"):
                return r.get(key, {}).get(field)

            def speedup(a, b):
                return "%.2f" % (g(a) / g(b)) if g(a) and g(b) else "–"
            label = "%d" % r["N"] if r["stop"] == 4e-6 else "%d (stop %g s)" % (r["N"], r["stop"])
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %.3f / %.3f |" % (
                label, fmt_time(g("native-serial_ode")), fmt_time(g("native_ode")),
                speedup("native-serial_ode", "native_ode"),
                fmt_time(g("native-serial_dae")), fmt_time(g("native_dae")),
                speedup("native-serial_dae", "native_dae"),
                r.get("ratio_serial_ode", float("nan")), r.get("ratio_serial_dae", float("nan"))))
    lines.append("")
    lines.append("| N | colours ODE / DAE | residual (directional) calls per Jacobian ODE / DAE | Jacobians ODE / DAE | "
                 "peak RSS lsdae ODE / DAE MiB | peak RSS native ODE / DAE MiB | "
                 "lsdae DAE µs/step | native DAE µs/step | lsdae DAE ns/(step·unknown) |")
    lines.append("|" + "---|" * 9)
    for r in doc["results"]:
        def g(key, field):
            return r.get(key, {}).get(field)
        mib = lambda v: "%.1f" % (v / 1024) if v else "–"
        lines.append("| %d%s | %s / %s | %s / %s | %s / %s | %s / %s | %s / %s | %s | %s | %s |" % (
            r["N"], "" if r["stop"] == 4e-6 else " (stop %g s)" % r["stop"],
            g("lsdae_ode", "colors"), g("lsdae_dae", "colors"),
            fmt_time(g("lsdae_ode", "calls_per_jacobian")), fmt_time(g("lsdae_dae", "calls_per_jacobian")),
            g("lsdae_ode", "jacobian_evaluations"), g("lsdae_dae", "jacobian_evaluations"),
            mib(g("lsdae_ode", "peak_rss_kb")), mib(g("lsdae_dae", "peak_rss_kb")),
            mib(g("native_ode", "peak_rss_kb")), mib(g("native_dae", "peak_rss_kb")),
            fmt_time(g("lsdae_dae", "us_per_step")), fmt_time(g("native_dae", "us_per_step")),
            fmt_time(g("lsdae_dae", "ns_per_step_unknown"))))
    large = [r for r in doc["results"] if r["stop"] != 4e-6]
    if large:
        lines.append("")
        lines.append("| N (stop) | unknowns ODE / DAE | lsdae ODE s | native ODE s | ratio ODE | lsdae DAE s | "
                     "native DAE s | ratio DAE | steps ODE / DAE | µs/step lsdae ODE / DAE | "
                     "ns/(step·unknown) lsdae ODE / DAE |")
        lines.append("|" + "---|" * 11)
        for r in large:
            def g(key, field):
                return r.get(key, {}).get(field)
            lines.append("| %d (%g s) | %s / %s | %s | %s | %.3f | %s | %s | %.3f | %s / %s | %s / %s | %s / %s |" % (
                r["N"], r["stop"], g("lsdae_ode", "unknowns"), g("lsdae_dae", "unknowns"),
                fmt_time(g("lsdae_ode", "wall_s")), fmt_time(g("native_ode", "wall_s")),
                r.get("ratio_ode", float("nan")),
                fmt_time(g("lsdae_dae", "wall_s")), fmt_time(g("native_dae", "wall_s")),
                r.get("ratio_dae", float("nan")),
                g("lsdae_ode", "steps"), g("lsdae_dae", "steps"),
                fmt_time(g("lsdae_ode", "us_per_step")), fmt_time(g("lsdae_dae", "us_per_step")),
                fmt_time(g("lsdae_ode", "ns_per_step_unknown")), fmt_time(g("lsdae_dae", "ns_per_step_unknown"))))
    lines.append("")
    lines.append("| N | ODE: lsdae vs native | ODE: native vs reference | ODE: lsdae vs reference | "
                 "DAE: lsdae vs native | DAE: native vs reference | DAE: lsdae vs reference |")
    lines.append("|" + "---|" * 7)
    for r in rows:
        s = r["solutions"]
        e = lambda k: "%.1e" % s[k] if k in s else "–"
        lines.append("| %d | %s | %s | %s | %s | %s | %s |" % (
            r["N"], e("ode_lsdae_vs_native"), e("ode_native_vs_reference"), e("ode_lsdae_vs_reference"),
            e("dae_lsdae_vs_native"), e("dae_native_vs_reference"), e("dae_lsdae_vs_reference")))
    return "\n".join(lines) + "\n"


def plot(doc, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    full = [r for r in doc["results"] if r["stop"] == 4e-6]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(13, 5.2))
    styles = [("lsdae_ode", "lsdae, ODE FMU", "C0", "o-"), ("native_ode", "native IDA+KLU, ODE form", "C0", "s--"),
              ("lsdae_dae", "lsdae, DAE FMU", "C1", "o-"), ("native_dae", "native IDA+KLU, DAE form", "C1", "s--"),
              ("dense_ode", "lsdae dense LU, ODE FMU", "C2", "^:"), ("dense_dae", "lsdae dense LU, DAE FMU", "C3", "^:"),
              ("column_ode", "lsdae one column per call, ODE", "C4", "v:"),
              ("column_dae", "lsdae one column per call, DAE", "C5", "v:")]
    optvec = [("native-serial_ode", "native, ODE, Debian's -O0 vector kernels", "C0", "s:"),
              ("native-serial_dae", "native, DAE, Debian's -O0 vector kernels", "C1", "s:")]
    for key, label, color, style in styles + optvec:
        pts = [(r["N"], r[key]["wall_s"]) for r in full if key in r and "wall_s" in r[key]]
        if pts:
            ax1.plot(*zip(*pts), style, color=color, label=label, markersize=4,
                     alpha=0.55 if "serial" in key else 1.0)
    ns = [r["N"] for r in full]
    if ns:
        ref = [r for r in full if "native_dae" in r]
        if ref:
            n0, t0 = ref[-1]["N"], ref[-1]["native_dae"]["wall_s"]
            ax1.plot(ns, [t0 * (n / n0) ** 2 for n in ns], color="grey", linewidth=0.8, label="∝ N²")
    ax1.set_xscale("log")
    ax1.set_yscale("log")
    ax1.set_xlabel("N (segments)")
    ax1.set_ylabel("wall time of the whole run, s")
    ax1.set_title("TransmissionLine 0..4 µs, rtol 1e-8 (best of runs)")
    ax1.grid(True, which="both", alpha=0.3)
    ax1.legend(fontsize=6.5, ncol=2)
    for key, label, color, style in styles[:4] + optvec:
        pts = [(r["N"], r[key]["ns_per_step_unknown"]) for r in doc["results"] if key in r and
               "ns_per_step_unknown" in r[key]]
        if pts:
            ax2.plot(*zip(*pts), style, color=color, label=label, markersize=4,
                     alpha=0.55 if "serial" in key else 1.0)
    large = [r["N"] for r in doc["results"] if r["stop"] != 4e-6]
    if large:
        ax2.axvspan(min(large) / 1.3, max(large) * 1.3, color="grey", alpha=0.1,
                    label="beyond the benchmark (stop %g s)" % doc["settings"]["large_stop"])
    ax2.set_xscale("log")
    ax2.set_xlabel("N (segments)")
    ax2.set_ylabel("integration time per step and unknown, ns")
    ax2.set_title("cost per step and unknown (flat = linear in N)")
    ax2.set_ylim(bottom=0)
    ax2.grid(True, which="both", alpha=0.3)
    ax2.legend(fontsize=6.5)
    all_n = sorted({r["N"] for r in doc["results"]})
    for ax, ticks in ((ax1, [r["N"] for r in full]), (ax2, all_n)):
        ax.set_xticks(ticks)
        ax.set_xticklabels([str(n) for n in ticks], fontsize=7.5)
        ax.minorticks_off()
    fig.text(0.01, 0.005, "%s, %s cores, %s GiB; lsdae %s, %s build; load before %.2f after %.2f" % (
        doc["machine"].get("cpu", "?"), doc["machine"].get("nproc"), doc["machine"].get("ram_gib"),
        doc["commit"], doc["build_type"], doc["load_before"][0], doc["load_after"][0]), fontsize=7, color="grey")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    fig.savefig(path, dpi=110)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", default=os.path.join(REPO, "build"))
    p.add_argument("--out", default=os.path.join(REPO, "docs", "performance"))
    p.add_argument("--sizes", type=int, nargs="*", default=SIZES)
    p.add_argument("--large", type=int, nargs="*", default=LARGE)
    p.add_argument("--large-stop", type=float, default=1e-7, help="stop time beyond the benchmark (default 1e-7 s)")
    p.add_argument("--repeat-small", type=int, default=3, help="runs per variant for N <= --small-max (best kept)")
    p.add_argument("--small-max", type=int, default=320)
    p.add_argument("--repeat", type=int, default=2,
                   help="runs per variant above --small-max and beyond the benchmark (best kept)")
    p.add_argument("--dense-max", type=int, default=320, help="largest N for the dense-LU baseline")
    p.add_argument("--column-max", type=int, default=1280, help="largest N for the one-column-per-call baseline")
    p.add_argument("--baseline-once-after", type=float, default=20.0,
                   help="a baseline run longer than this (s) is not repeated")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds before a run is killed")
    p.add_argument("--no-serial-vectors", dest="serial_vectors", action="store_false",
                   help="skip the native solver with Debian's unoptimised N_Vector operations")
    p.add_argument("--quick", action="store_true", help="N <= 160, no large N, one repetition")
    p.add_argument("--eliminate", action="store_true",
                   help="also lsdae on the DAE FMU with --eliminate auto (variant lsdae-elim)")
    p.add_argument("--only", nargs="*", default=None,
                   help="run only these variants (e.g. lsdae-elim native:ode lsdae:dae); default: all")
    args = p.parse_args()
    if args.quick:
        args.sizes = [n for n in args.sizes if n <= 160]
        args.large = []
        args.repeat_small = args.repeat = 1
    for tool in ("bin/lsdae", "bin/tl_native"):
        if not os.path.exists(os.path.join(args.build, tool)):
            sys.exit("scaling.py: %s/%s is missing → cmake --build %s --target lsdae lsdae_fmus tl_native" %
                     (args.build, tool, args.build))
    os.makedirs(args.out, exist_ok=True)
    sweep = Sweep(args)
    load_before = os.getloadavg()
    print("scaling.py: load average %.2f %.2f %.2f on %d cores; work in %s" % (
        *load_before, os.cpu_count(), sweep.work), flush=True)
    started = datetime.datetime.now().astimezone()
    commit = git_commit()  # now: the build may be newer than HEAD, never older than this
    sweep.sweep()
    doc = {
        "about": "TransmissionLine scaling sweep of bench/scaling.py (issue 7); times in seconds, RSS in KiB",
        "date": started.isoformat(timespec="seconds"),
        "duration_s": (datetime.datetime.now().astimezone() - started).total_seconds(),
        "commit": commit,
        "lsdae_binary_built": sweep.binary_time,
        "build_type": build_type(args.build),
        "machine": machine(),
        "load_before": load_before,
        "load_after": os.getloadavg(),
        "settings": {k: v for k, v in vars(args).items() if k not in ("build", "out")},
        "results": [],
        "runs": sweep.runs,
    }
    doc["results"] = summarize(sweep)
    with open(os.path.join(args.out, "scaling.json"), "w") as f:
        json.dump(doc, f, indent=1)
    text = tables(doc)
    with open(os.path.join(args.out, "scaling_table.md"), "w") as f:
        f.write(text)
    plot(doc, os.path.join(args.out, "scaling.png"))
    print(text)
    import shutil
    shutil.rmtree(sweep.work, ignore_errors=True)
    print("scaling.py: wrote %s/scaling.json, scaling_table.md, scaling.png (load after: %.2f)" % (
        args.out, doc["load_after"][0]))


if __name__ == "__main__":
    main()
