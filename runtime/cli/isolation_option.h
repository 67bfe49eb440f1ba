// runtime/cli/isolation_option.h -- `--timeout`, `--call-timeout` and
// `--no-isolate`, shared by the commands that load an FMU's binary
// (`simulate`, `validate`): by default the binary runs in a supervised child
// process (lsdae/supervise.h) with a per-call watchdog; `--no-isolate` runs
// it in lsdae's own process (under a debugger, say).
#ifndef LSDAE_RUNTIME_CLI_ISOLATION_OPTION_H
#define LSDAE_RUNTIME_CLI_ISOLATION_OPTION_H

#include <CLI/CLI.hpp>

#include <limits>
#include <string>

#include "cli/option_values.h"

#include "lsdae/supervise.h"

namespace lsdae::cli {

struct IsolationFlags {
  double timeout = 0.0;        // the whole run; 0: no limit
  double call_timeout = 60.0;  // one FMU call; 0: no limit
  bool no_isolate = false;
};

// Registers the three options in the "Isolation" group. `whole_run` names
// what --timeout limits in the help text.
inline void add_isolation_options(CLI::App& app, IsolationFlags& flags, const std::string& whole_run) {
  // Decimal seconds, finite, at least 0 (option_values.h: no hex, no "inf").
  const auto seconds = [](const char* option) {
    return real_value({0.0, std::numeric_limits<double>::infinity(), true, true,
                       "a time limit in seconds (0: no limit)", std::string(option) + " 30"});
  };
  app.add_option("--timeout", flags.timeout, "Stop " + whole_run + " after this many seconds (exit 11; default 0: no limit)")
      ->type_name("SECONDS")
      ->check(seconds("--timeout"))
      ->group("Isolation");
  app.add_option("--call-timeout", flags.call_timeout,
                 "Stop when one FMU call takes longer than this many seconds (exit 11; 0: no limit)")
      ->type_name("SECONDS")
      ->check(seconds("--call-timeout"))
      ->capture_default_str()
      ->group("Isolation");
  app.add_flag("--no-isolate", flags.no_isolate,
               "Run the FMU's binary in lsdae's own process (for a debugger): no watchdog for single calls, "
               "and an FMU crash ends lsdae")
      ->group("Isolation");
}

inline IsolationOptions isolation_options(const IsolationFlags& flags, const std::string& label) {
  IsolationOptions options;
  options.timeout = flags.timeout;
  options.call_timeout = flags.call_timeout;
  options.label = label;
  return options;
}

inline RunOutcome run_with_isolation(const IsolationFlags& flags, const RunBody& body, const IsolationOptions& options) {
  return flags.no_isolate ? run_in_process(body, options) : run_isolated(body, options);
}

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_ISOLATION_OPTION_H
