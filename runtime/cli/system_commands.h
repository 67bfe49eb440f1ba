// runtime/cli/system_commands.h -- `lsdae info` and `lsdae validate` for a
// system of FMUs (an .ssp archive or a bare .ssd; docs/ssp.md).
//
// info: the system as read (components with their FMU, FMI version and model
// name, connections with their transformation, couplings, parameter values,
// the default experiment), as text or JSON. A component whose FMU cannot be
// opened is shown with the reason, and the exit code is that failure's.
// validate: the SSD's own findings, every component FMU validated as
// `lsdae validate` does (and, unless --no-load, its binary loaded and one
// instance created in a supervised child), then the checks that need the
// model descriptions (runtime/import/ssp/system_checks.h). Exit 0 when
// nothing is in error, 1 (invalid) otherwise; an unreadable .ssp/.ssd keeps
// its own code (2 usage, 3 archive, 4 xml).
#ifndef LSDAE_RUNTIME_CLI_SYSTEM_COMMANDS_H
#define LSDAE_RUNTIME_CLI_SYSTEM_COMMANDS_H

#include <cstdint>
#include <string>

#include "cli/isolation_option.h"

namespace lsdae::cli {

int info_system(const std::string& path, bool json, std::uint64_t max_unpacked_size);
int validate_system(const std::string& path, bool json, bool quiet, bool no_load, std::uint64_t max_unpacked_size,
                    const IsolationFlags& isolation);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_SYSTEM_COMMANDS_H
