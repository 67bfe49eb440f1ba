// python/src/module.cpp -- lsdae._lsdae, the extension module beneath the
// Python package lsdae (python/lsdae/*.py is the API users call; docs/python.md):
// errors, the log and the options table here; Model and the values in
// model.cpp; Simulation and its run in simulation.cpp; ScenarioRunner in
// scenario_runner.cpp; what they share in bindings.h.
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

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/version.h"
#include "run/options.h"
#include "run/respell.h"

namespace py = pybind11;
using lsdae::python::drain_log;

namespace {

// ---- exceptions -------------------------------------------------------------

struct ErrorClass {
  lsdae::ErrorKind kind;
  const char* name;
  PyObject* extra_base;  // a built-in class it also derives from, or nullptr
};

std::map<lsdae::ErrorKind, py::object>& error_classes() {
  static auto* classes = new std::map<lsdae::ErrorKind, py::object>();  // lives as long as the interpreter
  return *classes;
}

py::object error_class(lsdae::ErrorKind kind) {
  auto it = error_classes().find(kind);
  return it != error_classes().end() ? it->second : error_classes().at(lsdae::ErrorKind::internal);
}

void define_errors(py::module_& m) {
  py::object base = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "lsdae.LsdaeError",
      "An lsdae error: the message (where → what → value seen → what to do), exit_code (the `lsdae` "
      "program's exit code for this kind) and category (the kind's name).",
      PyExc_Exception, nullptr));
  base.attr("exit_code") = 70;
  base.attr("category") = "internal";
  base.attr("__module__") = "lsdae";
  m.attr("LsdaeError") = base;
  const ErrorClass classes[] = {
      {lsdae::ErrorKind::invalid, "InvalidModelError", nullptr},
      {lsdae::ErrorKind::usage, "UsageError", PyExc_ValueError},
      {lsdae::ErrorKind::archive, "ArchiveError", nullptr},
      {lsdae::ErrorKind::xml, "XmlError", nullptr},
      {lsdae::ErrorKind::binary, "BinaryError", nullptr},
      {lsdae::ErrorKind::fmu_call, "FmuCallError", nullptr},
      {lsdae::ErrorKind::solver, "SolverError", nullptr},
      {lsdae::ErrorKind::structure, "StructureError", nullptr},
      {lsdae::ErrorKind::output, "OutputError", nullptr},
      {lsdae::ErrorKind::fmu_crash, "FmuCrashError", nullptr},
      {lsdae::ErrorKind::timeout, "LsdaeTimeoutError", PyExc_TimeoutError},
      {lsdae::ErrorKind::interrupted, "CancelledError", nullptr},
      {lsdae::ErrorKind::internal, "InternalError", nullptr},
  };
  for (const ErrorClass& c : classes) {
    py::object bases = c.extra_base != nullptr ? py::object(py::make_tuple(base, py::handle(c.extra_base))) : base;
    const std::string full = std::string("lsdae.") + c.name;
    py::object cls = py::reinterpret_steal<py::object>(PyErr_NewException(full.c_str(), bases.ptr(), nullptr));
    cls.attr("exit_code") = lsdae::exit_code(c.kind);
    cls.attr("category") = lsdae::to_string(c.kind);
    cls.attr("__module__") = "lsdae";
    m.attr(c.name) = cls;
    error_classes()[c.kind] = cls;
  }
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const lsdae::Error& e) {
      const lsdae::Error python = lsdae::python::respelled(e, lsdae::run::simulation_words(lsdae::run::Door::python));
      PyErr_SetString(error_class(python.kind()).ptr(), python.what());
    }
  });
}

// ---- log queue ----------------------------------------------------------------

struct LogQueue {
  std::mutex mutex;
  std::deque<std::pair<int, std::string>> messages;
};

LogQueue& log_queue() {
  static auto* queue = new LogQueue();  // the sink may run during interpreter shutdown
  return *queue;
}

// Python logging levels for lsdae's.
int python_level(lsdae::LogLevel level) {
  switch (level) {
    case lsdae::LogLevel::debug: return 10;
    case lsdae::LogLevel::info: return 20;
    case lsdae::LogLevel::warning: return 30;
    default: return 40;
  }
}

void install_log_sink() {
  lsdae::Logger::instance().set_sink([](lsdae::LogLevel level, const std::string& text) {
    LogQueue& q = log_queue();
    std::lock_guard<std::mutex> lock(q.mutex);
    if (q.messages.size() < 10000) q.messages.emplace_back(python_level(level), text);
  });
}

}  // namespace

namespace lsdae::python {

// Hands the queued messages to logging.getLogger("lsdae") (bindings.h).
void drain_log() {
  std::deque<std::pair<int, std::string>> messages;
  {
    LogQueue& q = log_queue();
    std::lock_guard<std::mutex> lock(q.mutex);
    messages.swap(q.messages);
  }
  if (messages.empty()) return;
  py::object logger = py::module_::import("logging").attr("getLogger")("lsdae");
  const lsdae::run::Respellings& words = lsdae::run::simulation_words(lsdae::run::Door::python);
  for (auto& [level, text] : messages) logger.attr("log")(level, lsdae::run::respell(text, lsdae::run::Door::python, words));
}

}  // namespace lsdae::python

namespace {

void set_log_level(const std::string& level) {
  static const std::map<std::string, lsdae::LogLevel> levels = {{"debug", lsdae::LogLevel::debug},
                                                                 {"info", lsdae::LogLevel::info},
                                                                 {"warning", lsdae::LogLevel::warning},
                                                                 {"error", lsdae::LogLevel::error},
                                                                 {"off", lsdae::LogLevel::off}};
  auto it = levels.find(level);
  if (it == levels.end())
    throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae.set_log_level: \"" + level +
                                                    "\" is not a level → use debug, info, warning, error or off");
  lsdae::Logger::instance().set_threshold(it->second);
}


}  // namespace

namespace lsdae::python {

lsdae::Error respelled(const lsdae::Error& e, const lsdae::run::Respellings& words) {
  return lsdae::Error(e.kind(), lsdae::run::respell(e.what(), lsdae::run::Door::python, words));
}

py::object error_object(const lsdae::Error& e) {
  const lsdae::Error python = respelled(e, lsdae::run::simulation_words(lsdae::run::Door::python));
  return error_class(python.kind())(py::str(python.what()));
}

lsdae::run::GivenOptions given_options(const py::dict& options) {
  lsdae::run::GivenOptions given;
  for (auto item : options) {
    if (item.second.is_none()) continue;
    lsdae::run::GivenOption g;
    g.key = py::str(item.first).cast<std::string>();
    g.seen = py::repr(item.second).cast<std::string>();
    const py::object v = py::reinterpret_borrow<py::object>(item.second);
    if (py::isinstance<py::bool_>(v)) g.value = v.cast<bool>();
    else if (py::isinstance<py::int_>(v)) g.value = v.cast<std::int64_t>();
    else if (py::isinstance<py::float_>(v)) g.value = v.cast<double>();
    else if (py::isinstance<py::str>(v)) g.value = v.cast<std::string>();
    else if (py::isinstance<py::list>(v) || py::isinstance<py::tuple>(v)) {
      std::vector<std::string> words;
      for (py::handle w : v) words.push_back(py::isinstance<py::str>(w) ? w.cast<std::string>() : py::repr(w).cast<std::string>());
      g.value = words;
    } else if (py::hasattr(v, "__index__")) g.value = py::int_(v).cast<std::int64_t>();   // NumPy integers
    else if (py::hasattr(v, "__float__")) g.value = py::float_(v).cast<double>();         // NumPy floats
    else g.value = std::vector<std::string>{g.seen};  // of no kind: refused as such
    given.push_back(std::move(g));
  }
  return given;
}

lsdae::run::RunSettings settings_from(const py::dict& options, unsigned categories, const std::string& where) {
  return lsdae::run::settings_from(given_options(options), lsdae::run::Door::python, categories, where);
}

}  // namespace lsdae::python

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
  install_log_sink();
  define_errors(m);
  m.attr("__version__") = LSDAE_VERSION_STRING;
  m.def("drain_log", &drain_log, "Hands lsdae's queued log messages to logging.getLogger('lsdae').");
  m.def("set_log_level", &set_log_level, py::arg("level"),
        "The lowest level lsdae queues: debug, info, warning (the default), error or off.");
  m.def("option_categories", &option_categories,
        "The options table's keys and their categories: simulation, output, results.");
  lsdae::python::define_model(m);
  lsdae::python::define_simulation(m);
  lsdae::python::define_scenario_runner(m);
}
