"""The front doors of lsdae -- the command line (simulate and sweep), the C
API and Python -- stand on one run layer (runtime/run/, docs/run.md):

- the same bad option value is refused with the same meaning from each,
  naming the option in the caller's own spelling (--rtol, options.rtol,
  rtol=);
- a library message that names an option names it as the caller spells it;
- the same run gives the same result file, byte for byte, and the same
  statistics JSON (but the wall times and the command line) from each;
- C and Python open and simulate a system of FMUs (.ssp) as the command
  line does.
The C side is tests/runtime/capi/lsdae_run_c.c (lsdae_open + lsdae_run)."""
import json
import os
import subprocess

import pytest

import lsdae

HELLO = "HelloWorld_ode"
LINE = "TransmissionLine_dae_shapeA_80"


@pytest.fixture(scope="module")
def run_c(lsdae_binary):
    program = os.path.join(os.path.dirname(lsdae_binary), "lsdae_run_c")
    assert os.path.isfile(program), f"{program} is missing → build it (cmake --build build --target lsdae_run_c)"

    def run(*args):
        return subprocess.run([program, *map(str, args)], capture_output=True, text=True)
    return run


def cli(lsdae_binary, *args):
    return subprocess.run([lsdae_binary, *map(str, args)], capture_output=True, text=True)


def ssp_path(fmu):
    ssp = os.path.join(os.path.dirname(os.path.dirname(fmu(HELLO))), "systems", "coupled_masses.ssp")
    assert os.path.isfile(ssp), f"{ssp} is missing → build the system archives (cmake --build build)"
    return ssp


@pytest.mark.parametrize("key, flag, value, meaning", [
    ("rtol", "--rtol", "5", "is out of range: the relative tolerance must be from 1e-15 to 1"),
    ("threads", "--threads", "2000", "is out of range: the thread count must be a whole number from 1 to 1024"),
    ("atol", "--atol", "-1", "is out of range: the absolute tolerance must be greater than 0"),
])
def test_the_same_bad_value_is_refused_alike(fmu, lsdae_binary, run_c, tmp_path, key, flag, value, meaning):
    model = fmu(HELLO)
    simulate = cli(lsdae_binary, "simulate", model, flag, value, "-o", tmp_path / "r.csv")
    assert simulate.returncode == 2, simulate.stderr
    assert f'simulate {flag}: "{value}" {meaning}' in simulate.stderr
    sweep = cli(lsdae_binary, "sweep", model, "--grid", "x=1,2", flag, value, "--summary", tmp_path / "s.csv")
    assert sweep.returncode == 2, sweep.stderr
    assert f'sweep {flag}: "{value}" {meaning}' in sweep.stderr
    c = run_c(model, "-", "-", f"{key}={value}")
    assert c.returncode == 2, c.stderr
    assert f"lsdae_open: options.{key} = {value} {meaning}" in c.stderr
    number = float(value) if key != "threads" else int(value)
    with pytest.raises(lsdae.UsageError) as simulation:
        lsdae.Simulation(model, **{key: number})
    assert f"{key}={number!r} {meaning}" in str(simulation.value)
    with pytest.raises(lsdae.UsageError) as runner:
        lsdae.ScenarioRunner(model, **{key: number})
    assert f"{key}={number!r} {meaning}" in str(runner.value)
    for message in (simulate.stderr, sweep.stderr):
        assert f"→ e.g. {flag} " in message
    assert f"→ e.g. options.{key} = " in c.stderr
    assert f"→ e.g. {key}=" in str(simulation.value)


def test_library_messages_name_the_callers_option(fmu, lsdae_binary, run_c, tmp_path):
    """IDA's advice names --max-steps on the command line, max_steps= in
    Python and options.max_steps in C: the one message, respelled."""
    model = fmu(LINE)
    out = cli(lsdae_binary, "simulate", model, "--max-steps", "2", "-o", tmp_path / "r.csv")
    assert out.returncode == 7 and "raise --max-steps" in out.stderr, out.stderr
    with pytest.raises(lsdae.SolverError) as python:
        lsdae.simulate(model, max_steps=2)
    assert "raise max_steps=" in str(python.value) and "--max-steps" not in str(python.value)
    c = run_c(model, tmp_path / "c.csv", "-", "max_steps=2")
    assert c.returncode == 7, c.stderr
    assert "raise options.max_steps" in c.stderr and "--max-steps" not in c.stderr
    assert "kept in " + str(tmp_path / "c.csv") in c.stderr, "lsdae_run says what it kept, as the CLI does"


def _comparable(path):
    """The statistics JSON without what differs from run to run (times) or
    from door to door by nature (the command line)."""
    with open(path) as f:
        stats = json.load(f)
    stats.pop("wall_time_s")
    stats.pop("time_s")
    stats.pop("command_line")
    return stats


def _same_run_from_every_door(lsdae_binary, run_c, model, tmp_path, rtol, outputs, **python_options):
    files = {door: (tmp_path / f"{door}.csv", tmp_path / f"{door}.json") for door in ("cli", "c", "python")}
    out = cli(lsdae_binary, "simulate", model, "--rtol", rtol, "--output-vars", ",".join(outputs),
              "-o", files["cli"][0], "--stats", files["cli"][1], "--no-progress")
    assert out.returncode == 0, out.stderr
    c = run_c(model, files["c"][0], files["c"][1], f"rtol={rtol}", "output_vars=" + ",".join(outputs))
    assert c.returncode == 0, c.stderr
    rows = lsdae.simulate(model, output=outputs, rtol=float(rtol), result_file=str(files["python"][0]),
                          statistics_file=str(files["python"][1]), **python_options)
    texts = {door: files[door][0].read_bytes() for door in files}
    assert texts["cli"] == texts["c"], "the C result file differs from the command line's"
    assert texts["cli"] == texts["python"], "the Python result file differs from the command line's"
    stats = {door: _comparable(files[door][1]) for door in files}
    assert stats["cli"] == stats["c"]
    assert stats["cli"] == stats["python"]
    assert stats["cli"]["rows_written"] == len(rows) > 10
    return stats["cli"]


def test_cli_c_and_python_give_the_same_files(fmu, lsdae_binary, run_c, tmp_path):
    stats = _same_run_from_every_door(lsdae_binary, run_c, fmu(LINE), tmp_path, "1e-7", ["v_load", "C[80].v"])
    assert stats["completed"] is True and stats["counters"]["steps"] > 0
    assert stats["results"] == {"format": "csv"}


def test_a_run_with_events_gives_the_same_files(fmu, lsdae_binary, run_c, tmp_path):
    stats = _same_run_from_every_door(lsdae_binary, run_c, fmu("TimeEvent_ode"), tmp_path, "1e-6", ["x"])
    assert stats["counters"]["time_events"] > 0


def test_c_and_python_open_and_simulate_a_system(fmu, lsdae_binary, run_c, tmp_path):
    ssp = ssp_path(fmu)
    stats = _same_run_from_every_door(lsdae_binary, run_c, ssp, tmp_path, "1e-6", ["mass1.v", "mass2.v"])
    assert stats["fmu"].endswith("coupled_masses.ssp")
    model = lsdae.load(ssp)
    assert "mass1.v" in model.variables
    sim = model.simulation(stop_time=0.5)
    sim.initialize()
    sim.advance_to(0.5)
    assert sim.time == 0.5 and isinstance(sim.get("mass1.v"), float)
