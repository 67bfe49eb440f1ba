// python/src/simulation_binding.cpp -- lsdae._lsdae.Simulation, beneath the Python
// layer's lsdae.Simulation (python/lsdae/_model.py): create with the options
// table's keyword arguments (run/options.h), set, initialize (with the run
// layer's one --jacobian check), advance_to, get, and run() through the run
// layer's loop and files (run/run_to_files.h): the rows of `lsdae simulate`,
// kept as columns, and with result_file / statistics_file the very files it
// writes. statistics() is the run layer's one statistics record by flat name
// (run/statistics.h), statistics_json() its JSON.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "lsdae/error.h"
#include "lsdae/simulation.h"
#include "lsdae/values.h"
#include "run/output_plan.h"
#include "run/run_loop.h"
#include "run/model_files.h"
#include "run/run_to_files.h"
#include "run/statistics.h"
#include "simulation/output_channels.h"

namespace py = pybind11;

namespace lsdae::python {

namespace {

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

// ---- Simulation -----------------------------------------------------------------

struct PySimulation {
  std::shared_ptr<const lsdae::Model> model;
  lsdae::run::RunSettings settings;  // the options it was made with
  std::unique_ptr<lsdae::Simulation> sim;
  std::string input_file;  // set_input_file's table: no result file may name it
  std::mutex busy;
};

// Held for every call: a second thread gets an error, not a race.
std::unique_lock<std::mutex> claim(PySimulation& s) {
  std::unique_lock<std::mutex> lock(s.busy, std::try_to_lock);
  if (!lock.owns_lock())
    throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae.Simulation: " + s.model->display_name() +
                                                    " is in use by another thread → drive one Simulation from one "
                                                    "thread at a time (or create one per thread)");
  return lock;
}

py::object field_to_python(const lsdae::run::FieldValue& v) {
  if (const auto* text = std::get_if<std::string>(&v)) return py::str(*text);
  if (const auto* flag = std::get_if<bool>(&v)) return py::bool_(*flag);
  if (const auto* n = std::get_if<std::int64_t>(&v)) return py::int_(*n);
  if (const auto* x = std::get_if<double>(&v)) return py::float_(*x);
  return py::cast(std::get<std::vector<std::string>>(v));
}

// The run layer's statistics record by flat name (the keys of lsdae_stats,
// plus the texts): one field table for every front door.
py::dict statistics_of(PySimulation& s) {
  lsdae::run::RunStatistics stats;
  lsdae::run::take_simulation(stats, *s.sim);
  py::dict d;
  for (const auto& [name, value] : lsdae::run::flat_statistics(stats)) d[py::str(name)] = field_to_python(value);
  return d;
}

std::string statistics_json(PySimulation& s) {
  lsdae::run::RunStatistics stats;
  stats.model = s.model->display_name();
  lsdae::run::take_simulation(stats, *s.sim);
  return lsdae::run::statistics_json(stats);
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

py::object column_to_python(Column& col) {
  switch (col.storage) {
    case lsdae::ValueStorage::real: return py::array_t<double>(py::ssize_t(col.reals.size()), col.reals.data());
    case lsdae::ValueStorage::integer:
      if (col.boolean) {
        py::array_t<bool> a(py::ssize_t(col.integers.size()));
        for (std::size_t i = 0; i < col.integers.size(); ++i) a.mutable_at(py::ssize_t(i)) = col.integers[i] != 0;
        return a;
      }
      return py::array_t<std::int64_t>(py::ssize_t(col.integers.size()), col.integers.data());
    case lsdae::ValueStorage::unsigned_integer:
      return py::array_t<std::uint64_t>(py::ssize_t(col.unsigned_integers.size()), col.unsigned_integers.data());
    case lsdae::ValueStorage::text: {
      py::list items;
      for (const std::string& t : col.texts) items.append(col.binary ? hex_to_bytes(t) : py::object(py::str(t)));
      return items;
    }
  }
  return py::none();
}

// The run `lsdae simulate` makes, through the run layer (run/run_to_files.h):
// a row where the simulation stands (the start), at every output point, and
// just before and after each event; with `result_file` / `statistics_file`
// the files `lsdae simulate -o ... --stats ...` writes. `options`: the output
// and result-file options of the table (output_grid=, max_rows=, format=, ...).
// Returns the columns and, when the run ended early, the exception (an
// LsdaeError subclass or KeyboardInterrupt) for the Python layer to raise
// with the rows kept.
py::dict run(PySimulation& s, const std::vector<std::string>& patterns, bool all, const py::dict& options,
             const std::string& result_file, const std::string& statistics_file) {
  auto lock = claim(s);
  lsdae::Simulation& sim = *s.sim;
  const lsdae::run::RunSettings settings = settings_from(
      options, lsdae::run::category::output | lsdae::run::category::results, "lsdae: ");
  const auto t0 = std::chrono::steady_clock::now();
  lsdae::run::FileRunSpec spec;
  spec.results = result_file;
  spec.statistics = statistics_file;
  // Neither file may be the model's (an .fmu, a file of an unpacked folder, a
  // component of a system) or the input table, nor both one file (run/model_files.h).
  lsdae::run::check_run_outputs(*s.model, {"result_file", result_file, "result_file='result.csv'"},
                                {"statistics_file", statistics_file, "statistics_file='stats.json'"},
                                {{s.input_file, "the input table"}});
  if (!result_file.empty()) spec.format = lsdae::results::result_format_for(result_file, settings.results.format);
  spec.options = settings.results;
  spec.channels = lsdae::simulation::select_output_channels(*s.model, patterns, all || settings.results.all,
                                                            settings.results.roles);
  spec.model_name = s.model->display_name();
  spec.wall = [t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  const lsdae::run::OutputPlan plan = lsdae::run::plan_output(sim, settings.output, s.settings.check_jacobian);
  std::vector<double> time;
  std::vector<Column> columns(spec.channels.size());
  for (std::size_t c = 0; c < spec.channels.size(); ++c) {
    const lsdae::VariableType type = spec.channels[c].variable->type;
    columns[c].storage = lsdae::storage_of(type);
    columns[c].boolean = type == lsdae::VariableType::boolean;
    columns[c].binary = type == lsdae::VariableType::binary;
  }
  lsdae::run::FileRunReport report;
  report.values = [&](const lsdae::simulation::OutputReader& reader, double t, lsdae::run::RowKind) {
    time.push_back(t);
    for (std::size_t c = 0; c < reader.size(); ++c) {
      Column& col = columns[c];
      switch (col.storage) {
        case lsdae::ValueStorage::real: col.reals.push_back(reader.number(c)); break;
        case lsdae::ValueStorage::integer: col.integers.push_back(reader.integer(c)); break;
        case lsdae::ValueStorage::unsigned_integer: col.unsigned_integers.push_back(reader.unsigned_integer(c)); break;
        case lsdae::ValueStorage::text: col.texts.push_back(reader.text(c)); break;
      }
    }
  };
  py::object failure = py::none();
  {
    SigintCancels sigint(&sim);
    const std::optional<lsdae::Error> error =
        release_gil_catching([&] { lsdae::run::run_to_files(sim, plan, spec, {}, report); });
    if (PyErr_CheckSignals() != 0) {  // Ctrl-C (or another signal handler raising)
      if (time.empty()) throw py::error_already_set();
      failure = py::reinterpret_borrow<py::object>(py::error_already_set().value());
    } else if (error) {
      if (time.empty()) throw *error;  // nothing recorded: a plain error
      failure = error_object(*error);
    }
  }
  drain_log();
  py::dict out;
  py::list names, data;
  for (const auto& channel : spec.channels) names.append(channel.name);
  for (Column& col : columns) data.append(column_to_python(col));
  out["names"] = names;
  out["time"] = py::array_t<double>(py::ssize_t(time.size()), time.data());
  out["columns"] = data;
  out["terminated"] = sim.terminated();
  out["error"] = failure;
  return out;
}

// `body(sim)` while SIGINT cancels the simulation (SigintCancels, made with
// the GIL held), the GIL released; then finish_library_call (bindings.h).
template <typename F>
void interruptible(PySimulation& s, F&& body) {
  auto lock = claim(s);
  std::optional<lsdae::Error> error;
  {
    SigintCancels sigint(s.sim.get());
    error = release_gil_catching([&] { body(*s.sim); });
  }
  finish_library_call(error);
}

void advance_to(PySimulation& s, double t) {
  interruptible(s, [t](lsdae::Simulation& sim) { sim.advance_to(t); });
}

// `body(sim)` with the GIL released (call_without_gil, bindings.h).
template <typename F>
auto unlocked(PySimulation& s, F&& body) {
  auto lock = claim(s);
  return call_without_gil([&] { return body(*s.sim); });
}

}  // namespace

void define_simulation(py::module_& m) {
  py::class_<PySimulation>(m, "Simulation")
      .def(py::init([](std::shared_ptr<PyModel> model, const py::dict& options) {
             auto s = std::make_unique<PySimulation>();
             s->settings = settings_from(options, lsdae::run::category::simulation, "lsdae: ");
             s->model = model->model;
             s->sim = call_without_gil([&] { return lsdae::Simulation::create(s->model, s->settings.simulation); });
             return s;
           }),
           py::arg("model"), py::arg("options") = py::dict())
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
             const lsdae::Variable* v = s.model->model_description().find(name);
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
             s.input_file = csv.string();
           })
      .def("initialize",
           [](PySimulation& s) {
             // With jacobian="check" the Jacobians are compared there (the run layer's one check).
             interruptible(s, [&s](lsdae::Simulation& sim) { lsdae::run::initialize(sim, s.settings.check_jacobian); });
           })
      .def_property_readonly("initialized", [](PySimulation& s) { return s.sim->initialized(); })
      .def("advance_to", &advance_to, py::arg("t"))
      .def("cancel", [](PySimulation& s) { s.sim->cancel(); },
           "Asks a running advance_to (in another thread) to stop after its current step; thread-safe.")
      .def("run", &run, py::arg("patterns"), py::arg("all") = false, py::arg("options") = py::dict(),
           py::arg("result_file") = std::string(), py::arg("statistics_file") = std::string())
      .def_property_readonly("time", [](PySimulation& s) { return s.sim->time(); })
      .def_property_readonly("start_time", [](PySimulation& s) { return s.sim->start_time(); })
      .def_property_readonly("stop_time", [](PySimulation& s) { return s.sim->stop_time(); })
      .def_property_readonly("output_interval", [](PySimulation& s) { return s.sim->output_interval(); })
      .def_property_readonly("terminated", [](PySimulation& s) { return s.sim->terminated(); })
      .def("statistics",
           [](PySimulation& s) {
             auto lock = claim(s);
             return statistics_of(s);
           })
      .def("statistics_json",
           [](PySimulation& s) {
             auto lock = claim(s);
             return statistics_json(s);
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
          py::arg("cj") = py::none());
}

}  // namespace lsdae::python
