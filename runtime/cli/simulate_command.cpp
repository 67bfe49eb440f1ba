// runtime/cli/simulate_command.cpp -- `lsdae simulate model.fmu [options]`:
// integrate, stream the results to a file (CSV, HDF5 or MAT), write the run
// statistics as JSON. The command line's syntax only: the options of the
// options table (run/options.h, registered by table_options.h), the
// command's own (-o, --stats, --set, --input, --output-vars, --strict,
// isolation), then the model opened by the run layer (run/open_model.h) and
// the run in a supervised child (simulate_run.h).
//
// Nothing is written before the run has initialised: option values are
// checked while parsing (the table's checks), the output files before the
// binary is loaded (simulate_options_check.h) and the run length right after
// (run/output_plan.h), --set values by Simulation::set, the FMU's
// initialisation by Simulation::initialize. Only then are the result and
// statistics files created (or truncated), so a refused command line leaves
// an earlier result.csv as it was. A result or statistics file that cannot be
// written is exit code 9 (ErrorKind::output); the file keeps its complete rows
// (an HDF5 file those of its last flush). The format follows --format or the
// file's extension, checked with the output files before anything runs.
#include <CLI/CLI.hpp>

#include <chrono>
#include <memory>

#include "cli/commands.h"
#include "cli/isolation_option.h"
#include "cli/simulate_options_check.h"
#include "cli/simulate_run.h"
#include "cli/table_options.h"
#include "import/temp_dir.h"
#include "lsdae/supervise.h"
#include "run/model_files.h"
#include "run/open_model.h"

namespace lsdae::cli {

Runner add_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateRequest>();
  app.add_option("fmu", o->path, "The .fmu file (or an unpacked FMU folder), or a system of FMUs (.ssp, .ssd)")->required();
  app.add_option("-o,--output", o->output,
                 "Result file: .csv, .h5/.hdf5 (HDF5) or .mat (Dymola layout); '-' for CSV on stdout")
      ->capture_default_str();
  app.add_option("--stats", o->stats, "Write the run statistics as JSON to this file ('-' for stdout)");
  app.add_option("--set", o->sets,
                 "Set a parameter, input or start value: name=value, parsed for the variable's type (an array: "
                 "A=\"1 2 3\" or one element A[2]=5) (repeatable)");
  app.add_option("--input", o->input,
                 "Time-varying inputs from a CSV file: a time column, then one column per input (continuous inputs "
                 "interpolated linearly, discrete ones held; two rows at one time make a step)");
  app.add_option("--output-vars", o->output_vars,
                 "Variables to record: names, array elements (A[2,3]) or globs (* and ?), comma-separated "
                 "(commas inside [] belong to the name) (repeatable)");
  app.add_flag("!--no-progress", o->progress, "No progress bar on stderr");
  app.add_flag("--strict", o->strict,
               "Refuse an FMU that breaks any FMI rule `lsdae validate` reports as an error, also those "
               "simulation does not depend on (by default they are warnings)");
  // Every option of the options table: the simulation, where the rows go, the result file.
  auto table = std::make_shared<TableOptions>(app, run::category::all);
  add_isolation_options(app, o->isolation, "the simulation");
  return [o, table]() {
    // SIGINT, SIGTERM and SIGHUP are stop requests from here on: the run
    // stops at its next step and keeps everything; a second signal
    // (or a call that does not return within the grace period) stops the
    // process running the FMU at once. The extraction folder is removed by
    // the destructors on the way out, in every case.
    import::TempDir::set_signal_cleanup(false);
    StopSignals stop_signals;
    const auto wall_start = std::chrono::steady_clock::now();
    auto wall = [wall_start] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    };
    o->settings = table->settings("simulate ");
    // This process unpacks and reads the model (and owns the extraction
    // folders); the binary is loaded only inside the run below.
    OpenOptions open;
    open.strict = o->strict;
    run::OpenedModel opened = run::open_model(o->path, open);
    for (const auto& folder : opened.unpacked) StopSignals::remove_on_abort(folder);
    const std::shared_ptr<const Model>& model = opened.model;
    // What the run reads, which no output may name: the FMU (or the system
    // and its components' FMUs) and the --input table.
    std::vector<files::ReadPath> inputs = run::model_files(*model, o->path, "the FMU being simulated");
    inputs.erase(inputs.begin());  // the FMU itself: RunFiles::fmu
    if (!o->input.empty()) inputs.push_back({o->input, "the --input table"});
    check_output_files({o->path, o->output, o->stats, inputs});
    o->result_format = results::result_format_for(o->output, o->settings.results.format);
    auto body = [&](RunContext& ctx) { return simulate(ctx, *o, model, wall); };
    RunOutcome outcome = run_with_isolation(o->isolation, body, isolation_options(o->isolation, model->display_name()));
    const int code = finish_run(outcome, *o, model->display_name(), wall());
    // The process ends here: its folders removed, the model is not freed
    // object by object (run/open_model.h).
    run::keep_until_exit(std::move(opened));
    return code;
  };
}

}  // namespace lsdae::cli
