// runtime/fmi/binary.h -- an FMU's loaded shared library, whatever its FMI
// version: the one place that chooses between the FMI 2.0 and FMI 3.0
// binary interfaces.
//
// load_fmu_binary() reads the FMI version from the model description and loads
// binaries/<platform>/<modelIdentifier>.so through runtime/fmi3/library.h
// (platform "x86_64-linux") or runtime/fmi2/library.h (FMI 2.0's "linux64").
// The returned object makes instances of the matching lsdae::Instance
// implementation; Fmu keeps it alive as long as any instance (dlclose on
// release). Errors: Error(binary) naming the missing file, the dlopen
// message, a missing required function or a GetVersion that does not match.
#ifndef LSDAE_RUNTIME_FMI_BINARY_H
#define LSDAE_RUNTIME_FMI_BINARY_H

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/model_description.h"

namespace lsdae {

class Fmu;

class FmuBinary {
 public:
  virtual ~FmuBinary() = default;
  // A new instance of this binary's FMI version (its constructor calls the
  // FMU's instantiate function). Error(fmu_call) when the FMU refuses.
  virtual std::unique_ptr<Instance> instantiate(std::shared_ptr<const Fmu> fmu, const std::string& name) const = 0;
  // Whether the binary exports the directional-derivative function.
  virtual bool exports_directional_derivative() const = 0;
  // FMI 3.0: Configuration Mode and SetBoolean, needed for the DAE switch.
  virtual bool can_set_dae_switch() const = 0;
  // Optional functions the binary does not export (for a debug log line).
  virtual const std::vector<std::string>& missing_optional_functions() const = 0;
  // Warnings about declared capabilities the binary cannot honour, e.g.
  // "providesConstraints=\"true\" but ... fmi2Constraint is missing".
  virtual std::vector<std::string> capability_warnings(const ModelDescription&) const { return {}; }
};

// "x86_64-linux" (FMI 3.0) / "linux64" (FMI 2.0): the binaries/ folder of this platform.
std::string platform_folder(FmiVersion version);
// <unpacked>/binaries/<platform_folder>/<modelIdentifier>.so
std::filesystem::path binary_path(const ModelDescription& md, const std::filesystem::path& unpacked_dir);
// Loads the binary of `md`'s FMI version; `fmu_name` prefixes messages.
std::shared_ptr<FmuBinary> load_fmu_binary(const ModelDescription& md, const std::filesystem::path& unpacked_dir,
                                           const std::string& fmu_name);

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMI_BINARY_H
