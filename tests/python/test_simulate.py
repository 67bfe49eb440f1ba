"""lsdae.simulate: FMPy's simulate_fmu style (a NumPy structured array)."""
import math

import numpy as np
import pytest

import lsdae

HELLO = "HelloWorld_semi_explicit_shapeA"


def test_simulate_returns_a_structured_array_with_time_and_the_outputs(fmu):
    rows = lsdae.simulate(fmu(HELLO), output=["x", "y"])
    assert isinstance(rows, np.ndarray)
    assert rows.dtype.names == ("time", "x", "y")
    # DefaultExperiment: 0..1 every 0.01 -> 101 rows; x(1) = 4.0552 (tests/runtime/capi)
    assert len(rows) == 101
    assert rows["time"][0] == 0.0 and rows["time"][-1] == 1.0
    assert rows["x"][0] == 1.0
    assert rows["x"][-1] == pytest.approx(4.0552, abs=1e-4)


def test_start_values_stop_time_and_rtol_are_applied(fmu):
    rows = lsdae.simulate(fmu(HELLO), stop_time=0.5, output=["x"], start_values={"x": 2.0}, rtol=1e-10,
                          output_interval=0.05)
    assert len(rows) == 11
    assert rows["time"][-1] == 0.5
    base = lsdae.simulate(fmu(HELLO), stop_time=0.5, output=["x"], rtol=1e-10, output_interval=0.05)
    # The model is linear in x: twice the start value, twice the solution.
    np.testing.assert_allclose(rows["x"], 2 * base["x"], rtol=1e-8)


def test_output_takes_globs_and_default_is_outputs_and_states(fmu):
    rows = lsdae.simulate(fmu(HELLO), output=["g[*]"], stop_time=0.1)
    assert rows.dtype.names == ("time", "g[1]", "g[2]")
    default = lsdae.simulate(fmu(HELLO), stop_time=0.1)
    assert "x" in default.dtype.names  # the state


def test_transmission_line_reaches_the_stop_time(fmu):
    rows = lsdae.simulate(fmu("TransmissionLine_dae_shapeA_80"), output=["v_load", "C[80].v"])
    assert rows["time"][-1] == pytest.approx(4e-6, rel=0, abs=0)
    assert math.isfinite(rows["v_load"][-1])
    assert np.max(np.abs(rows["v_load"])) > 0.1  # the step travelled down the line


def test_time_event_rows_come_twice(fmu):
    rows = lsdae.simulate(fmu("TimeEvent_ode"), output=["x"])
    times = list(rows["time"])
    repeated = [t for t in set(times) if times.count(t) == 2]
    assert len(repeated) == 1, "a row just before and just after the one time event"
