// runtime/import/ssp/ssp_reader.cpp -- lsdae::read_system_description
// (lsdae/ssp.h): an .ssp archive or a bare .ssd to a SystemDescription.
//
// An .ssp is unpacked like an FMU (extract_archive: the same member checks
// and limits) into a TempDir that the description's `storage` owns; its
// SystemStructure.ssd is read with sources confined to the package. A bare
// .ssd is read in place, sources relative to its folder.
#include <algorithm>
#include <cctype>
#include <fstream>
#include <memory>
#include <string>

#include "import/archive.h"
#include "import/ssp/ssd_reader.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/ssp.h"

namespace lsdae {

namespace {

std::string lower_extension(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

std::string read_capped(const std::filesystem::path& file, const std::string& label, std::uint64_t max_bytes,
                        ErrorKind kind) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (ec) throw Error(kind, label + ": cannot be read (" + ec.message() + ") → check the path");
  if (size > max_bytes)
    throw Error(kind, label + " is " + std::to_string(size) + " bytes, more than the limit of " +
                          std::to_string(max_bytes) + " → if genuine, raise ArchiveLimits::max_xml_bytes");
  std::ifstream in(file, std::ios::binary);
  std::string text(static_cast<std::size_t>(size), '\0');
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (!in) throw Error(kind, label + ": read failed → check the file");
  return text;
}

}  // namespace

bool is_system_file(const std::filesystem::path& path) {
  const std::string ext = lower_extension(path);
  return ext == ".ssp" || ext == ".ssd";
}

SystemDescription read_system_description(const std::filesystem::path& path, const SystemReadOptions& options,
                                          Diagnostics& diagnostics) {
  const std::string name = path.filename().string();
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(ErrorKind::usage, path.string() + ": is a folder, not an .ssp or .ssd file → give the file");
  if (!std::filesystem::exists(path, ec))
    throw Error(ErrorKind::usage, path.string() + ": no such file → check the path");
  import::SsdContext context;
  context.max_ssv_bytes = options.limits.max_xml_bytes;
  std::shared_ptr<import::TempDir> temp;
  std::string text;
  if (lower_extension(path) == ".ssd") {
    context.file = name;
    context.base = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
    context.confined = false;
    text = read_capped(path, path.string(), options.limits.max_xml_bytes, ErrorKind::usage);
  } else {
    temp = std::make_shared<import::TempDir>(import::TempDir::create(options.temp_root));
    try {
      import::extract_archive(path, temp->path(), options.limits, &diagnostics);
    } catch (const Error& e) {
      const std::string what = e.what();
      throw Error(e.kind(), what.rfind(name, 0) == 0 ? what : name + ": " + what);
    }
    const auto ssd = temp->path() / "SystemStructure.ssd";
    if (!std::filesystem::is_regular_file(ssd, ec))
      throw Error(ErrorKind::archive, name + ": SystemStructure.ssd is missing at the root of the archive → an .ssp "
                                             "holds its default system as SystemStructure.ssd (zip the files, not "
                                             "their folder)");
    context.file = "SystemStructure.ssd";
    context.base = temp->path();
    context.confined = true;
    text = read_capped(ssd, name + ": SystemStructure.ssd", options.limits.max_xml_bytes, ErrorKind::archive);
  }
  SystemDescription description;
  try {
    description = import::parse_ssd(text, context, diagnostics);
  } catch (const Error& e) {
    throw Error(e.kind(), name + ": " + e.what());
  }
  description.source = path;
  description.storage = temp;
  if (temp) description.unpacked_dir = temp->path();
  return description;
}

SystemDescription read_system_description(const std::filesystem::path& path, const SystemReadOptions& options) {
  Diagnostics diagnostics;
  SystemDescription description = read_system_description(path, options, diagnostics);
  if (diagnostics.has_errors() || diagnostics.has_conformance_errors()) {
    const std::string name = path.filename().string();
    std::string message = name + ": the system description has " +
                          std::to_string(diagnostics.validation_errors()) + " error(s):";
    for (const auto& d : diagnostics.items())
      if (d.severity == Severity::error || d.severity == Severity::conformance) message += "\n  " + d.format();
    throw Error(ErrorKind::invalid, message);
  }
  return description;
}

}  // namespace lsdae
