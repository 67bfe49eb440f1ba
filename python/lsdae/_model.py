"""load / Model / Simulation / simulate: the package's API (docs/python.md).

Model and simulate follow PyFMI and FMPy; Simulation is the stepping object
a pipeline drives. Everything integrates through lsdae's C++ API and its run
layer (liblsdae.so), with the GIL released while it works. The keyword
arguments are lsdae's options table (docs/run.md): the same keys, values,
ranges and messages as ``lsdae simulate --rtol ...`` and the C API's.
"""
import csv
import json
import os
import tempfile
from dataclasses import dataclass
from typing import Optional, Tuple

from . import _lsdae
from ._errors import UsageError
from ._result import Result


@dataclass(frozen=True)
class Variable:
    """One variable of the model description (FMPy's ScalarVariable, PyFMI's
    ScalarVariable2, in one record). ``start`` is the start attribute as
    written (text; space-separated for arrays); ``shape`` is () for a scalar."""
    name: str
    value_reference: int
    type: str
    causality: str
    variability: str
    initial: Optional[str]
    unit: str
    description: str
    declared_type: str
    start: Optional[str]
    nominal: Optional[float]
    min: Optional[float]
    max: Optional[float]
    shape: Tuple[int, ...]
    derivative_of: Optional[str]

    # FMPy's spelling
    @property
    def valueReference(self):  # noqa: N802
        return self.value_reference


def _drained(function, *args):
    try:
        return function(*args)
    finally:
        _lsdae.drain_log()


def _attach(exception, result):
    """Raises `exception` (an LsdaeError or KeyboardInterrupt) with the rows kept."""
    try:
        exception.result = result
    except AttributeError:
        pass
    raise exception


class Simulation:
    """A simulation to drive step by step::

        sim = lsdae.Simulation("model.fmu", stop_time=2.0)   # or Simulation(model, ...)
        sim.set("k", 2.5)                 # before initialize(): parameters, start values
        sim.initialize()
        while sim.time < sim.stop_time:
            sim.advance_to(sim.time + 0.1)   # returns the time reached
            print(sim.time, sim.get("x"))
        print(sim.statistics())

    Options (keyword arguments, all optional; unset: the model's
    DefaultExperiment, else lsdae's defaults): the simulation options of
    lsdae's options table (docs/run.md) -- start_time, stop_time, rtol,
    atol, output_interval, threads, jacobian ("auto": the FMU's directional
    derivatives, dependencies and constant entries checked against central
    differences of its residual before they are used, a false one named in
    a warning and replaced by finite differences; "fd"; "directional";
    "check": a false claim raises; "trust": as "auto" with nothing checked,
    for FMUs known to be right and for benchmarks), max_steps (>= 1),
    max_step, newton_dcj (IDA's cj band for a new Newton matrix, 0 to 1
    exclusive; 0.25), constraints ("dummy", "project",
    "none"; "dummy-derivatives" too), projection_tolerance, reselect (bool),
    klu_ordering ("amd", "colamd", "metis"), row_order ("matched",
    "declared"), eliminate ("auto", the default: solve the linear algebraic
    unknowns away before IDA; "off"), and the benchmark baselines linear_solver, coloring,
    constant_entries, klu_reanalyze, jacobian_reuse. A bad value is a UsageError saying what
    the command line says for it (``rtol=5 is out of range: ...``).

    The model may be an FMU, an unpacked FMU folder or a system of FMUs
    (.ssp, .ssd: every variable named "component.variable").

    One thread drives a Simulation at a time; cancel() is the exception (any
    thread). Ctrl-C during advance_to()/run() stops the integration after its
    current step and raises KeyboardInterrupt; time and get() then describe
    the point reached, and advance_to() can continue from it.
    """

    def __init__(self, model, **options):
        self.model = model if isinstance(model, Model) else Model(model)
        self._sim = _lsdae.Simulation(self.model._handle, options)
        for name, value in self.model._values.items():
            self._sim.set(name, value)
        if self.model._input is not None:
            self._sim.set_input_file(self.model._input)

    # -- before initialize -------------------------------------------------
    def set(self, name, value=None):
        """Sets a parameter, input or start value before initialize():
        ``set("k", 2.5)``, ``set(["a", "b"], [1, 2])`` or ``set({"a": 1})``.
        The value must be one of the variable's type (bool, int, float, str,
        bytes for Binary, a sequence for a whole array); otherwise UsageError."""
        for n, v in _pairs(name, value):
            self._sim.set(n, v)

    def set_input_file(self, path):
        """Time-varying inputs from a CSV table (a time column, one column per input)."""
        self._sim.set_input_file(os.fspath(path))

    def initialize(self):
        """The FMU's initialization and consistent initial values."""
        self._sim.initialize()

    # -- stepping ----------------------------------------------------------
    def advance_to(self, t):
        """Integrates to t (clipped to stop_time) and returns the time reached
        (earlier only when the FMU asked to terminate). t < time is UsageError."""
        self._sim.advance_to(float(t))
        return self._sim.time

    def cancel(self):
        """From another thread: stop a running advance_to()/run() after its
        current step (it raises CancelledError; the point reached is kept)."""
        self._sim.cancel()

    def run(self, output=None, all=False, result_file=None, statistics_file=None, **options):  # noqa: A002
        """Integrates from where the simulation stands to the stop time,
        recording ``output`` (names or globs; default: the outputs and the
        states) at every output point and event, as ``lsdae simulate`` does
        (the same run loop). Initializes first when needed. ``result_file``
        (.csv, .h5, .mat) and ``statistics_file`` (JSON) are written as
        ``lsdae simulate -o ... --stats ...`` writes them, byte for byte in
        CSV; ``options`` are the output and result-file options of the table
        (output_grid, output_times, output_steps, output_every, max_rows,
        format, csv_units, csv_events, hdf5_deflate, output_roles, ...).
        Returns a Result; an error or Ctrl-C raises with the rows so far as
        ``.result``."""
        patterns = [output] if isinstance(output, str) else list(output or [])
        raw = self._sim.run(patterns, bool(all), options, os.fspath(result_file) if result_file else "",
                            os.fspath(statistics_file) if statistics_file else "")
        result = Result(raw["names"], raw["time"], raw["columns"], _drained(self._sim.statistics),
                        raw["terminated"], completed=raw["error"] is None)
        if raw["error"] is not None:
            _attach(raw["error"], result)
        return result

    # -- reading -------------------------------------------------------------
    def get(self, name):
        """The value of a variable (or "A[2,3]" element) at ``time``: float,
        int, bool, str or bytes; a whole array as a NumPy array (reals) or a
        list. A list of names gives a list of values."""
        if isinstance(name, (list, tuple)):
            return [self._sim.get(n) for n in name]
        return self._sim.get(name)

    def value_references(self, names):
        """The value references of Float64 variables, for get_float64."""
        variables = self.model.variables
        out = []
        for n in names:
            v = variables.get(n)
            if v is None or v.type != "Float64" or v.shape:
                raise UsageError(f"{self.model.path}: {n!r} is not a scalar Float64 variable → "
                                 "get_float64 reads those; use get() for the others")
            out.append(v.value_reference)
        return out

    def get_float64(self, value_references):
        """Float64 values by value reference, with one FMU call (a NumPy array)."""
        return self._sim.get_float64(value_references)

    @property
    def time(self):
        return self._sim.time

    @property
    def start_time(self):
        return self._sim.start_time

    @property
    def stop_time(self):
        return self._sim.stop_time

    @property
    def output_interval(self):
        return self._sim.output_interval

    @property
    def terminated(self):
        """True when the FMU asked to terminate."""
        return self._sim.terminated

    @property
    def initialized(self):
        return self._sim.initialized

    def statistics(self):
        """Model size, solver counters and phase times: a dict by the flat
        names of lsdae's one statistics table (docs/run.md; the fields of the
        C API's lsdae_stats, and the texts)."""
        return self._sim.statistics()

    def statistics_json(self):
        """The statistics of the run so far as the JSON document of ``lsdae
        simulate --stats`` (the same keys, docs/run.md)."""
        return self._sim.statistics_json()

    def structure(self):
        """The structural analysis (``lsdae info --structure --json``) as a dict."""
        return json.loads(self._sim.structure_report_json())

    def structure_report(self):
        """The structural analysis as text (``lsdae info --structure``)."""
        return self._sim.structure_report()

    def jacobian(self, cj=None):
        """The iteration matrix ∂F/∂y + cj·∂F/∂y' at the current point (after
        initialize()), as a scipy.sparse.csc_matrix with ``.row_names`` and
        ``.column_names`` (IDA's residuals and unknowns). cj=0 gives ∂F/∂y;
        the default is 1/output_interval. Without SciPy: a dict with the
        compressed-column arrays."""
        raw = self._sim.jacobian(cj)
        try:
            import scipy.sparse
        except ImportError:
            return raw
        matrix = scipy.sparse.csc_matrix((raw["values"], raw["row_idx"], raw["col_ptr"]), shape=raw["shape"])
        matrix.row_names = raw["row_names"]
        matrix.column_names = raw["column_names"]
        return matrix

    def close(self):
        """Frees the FMU instances now (otherwise when garbage-collected)."""
        self._sim = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _pairs(name, value):
    if isinstance(name, dict):
        return list(name.items())
    if isinstance(name, (list, tuple)):
        if not isinstance(value, (list, tuple)) or len(value) != len(name):
            raise UsageError(f"set({name!r}, {value!r}): a list of names takes a list of as many values")
        return list(zip(name, value))
    return [(name, value)]


class Model:
    """An FMU or a system of FMUs (.ssp, .ssd), loaded (unpacked, parsed,
    validated) once; PyFMI's model object::

        model = lsdae.load("model.fmu")
        model.variables["k"].start       # the model description
        model.set("k", 2.5)               # checked now, applied to every simulate()
        res = model.simulate(final_time=2.0, options={"ncp": 200, "filter": ["x"]})
        res["x"], res["time"]
        model.get("x")                    # after simulate(): the final value

    simulate() runs a fresh Simulation each time with the values set so far.
    """

    def __init__(self, path):
        self.path = os.fspath(path)
        self._handle = _drained(_lsdae.Model.open, self.path)
        self._values = {}
        self._input = None
        self._last = None
        self._variables = None

    @property
    def name(self):
        return self._handle.model_name

    @property
    def default_experiment(self):
        return self._handle.default_experiment

    @property
    def variables(self):
        """Every variable, in model-description order: a dict name → Variable."""
        if self._variables is None:
            self._variables = {d["name"]: Variable(**d) for d in self._handle.variables()}
        return self._variables

    def states(self):
        """The continuous states ("x" or "x[2]"), in fmi3GetContinuousStates order."""
        return self._handle.states()

    def set(self, name, value=None):
        """Values for the next simulate(): ``set("k", 2.5)``, ``set(["a", "b"],
        [1, 2])`` or ``set({"a": 1})``. Checked now against the variable's
        type (UsageError naming it otherwise)."""
        for n, v in _pairs(name, value):
            self._handle.check_value(n, v)
            self._values[n] = v

    def get(self, name):
        """After simulate(): the value at the end of the last run; before: the
        value set, else the start value. A list of names gives a list."""
        if isinstance(name, (list, tuple)):
            return [self.get(n) for n in name]
        if self._last is not None:
            return self._last.get(name)
        if name in self._values:
            return self._values[name]
        return self._handle.start_value(name)

    def reset(self):
        """Forgets the values set and the last run (PyFMI's reset)."""
        self._values = {}
        self._input = None
        self._last = None

    def simulation(self, **options):
        """A stepping Simulation of this model with the values set so far."""
        return Simulation(self, **options)

    def simulate(self, start_time=None, final_time=None, input=None, options=None):  # noqa: A002
        """Simulates from start_time to final_time (default: the
        DefaultExperiment) and returns a Result indexable by name.

        options (a dict, PyFMI style): "ncp" (number of output intervals),
        "filter" (names or globs to record; default: outputs and states),
        "all" (record every variable), "result_file" (also PyFMI's
        "result_file_name") and "statistics_file" (the files ``lsdae
        simulate -o ... --stats ...`` writes), and any option of lsdae's
        options table: the Simulation's ("rtol", "atol", "output_interval",
        "threads", "jacobian", ...) and the run's ("output_grid",
        "max_rows", "format", ...).
        input: a CSV file (time column, one column per input) or PyFMI's
        (names, table) pair, the table's first column the time.
        """
        opts = dict(options or {})
        output = opts.pop("filter", None)
        record_all = bool(opts.pop("all", False))
        ncp = opts.pop("ncp", None)
        result_file = opts.pop("result_file", None) or opts.pop("result_file_name", None)
        statistics_file = opts.pop("statistics_file", None)
        # The options table says which keyword goes where: the run's options to
        # run(), everything else to the Simulation (which names what it does not know).
        categories = _lsdae.option_categories()
        run_options = {k: opts.pop(k) for k in list(opts) if categories.get(k) in ("output", "results")}
        if start_time is not None:
            opts["start_time"] = start_time
        if final_time is not None:
            opts["stop_time"] = final_time
        with tempfile.TemporaryDirectory(prefix="lsdae-input-") as folder:
            saved = self._input
            if input is not None:
                self._input = _input_file(input, folder)
            try:
                if ncp is not None:
                    if isinstance(ncp, bool) or not isinstance(ncp, int) or ncp < 1:
                        raise UsageError(f"options['ncp'] = {ncp!r} → give a positive number of output intervals")
                    start, stop = _span(self, opts)
                    opts["output_interval"] = (stop - start) / ncp
                sim = Simulation(self, **opts)
                self._last = sim
                return sim.run(output, all=record_all, result_file=result_file, statistics_file=statistics_file,
                               **run_options)
            finally:
                self._input = saved

    def structure(self, **options):
        """The structural analysis as a dict (``lsdae info --structure --json``)."""
        return Simulation(self, **options).structure()

    def jacobian(self, cj=None, **options):
        """The iteration matrix at the consistent initial point (see
        Simulation.jacobian), as a scipy.sparse matrix."""
        sim = Simulation(self, **options)
        sim.initialize()
        return sim.jacobian(cj)

    def __repr__(self):
        return f"<lsdae.Model {self.name!r} from {self.path}>"


def _span(model, opts):
    experiment = model.default_experiment
    start = opts.get("start_time", experiment["start_time"])
    start = 0.0 if start is None else start
    stop = opts.get("stop_time", experiment["stop_time"])
    stop = start + 1.0 if stop is None else stop
    return float(start), float(stop)


def _input_file(value, folder):
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    try:
        names, table = value
    except (TypeError, ValueError):
        raise UsageError("input must be a CSV path or a (names, table) pair → e.g. "
                         "(['u'], numpy.array([[0, 1.0], [1, 2.0]]))") from None
    names = [names] if isinstance(names, str) else list(names)
    path = os.path.join(folder, "input.csv")
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["time"] + names)
        for row in table:
            row = list(row)
            if len(row) != len(names) + 1:
                raise UsageError(f"input table row {row!r} has {len(row)} values → give the time and one value "
                                 f"per input ({len(names) + 1})")
            writer.writerow([repr(float(row[0]))] + [_cell(x) for x in row[1:]])
    return path


def _cell(x):
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, float):
        return repr(x)
    return str(x)


def load(path):
    """Loads an FMU or a system of FMUs: ``model = lsdae.load("model.fmu")``
    (PyFMI's load_fmu; also an unpacked FMU folder, an .ssp or an .ssd)."""
    return Model(path)


def simulate(filename, start_time=None, stop_time=None, output=None, start_values=None, rtol=None, atol=None,
             output_interval=None, input=None, threads=None, all=False, result_file=None, statistics_file=None,
             **options):  # noqa: A002
    """Simulates an FMU and returns the rows as a NumPy structured array
    (field "time", then one per recorded variable), like FMPy's simulate_fmu::

        rows = lsdae.simulate("model.fmu", stop_time=2.0, output=["x", "v"],
                              start_values={"k": 2.5}, rtol=1e-8)
        rows["time"], rows["x"]

    output: names or globs (default: the outputs and the states); all=True
    records every variable. start_values: {name: value} set before
    initialization. input: a CSV path or a (names, table) pair.
    result_file, statistics_file: also write the files ``lsdae simulate -o
    ... --stats ...`` writes. Further keyword arguments are options of
    lsdae's options table (docs/run.md: jacobian=, max_steps=, output_grid=,
    ...).
    An error raises an LsdaeError subclass; one in mid-run carries the rows
    computed so far as ``.result`` (a Result).
    """
    model = Model(filename)
    for name, value in (start_values or {}).items():
        model.set(name, value)
    for key, value in (("rtol", rtol), ("atol", atol), ("output_interval", output_interval), ("threads", threads)):
        if value is not None:
            options[key] = value
    if output is not None:
        options["filter"] = output
    options["all"] = all
    if result_file is not None:
        options["result_file"] = result_file
    if statistics_file is not None:
        options["statistics_file"] = statistics_file
    return model.simulate(start_time=start_time, final_time=stop_time, input=input, options=options).data
