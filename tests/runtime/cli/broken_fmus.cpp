// tests/runtime/cli/broken_fmus.cpp -- see broken_fmus.h.
#include "broken_fmus.h"

#include <sys/stat.h>
#include <zip.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

namespace lsdae::test {

namespace fs = std::filesystem;

FmuImage FmuImage::from_directory(const fs::path& dir) {
  FmuImage image;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    ZipMember m;
    m.name = fs::relative(entry.path(), dir).generic_string();
    m.data = read_file(entry.path());
    m.executable = (entry.status().permissions() & fs::perms::owner_exec) != fs::perms::none;
    // Shared libraries barely compress and are the bulk of an FMU: storing them
    // keeps writing (and the CLI's extraction) fast.
    m.store = m.name.rfind("binaries/", 0) == 0;
    image.members.push_back(std::move(m));
  }
  std::sort(image.members.begin(), image.members.end(),
            [](const ZipMember& a, const ZipMember& b) { return a.name < b.name; });
  if (image.members.empty()) throw std::runtime_error("FmuImage: no files below " + dir.string());
  return image;
}

bool FmuImage::has(std::string_view name) const {
  return std::any_of(members.begin(), members.end(), [&](const ZipMember& m) { return m.name == name; });
}

std::string& FmuImage::data(std::string_view name) {
  for (auto& m : members)
    if (m.name == name) return m.data;
  throw std::runtime_error("FmuImage: no member \"" + std::string(name) + "\"");
}

FmuImage& FmuImage::replace(std::string_view name, std::string_view from, std::string_view to) {
  std::string& text = data(name);
  std::size_t at = text.find(from);
  if (at == std::string::npos)
    throw std::runtime_error("FmuImage: \"" + std::string(from) + "\" not found in " + std::string(name));
  text.replace(at, from.size(), to);
  return *this;
}

std::size_t FmuImage::replace_all(std::string_view name, std::string_view from, std::string_view to) {
  std::string& text = data(name);
  std::size_t count = 0;
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
    ++count;
  }
  if (count == 0)
    throw std::runtime_error("FmuImage: \"" + std::string(from) + "\" not found in " + std::string(name));
  return count;
}

FmuImage& FmuImage::put(const std::string& name, std::string bytes, bool executable) {
  for (auto& m : members)
    if (m.name == name) {
      m.data = std::move(bytes);
      m.executable = executable;
      return *this;
    }
  ZipMember m;
  m.name = name;
  m.data = std::move(bytes);
  m.executable = executable;
  members.push_back(std::move(m));
  return *this;
}

FmuImage& FmuImage::add(ZipMember member) {
  members.push_back(std::move(member));
  return *this;
}

FmuImage& FmuImage::remove(std::string_view name) {
  auto it = std::find_if(members.begin(), members.end(), [&](const ZipMember& m) { return m.name == name; });
  if (it == members.end()) throw std::runtime_error("FmuImage: cannot remove \"" + std::string(name) + "\"");
  members.erase(it);
  return *this;
}

FmuImage& FmuImage::nest_under(const std::string& folder) {
  for (auto& m : members) m.name = folder + "/" + m.name;
  return *this;
}

void FmuImage::write(const fs::path& zip_file) const {
  int error = 0;
  zip_t* zip = zip_open(zip_file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  if (zip == nullptr) throw std::runtime_error("FmuImage::write: cannot create " + zip_file.string());
  auto fail = [&](const std::string& what) {
    std::string message = "FmuImage::write: " + what + ": " + zip_strerror(zip);
    zip_discard(zip);
    throw std::runtime_error(message);
  };
  for (const auto& m : members) {
    zip_int64_t index = -1;
    mode_t mode = 0;
    if (m.kind == ZipMember::Kind::directory) {
      index = zip_dir_add(zip, m.name.c_str(), 0);
      mode = S_IFDIR | 0755;
    } else {
      // libzip reads the buffer at zip_close: hand it a heap copy it frees itself.
      // (An empty member gets no buffer: libzip does not free a zero-length one.)
      void* bytes = nullptr;
      if (!m.data.empty()) {
        bytes = std::malloc(m.data.size());
        if (bytes == nullptr) fail("out of memory");
        std::memcpy(bytes, m.data.data(), m.data.size());
      }
      zip_source_t* source = zip_source_buffer(zip, bytes, m.data.size(), bytes != nullptr ? 1 : 0);
      if (source == nullptr) {
        std::free(bytes);
        fail("zip_source_buffer for \"" + m.name + "\"");
      }
      index = zip_file_add(zip, m.name.c_str(), source, 0);
      if (index < 0) {
        zip_source_free(source);
        fail("cannot add \"" + m.name + "\"");
      }
      if (m.store && zip_set_file_compression(zip, static_cast<zip_uint64_t>(index), ZIP_CM_STORE, 0) != 0)
        fail("cannot store \"" + m.name + "\"");
      mode = m.kind == ZipMember::Kind::symlink ? (S_IFLNK | 0777) : (S_IFREG | (m.executable ? 0755 : 0644));
    }
    if (index < 0) fail("cannot add \"" + m.name + "\"");
    if (zip_file_set_external_attributes(zip, static_cast<zip_uint64_t>(index), 0, ZIP_OPSYS_UNIX,
                                         static_cast<zip_uint32_t>(mode) << 16) != 0)
      fail("cannot set the mode of \"" + m.name + "\"");
  }
  if (zip_close(zip) != 0) fail("cannot write " + zip_file.string());
}

std::string binary_member(const std::string& id) { return "binaries/x86_64-linux/" + id + ".so"; }

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("read_file: cannot open " + file.string());
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_file(const fs::path& file, std::string_view data) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) throw std::runtime_error("write_file: cannot write " + file.string());
}

void truncate_file(const fs::path& file, std::uintmax_t bytes) {
  if (bytes >= fs::file_size(file)) throw std::runtime_error("truncate_file: " + file.string() + " is not longer");
  fs::resize_file(file, bytes);
}

std::string random_bytes(std::size_t bytes, std::uint32_t seed) {
  std::mt19937 generator(seed);
  std::string out(bytes, '\0');
  for (char& c : out) c = static_cast<char>(generator() & 0xffu);
  return out;
}

const char* const kFaultyOdeDescription = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Faulty" instantiationToken="{faulty-c-fmu-1}"
  generationTool="hand-written C (lsdae tests)">
  <ModelExchange modelIdentifier="Faulty"/>
  <DefaultExperiment startTime="0" stopTime="1" stepSize="0.1"/>
  <ModelVariables>
    <Float64 name="k" valueReference="42" causality="parameter" variability="fixed" start="1"/>
    <Float64 name="x" valueReference="17" causality="local" variability="continuous" initial="exact" start="1"/>
    <Float64 name="der(x)" valueReference="18" causality="local" variability="continuous" derivative="17"/>
    <Float64 name="y" valueReference="30" causality="output" variability="continuous"/>
    <Float64 name="time" valueReference="9000" causality="independent" variability="continuous"/>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="30" dependencies="17"/>
    <ContinuousStateDerivative valueReference="18" dependencies="17"/>
    <InitialUnknown valueReference="30" dependencies="17"/>
    <InitialUnknown valueReference="18" dependencies="17"/>
  </ModelStructure>
</fmiModelDescription>
)xml";

}  // namespace lsdae::test
