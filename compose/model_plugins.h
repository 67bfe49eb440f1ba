// compose/model_plugins.h -- the composition root's list of what the models
// plug into the runtime: today the PowerGrid and PsseGrid FMUs' scenario
// sources ("contingencies": models/powergrid/scenarios/contingency_source.h,
// models/psse/scenarios/psse_contingencies.h), put in the sweep's registry (lsdae/sweep.h register_scenario_source).
//
// compose/ is the one folder above both runtime/ and models/ (docs/
// architecture.md): runtime/ names no model, models/ uses only the public
// headers, and this list is where the two meet. The registry is filled by an
// explicit call, never by a self-registering static object: the test
// programs link static libraries, and a linker drops an archive member
// nobody references (its constructor never runs).
//
// install_model_plugins() is called by every entry that needs the plug-ins
// (the `lsdae` program's main before it parses, so `lsdae sweep --help` shows
// --contingencies; the C interface's lsdae_sweep before it makes the
// scenarios). It is idempotent and thread-safe (std::call_once; registering a
// name twice keeps the first anyway). Cost: one registration per process.
// It throws what a registration throws (std::bad_alloc), and a call after a
// throw tries again.
#ifndef LSDAE_COMPOSE_MODEL_PLUGINS_H
#define LSDAE_COMPOSE_MODEL_PLUGINS_H

namespace lsdae::compose {

void install_model_plugins();

}  // namespace lsdae::compose

#endif  // LSDAE_COMPOSE_MODEL_PLUGINS_H
