// python/src/bindings.h -- what the source files of the extension module
// lsdae._lsdae share (support.cpp: errors, the log, the options table;
// module.cpp: the module itself; model_binding.cpp: values and the Model;
// simulation_binding.cpp: Simulation and its run; scenario_runner_binding.cpp: ScenarioRunner). Internal to the module:
// its symbols are hidden (CXX_VISIBILITY_PRESET hidden).
#ifndef LSDAE_PYTHON_SRC_BINDINGS_H
#define LSDAE_PYTHON_SRC_BINDINGS_H

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "lsdae/error.h"
#include "lsdae/model.h"
#include "lsdae/values.h"
#include "run/options.h"
#include "run/respell.h"

namespace lsdae::python {

// A model opened by the run layer (run/open_model.h): an FMU, an unpacked
// folder, or a system of FMUs (.ssp, .ssd). lsdae._lsdae.Model.
struct PyModel {
  std::shared_ptr<const lsdae::Model> model;
};

// The options of a dict of keyword arguments (None: not given) as the options
// table reads them (run/options.h): a bool, an int, a float, a str, or a list
// of str, each with its repr for the messages.
lsdae::run::GivenOptions given_options(const pybind11::dict& options);
// run::settings_from in Python's spelling (rtol=), Error(usage) after `where`.
lsdae::run::RunSettings settings_from(const pybind11::dict& options, unsigned categories, const std::string& where);

// An lsdae::Error with its message in Python's words (run/respell.h: the
// flags of the command line become keyword arguments; `words` adds the
// call's own, a scenario runner's).
lsdae::Error respelled(const lsdae::Error& e, const lsdae::run::Respellings& words);
// The exception instance for an lsdae::Error (run() returns it with the rows).
pybind11::object error_object(const lsdae::Error& e);

// Hands lsdae's queued log messages (its own and the FMUs', queued from any
// thread) to logging.getLogger("lsdae"). With the GIL held, after each call
// into lsdae.
void drain_log();

// ---- calls into the library (every binding that calls one that may take
// long or call the FMU makes it through these, so that other Python threads
// run meanwhile and the errors, the log and Ctrl-C come back one way)
//
// Runs `body` with the GIL released; an lsdae::Error it throws is caught
// there and returned (nullopt: none), anything else propagates (the GIL
// taken back on the way). For a binding that does more with the error
// (respells it, returns it with the rows) or holds a guard around the call
// only (SigintCancels): it then calls finish_library_call itself.
template <typename F>
std::optional<lsdae::Error> release_gil_catching(F&& body) {
  std::optional<lsdae::Error> error;
  pybind11::gil_scoped_release release;
  try {
    body();
  } catch (const lsdae::Error& e) {
    error = e;
  }
  return error;
}
// With the GIL held, after such a call: drain_log(); then a signal Python
// marked while the call ran is raised (KeyboardInterrupt: when Ctrl-C
// cancelled the call, it comes before the library's interrupted error);
// then `error`, if any, is thrown.
void finish_library_call(const std::optional<lsdae::Error>& error);
// Both: `body`'s result, or its error thrown after the log.
template <typename F>
auto call_without_gil(F&& body) {
  using Result = std::invoke_result_t<F&>;
  if constexpr (std::is_void_v<Result>) {
    finish_library_call(release_gil_catching(body));
  } else {
    std::optional<Result> result;
    finish_library_call(release_gil_catching([&] { result.emplace(body()); }));
    return std::move(*result);
  }
}

// The exception classes of the module (LsdaeError and one per lsdae::ErrorKind),
// the sink that queues lsdae's log for drain_log, and the log's threshold
// (support.cpp).
void define_errors(pybind11::module_& m);
void install_log_sink();
void set_log_level(const std::string& level);

// Python values and lsdae's typed values (model_binding.cpp).
pybind11::object values_to_python(const lsdae::Values& v, bool as_array);
pybind11::object element_to_python(const lsdae::Values& v, std::size_t k);
std::string python_to_text(const pybind11::handle& value);
pybind11::object hex_to_bytes(const std::string& hex);

// Adds lsdae._lsdae.Model (model_binding.cpp), Simulation (simulation_binding.cpp) and
// ScenarioRunner (scenario_runner_binding.cpp) to the module.
void define_model(pybind11::module_& m);
void define_simulation(pybind11::module_& m);
void define_scenario_runner(pybind11::module_& m);

}  // namespace lsdae::python

#endif  // LSDAE_PYTHON_SRC_BINDINGS_H
