// compose/lsdae_c_sweep.cpp -- the C interface's lsdae_sweep (lsdae/lsdae.h):
// its body is the C front door's (runtime/capi/sweep_entry.h); the
// composition root hands it what installs the models' scenario sources
// (model_plugins.h), so that a spec's contingency fields find the PowerGrid
// FMU's source without runtime/capi/ naming a model. Whatever installing
// throws is caught by the body's guard and becomes the call's status.
#include "capi/sweep_entry.h"
#include "compose/model_plugins.h"
#include "lsdae/lsdae.h"

extern "C" lsdae_status lsdae_sweep(const char* model_path, const lsdae_options* options,
                                    const lsdae_sweep_spec* spec, size_t* failed) {
  return lsdae::capi::sweep(model_path, options, spec, failed, &lsdae::compose::install_model_plugins);
}
