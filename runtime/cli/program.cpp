// runtime/cli/program.cpp -- the `lsdae` command: subcommand dispatch, global
// options, and the mapping from lsdae::Error to exit codes (README.md). Its
// main() is the composition root's (compose/lsdae_main.cpp): it installs the
// models' plug-ins (the scenario sources `lsdae sweep` offers) and calls run().
#include <CLI/CLI.hpp>

#include <algorithm>
#include <csignal>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/usage_errors.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace {
std::vector<std::string> g_command_line;
}

const std::vector<std::string>& lsdae::cli::command_line() { return g_command_line; }

int lsdae::cli::run(int argc, char** argv, bool run_command) {
  g_command_line.assign(argv, argv + std::max(argc, 0));
  CLI::App app{"lsdae -- simulate large sparse DAE models delivered as FMI 3.0 Model Exchange FMUs "
               "(FMI-LS-DAE)",
               "lsdae"};
  app.set_version_flag("--version", std::string("lsdae ") + lsdae::cli::kLsdaeVersion);
  app.require_subcommand(1);
  bool verbose = false, debug = false;
  app.add_flag("-v,--verbose", verbose, "Show informational messages (and the FMU's log)");
  app.add_flag("--debug", debug, "Show debug messages");
  app.footer("Exit codes: 0 ok, 1 invalid FMU, 2 usage, 3 archive, 4 XML, 5 binary, 6 FMU call failed, "
             "7 solver, 8 structure, 9 output file, 10 FMU crashed, 11 timeout, 12 some sweep scenarios failed, "
             "13 FMU crashed after a complete run, 70 internal, 130 interrupted.\n"
             "`simulate` and `validate` run the FMU's binary in a supervised child process "
             "(--no-isolate: in lsdae's own).\nRun `lsdae <command> --help` for a command's options.");

  std::map<CLI::App*, lsdae::cli::Runner> runners;
  auto add = [&](lsdae::cli::Runner (*adder)(CLI::App&), const char* name, const char* description) {
    CLI::App* sub = app.add_subcommand(name, description);
    sub->fallthrough();  // -v/--debug after the command too: `lsdae simulate m.fmu -v`
    runners[sub] = adder(*sub);
  };
  add(lsdae::cli::add_info_command, "info", "Summarise an FMU: model, manifest shape, counts, capabilities");
  add(lsdae::cli::add_validate_command, "validate", "Check an FMU against FMI 3.0 and FMI-LS-DAE; load its binary");
  add(lsdae::cli::add_simulate_command, "simulate", "Simulate an FMU with IDA + KLU; write results CSV and statistics");
  add(lsdae::cli::add_sweep_command, "sweep",
      "Run many scenarios of an FMU (table, grid, Monte Carlo, contingencies); one summary row each");
  add(lsdae::cli::add_plot_command, "plot", "Plot variables of a result file (CSV, HDF5, MAT) over time as SVG");
  add(lsdae::cli::add_report_command, "report", "Write one self-contained HTML page about a run: plots, statistics, events");

  // A file-size limit (ulimit -f) reached while writing results is a write
  // error lsdae reports (exit 9, the file cut back to its last complete row),
  // not a silent death by SIGXFSZ.
  std::signal(SIGXFSZ, SIG_IGN);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    std::cerr << "lsdae: error: " << lsdae::cli::describe_usage_error(app, args, e) << '\n';
    return lsdae::exit_code(lsdae::ErrorKind::usage);
  } catch (const std::exception& e) {  // a flag's out-of-range value: see describe_flag_value_error
    const std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    std::cerr << "lsdae: error: " << lsdae::cli::describe_flag_value_error(app, args, e) << '\n';
    return lsdae::exit_code(lsdae::ErrorKind::usage);
  }
  if (debug) lsdae::Logger::instance().set_threshold(lsdae::LogLevel::debug);
  else if (verbose) lsdae::Logger::instance().set_threshold(lsdae::LogLevel::info);
  if (!run_command) return 0;

  try {
    for (auto& [sub, runner] : runners)
      if (sub->parsed()) return runner();
    return lsdae::exit_code(lsdae::ErrorKind::usage);
  } catch (const lsdae::Error& e) {
    std::cerr << "lsdae: error: " << e.what() << '\n';
    return lsdae::exit_code(e.kind());
  } catch (const std::exception& e) {
    std::cerr << "lsdae: internal error: " << e.what() << " → please report this with the FMU\n";
    return lsdae::exit_code(lsdae::ErrorKind::internal);
  }
}

