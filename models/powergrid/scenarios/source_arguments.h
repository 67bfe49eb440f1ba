// models/powergrid/scenarios/source_arguments.h -- what the grid FMUs'
// contingency sources (PowerGrid's contingency_source.h, PsseGrid's
// psse/scenarios/psse_contingencies.h) share of the sweep's source interface:
// reading an option's value, refusing a usage, and the two options they both
// offer with the same name and meaning (--fault-on, --clear-after).
//
// Contract: `arguments` are the values the sweep parsed for the source's
// options (lsdae/sweep.h, ScenarioSourceArguments: a number option already
// checked against its range there, its text kept as given). Refusals throw
// lsdae::Error of kind usage (exit code 2), in the shape
// `--option: value → what to do`. Cost: a linear search of the few options.
#ifndef LSDAE_MODELS_POWERGRID_SCENARIOS_SOURCE_ARGUMENTS_H
#define LSDAE_MODELS_POWERGRID_SCENARIOS_SOURCE_ARGUMENTS_H

#include <optional>
#include <string>

#include "lsdae/sweep.h"

namespace lsdae::gridsources {

[[noreturn]] void refuse(const std::string& message);

// The value given for option `name`, or nullptr when it was not given.
const std::string* argument(const sweep::ScenarioSourceArguments& arguments, const std::string& name);

// A number option's value (a leading '+' allowed), or nullopt when not given;
// text that is not a number is refused.
std::optional<double> number(const sweep::ScenarioSourceArguments& arguments, const std::string& name);

// An option of the source's table, with its help text.
sweep::ScenarioSourceOption option(std::string name, sweep::ScenarioSourceOption::Kind kind, std::string value_name,
                                   std::string help);

// --fault-on TIME (the fault's start; default the FMU's) and --clear-after
// SECONDS (> 0: the fault cleared and the branch opened that long after it).
sweep::ScenarioSourceOption fault_on_option();
sweep::ScenarioSourceOption clear_after_option();

}  // namespace lsdae::gridsources

#endif  // LSDAE_MODELS_POWERGRID_SCENARIOS_SOURCE_ARGUMENTS_H
