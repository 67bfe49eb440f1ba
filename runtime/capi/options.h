// runtime/capi/options.h -- lsdae_options (lsdae/lsdae.h) → lsdae::SimulationOptions.
//
// to_simulation_options(options) validates every field it translates and
// throws lsdae::Error(usage) for the first bad one, in the shape
//   lsdae_open: options.<field> is <value seen>, <what is wrong> → <what to do>
// NULL options means all defaults. Fields whose range only the simulation
// knows (tolerances against the experiment, the output interval) are
// checked by Simulation::create. Used by lsdae_c.cpp and tests/runtime/capi.
#ifndef LSDAE_CAPI_OPTIONS_H
#define LSDAE_CAPI_OPTIONS_H

#include "lsdae/lsdae.h"
#include "lsdae/simulation.h"

namespace lsdae::capi {

SimulationOptions to_simulation_options(const lsdae_options* options);

}  // namespace lsdae::capi

#endif  // LSDAE_CAPI_OPTIONS_H
