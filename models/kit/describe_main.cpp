// models/kit/describe_main.cpp -- the build-time describer linked into every
// model family: writes modelDescription.xml, the LS-DAE manifest and
// resources/lsdae_model.cfg of one FMU variant. Extra resource files
// (lsdae_add_fmu RESOURCES) are already in <DIR>/resources/ when it runs, and
// the model finds them through Config::resource_dir().
//
//   <family>_describe --identifier ID --out DIR [key=value ...]
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include "kit/description.h"
#include "kit/layout.h"
#include "kit/xml_writer.h"

namespace fs = std::filesystem;
using namespace lsdae::kit;

namespace {
void write_file(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw std::runtime_error("cannot write \"" + path.string() + "\"");
}
}  // namespace

int main(int argc, char** argv) {
  std::string identifier, out_dir;
  std::map<std::string, std::string> values;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--identifier" && i + 1 < argc) identifier = argv[++i];
    else if (arg == "--out" && i + 1 < argc) out_dir = argv[++i];
    else if (arg.find('=') != std::string::npos && arg[0] != '=') values[arg.substr(0, arg.find('='))] = arg.substr(arg.find('=') + 1);
    else {
      std::fprintf(stderr, "describe: unexpected argument \"%s\"; usage: --identifier ID --out DIR [key=value ...]\n",
                   arg.c_str());
      return 2;
    }
  }
  if (identifier.empty() || out_dir.empty()) {
    std::fprintf(stderr, "describe: --identifier and --out are required\n");
    return 2;
  }
  try {
    const fs::path out(out_dir);
    Config config(values);
    config.set_resource_dir((out / "resources").string());  // pack_fmu.cmake copied RESOURCES there
    auto model = make_model(config);
    const Description d = describe(*model, config);
    // FMI 2.0 files carry their layout variations already (the indices depend on them).
    write_file(out / "modelDescription.xml", d.fmi_version == 2
                                                 ? model_description_xml_fmi2(d, identifier)
                                                 : apply_layout_to_model_description(d, model_description_xml(d, identifier)));
    if (d.manifest != ManifestShape::none) write_file(out / kManifestPath, apply_layout_to_manifest(d, manifest_xml(d)));
    write_file(out / "resources" / kConfigFile, format_config(config));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "describe %s: %s\n", identifier.c_str(), e.what());
    return 1;
  }
  return 0;
}
