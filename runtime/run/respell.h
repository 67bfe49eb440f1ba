// runtime/run/respell.h -- lsdae's messages in the caller's own words.
//
// The library writes its messages once, naming options as the command line
// spells them ("→ loosen --rtol/--atol", "raise --max-steps", "run with
// --constraints project"). A C or Python caller never typed those flags, so
// its front door hands every message (errors, a sweep's row messages, the
// log) through respell(), which rewrites each option of the options table
// (options.h) into the door's spelling, with its value where one follows:
//     --rtol/--atol               → options.rtol/options.atol      | rtol=/atol=
//     --constraints project       → options.constraints = LSDAE_CONSTRAINTS_PROJECTION | constraints="project"
//     --max-step 1e-05            → options.max_step = 1e-05       | max_step=1e-05
//     --no-reselect               → options.reselect = 0           | reselect=False
// plus the words a door adds for what is not in the table (`extra`: --set →
// lsdae_set_text; a sweep's --metric → spec->metrics or metrics=). A command
// quoted in backticks (`lsdae info --structure`) is left as it is: it is the
// lsdae program's own command line, which any caller can run. Door::cli
// returns the message unchanged. Cost: O(length × words).
#ifndef LSDAE_RUNTIME_RUN_RESPELL_H
#define LSDAE_RUNTIME_RUN_RESPELL_H

#include <string>
#include <utility>
#include <vector>

#include "run/options.h"

namespace lsdae::run {

// A flag of the command line that is not in the options table, and what a
// door calls it instead: {"--set", "lsdae_set_text"}.
using Respellings = std::vector<std::pair<std::string, std::string>>;

std::string respell(const std::string& message, Door door, const Respellings& extra = {});

// What each door calls the simulate command's own flags (--set, --input,
// --output-vars, --stats, --strict): the words of lsdae_open/lsdae_run and of
// lsdae.Simulation/simulate.
const Respellings& simulation_words(Door door);
// A sweep's flags (--metric, --stop-when, --set, --settle, --scenarios, ...):
// lsdae_sweep_spec's fields, or lsdae.ScenarioRunner's arguments.
const Respellings& sweep_words(Door door);

}  // namespace lsdae::run

#endif  // LSDAE_RUNTIME_RUN_RESPELL_H
