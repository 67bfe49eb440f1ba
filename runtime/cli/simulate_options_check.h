// runtime/cli/simulate_options_check.h -- what `lsdae simulate` checks
// after parsing its options and before the run writes anything.
//
// Single values (a finite --stop, a positive --rtol, ...) are checked while
// parsing (the options table, run/options.h). The check here looks at the
// file system:
//
//   check_output_files   after the FMU is opened, before anything is loaded:
//     - `-o -` and `--stats -` together: both would go to standard output
//       (usage error);
//     - an output that is an input (common/output_clash.h, its identity
//       rule: another spelling, a symlink or a hard link counts): the FMU
//       itself or any file inside an unpacked FMU folder, which
//       lsdae never modifies; a system's .ssp/.ssd or a component's FMU
//       (run/model_files.h); the --input table (usage);
//     - -o and --stats naming the same file (usage);
//     - an output that cannot be created: its folder missing, not a folder
//       or not writable, or the path a folder or a file not writable
//       (Error(output), exit 9). Nothing is created or truncated here; the
//       files are opened once the run has initialised.
//
// The run length and where the rows go (check_run_length, plan_output) are
// the run layer's: run/output_plan.h.
#ifndef LSDAE_RUNTIME_CLI_SIMULATE_OPTIONS_CHECK_H
#define LSDAE_RUNTIME_CLI_SIMULATE_OPTIONS_CHECK_H

#include <string>
#include <vector>

#include "common/output_clash.h"

namespace lsdae::cli {

struct RunFiles {
  std::string fmu;         // the FMU as given (file or unpacked folder)
  std::string results;     // -o: a path, or "-" for standard output
  std::string statistics;  // --stats: a path, "-" for standard output, "" for none
  // What else the run reads: a system's component FMUs, the --input table.
  std::vector<files::ReadPath> inputs;
};

void check_output_files(const RunFiles& files);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_SIMULATE_OPTIONS_CHECK_H
