// runtime/cli/option_values.h -- strict checks of option values, as CLI11
// validators whose messages are in lsdae's shape.
//
// CLI11 runs a validator on the text of each value before converting it to
// the option's type, and reports a failure as `<option>: <message>` (a
// CLI::ValidationError, exit code 2 through main.cpp). These validators are
// the checks of run/value_checks.h (the ones every front door shares), so no
// value reaches CLI11's own conversion (whose messages print the limits of a
// double in full) unless it is valid:
//
//   real_value(range)     a decimal floating-point number, finite, inside `range`;
//   count_value(lo, hi)   a whole number lo ≤ n ≤ hi ("1e6" is rewritten to
//                         digits for CLI11's conversion, so register it with
//                         ->transform, not ->check: CLI11 runs ->check
//                         validators on a copy);
//   one_of(words)         one of the words, else the list and the closest word.
//
// The options of the options table (run/options.h) are registered by
// cli/table_options.h from the table itself; these are for the options a
// command has alone (plot --width, sweep --jobs, ...).
//
// Every message names the value seen (shortened to 80 characters: a
// 300-digit number is not repeated) and what would be accepted, e.g.
//   --rtol: "0" is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. --rtol 1e-6
#ifndef LSDAE_RUNTIME_CLI_OPTION_VALUES_H
#define LSDAE_RUNTIME_CLI_OPTION_VALUES_H

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "run/value_checks.h"

namespace lsdae::cli {

using run::RealRange;
using run::describe_range;
using run::quoted_value;

CLI::Validator real_value(const RealRange& range);
CLI::Validator count_value(std::int64_t low, std::int64_t high, const std::string& meaning, const std::string& example);
CLI::Validator one_of(const std::vector<std::string>& words);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_OPTION_VALUES_H
