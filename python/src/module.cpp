// python/src/module.cpp -- lsdae._lsdae, the extension module beneath the
// Python package lsdae (python/lsdae/*.py is the API users call; docs/python.md):
// errors, the log, Fmu and Simulation here; ScenarioRunner in
// scenario_runner.cpp; what both use in bindings.h.
//
// pybind11 over the C++ API (lsdae/fmu.h, lsdae/simulation.h), not the C API:
// typed values (lsdae::Values) become Python ints, floats, bools, strs and
// bytes without a text round trip, an lsdae::Error arrives with its kind, and
// the run loop reads its columns with the CLI's own output channels
// (simulation/output_channels.h), so a Python result has the CLI's columns
// and, for the same options, bit for bit the CLI's values.
//
// Contract:
//   - Every lsdae::Error becomes the exception class of its kind (LsdaeError
//     and its subclasses, created here; class attributes exit_code and
//     category give the `lsdae` program's exit code and the kind's name).
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
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <signal.h>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/log.h"
#include "lsdae/simulation.h"
#include "lsdae/values.h"
#include "lsdae/version.h"
#include "simulation/output_channels.h"

namespace py = pybind11;
using lsdae::python::drain_log;
using lsdae::python::options_from;

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
      PyErr_SetString(error_class(e.kind()).ptr(), e.what());
    }
  });
}

// An exception instance for an lsdae::Error (run() returns it with the rows).
py::object error_object(const lsdae::Error& e) { return error_class(e.kind())(py::str(e.what())); }

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
  for (auto& [level, text] : messages) logger.attr("log")(level, text);
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

// ---- Ctrl-C -------------------------------------------------------------------

std::atomic<lsdae::Simulation*> g_sigint_target{nullptr};
struct sigaction g_previous_sigint {};

extern "C" void cancel_on_sigint(int signo, siginfo_t* info, void* context) {
  if (lsdae::Simulation* sim = g_sigint_target.load()) sim->cancel();
  // Then Python's handler: it marks the signal for the interpreter.
  if ((g_previous_sigint.sa_flags & SA_SIGINFO) != 0) {
    if (g_previous_sigint.sa_sigaction != nullptr) g_previous_sigint.sa_sigaction(signo, info, context);
  } else if (g_previous_sigint.sa_handler != SIG_DFL && g_previous_sigint.sa_handler != SIG_IGN &&
             g_previous_sigint.sa_handler != nullptr) {
    g_previous_sigint.sa_handler(signo);
  }
}

bool on_main_thread() {
  py::object threading = py::module_::import("threading");
  return threading.attr("current_thread")().is(threading.attr("main_thread")());
}

// While alive (constructed with the GIL held): SIGINT cancels `sim`, then
// runs Python's handler. Only on the main thread, where Python delivers
// KeyboardInterrupt, and only when Python handles SIGINT itself.
class SigintCancels {
 public:
  explicit SigintCancels(lsdae::Simulation* sim) {
    if (!on_main_thread()) return;
    struct sigaction current {};
    if (sigaction(SIGINT, nullptr, &current) != 0) return;
    const bool python_handles = (current.sa_flags & SA_SIGINFO) != 0 ||
                                (current.sa_handler != SIG_DFL && current.sa_handler != SIG_IGN);
    if (!python_handles) return;
    lsdae::Simulation* expected = nullptr;
    if (!g_sigint_target.compare_exchange_strong(expected, sim)) return;  // one at a time
    g_previous_sigint = current;
    struct sigaction mine {};
    mine.sa_sigaction = cancel_on_sigint;
    mine.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&mine.sa_mask);
    if (sigaction(SIGINT, &mine, nullptr) != 0) {
      g_sigint_target.store(nullptr);
      return;
    }
    installed_ = true;
  }
  ~SigintCancels() {
    if (!installed_) return;
    sigaction(SIGINT, &g_previous_sigint, nullptr);
    g_sigint_target.store(nullptr);
  }
  SigintCancels(const SigintCancels&) = delete;
  SigintCancels& operator=(const SigintCancels&) = delete;

 private:
  bool installed_ = false;
};

// ---- values -------------------------------------------------------------------

bool is_binary_type(lsdae::VariableType t) { return t == lsdae::VariableType::binary; }

py::bytes hex_to_bytes(const std::string& hex) {
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return py::bytes(out);
}

std::string bytes_to_hex(const std::string& raw) {
  static const char* digits = "0123456789abcdef";
  std::string hex;
  hex.reserve(raw.size() * 2);
  for (unsigned char c : raw) {
    hex.push_back(digits[c >> 4]);
    hex.push_back(digits[c & 15]);
  }
  return hex;
}

py::object element_to_python(const lsdae::Values& v, std::size_t k) {
  switch (lsdae::storage_of(v.type)) {
    case lsdae::ValueStorage::real: return py::float_(v.reals[k]);
    case lsdae::ValueStorage::integer:
      if (v.type == lsdae::VariableType::boolean) return py::bool_(v.integers[k] != 0);
      return py::int_(v.integers[k]);
    case lsdae::ValueStorage::unsigned_integer: return py::int_(v.unsigned_integers[k]);
    case lsdae::ValueStorage::text:
      if (is_binary_type(v.type)) return hex_to_bytes(v.texts[k]);
      return py::str(v.texts[k]);
  }
  return py::none();
}

py::object values_to_python(const lsdae::Values& v, bool as_array) {
  if (!as_array && v.size() == 1) return element_to_python(v, 0);
  if (lsdae::storage_of(v.type) == lsdae::ValueStorage::real) return py::array_t<double>(py::ssize_t(v.reals.size()), v.reals.data());
  py::list list;
  for (std::size_t k = 0; k < v.size(); ++k) list.append(element_to_python(v, k));
  return py::object(std::move(list));
}

// A Python value as the text lsdae parses strictly for the variable's type
// (lsdae/values.h): bool -> true/false, int -> decimal, float -> the shortest
// repr that reads back to the same double, bytes -> hex, str as it is, a
// sequence -> its elements space-separated (a whole array).
std::string python_to_text(const py::handle& value) {
  if (py::isinstance<py::bool_>(value)) return value.cast<bool>() ? "true" : "false";
  if (py::isinstance<py::str>(value)) return value.cast<std::string>();
  if (py::isinstance<py::bytes>(value)) return bytes_to_hex(value.cast<std::string>());
  if (py::isinstance<py::int_>(value)) return py::str(value).cast<std::string>();
  if (py::isinstance<py::float_>(value)) return py::repr(value).cast<std::string>();
  if (py::hasattr(value, "dtype") && py::hasattr(value, "item") && py::len(value.attr("shape")) == 0)
    return python_to_text(value.attr("item")());  // a NumPy scalar
  if (py::isinstance<py::sequence>(value) || py::hasattr(value, "__array__")) {
    py::object seq = py::hasattr(value, "tolist") ? value.attr("tolist")() : py::reinterpret_borrow<py::object>(value);
    std::string text;
    for (py::handle item : seq) text += (text.empty() ? "" : " ") + python_to_text(item);
    return text;
  }
  throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae: a value of Python type " +
                                                  py::str(py::type::of(value).attr("__name__")).cast<std::string>() +
                                                  " cannot be set → give a bool, int, float, str, bytes or a sequence of them");
}

// ---- Fmu ----------------------------------------------------------------------

py::object optional_number(const std::optional<double>& v) { return v ? py::object(py::float_(*v)) : py::none(); }

py::list variables_of(const lsdae::Fmu& fmu) {
  const lsdae::ModelDescription& md = fmu.model_description();
  py::list out;
  for (const lsdae::Variable& v : md.variables) {
    py::dict d;
    d["name"] = v.name;
    d["value_reference"] = v.value_reference;
    d["type"] = lsdae::to_string(v.type);
    d["causality"] = lsdae::to_string(v.causality);
    d["variability"] = lsdae::to_string(v.variability);
    d["initial"] = v.initial ? py::object(py::str(lsdae::to_string(*v.initial))) : py::none();
    d["unit"] = v.unit;
    d["description"] = v.description;
    d["declared_type"] = v.declared_type;
    d["start"] = v.start_text ? py::object(py::str(*v.start_text)) : py::none();
    d["nominal"] = optional_number(v.nominal);
    d["min"] = optional_number(v.min);
    d["max"] = optional_number(v.max);
    d["shape"] = py::tuple(py::cast(v.shape));
    const lsdae::Variable* of = v.derivative ? md.find(*v.derivative) : nullptr;
    d["derivative_of"] = of != nullptr ? py::object(py::str(of->name)) : py::none();
    out.append(d);
  }
  return out;
}

py::dict default_experiment_of(const lsdae::Fmu& fmu) {
  const lsdae::DefaultExperiment& e = fmu.model_description().default_experiment;
  py::dict d;
  d["start_time"] = optional_number(e.start_time);
  d["stop_time"] = optional_number(e.stop_time);
  d["tolerance"] = optional_number(e.tolerance);
  d["step_size"] = optional_number(e.step_size);
  return d;
}

// The variable `name` names, or the array whose element it names ("A[2,3]"):
// the element's row-major index (0-based) in *element. nullptr when neither.
const lsdae::Variable* variable_or_element(const lsdae::ModelDescription& md, const std::string& name,
                                           std::optional<std::size_t>* element) {
  element->reset();
  if (const lsdae::Variable* v = md.find(name)) return v;
  const auto open = name.rfind('[');
  if (open == std::string::npos || name.back() != ']') return nullptr;
  const lsdae::Variable* v = md.find(name.substr(0, open));
  if (v == nullptr || !v->is_array()) return nullptr;
  std::vector<std::uint64_t> indices;
  std::string part;
  for (std::size_t i = open + 1; i < name.size(); ++i) {
    const char c = name[i];
    if (c == ',' || c == ']') {
      if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos) return nullptr;
      indices.push_back(std::stoull(part));
      part.clear();
    } else if (c != ' ') {
      part.push_back(c);
    }
  }
  if (indices.size() != v->shape.size()) return nullptr;
  std::size_t flat = 0;
  for (std::size_t d = 0; d < indices.size(); ++d) {
    if (indices[d] < 1 || indices[d] > v->shape[d]) return nullptr;
    flat = flat * v->shape[d] + (indices[d] - 1);
  }
  *element = flat;
  return v;
}

const lsdae::Variable& find_or_throw(const lsdae::Fmu& fmu, const std::string& name,
                                     std::optional<std::size_t>* element) {
  const lsdae::Variable* v = variable_or_element(fmu.model_description(), name, element);
  if (v == nullptr)
    throw lsdae::Error(lsdae::ErrorKind::usage, fmu.display_name() + ": no variable (or array element) is named \"" +
                                                    name + "\" → model.variables lists them; names are case-sensitive, "
                                                    "elements are 1-based (\"A[1,2]\")");
  return *v;
}

// Model.set: the value is checked against the variable's type when given,
// not at the next simulate().
void check_value(const lsdae::Fmu& fmu, const std::string& name, const py::object& value) {
  std::optional<std::size_t> element;
  const lsdae::Variable& v = find_or_throw(fmu, name, &element);
  const std::string text = python_to_text(value);
  if (element) lsdae::parse_element_value(v, fmu.model_description(), text);
  else lsdae::parse_value(v, fmu.model_description(), text);
}

py::object start_value(const lsdae::Fmu& fmu, const std::string& name) {
  std::optional<std::size_t> element;
  const lsdae::Variable& v = find_or_throw(fmu, name, &element);
  const lsdae::Values all = lsdae::start_values(v, fmu.model_description());
  if (element) {
    if (*element >= all.size()) return py::none();
    return element_to_python(all, *element);
  }
  return values_to_python(all, v.is_array());
}

}  // namespace

// ---- Simulation -----------------------------------------------------------------

namespace lsdae::python {

// The options dict of the Python layer (bindings.h).
lsdae::SimulationOptions options_from(const py::dict& o) {
  lsdae::SimulationOptions s;
  auto bad = [](const std::string& key, const std::string& seen, const std::string& todo) {
    throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae: option " + key + " = " + seen + " → " + todo);
  };
  auto number = [&](const std::string& key) -> std::optional<double> {
    if (!o.contains(key) || o[key.c_str()].is_none()) return std::nullopt;
    py::handle h = o[key.c_str()];
    if (py::isinstance<py::bool_>(h) || !(py::isinstance<py::float_>(h) || py::isinstance<py::int_>(h) ||
                                          py::hasattr(h, "__float__")))
      bad(key, py::repr(h).cast<std::string>(), "give a number");
    return h.cast<double>();
  };
  auto text = [&](const std::string& key) -> std::optional<std::string> {
    if (!o.contains(key) || o[key.c_str()].is_none()) return std::nullopt;
    py::handle h = o[key.c_str()];
    if (!py::isinstance<py::str>(h)) bad(key, py::repr(h).cast<std::string>(), "give a string");
    return h.cast<std::string>();
  };
  auto integer = [&](const std::string& key) -> std::optional<long long> {
    if (!o.contains(key) || o[key.c_str()].is_none()) return std::nullopt;
    py::handle h = o[key.c_str()];
    if (py::isinstance<py::bool_>(h) || !py::isinstance<py::int_>(h))
      bad(key, py::repr(h).cast<std::string>(), "give an integer");
    return h.cast<long long>();
  };
  static const char* known[] = {"start_time", "stop_time", "rtol", "atol", "output_interval", "threads",
                                "jacobian", "max_steps", "constraints", "klu_ordering", "row_order",
                                "reselect", "max_step", "projection_tolerance", "eliminate"};
  for (auto item : o) {
    const std::string key = py::str(item.first).cast<std::string>();
    bool found = false;
    for (const char* k : known) found = found || key == k;
    if (!found) {
      std::string list;
      for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
      bad(key, py::repr(item.second).cast<std::string>(), "not an option; the options are " + list);
    }
  }
  s.start_time = number("start_time");
  s.stop_time = number("stop_time");
  s.rtol = number("rtol");
  s.atol = number("atol");
  s.output_interval = number("output_interval");
  if (auto t = integer("threads")) {
    if (*t < 1) bad("threads", std::to_string(*t), "use 1 or more");
    s.threads = static_cast<std::size_t>(*t);
  }
  if (auto j = text("jacobian")) {
    if (*j == "auto") s.jacobian = lsdae::JacobianMode::automatic;
    else if (*j == "fd" || *j == "finite_differences") s.jacobian = lsdae::JacobianMode::finite_differences;
    else if (*j == "directional") s.jacobian = lsdae::JacobianMode::directional;
    else if (*j == "check") s.jacobian = lsdae::JacobianMode::check;
    else bad("jacobian", "\"" + *j + "\"", "use auto, fd, directional or check");
  }
  if (auto n = integer("max_steps")) {
    // One rule with the command line and the C API: a count of at least 1.
    if (*n < 1) bad("max_steps", std::to_string(*n), "use at least 1 (IDA steps between two output points)");
    s.max_steps = static_cast<long>(*n);
  }
  if (auto c = text("constraints")) {
    if (*c == "dummy-derivatives" || *c == "dummy_derivatives") s.constraints = lsdae::ConstraintMethod::dummy_derivatives;
    else if (*c == "project" || *c == "projection") s.constraints = lsdae::ConstraintMethod::projection;
    else if (*c == "none") s.constraints = lsdae::ConstraintMethod::none;
    else bad("constraints", "\"" + *c + "\"", "use dummy-derivatives, project or none");
  }
  if (auto k = text("klu_ordering")) {
    if (*k != "amd" && *k != "colamd" && *k != "metis") bad("klu_ordering", "\"" + *k + "\"", "use amd, colamd or metis");
    s.klu_ordering = *k;
  }
  if (auto r = text("row_order")) {
    if (*r == "matched") s.match_rows = true;
    else if (*r == "declared") s.match_rows = false;
    else bad("row_order", "\"" + *r + "\"", "use matched or declared");
  }
  if (auto e = text("eliminate")) {
    if (*e == "auto") s.eliminate_linear = true;
    else if (*e == "off") s.eliminate_linear = false;
    else bad("eliminate", "\"" + *e + "\"", "use auto or off");
  }
  if (o.contains("reselect") && !o["reselect"].is_none()) {
    if (!py::isinstance<py::bool_>(o["reselect"])) bad("reselect", py::repr(o["reselect"]).cast<std::string>(), "give True or False");
    s.reselect = o["reselect"].cast<bool>();
  }
  if (auto h = number("max_step")) {
    if (*h < 0 || std::isnan(*h)) bad("max_step", py::repr(o["max_step"]).cast<std::string>(), "use a positive step, or 0 for no limit");
    s.max_step = std::isinf(*h) ? 0.0 : *h;
  }
  if (auto p = number("projection_tolerance")) {
    if (!(*p > 0) || std::isinf(*p)) bad("projection_tolerance", py::repr(o["projection_tolerance"]).cast<std::string>(), "use a positive finite number");
    s.projection_tolerance = *p;
  }
  return s;
}

}  // namespace lsdae::python

namespace {

struct PySimulation {
  std::shared_ptr<lsdae::Fmu> fmu;
  std::unique_ptr<lsdae::Simulation> sim;
  std::mutex busy;
};

// Held for every call: a second thread gets an error, not a race.
std::unique_lock<std::mutex> claim(PySimulation& s) {
  std::unique_lock<std::mutex> lock(s.busy, std::try_to_lock);
  if (!lock.owns_lock())
    throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae.Simulation: " + s.fmu->display_name() +
                                                    " is in use by another thread → drive one Simulation from one "
                                                    "thread at a time (or create one per thread)");
  return lock;
}

// After an lsdae::Error(interrupted) caused by our SIGINT handler, Python's
// own handler has marked the signal: raise KeyboardInterrupt instead.
void raise_pending_signal() {
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

py::dict statistics_of(lsdae::Simulation& sim) {
  const lsdae::SimulationStats& s = sim.statistics();
  py::dict d;
  d["unknowns"] = s.unknowns;
  d["differential"] = s.differential;
  d["algebraic"] = s.algebraic;
  d["jacobian_nonzeros"] = s.jacobian_nonzeros;
  d["colors"] = s.colors;
  d["varying_colors"] = s.varying_colors;
  d["constant_entries"] = s.constant_entries;
  d["eliminated"] = s.eliminated;
  d["threads"] = s.threads;
  d["jacobian_method"] = s.jacobian_method;
  d["klu_ordering"] = s.klu_ordering;
  d["structural_index"] = s.structural_index;
  d["steps"] = s.steps;
  d["residual_calls"] = s.residual_calls;
  d["jacobian_evaluations"] = s.jacobian_evaluations;
  d["jacobian_residual_calls"] = s.jacobian_residual_calls;
  d["directional_calls"] = s.directional_calls;
  d["nonlinear_iterations"] = s.nonlinear_iterations;
  d["nonlinear_convergence_failures"] = s.nonlinear_convergence_failures;
  d["error_test_failures"] = s.error_test_failures;
  d["linear_solver_setups"] = s.linear_solver_setups;
  d["klu_lnz"] = s.klu_lnz;
  d["klu_unz"] = s.klu_unz;
  d["klu_symbolic_analyses"] = s.klu_symbolic_analyses;
  d["klu_restart_factorizations"] = s.klu_restart_factorizations;
  d["klu_analyses_carried_over"] = s.klu_analyses_carried_over;
  d["constant_evaluations"] = s.constant_evaluations;
  d["constant_calls"] = s.constant_calls;
  d["time_structure"] = s.time_structure;
  d["time_instantiate"] = s.time_instantiate;
  d["time_initialize"] = s.time_initialize;
  d["time_integrate"] = s.time_integrate;
  d["reached_time"] = s.reached_time;
  d["time_events"] = s.time_events;
  d["state_events"] = s.state_events;
  d["step_events"] = s.step_events;
  d["reselections"] = s.reselections;
  d["projections"] = s.projections;
  d["projection_rejections"] = s.projection_rejections;
  d["first_step_retries"] = s.first_step_retries;
  d["synthesis_evaluations"] = s.synthesis_evaluations;
  d["largest_projection"] = s.largest_projection;
  d["largest_drift"] = s.largest_drift;
  d["largest_drift_constraint"] = s.largest_drift_constraint;
  d["dummy_derivatives"] = s.dummy_derivatives;
  d["terminated_by_fmu"] = s.terminated_by_fmu;
  return d;
}

// The output grid of `lsdae simulate` (cli/simulate_options_check.cpp,
// check_run_length): ceil(span/dt − 1e-9) intervals, at least one, the last
// ending exactly at the stop time.
std::int64_t output_intervals(double start, double stop, double dt) {
  if (!std::isfinite(start) || !std::isfinite(stop) || !std::isfinite(dt) || !(dt > 0) || !(stop > start))
    throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae: start " + std::to_string(start) + ", stop " +
                                                    std::to_string(stop) + ", output interval " + std::to_string(dt) +
                                                    " make no output grid → give finite times, stop after start, "
                                                    "and a positive output interval");
  const double intervals = std::ceil((stop - start) / dt - 1e-9);
  if (intervals > 1e8)
    throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae: " + std::to_string(intervals) +
                                                    " output intervals are too many for a result in memory → "
                                                    "choose a larger output interval");
  return static_cast<std::int64_t>(std::max(intervals, 1.0));
}

// One column of a result, in the type the channel's variable has.
struct Column {
  lsdae::ValueStorage storage;
  bool boolean = false, binary = false;
  std::vector<double> reals;
  std::vector<std::int64_t> integers;
  std::vector<std::uint64_t> unsigned_integers;
  std::vector<std::string> texts;
};

// The run `lsdae simulate` makes (cli/simulate_command.cpp): a row at the
// start, at every output point, and just before and after each event (an
// event at an output time writes no extra row). Returns the columns and, when
// the run ended early, the exception (an LsdaeError subclass or
// KeyboardInterrupt) for the Python layer to raise with the rows kept.
py::dict run(PySimulation& s, const std::vector<std::string>& patterns, bool all) {
  auto lock = claim(s);
  lsdae::Simulation& sim = *s.sim;
  lsdae::simulation::OutputReader reader(lsdae::simulation::select_output_channels(*s.fmu, patterns, all));
  std::vector<double> time;
  std::vector<Column> columns(reader.size());
  for (std::size_t c = 0; c < reader.size(); ++c) {
    const lsdae::VariableType type = reader.channels()[c].variable->type;
    columns[c].storage = lsdae::storage_of(type);
    columns[c].boolean = type == lsdae::VariableType::boolean;
    columns[c].binary = type == lsdae::VariableType::binary;
  }
  auto record = [&] {
    reader.read(sim);
    time.push_back(sim.time());
    for (std::size_t c = 0; c < reader.size(); ++c) {
      Column& col = columns[c];
      switch (col.storage) {
        case lsdae::ValueStorage::real: col.reals.push_back(reader.number(c)); break;
        case lsdae::ValueStorage::integer: col.integers.push_back(std::stoll(reader.text(c))); break;
        case lsdae::ValueStorage::unsigned_integer: col.unsigned_integers.push_back(std::stoull(reader.text(c))); break;
        case lsdae::ValueStorage::text: col.texts.push_back(reader.text(c)); break;
      }
    }
  };
  double last_event_row = std::nan("");
  sim.observe_events([&](double t, lsdae::EventPhase phase) {
    record();
    if (phase == lsdae::EventPhase::after) last_event_row = t;
  });
  struct ClearObserver {
    lsdae::Simulation& sim;
    ~ClearObserver() { sim.observe_events(nullptr); }
  } clear_observer{sim};

  py::object failure = py::none();
  {
    SigintCancels sigint(&sim);
    auto integrate = [&]() -> std::optional<lsdae::Error> {
      py::gil_scoped_release release;
      try {
        if (!sim.initialized()) sim.initialize();
        if (time.empty()) record();
        return std::nullopt;
      } catch (const lsdae::Error& e) {
        return e;
      }
    };
    if (auto e = integrate()) {
      raise_pending_signal();
      throw *e;  // nothing recorded yet: a plain error
    }
    const double t0 = sim.start_time(), t1 = sim.stop_time(), dt = sim.output_interval();
    const std::int64_t intervals = output_intervals(t0, t1, dt);
    for (std::int64_t k = 1; k <= intervals; ++k) {
      const double target = k == intervals ? t1 : t0 + static_cast<double>(k) * dt;
      if (target <= sim.time()) continue;  // a restarted run resumes where it stands
      std::optional<lsdae::Error> error;
      bool terminated = false;
      {
        py::gil_scoped_release release;
        try {
          sim.advance_to(target);
          terminated = sim.terminated();
          if (sim.time() != last_event_row) record();
        } catch (const lsdae::Error& e) {
          error = e;
        }
      }
      if (PyErr_CheckSignals() != 0) {  // Ctrl-C (or another signal handler raising)
        failure = py::reinterpret_borrow<py::object>(py::error_already_set().value());
        break;
      }
      if (error) {
        failure = error_object(*error);
        break;
      }
      if (terminated) break;
    }
  }
  drain_log();

  py::dict out;
  py::list names, data;
  for (const std::string& n : reader.names()) names.append(n);
  for (Column& col : columns) {
    switch (col.storage) {
      case lsdae::ValueStorage::real: data.append(py::array_t<double>(py::ssize_t(col.reals.size()), col.reals.data())); break;
      case lsdae::ValueStorage::integer:
        if (col.boolean) {
          py::array_t<bool> a(py::ssize_t(col.integers.size()));
          for (std::size_t i = 0; i < col.integers.size(); ++i) a.mutable_at(py::ssize_t(i)) = col.integers[i] != 0;
          data.append(a);
        } else {
          data.append(py::array_t<std::int64_t>(py::ssize_t(col.integers.size()), col.integers.data()));
        }
        break;
      case lsdae::ValueStorage::unsigned_integer:
        data.append(py::array_t<std::uint64_t>(py::ssize_t(col.unsigned_integers.size()), col.unsigned_integers.data()));
        break;
      case lsdae::ValueStorage::text: {
        py::list items;
        for (const std::string& t : col.texts) items.append(col.binary ? py::object(hex_to_bytes(t)) : py::object(py::str(t)));
        data.append(items);
        break;
      }
    }
  }
  out["names"] = names;
  out["time"] = py::array_t<double>(py::ssize_t(time.size()), time.data());
  out["columns"] = data;
  out["terminated"] = sim.terminated();
  out["error"] = failure;
  return out;
}

void advance_to(PySimulation& s, double t) {
  auto lock = claim(s);
  std::optional<lsdae::Error> error;
  {
    SigintCancels sigint(s.sim.get());
    py::gil_scoped_release release;
    try {
      s.sim->advance_to(t);
    } catch (const lsdae::Error& e) {
      error = e;
    }
  }
  drain_log();
  if (error) {
    raise_pending_signal();
    throw *error;
  }
  raise_pending_signal();
}

template <typename F>
auto unlocked(PySimulation& s, F&& body) {
  auto lock = claim(s);
  py::gil_scoped_release release;
  return body(*s.sim);
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

  py::class_<lsdae::Fmu, std::shared_ptr<lsdae::Fmu>>(m, "Fmu")
      .def_static(
          "open",
          [](const std::filesystem::path& path) {
            std::shared_ptr<lsdae::Fmu> fmu;
            {
              py::gil_scoped_release release;
              fmu = lsdae::Fmu::open(path);
            }
            drain_log();
            return fmu;
          },
          py::arg("path"))
      .def_property_readonly("path", [](const lsdae::Fmu& f) { return f.path(); })
      .def_property_readonly("display_name", &lsdae::Fmu::display_name)
      .def_property_readonly("model_name", [](const lsdae::Fmu& f) { return f.model_description().model_name; })
      .def_property_readonly("fmi_version", [](const lsdae::Fmu& f) { return f.model_description().fmi_version; })
      .def_property_readonly("default_experiment", &default_experiment_of)
      .def("variables", &variables_of)
      .def("check_value", &check_value, py::arg("name"), py::arg("value"))
      .def("start_value", &start_value, py::arg("name"))
      .def("states", [](const lsdae::Fmu& f) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < f.states().size(); ++i) names.push_back(f.state_name(i));
        return names;
      });

  py::class_<PySimulation>(m, "Simulation")
      .def(py::init([](std::shared_ptr<lsdae::Fmu> fmu, const py::dict& options) {
             auto s = std::make_unique<PySimulation>();
             const lsdae::SimulationOptions o = options_from(options);
             s->fmu = fmu;
             {
               py::gil_scoped_release release;
               s->sim = lsdae::Simulation::create(fmu, o);
             }
             drain_log();
             return s;
           }),
           py::arg("fmu"), py::arg("options") = py::dict())
      .def("set",
           [](PySimulation& s, const std::string& name, const py::object& value) {
             auto lock = claim(s);
             if (py::isinstance<py::float_>(value)) s.sim->set(name, value.cast<double>());
             else s.sim->set(name, python_to_text(value));
           },
           py::arg("name"), py::arg("value"))
      .def("get",
           [](PySimulation& s, const std::string& name) {
             auto lock = claim(s);
             const lsdae::Variable* v = s.fmu->model_description().find(name);
             return values_to_python(s.sim->get_values(name), v != nullptr && v->is_array());
           },
           py::arg("name"))
      .def("get_float64",
           [](PySimulation& s, const py::array_t<std::uint32_t, py::array::c_style | py::array::forcecast>& vrs) {
             auto lock = claim(s);
             py::array_t<double> out(vrs.size());
             s.sim->get(std::span<const lsdae::ValueReference>(vrs.data(), std::size_t(vrs.size())),
                        std::span<double>(out.mutable_data(), std::size_t(out.size())));
             return out;
           },
           py::arg("value_references"))
      .def("set_input_file",
           [](PySimulation& s, const std::filesystem::path& csv) {
             auto lock = claim(s);
             s.sim->set_input(csv);
           })
      .def("initialize",
           [](PySimulation& s) {
             std::optional<lsdae::Error> error;
             {
               auto lock = claim(s);
               SigintCancels sigint(s.sim.get());
               py::gil_scoped_release release;
               try {
                 s.sim->initialize();
               } catch (const lsdae::Error& e) {
                 error = e;
               }
             }
             drain_log();
             if (error) {
               raise_pending_signal();
               throw *error;
             }
           })
      .def_property_readonly("initialized", [](PySimulation& s) { return s.sim->initialized(); })
      .def("advance_to", &advance_to, py::arg("t"))
      .def("cancel", [](PySimulation& s) { s.sim->cancel(); },
           "Asks a running advance_to (in another thread) to stop after its current step; thread-safe.")
      .def("run", &run, py::arg("patterns"), py::arg("all") = false)
      .def_property_readonly("time", [](PySimulation& s) { return s.sim->time(); })
      .def_property_readonly("start_time", [](PySimulation& s) { return s.sim->start_time(); })
      .def_property_readonly("stop_time", [](PySimulation& s) { return s.sim->stop_time(); })
      .def_property_readonly("output_interval", [](PySimulation& s) { return s.sim->output_interval(); })
      .def_property_readonly("terminated", [](PySimulation& s) { return s.sim->terminated(); })
      .def("statistics",
           [](PySimulation& s) {
             auto lock = claim(s);
             return statistics_of(*s.sim);
           })
      .def("structure_report",
           [](PySimulation& s) { return unlocked(s, [](lsdae::Simulation& sim) { return sim.structure_report(); }); })
      .def("structure_report_json",
           [](PySimulation& s) { return unlocked(s, [](lsdae::Simulation& sim) { return sim.structure_report_json(); }); })
      .def(
          "jacobian",
          [](PySimulation& s, std::optional<double> cj) {
            lsdae::IterationMatrix j = unlocked(s, [&](lsdae::Simulation& sim) { return sim.jacobian(cj); });
            py::dict d;
            d["shape"] = py::make_tuple(j.rows, j.cols);
            d["values"] = py::array_t<double>(py::ssize_t(j.values.size()), j.values.data());
            d["row_idx"] = py::array_t<std::int64_t>(py::cast(std::vector<std::int64_t>(j.row_idx.begin(), j.row_idx.end())));
            d["col_ptr"] = py::array_t<std::int64_t>(py::cast(std::vector<std::int64_t>(j.col_ptr.begin(), j.col_ptr.end())));
            d["row_names"] = j.row_names;
            d["column_names"] = j.column_names;
            d["time"] = j.time;
            d["cj"] = j.cj;
            return d;
          },
          py::arg("cj") = py::none())
      .def_property_readonly("fmu", [](PySimulation& s) { return s.fmu; });

  lsdae::python::define_scenario_runner(m);
}
