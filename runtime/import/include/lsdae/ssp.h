// lsdae/ssp.h -- read a system of FMUs from an SSP 1.0 file (docs/ssp.md).
//
//   auto system = lsdae::read_system_description("drivetrain.ssp");
//   for (const auto& c : system.components) std::cout << c.name << ' ' << c.fmu << '\n';
//
// Accepts an `.ssp` archive (a zip with SystemStructure.ssd at its root and
// the FMUs it refers to, usually under resources/) and a bare `.ssd` file
// (FMU sources relative to its folder). An archive is unpacked with the
// protections of an FMU (runtime/import/archive.h: no absolute names, no
// `..`, no links, capped sizes) into a private temporary folder that the
// returned description owns (SystemDescription::storage): the FMU paths in it
// stay valid as long as a copy of the description lives, and the folder is
// removed after the last one.
//
// The SSP subset read, and what is refused, is listed in docs/ssp.md. In
// short: nested ssd:System elements are flattened (component names
// "sub.comp", root not named), connections through system connectors are
// resolved to the component connectors at both ends with their linear
// transformations composed, ssv parameter values (inline or from an .ssv
// file inside the package) become ComponentDescription::parameters, and the
// lsdae coupling annotation (type "org.lsdae.couplings") becomes Coupling
// entries. Every element keeps its origin ("SystemStructure.ssd:42").
//
// Errors: a missing or unreadable file is Error(usage); an unsafe or broken
// archive Error(archive); malformed XML Error(xml); an SSD that breaks an SSP
// rule or uses what lsdae does not support Error(invalid), listing every
// problem as "<file>:<line>: error: <what, with the value seen> → <what to do>".
#ifndef LSDAE_SSP_H
#define LSDAE_SSP_H

#include <filesystem>

#include "lsdae/diagnostics.h"
#include "lsdae/archive_limits.h"
#include "lsdae/system_description.h"

namespace lsdae {

struct SystemReadOptions {
  ArchiveLimits limits;               // for the .ssp archive; max_xml_bytes caps the .ssd and .ssv files
  std::filesystem::path temp_root;    // default: $TMPDIR, else /tmp
};

// Whether `path` names an SSP file by its extension (".ssp" or ".ssd", any case).
bool is_system_file(const std::filesystem::path& path);

// Reads the system; throws lsdae::Error (above) when the description has errors.
SystemDescription read_system_description(const std::filesystem::path& path, const SystemReadOptions& options = {});

// Reads the system and adds every finding (errors, warnings, notes) to
// `diagnostics` instead of throwing for SSD rule errors: what `lsdae validate`
// reports. Still throws for an unreadable file, archive or XML syntax error.
// The description is then incomplete where an error was found.
SystemDescription read_system_description(const std::filesystem::path& path, const SystemReadOptions& options,
                                          Diagnostics& diagnostics);

}  // namespace lsdae

#endif  // LSDAE_SSP_H
