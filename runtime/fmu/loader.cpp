// runtime/fmu/loader.cpp -- see loader.h.
#include "fmu/loader.h"

#include "fmu/fmi2/library.h"
#include "fmu/fmi3/library.h"

namespace lsdae {

std::string platform_folder(FmiVersion version) {
  // FMI 2.0 names the platform <os><bits> (section 2.3: "linux64"); FMI 3.0 a
  // <arch>-<os> tuple. 2.0 has no name for 64-bit ARM: exporters use the 3.0 one.
  if (version == FmiVersion::fmi2) {
#if defined(__x86_64__) && defined(__linux__)
    return "linux64";
#endif
  }
  return platform_tuple();
}

std::filesystem::path binary_path(const ModelDescription& md, const std::filesystem::path& unpacked_dir) {
  const std::string id = md.model_exchange ? md.model_exchange->model_identifier : std::string();
  return unpacked_dir / "binaries" / platform_folder(md.fmi_major) / (id + ".so");
}

std::shared_ptr<FmuBinary> load_fmu_binary(const ModelDescription& md, const std::filesystem::path& unpacked_dir,
                                           const std::string& fmu_name) {
  const auto path = binary_path(md, unpacked_dir);
  if (md.fmi_major == FmiVersion::fmi2) return std::make_shared<Fmi2Library>(path, fmu_name);
  return std::make_shared<Fmi3Library>(path, fmu_name);
}

}  // namespace lsdae
