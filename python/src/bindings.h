// python/src/bindings.h -- what the source files of the extension module
// lsdae._lsdae share (module.cpp: errors, the log, Fmu, Simulation and the
// module itself; scenario_runner.cpp: ScenarioRunner). Internal to the
// module: its symbols are hidden (CXX_VISIBILITY_PRESET hidden).
#ifndef LSDAE_PYTHON_SRC_BINDINGS_H
#define LSDAE_PYTHON_SRC_BINDINGS_H

#include <pybind11/pybind11.h>

#include "lsdae/simulation.h"

namespace lsdae::python {

// The SimulationOptions of the Python layer's options dict (the keyword
// arguments of lsdae.simulate: start_time, stop_time, rtol, ...; None: the
// default). An unknown key or a value of the wrong type or range is an
// lsdae::Error(usage) naming the option, the value seen and what to give.
lsdae::SimulationOptions options_from(const pybind11::dict& options);

// Hands lsdae's queued log messages (its own and the FMUs', queued from any
// thread) to logging.getLogger("lsdae"). With the GIL held, after each call
// into lsdae.
void drain_log();

// Adds lsdae._lsdae.ScenarioRunner to the module (scenario_runner.cpp).
void define_scenario_runner(pybind11::module_& m);

}  // namespace lsdae::python

#endif  // LSDAE_PYTHON_SRC_BINDINGS_H
