"""lsdae.ScenarioRunner: one scenario at a time on a reused model. Its rows
equal those of `lsdae sweep` for the same scenarios (the same CSV record but
for the wall time), reused runs equal fresh ones bit for bit, a scenario's
own failure is a row (the next scenario runs), bad arguments raise
UsageError, and an SSP system works with component.variable names."""
import math
import os
import subprocess

import pytest

import lsdae


def record_without_wall_time(csv_row):
    import csv
    fields = next(csv.reader([csv_row]))
    fields[5] = ""
    return fields


def test_rows_equal_those_of_lsdae_sweep(tmp_path, fmu, lsdae_binary):
    metrics = ["final:x", "max:der(x)", "tmin:x"]
    runner = lsdae.ScenarioRunner(fmu("HelloWorld_ode"), metrics=metrics, stop_when=["x > 20"], stop_time=1.5,
                                  rtol=1e-9)
    assert runner.header == ["id", "status", "message", "reached_time", "steps", "wall_time_s"] + metrics
    values = {"a": 1.0, "b": 2.5, "c": 0.1, "d": 1.0}
    rows = {k: runner.run({"x": v}, id=k) for k, v in values.items()}
    assert [r.reused for r in rows.values()] == [False, True, True, True]
    a = rows["a"]
    assert a.status == "ok" and a.reached_time == 1.5 and a.steps > 0
    assert a.metrics["final:x"] == pytest.approx(math.exp(1.4 * 1.5), rel=1e-6)
    assert a.metrics["max:der(x)"] == pytest.approx(1.4 * a.metrics["final:x"], rel=1e-9)
    assert rows["b"].status == "stopped-early" and "x > 20" in rows["b"].message
    assert record_without_wall_time(rows["d"].csv_row)[1:] == record_without_wall_time(a.csv_row)[1:]

    table = tmp_path / "t.csv"
    table.write_text("id,x\n" + "".join(f"{k},{v!r}\n" for k, v in values.items()))
    summary = tmp_path / "s.csv"
    args = [lsdae_binary, "sweep", fmu("HelloWorld_ode"), "--scenarios", str(table), "--stop", "1.5", "--rtol",
            "1e-9", "--stop-when", "x > 20", "--summary", str(summary), "--no-progress"]
    for m in metrics:
        args += ["--metric", m]
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    swept = lsdae.read_summary(summary)
    for k, id in enumerate(swept["id"]):
        assert swept["status"][k] == rows[id].status
        for m in metrics:
            assert swept[m][k] == rows[id].metrics[m], (id, m)
        assert swept["steps"][k] == rows[id].steps


def test_reuse_equals_fresh_and_a_failure_is_a_row(fmu):
    reused = lsdae.ScenarioRunner(fmu("HelloWorld_ode"), metrics=["final:x", "max:y"], stop_time=1.0)
    fresh = lsdae.ScenarioRunner(fmu("HelloWorld_ode"), metrics=["final:x", "max:y"], stop_time=1.0, reuse=False)
    bad = reused.run({"x": 1, "nosuch": 2})
    assert bad.status == "failed" and not bad.ok and "nosuch" in bad.message
    assert bad.reached_time is None and bad.metrics == {"final:x": None, "max:y": None}
    for x in (1, 2.25, -0.5):
        r, f = reused.run(x=x), fresh.run(x=x)
        assert r.reused and not f.reused
        assert r.metrics == f.metrics and r.steps == f.steps
    assert reused.run({"x": "not a number"}).status == "failed"


def test_bad_arguments_raise(fmu):
    with pytest.raises(lsdae.UsageError, match="nosuch"):
        lsdae.ScenarioRunner(fmu("HelloWorld_ode"), metrics=["max:nosuch"])
    with pytest.raises(lsdae.UsageError, match="not an option"):
        lsdae.ScenarioRunner(fmu("HelloWorld_ode"), stop_tiem=1.0)
    with pytest.raises(lsdae.UsageError, match="lists of texts"):
        lsdae.ScenarioRunner(fmu("HelloWorld_ode"), metrics="max:x")
    with pytest.raises(lsdae.UsageError, match="xx"):
        lsdae.ScenarioRunner(fmu("HelloWorld_ode"), sets={"xx": 1})
    runner = lsdae.ScenarioRunner(fmu("HelloWorld_ode"))
    with pytest.raises(lsdae.UsageError, match="give a number"):
        runner.run({"x": object()})
    with pytest.raises(lsdae.LsdaeError):
        lsdae.ScenarioRunner(os.path.join(os.path.dirname(fmu("HelloWorld_ode")), "no-such.fmu"))


def test_a_system_of_fmus(fmu):
    systems = os.path.join(os.path.dirname(os.path.dirname(fmu("HelloWorld_ode"))), "systems")
    ssp = os.path.join(systems, "coupled_masses.ssp")
    assert os.path.isfile(ssp), f"{ssp} is missing → build the system archives (cmake --build build)"
    runner = lsdae.ScenarioRunner(ssp, metrics=["max:mass1.v", "min:spread(mass?.v)"], sets={"mass2.m": 3},
                                  stop_time=2.0)
    rows = [runner.run({"mass1.F0": f0}) for f0 in (0.5, 2.5, 0.5)]
    assert all(r.status == "ok" for r in rows), [r.message for r in rows]
    assert rows[1].metrics["max:mass1.v"] > rows[0].metrics["max:mass1.v"]
    assert rows[2].metrics == rows[0].metrics
    assert rows[2].reused
