// runtime/cli/option_values.h -- strict checks of option values, as CLI11
// validators whose messages are in lsdae's shape.
//
// CLI11 runs a validator on the text of each value before converting it to
// the option's type, and reports a failure as `<option>: <message>` (a
// CLI::ValidationError, exit code 2 through main.cpp). These validators parse
// the text themselves, so no value reaches CLI11's own conversion (whose
// messages print the limits of a double in full) unless it is valid:
//
//   real_value(range)     a decimal floating-point number (std::from_chars,
//                         general format: "1e-6", "0.5", "+3"; no hex, no
//                         "inf"/"nan", nothing after the number), finite, and
//                         inside `range`;
//   count_value(lo, hi)   a whole number lo ≤ n ≤ hi, written with digits or
//                         as an exactly integral decimal ("1e6"), which is
//                         rewritten to digits for CLI11's conversion (so
//                         register it with ->transform, not ->check: CLI11
//                         runs ->check validators on a copy);
//   one_of(words)         one of the words, else the list and the closest
//                         word (did_you_mean.h).
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

namespace lsdae::cli {

// What a real-valued option accepts. `low`/`high` may be ±infinity (no bound);
// the value itself must always be finite.
struct RealRange {
  double low, high;
  bool low_inclusive = true, high_inclusive = true;
  std::string meaning;  // "the relative tolerance"
  std::string example;  // "--rtol 1e-6"
};

CLI::Validator real_value(const RealRange& range);
CLI::Validator count_value(std::int64_t low, std::int64_t high, const std::string& meaning, const std::string& example);
CLI::Validator one_of(const std::vector<std::string>& words);

// The value as shown in a message: quoted, at most 80 characters ("…" when cut).
std::string quoted_value(const std::string& text);

// "from 1e-15 to 1", "greater than 0", "at least 0", "any finite number", ...
std::string describe_range(const RealRange& range);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_OPTION_VALUES_H
