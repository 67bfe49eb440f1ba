"""Errors raise an exception class per kind, with lsdae's message and exit code."""
import os
import zipfile

import pytest

import lsdae

HELLO = "HelloWorld_semi_explicit_shapeA"


def test_missing_file(tmp_path):
    with pytest.raises(lsdae.LsdaeError) as caught:
        lsdae.load(str(tmp_path / "no-such.fmu"))
    assert "no-such.fmu" in str(caught.value)
    assert caught.value.exit_code in (2, 3)


def test_not_a_zip_archive(tmp_path):
    bad = tmp_path / "bad.fmu"
    bad.write_bytes(b"this is not a zip archive")
    with pytest.raises(lsdae.ArchiveError) as caught:
        lsdae.load(str(bad))
    assert caught.value.exit_code == 3 and caught.value.category == "archive"


def test_broken_model_description(tmp_path):
    bad = tmp_path / "broken.fmu"
    with zipfile.ZipFile(bad, "w") as z:
        z.writestr("modelDescription.xml", "<fmiModelDescription fmiVersion='3.0'")
    with pytest.raises(lsdae.XmlError) as caught:
        lsdae.load(str(bad))
    assert caught.value.exit_code == 4


def test_unknown_variable_and_option(fmu):
    with pytest.raises(lsdae.UsageError, match="nope"):
        lsdae.simulate(fmu(HELLO), output=["nope"])
    with pytest.raises(lsdae.UsageError, match="not an option"):
        lsdae.Simulation(fmu(HELLO), rtoll=1e-6)
    with pytest.raises(ValueError):  # UsageError is a ValueError too
        lsdae.Simulation(fmu(HELLO), max_steps=0)


def test_max_steps_is_one_rule(fmu):
    for bad in (0, -1):
        with pytest.raises(lsdae.UsageError, match="at least 1"):
            lsdae.Simulation(fmu(HELLO), max_steps=bad)


def test_solver_failure_keeps_the_rows_computed(fmu):
    # One IDA step between output points cannot follow the line's wave: a solver error mid-run.
    with pytest.raises(lsdae.SolverError) as caught:
        lsdae.load(fmu("TransmissionLine_dae_shapeA_10")).simulate(options={"max_steps": 1, "filter": ["v_load"]})
    e = caught.value
    assert e.exit_code == 7 and e.category == "solver"
    assert "steps" in str(e)
    assert isinstance(e.result, lsdae.Result) and not e.result.completed
    assert len(e.result) >= 1 and e.result["time"][0] == 0.0


def test_hierarchy():
    assert issubclass(lsdae.SolverError, lsdae.LsdaeError)
    assert issubclass(lsdae.UsageError, ValueError)
    assert issubclass(lsdae.LsdaeTimeoutError, TimeoutError)
    assert lsdae.InternalError.exit_code == 70
    assert lsdae.CancelledError.exit_code == 130


def test_log_messages_reach_python_logging(fmu, caplog):
    lsdae.set_log_level("debug")
    try:
        with caplog.at_level("DEBUG", logger="lsdae"):
            lsdae.simulate(fmu("TimeEvent_ode"))
    finally:
        lsdae.set_log_level("warning")
    assert any(r.name == "lsdae" and r.levelname == "DEBUG" and "time event at t = " in r.getMessage()
               for r in caplog.records), [r.getMessage() for r in caplog.records]
    with pytest.raises(lsdae.UsageError):
        lsdae.set_log_level("loud")


def test_no_result_file_is_an_input_of_the_run(fmu, tmp_path):
    """result_file= or statistics_file= naming the FMU, a file of an unpacked
    FMU or the input table replaced it and returned the rows; both on one file
    kept only the statistics. Refused before anything is written
    (runtime/common/output_clash.h), as `lsdae simulate -o` is."""
    model = tmp_path / "model.fmu"
    model.write_bytes(open(fmu("HelloWorld_ode"), "rb").read())
    size = model.stat().st_size
    for kwargs in ({"statistics_file": str(tmp_path / "." / "model.fmu")},
                   {"result_file": str(model), "format": "csv"}):
        with pytest.raises(lsdae.UsageError, match="this is the FMU being simulated; writing there would destroy it"):
            lsdae.simulate(str(model), **kwargs)
        assert model.stat().st_size == size
    table = tmp_path / "in.csv"
    table.write_text("time\n0\n1\n")
    with pytest.raises(lsdae.UsageError, match="this is the input table"):
        lsdae.simulate(str(model), input=str(table), result_file=str(table))
    assert table.read_text() == "time\n0\n1\n"
    with pytest.raises(lsdae.UsageError, match="result_file and statistics_file both name"):
        lsdae.simulate(str(model), result_file=str(tmp_path / "x.csv"), statistics_file=str(tmp_path / "x.csv"))
    assert not (tmp_path / "x.csv").exists()
