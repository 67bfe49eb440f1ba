// runtime/capi/options.h -- the C interface's option structs (lsdae_options,
// lsdae_output: lsdae/lsdae.h) read into the options table's keys
// (run/options.h), which checks them as it checks every front door's.
//
// The C encodings of "use the default" are read here and nowhere else: a
// double field at NaN, threads 0, a NULL string, an enum at its *_DEFAULT
// value, max_step +inf (no limit, as 0), and lsdae_output's counts at 0 are
// left out of the given options. Everything else is handed to the table as
// the value the caller stored (an enum field as its integer), so a bad value
// is refused with the table's message in C's spelling:
//   lsdae_open: options.rtol = 5 is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. options.rtol = 1e-6
//   lsdae_open: options.constraints = 7 is not one of LSDAE_CONSTRAINTS_DEFAULT, ... → use one of them
// one line per bad field. NULL options means all defaults. Fields whose
// range only the simulation knows (the tolerances against the experiment,
// the output grid against the start and stop) are checked by
// Simulation::create and run/output_plan.h.
#ifndef LSDAE_CAPI_OPTIONS_H
#define LSDAE_CAPI_OPTIONS_H

#include <string>

#include "lsdae/lsdae.h"
#include "lsdae/simulation.h"
#include "run/options.h"

namespace lsdae::capi {

run::GivenOptions given_options(const lsdae_options* options);
run::GivenOptions given_output(const lsdae_output* output);

// The settings of `options` (the simulation's), Error(usage) after `where`
// ("lsdae_open: ") for every bad field.
run::RunSettings settings_from(const lsdae_options* options, const std::string& where);
SimulationOptions to_simulation_options(const lsdae_options* options);

}  // namespace lsdae::capi

#endif  // LSDAE_CAPI_OPTIONS_H
