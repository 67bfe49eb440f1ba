// runtime/fmu/loader.h -- loads an FMU's binary with the interface of its
// FMI version: the one place that chooses between FMI 2.0 and FMI 3.0.
//
// load_fmu_binary() reads the FMI version from the model description and loads
// binaries/<platform>/<modelIdentifier>.so through fmi3/library.h (platform
// "x86_64-linux") or fmi2/library.h (FMI 2.0's "linux64"). The returned
// object (binary.h) makes instances of the matching implementation. Errors:
// Error(binary) naming the missing file, the dlopen message, a missing
// required function or a GetVersion that does not match.
#ifndef LSDAE_RUNTIME_FMU_LOADER_H
#define LSDAE_RUNTIME_FMU_LOADER_H

#include <filesystem>
#include <memory>
#include <string>

#include "fmu/binary.h"
#include "lsdae/model_description.h"

namespace lsdae {

// "x86_64-linux" (FMI 3.0) / "linux64" (FMI 2.0): the binaries/ folder of this platform.
std::string platform_folder(FmiVersion version);
// <unpacked>/binaries/<platform_folder>/<modelIdentifier>.so
std::filesystem::path binary_path(const ModelDescription& md, const std::filesystem::path& unpacked_dir);
// Loads the binary of `md`'s FMI version; `fmu_name` prefixes messages.
std::shared_ptr<FmuBinary> load_fmu_binary(const ModelDescription& md, const std::filesystem::path& unpacked_dir,
                                           const std::string& fmu_name);

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_LOADER_H
