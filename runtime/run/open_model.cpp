// runtime/run/open_model.cpp -- see open_model.h.
#include "run/open_model.h"

#include <system_error>
#include <vector>

#include "import/temp_dir.h"
#include "lsdae/ssp.h"
#include "lsdae/system.h"

namespace lsdae::run {

OpenedModel open_model(const std::filesystem::path& path, const OpenOptions& options) {
  OpenedModel opened;
  std::error_code ec;
  if (is_system_file(path)) {
    SystemReadOptions read;
    read.limits = options.limits;
    read.temp_root = options.temp_root;
    const SystemDescription description = read_system_description(path, read);
    if (!description.unpacked_dir.empty()) opened.unpacked.push_back(description.unpacked_dir);
    auto system = System::create(description, options);
    for (std::size_t c = 0; c < system->component_count(); ++c) {
      const Fmu& component = system->component_fmu(c);
      if (!std::filesystem::is_directory(component.path(), ec)) opened.unpacked.push_back(component.unpacked_dir());
    }
    opened.model = std::move(system);
    return opened;
  }
  opened.fmu = Fmu::open(path, options);
  if (!std::filesystem::is_directory(opened.fmu->path(), ec)) opened.unpacked.push_back(opened.fmu->unpacked_dir());
  opened.model = opened.fmu;
  return opened;
}

void keep_until_exit(OpenedModel&& opened) {
  for (const auto& folder : opened.unpacked) import::remove_tree_signal_safe(folder.c_str());
  // Never destroyed (a static object would be at exit, freeing it all).
  static auto* const kept = new std::vector<OpenedModel>();
  kept->push_back(std::move(opened));
}

}  // namespace lsdae::run
