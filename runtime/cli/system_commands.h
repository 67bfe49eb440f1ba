// runtime/cli/system_commands.h -- `lsdae info` and `lsdae validate` for a
// system of FMUs (an .ssp archive or a bare .ssd; docs/ssp.md).
//
// info: the system as read (components with their FMU, FMI version and model
// name, connections with their transformation, couplings, parameter values,
// the default experiment), as text or JSON. A component whose FMU cannot be
// opened is shown with the reason, and the exit code is that failure's.
// With --structure (`structure` given): the structural analysis of the
// composed DAE (structure/report.h), after the system as read -- a "Structure"
// section, or the key "structure" of the JSON -- and `note` under it.
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
#include "lsdae/system.h"
#include "structure/report.h"

namespace lsdae::cli {

int info_system(const std::string& path, bool json, std::uint64_t max_unpacked_size,
                const structure::StructureReport* structure = nullptr, const std::string& note = "");
// The system of `path` opened and composed, as `lsdae simulate` opens it.
std::shared_ptr<System> open_system(const std::string& path, std::uint64_t max_unpacked_size);
int validate_system(const std::string& path, bool json, bool quiet, bool no_load, std::uint64_t max_unpacked_size,
                    const IsolationFlags& isolation);

}  // namespace lsdae::cli

#endif  // LSDAE_RUNTIME_CLI_SYSTEM_COMMANDS_H
