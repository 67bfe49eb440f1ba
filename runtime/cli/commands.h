// runtime/cli/commands.h -- the subcommands of the `lsdae` program. Each
// registers its options on the CLI11 app and runs when selected; a run
// returns the process exit code (see lsdae/error.h) or throws lsdae::Error.
#ifndef LSDAE_RUNTIME_CLI_COMMANDS_H
#define LSDAE_RUNTIME_CLI_COMMANDS_H

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace lsdae::cli {

using Runner = std::function<int()>;

// The version `lsdae --version` prints, stored in the statistics and reports.
inline constexpr const char* kLsdaeVersion = "0.1.0";

// The command line lsdae was started with (argv), for the statistics.
const std::vector<std::string>& command_line();

// The whole `lsdae` program (program.cpp; its main() is compose/lsdae_main.cpp,
// which fills the scenario-source registry first): parses the command line,
// then runs the selected command and returns its exit code. With run_command false it stops
// after parsing (returning 0, or the usage exit code for a bad command line),
// so runtime/fuzz/fuzz_cli.cpp can fuzz the option parsing without running
// commands.
int run(int argc, char** argv, bool run_command);

// `lsdae info model.fmu [--json]`
Runner add_info_command(CLI::App& app);
// `lsdae validate model.fmu [--json] [--no-load] [--quiet]`
Runner add_validate_command(CLI::App& app);
// `lsdae simulate model.fmu [--stop ... --output result.csv --stats stats.json ...]`
Runner add_simulate_command(CLI::App& app);
// `lsdae sweep model.fmu --scenarios t.csv|--grid|--monte-carlo|--contingencies ... [--metric ...]`
Runner add_sweep_command(CLI::App& app);
// `lsdae plot result.{csv,h5,mat} --vars GLOBS [--panels K] -o plot.svg`
Runner add_plot_command(CLI::App& app);
// `lsdae report result.{csv,h5,mat} [--stats s.json] [--vars GLOBS] -o report.html`
Runner add_report_command(CLI::App& app);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_COMMANDS_H
