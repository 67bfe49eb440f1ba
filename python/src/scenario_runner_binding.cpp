// python/src/scenario_runner_binding.cpp -- lsdae._lsdae.ScenarioRunner, beneath the
// Python layer's lsdae.ScenarioRunner (python/lsdae/_sweep.py; docs/python.md):
// one scenario at a time on a model opened, analysed and instantiated once and
// reset between scenarios (lsdae/sweep.h, sweep/scenario_runner.h).
//
// Contract (as the rest of the module, module.cpp): the GIL is released while
// the model is opened (run/open_model.h) and while a scenario runs; a
// scenario's own failure is a row with status "failed", an lsdae::Error only
// a bad call; messages and rows name the runner's keyword arguments, not the
// command line's flags (run/respell.h); a runner used by two threads at once
// raises UsageError; lsdae's log is drained after each call.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bindings.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/sweep.h"
#include "run/open_model.h"
#include "run/respell.h"
#include "sweep/scenario_runner.h"
#include "sweep/scenario_sources.h"

namespace py = pybind11;

namespace lsdae::python {

namespace {

// What a scenario runner's messages call the command line's flags: its
// keyword arguments (metrics=, stop_when=, sets=, settle=; run/respell.h).
const lsdae::run::Respellings& runner_words() { return lsdae::run::sweep_words(lsdae::run::Door::python); }

// One scenario at a time on a reused model (sweep/scenario_runner.h): the
// Python layer's lsdae.ScenarioRunner (python/lsdae/_sweep.py).
struct PyScenarioRunner {
  std::shared_ptr<const lsdae::sweep::SweepPlan> plan;
  std::unique_ptr<lsdae::sweep::ScenarioRunner> runner;
  std::mutex busy;
};

std::unique_ptr<PyScenarioRunner> make_scenario_runner(const std::filesystem::path& path, const py::dict& options,
                                                       const std::vector<std::string>& metrics,
                                                       const std::vector<std::string>& stop_when,
                                                       const std::vector<std::pair<std::string, std::string>>& sets,
                                                       std::optional<std::tuple<double, double, std::optional<double>>> settle,
                                                       bool reuse) {
  lsdae::sweep::SweepOptions o;
  const lsdae::run::RunSettings settings =
      settings_from(options, lsdae::run::category::simulation, "lsdae.ScenarioRunner: ");
  o.simulation = settings.simulation;
  o.check_jacobian = settings.check_jacobian;
  o.metrics = metrics;
  o.stop_when = stop_when;
  o.sets = sets;
  o.reuse = reuse;
  o.isolate = false;
  if (settle) o.settle = lsdae::sweep::Settle{std::get<0>(*settle), std::get<1>(*settle), std::get<2>(*settle)};
  auto r = std::make_unique<PyScenarioRunner>();
  std::optional<lsdae::Error> error = release_gil_catching([&] {
    const std::shared_ptr<const lsdae::Model> model = lsdae::run::open_model(path).model;
    std::vector<lsdae::sweep::Scenario> common{{"common", o.sets}};
    lsdae::sweep::check_names(model->model_description(), common, "sets");
    r->plan = lsdae::sweep::SweepPlan::compile(model, o);
    r->runner = std::make_unique<lsdae::sweep::ScenarioRunner>(*r->plan);
  });
  if (error) error = respelled(*error, runner_words());
  finish_library_call(error);
  return r;
}

py::dict run_one_scenario(PyScenarioRunner& r, const std::string& id,
                          const std::vector<std::pair<std::string, std::string>>& sets) {
  std::unique_lock<std::mutex> lock(r.busy, std::try_to_lock);
  if (!lock.owns_lock())
    throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae.ScenarioRunner: in use by another thread → drive one runner "
                                                "from one thread at a time (or open one per thread)");
  lsdae::sweep::SummaryRow row;
  bool reused = false;
  call_without_gil([&] {
    const std::size_t before = r.runner->reused();
    row = lsdae::sweep::run_scenario(*r.plan, lsdae::sweep::Scenario{id, sets}, *r.runner);
    reused = r.runner->reused() > before;
  });
  py::dict d;
  d["id"] = row.id;
  d["status"] = lsdae::sweep::to_string(row.status);
  d["message"] = lsdae::run::respell(row.message, lsdae::run::Door::python, runner_words());
  d["reached_time"] = row.reached_time ? py::cast(*row.reached_time) : py::none();
  d["steps"] = row.steps;
  d["wall_time"] = row.wall_time;
  d["reused"] = reused;
  py::list metrics;
  for (const auto& m : row.metrics) metrics.append(m ? py::cast(*m) : py::none());
  d["metrics"] = metrics;
  lsdae::sweep::SummaryRow python_row = row;
  python_row.message = d["message"].cast<std::string>();
  d["csv_row"] = python_row.to_csv();
  return d;
}

}  // namespace

void define_scenario_runner(py::module_& m) {
  py::class_<PyScenarioRunner>(m, "ScenarioRunner")
      .def(py::init(&make_scenario_runner), py::arg("path"), py::arg("options"), py::arg("metrics"),
           py::arg("stop_when"), py::arg("sets"), py::arg("settle"), py::arg("reuse"))
      .def("run", &run_one_scenario, py::arg("id"), py::arg("sets"))
      .def_property_readonly("header", [](const PyScenarioRunner& r) { return r.plan->header(); })
      .def_property_readonly("model_name", [](const PyScenarioRunner& r) { return r.plan->model()->display_name(); })
      .def_property_readonly("scenarios", [](const PyScenarioRunner& r) { return r.runner->scenarios(); })
      .def_property_readonly("reused", [](const PyScenarioRunner& r) { return r.runner->reused(); });
}

}  // namespace lsdae::python
