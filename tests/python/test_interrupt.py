"""Interruption: Ctrl-C (SIGINT) stops a long integration inside an output
interval, cleanly, with the rows kept; cancel() from another thread too."""
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import lsdae

LONG = "TransmissionLine_dae_shapeA_1280"

CHILD = textwrap.dedent("""
    import sys, time
    import lsdae
    sim = lsdae.Simulation(sys.argv[1], stop_time=1e-3, output_interval=5e-4)  # ~250x the default run
    sim.initialize()
    print("integrating", flush=True)
    start = time.monotonic()
    try:
        sim.run(["v_load"])
        print("completed", flush=True)
    except KeyboardInterrupt as e:
        r = e.result
        print("interrupted", len(r), r["time"][-1], sim.time, "%.3f" % (time.monotonic() - start), flush=True)
        # The point reached is kept and consistent: the run continues from it.
        t = sim.time
        sim.advance_to(min(t + 1e-9, sim.stop_time))
        print("continued", sim.time > t, flush=True)
""")


def test_sigint_interrupts_a_long_run_cleanly(fmu):
    env = dict(os.environ)
    child = subprocess.Popen([sys.executable, "-c", CHILD, fmu(LONG)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout.readline().strip() == "integrating"
        time.sleep(1.0)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
    lines = out.split("\n")
    assert lines[0].startswith("interrupted"), (out, err)
    _, rows, last_row, reached, _ = lines[0].split()
    # One output interval is the whole first half: the interruption came inside it.
    assert int(rows) == 1 and float(last_row) == 0.0
    assert 0 < float(reached) < 5e-4
    assert lines[1] == "continued True", (out, err)
    assert child.returncode == 0, err
    assert waited < 30, "stopped at the next step, not at the end of the interval"


def test_cancel_from_another_thread(fmu):
    sim = lsdae.Simulation(fmu(LONG), stop_time=1e-3)
    sim.initialize()
    timer = threading.Timer(0.5, sim.cancel)
    timer.start()
    try:
        with pytest.raises(lsdae.CancelledError) as caught:
            sim.advance_to(1e-3)
    finally:
        timer.cancel()
    assert caught.value.exit_code == 130
    assert 0 < sim.time < 1e-3
    t = sim.time
    assert sim.advance_to(t + 1e-9) > t, "continues after a cancel"


def test_cancel_before_a_call_stops_its_first_step(fmu):
    sim = lsdae.Simulation(fmu("HelloWorld_semi_explicit_shapeA"))
    sim.initialize()
    sim.cancel()
    with pytest.raises(lsdae.CancelledError):
        sim.advance_to(0.5)
    assert sim.time == 0.0
    assert sim.advance_to(0.5) == 0.5
