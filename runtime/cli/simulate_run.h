// runtime/cli/simulate_run.h -- what `lsdae simulate` does once its command
// line is read (simulate_command.cpp registers the options): the run in the
// supervised child (or in this process with --no-isolate) through the run
// layer's run_to_files (run/run_to_files.h), and the report when it ends.
#ifndef LSDAE_RUNTIME_CLI_SIMULATE_RUN_H
#define LSDAE_RUNTIME_CLI_SIMULATE_RUN_H

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/isolation_option.h"
#include "lsdae/model.h"
#include "lsdae/supervise.h"
#include "results/result_writer.h"
#include "run/options.h"

namespace lsdae::cli {

// The command line of `lsdae simulate`: its own syntax (files, --set,
// --input, variables, progress, isolation) and the options table's settings.
struct SimulateRequest {
  std::string path;
  std::string output = "result.csv";
  std::string stats;
  std::vector<std::string> sets, output_vars;
  std::string input;
  bool progress = true;
  bool strict = false;
  IsolationFlags isolation;
  run::RunSettings settings;
  results::ResultFormat result_format = results::ResultFormat::csv;
};

// In the child: creates the Simulation, applies --set and --input, runs it to
// the files, prints the summary. 0, or 130 when a stop signal ended it;
// lsdae::Error for a failure (with where it stopped and the rows kept).
int simulate(RunContext& ctx, const SimulateRequest& request, const std::shared_ptr<const Model>& model,
             const std::function<double()>& wall);

// After the run: the child's own report when it ended by itself; otherwise
// (a crash, a watchdog, a signal that had to stop it) the message, the rows
// kept, the statistics and a result file that ends at its last complete row.
int finish_run(const RunOutcome& outcome, const SimulateRequest& request, const std::string& model_name, double wall);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_SIMULATE_RUN_H
