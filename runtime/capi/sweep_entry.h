// runtime/capi/sweep_entry.h -- the body of the C interface's lsdae_sweep
// (lsdae/lsdae.h), whose extern "C" entry is in the composition root
// (compose/lsdae_c_sweep.cpp): the composition root is the one place that
// knows both the runtime and the models' plug-ins, so it hands this function
// what installs them instead of capi/ naming a model.
//
// sweep(...) runs install_plugins() (when not null) inside the entry point's
// guard, so what it throws becomes the call's status and message like every
// other failure; then it opens the model, makes the scenarios (a source given
// by name, such as "contingencies", must be in the registry by then:
// lsdae/sweep.h register_scenario_source) and runs them. The contract and the
// statuses are lsdae_sweep's.
#ifndef LSDAE_RUNTIME_CAPI_SWEEP_ENTRY_H
#define LSDAE_RUNTIME_CAPI_SWEEP_ENTRY_H

#include <cstddef>

#include "lsdae/lsdae.h"

namespace lsdae::capi {

lsdae_status sweep(const char* model_path, const lsdae_options* options, const lsdae_sweep_spec* spec,
                   std::size_t* failed, void (*install_plugins)());

}  // namespace lsdae::capi

#endif  // LSDAE_RUNTIME_CAPI_SWEEP_ENTRY_H
