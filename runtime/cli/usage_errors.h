// runtime/cli/usage_errors.h -- a command line CLI11 refused, explained in
// lsdae's own words.
//
// CLI11's messages are written for its own purposes ("A subcommand is
// required", "The following arguments were not expected: 2 --stopp" with the
// arguments reversed). describe_usage_error reads the command line again
// itself and says what is wrong with the first offending word, in the shape
//     <command> → what → the word seen → what to do
// with a suggestion from did_you_mean.h where one is close:
//   - no command, or an unknown one   → the list of commands (`simulat` →
//                                        "did you mean `simulate`?");
//   - an unknown option               → the closest option names of that
//                                        command (`--stopp` → `--stop`);
//                                        an option given before the command
//                                        it belongs to says where it goes;
//   - a surplus argument              → what the command takes (one FMU;
//                                        plot, report: one result file);
//   - a missing FMU or option value   → the form expected;
//   - a value a validator refused     → the validator's message
//                                        (option_values.h), prefixed with the
//                                        command;
//   - anything else                   → CLI11's text and the pointer to --help.
// The result has no "lsdae: error: " prefix and no trailing newline; the exit
// code is always 2 (ErrorKind::usage).
#ifndef LSDAE_RUNTIME_CLI_USAGE_ERRORS_H
#define LSDAE_RUNTIME_CLI_USAGE_ERRORS_H

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace lsdae::cli {

// `args`: the command line without the program name (argv[1..]).
std::string describe_usage_error(CLI::App& app, const std::vector<std::string>& args, const CLI::ParseError& error);

// CLI11 2.1 converts the value of a flag given as `--flag=VALUE` with std::stoll
// and lets std::out_of_range / std::invalid_argument escape parse() for a number
// too large for a long long (`--no-progress=99999999999999999999`; found by the
// option-parsing fuzzer). Called with such an exception, this names the first
// flag given a value that is not a small integer or a boolean word, in the same
// shape as describe_usage_error; exit code 2 as well.
std::string describe_flag_value_error(CLI::App& app, const std::vector<std::string>& args, const std::exception& error);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_USAGE_ERRORS_H
