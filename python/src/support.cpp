// python/src/support.cpp -- what every part of the extension module uses
// (bindings.h): the exception classes (an lsdae::Error becomes the class of
// its kind, its message in Python's words: run/respell.h), the log queue
// handed to Python's logging, and the options table read from keyword
// arguments (run/options.h).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "run/options.h"
#include "run/respell.h"

namespace py = pybind11;

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

}  // namespace

namespace lsdae::python {

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

}  // namespace lsdae::python

namespace {

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

}  // namespace

namespace lsdae::python {

void install_log_sink() {
  lsdae::Logger::instance().set_sink([](lsdae::LogLevel level, const std::string& text) {
    LogQueue& q = log_queue();
    std::lock_guard<std::mutex> lock(q.mutex);
    if (q.messages.size() < 10000) q.messages.emplace_back(python_level(level), text);
  });
}

// Hands the queued messages to logging.getLogger("lsdae") (bindings.h).
void finish_library_call(const std::optional<lsdae::Error>& error) {
  drain_log();
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  if (error) throw *error;
}

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

