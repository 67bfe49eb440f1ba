"""One scenario at a time on a reused model: the loop of a pipeline that
decides its next scenario from the last one (docs/sweeps.md, "The APIs")::

    runner = lsdae.ScenarioRunner("grid.fmu", metrics=["max:maxdev(gen[*].delta)"],
                                  stop_when=["maxdev(gen[*].delta) > 3.14159"], stop_time=5.0)
    row = runner.run({"fault.bus": 16, "trip.branch": 27}, id="16-27")
    row.status, row.metrics["max:maxdev(gen[*].delta)"], row.message

The model (an FMU, an unpacked FMU folder, or a system of FMUs: .ssp, .ssd)
is opened and analysed once; its binary is loaded and its instances made by
the first scenario, then reset for every later one (Simulation::reset,
fmi3Reset; ``reuse=False`` makes a new model each time: the same rows,
slower). Each run() is one scenario as ``lsdae sweep`` runs it: the common
``sets``, then the scenario's values, the output grid and both sides of every
event sampled for the metrics, stop conditions and the settle test. A
scenario's own failure (an unknown name, a bad value, the FMU or the solver
failing) is a row with status "failed" and the message, not an exception;
bad arguments raise UsageError. The run holds the GIL released; one thread
drives a runner at a time.

Values: numbers (a float is passed as its shortest round-trip text, so the
scenario gets exactly that double), bools, str (parsed for the variable's
type, as ``lsdae simulate --set``: enumeration items, "true", ...).
"""
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from . import _lsdae
from ._errors import UsageError


@dataclass
class ScenarioRow:
    """One scenario's summary row (the columns of ``lsdae sweep --summary``)."""
    id: str
    status: str                      # "ok", "stopped-early" or "failed"
    message: str                     # failed: the error; stopped-early: the reason
    reached_time: Optional[float]    # None when initialisation failed
    steps: int
    wall_time: float                 # seconds
    metrics: Dict[str, Optional[float]] = field(default_factory=dict)  # by metric text; None: no point sampled
    reused: bool = False             # the previous scenario's model, reset
    csv_row: str = ""                # the row as one CSV record (ScenarioRunner.header's columns)

    @property
    def ok(self):
        return self.status != "failed"


def _text(name, value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if isinstance(value, float) else str(value)
    if isinstance(value, str):
        return value
    if hasattr(value, "__float__"):  # numpy scalars
        return repr(float(value))
    raise UsageError(f"lsdae.ScenarioRunner: {name} = {value!r} → give a number, a bool or a str")


def _pairs(values):
    if values is None:
        return []
    items = values.items() if isinstance(values, dict) else values
    out = []
    for item in items:
        try:
            name, value = item
        except (TypeError, ValueError):
            raise UsageError(f"lsdae.ScenarioRunner: {item!r} is not a (name, value) pair → give a dict "
                             "{name: value} or a list of pairs") from None
        if not isinstance(name, str):
            raise UsageError(f"lsdae.ScenarioRunner: the name {name!r} is not a str")
        out.append((name, _text(name, value)))
    return out


class ScenarioRunner:
    """Runs scenarios of one model one at a time, the model kept and reset
    between them.

    ScenarioRunner(path, metrics=(), stop_when=(), sets=None, settle=None,
    reuse=True, **options): metrics "STAT:SELECTOR", stop conditions
    "SELECTOR OP NUMBER" (docs/sweeps.md), sets {name: value} for every
    scenario, settle (tol, duration) or (tol, duration, from), and the
    Simulation options (start_time, stop_time, rtol, atol, output_interval,
    threads, jacobian, max_steps, ...). Metrics, conditions and names are
    checked here (UsageError)."""

    def __init__(self, path, metrics=(), stop_when=(), sets=None, settle=None, reuse=True, **options):
        if isinstance(metrics, str) or isinstance(stop_when, str):
            raise UsageError("lsdae.ScenarioRunner: metrics and stop_when are lists of texts → e.g. "
                             "metrics=['max:x']")
        if settle is not None:
            settle = tuple(float(x) for x in settle)
            if len(settle) not in (2, 3):
                raise UsageError(f"lsdae.ScenarioRunner: settle = {settle!r} → (tol, duration) or (tol, duration, from)")
            if len(settle) == 2:
                settle = (settle[0], settle[1], None)
        self.path = os.fspath(path)
        self.metrics = list(metrics)
        try:
            self._runner = _lsdae.ScenarioRunner(self.path, options, self.metrics, list(stop_when), _pairs(sets),
                                                 settle, bool(reuse))
        finally:
            _lsdae.drain_log()
        self._count = 0

    @property
    def header(self) -> List[str]:
        """The summary's columns: id, status, message, reached_time, steps, wall_time_s, the metrics."""
        return list(self._runner.header)

    def run(self, values=None, id=None, **more) -> ScenarioRow:  # noqa: A002
        """Runs one scenario with these values (a dict or (name, value)
        pairs, and keyword arguments for names that are identifiers) and
        returns its row. id defaults to the scenario's number (1, 2, ...)."""
        self._count += 1
        pairs = _pairs(values) + _pairs(more)
        try:
            d = self._runner.run(str(self._count) if id is None else str(id), pairs)
        finally:
            _lsdae.drain_log()
        return ScenarioRow(id=d["id"], status=d["status"], message=d["message"], reached_time=d["reached_time"],
                           steps=d["steps"], wall_time=d["wall_time"],
                           metrics=dict(zip(self.metrics, d["metrics"])), reused=d["reused"], csv_row=d["csv_row"])

    def __repr__(self):
        return f"ScenarioRunner({self.path!r}, metrics={self.metrics!r})"
