"""lsdae: simulate large sparse DAE models delivered as FMI 3.0 Model Exchange
FMUs (with the FMI Layered Standard for DAE) from Python.

    import lsdae
    rows = lsdae.simulate("model.fmu", stop_time=1.0, output=["x"])   # FMPy style
    model = lsdae.load("model.fmu")                                    # PyFMI style
    res = model.simulate(final_time=1.0)
    sim = model.simulation()                                           # stepping
    res = lsdae.read_result("run.h5")                                  # a result file (.csv, .h5, .mat)
    s = lsdae.read_summary("sweep.h5")                                 # a sweep's summary (.csv, .h5)
    runner = lsdae.ScenarioRunner("model.fmu", metrics=["max:x"])      # scenarios on a reused model
    row = runner.run({"k": 2.5})

docs/python.md is the chapter; the errors are in lsdae._errors.
"""
from . import _lsdae
from ._errors import *  # noqa: F401,F403
from ._errors import __all__ as _error_names
from ._model import Model, Simulation, Variable, load, simulate
from ._files import ResultFileError, read_result
from ._result import Result
from ._summary import read_summary
from ._sweep import ScenarioRow, ScenarioRunner

__version__ = _lsdae.__version__
set_log_level = _lsdae.set_log_level

# lsdae's messages (and the FMUs') go to the logger "lsdae" (logging's
# default: warnings and errors on stderr); set_log_level("info") or "debug"
# lets more through, "off" none.

__all__ = ["simulate", "load", "Model", "Simulation", "Variable", "Result", "read_result", "read_summary", "ResultFileError",
           "ScenarioRunner", "ScenarioRow",
           "set_log_level",
           "__version__"] + list(_error_names)
