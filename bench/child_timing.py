"""Runs a child process and times it: wall time and CPU time, for the bench scripts.

CPU time is the child's user + system time over all its threads
(getrusage(RUSAGE_CHILDREN) before and after), so that a run whose extra
threads cost CPU without giving wall time back shows it. Wall time is
time.perf_counter() around the run. Not a test: the scripts that use it
measure, ctest does not run them.

    import child_timing                        # from bench/
    sys.path.insert(0, <bench/>)               # from bench/sweep/
    proc, wall, cpu = child_timing.measure(cmd)
    wall, cpu, stats = child_timing.run_with_statistics(cmd, stats_json)
"""
import json
import resource
import subprocess
import sys
import time


def measure(cmd, stdout=subprocess.PIPE):
    """Runs cmd (stderr captured, stdout as given); returns (the finished process, wall s, CPU s)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return proc, wall, cpu


def run_with_statistics(cmd, stats_path):
    """Runs an lsdae command that writes its statistics JSON to stats_path; returns (wall s, CPU s, the
    statistics). A failed run ends the script: its command and stderr on stderr, exit code 2."""
    proc, wall, cpu = measure(cmd)
    if proc.returncode != 0:
        sys.stderr.write("failed (exit %d): %s\n%s" % (proc.returncode, " ".join(cmd), proc.stderr))
        sys.exit(2)
    with open(stats_path) as f:
        stats = json.load(f)
    return wall, cpu, stats
