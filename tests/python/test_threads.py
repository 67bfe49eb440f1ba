"""Several simulations in one process on threads (the GIL is released while
they integrate); one Simulation refuses a second thread."""
import threading

import numpy as np
import pytest

import lsdae

LINE = "TransmissionLine_dae_shapeA_80"


def test_parallel_simulations_match_sequential_ones(fmu):
    lengths = [50.0, 100.0, 150.0, 200.0]
    sequential = [lsdae.simulate(fmu(LINE), output=["v_load"], start_values={"length": n}) for n in lengths]
    parallel = [None] * len(lengths)
    errors = []

    def work(i):
        try:
            parallel[i] = lsdae.simulate(fmu(LINE), output=["v_load"], start_values={"length": lengths[i]})
        except Exception as e:  # noqa: BLE001 -- reported below
            errors.append(e)
    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(lengths))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for a, b in zip(sequential, parallel):
        np.testing.assert_array_equal(a["v_load"], b["v_load"])
    assert not np.array_equal(sequential[0]["v_load"], sequential[-1]["v_load"])


def test_one_simulation_refuses_a_second_thread(fmu):
    sim = lsdae.Simulation(fmu("TransmissionLine_dae_shapeA_1280"), stop_time=1e-4)
    sim.initialize()
    caught = []
    started = threading.Event()

    def advance():
        started.set()
        try:
            sim.advance_to(1e-4)
        except lsdae.CancelledError:
            pass
    worker = threading.Thread(target=advance)
    worker.start()
    started.wait()
    for _ in range(200):  # until the worker is inside advance_to
        try:
            sim.get("v_load")
        except lsdae.UsageError as e:
            caught.append(e)
            break
        threading.Event().wait(0.005)
    sim.cancel()
    worker.join()
    assert caught and "another thread" in str(caught[0])
