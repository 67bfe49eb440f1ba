// python/src/module.cpp -- lsdae._lsdae, the extension module beneath the
// Python package lsdae (python/lsdae/*.py is the API users call; docs/python.md):
// the module itself here; the errors, the log and the options table in
// support.cpp; Model and the values in model_binding.cpp; Simulation and its run in
// simulation_binding.cpp; ScenarioRunner in scenario_runner_binding.cpp; what they share in
// bindings.h.
//
// pybind11 over the C++ API and the run layer (lsdae/*.h, runtime/run/), not
// the C API: typed values (lsdae::Values) become Python ints, floats, bools,
// strs and bytes without a text round trip, an lsdae::Error arrives with its
// kind, the options are the options table's (run/options.h: the keyword
// arguments are its keys, checked with its rules), the model is opened by
// run/open_model.h (an FMU, an unpacked folder, an .ssp or .ssd), and a run
// goes through the run layer's loop and files (run/run_to_files.h), so a
// Python result has the CLI's rows and, for the same options, bit for bit its
// values, its result files and its statistics.
//
// Contract:
//   - Every lsdae::Error becomes the exception class of its kind (LsdaeError
//     and its subclasses, created here; class attributes exit_code and
//     category give the `lsdae` program's exit code and the kind's name), its
//     message in Python's words (run/respell.h: rtol=, not --rtol).
//   - The GIL is released while lsdae works (open, create, initialize,
//     advance_to, run), so other Python threads run meanwhile.
//   - Ctrl-C: while advance_to or run integrate on Python's main thread, a
//     SIGINT handler chained in front of Python's asks the simulation to
//     cancel (Simulation::cancel: it stops after its current IDA step,
//     keeping the point reached); Python's own handler still runs, so the
//     call ends with KeyboardInterrupt. run() hands back the rows recorded
//     so far with it.
//   - A Simulation is driven by one thread at a time: a call while another
//     thread is inside one raises UsageError instead of racing.
//   - lsdae's log messages (its own and the FMUs') are queued from whatever
//     thread logs them and handed to Python's logging module (logger
//     "lsdae") by drain_log(), which the Python layer calls after each call.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.h"
#include "import/temp_dir.h"
#include "lsdae/version.h"
#include "run/options.h"

namespace py = pybind11;

namespace {

// The options table for the Python layer: key → category ("simulation",
// "output", "results"), so that it hands each keyword argument to the call
// that takes it.
py::dict option_categories() {
  py::dict d;
  for (const auto& spec : lsdae::run::option_table())
    d[py::str(spec.key)] = spec.category == lsdae::run::category::simulation ? "simulation"
                           : spec.category == lsdae::run::category::output   ? "output"
                                                                             : "results";
  return d;
}

}  // namespace

PYBIND11_MODULE(_lsdae, m) {
  m.doc() = "lsdae's extension module; use the package lsdae (docs/python.md).";
  // A library must not take SIGINT from its host: the temporary folders are
  // removed by their destructors (Python's KeyboardInterrupt unwinds to them).
  lsdae::import::TempDir::set_signal_cleanup(false);
  lsdae::python::install_log_sink();
  lsdae::python::define_errors(m);
  m.attr("__version__") = LSDAE_VERSION_STRING;
  m.def("drain_log", &lsdae::python::drain_log, "Hands lsdae's queued log messages to logging.getLogger('lsdae').");
  m.def("set_log_level", &lsdae::python::set_log_level, py::arg("level"),
        "The lowest level lsdae queues: debug, info, warning (the default), error or off.");
  m.def("option_categories", &option_categories,
        "The options table's keys and their categories: simulation, output, results.");
  lsdae::python::define_model(m);
  lsdae::python::define_simulation(m);
  lsdae::python::define_scenario_runner(m);
}
