// tests/runtime/catalog.h -- the model FMUs built by models/ (build/fmus/catalog.tsv).
#ifndef LSDAE_TESTS_RUNTIME_CATALOG_H
#define LSDAE_TESTS_RUNTIME_CATALOG_H

#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace lsdae::test {

struct CatalogFmu {
  std::string name, unpacked_dir, fmu_path, identifier, reference;
  // What the runtime does not handle yet for this FMU (models/CMakeLists.txt,
  // PENDING; issue 32): tests that run FMUs to their end leave these out,
  // tests/models/corpus_run_test.cpp holds them to their expected failure.
  std::string pending;
};

inline std::vector<CatalogFmu> catalog() {
  std::vector<CatalogFmu> out;
  std::ifstream in(LSDAE_FMU_CATALOG);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    CatalogFmu f;
    std::getline(fields, f.name, '\t');
    std::getline(fields, f.unpacked_dir, '\t');
    std::getline(fields, f.fmu_path, '\t');
    std::getline(fields, f.identifier, '\t');
    std::getline(fields, f.reference, '\t');
    std::getline(fields, f.pending, '\t');
    out.push_back(f);
  }
  return out;
}

inline std::string fmu_path(const std::string& name) { return std::string(LSDAE_FMU_DIR) + "/" + name + ".fmu"; }

// A private copy of an unpacked model FMU whose modelDescription.xml can be edited.
class EditableFmu {
 public:
  EditableFmu(const std::string& name, const std::string& tag) {
    dir_ = std::filesystem::temp_directory_path() / ("lsdae-edit-" + tag + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::copy(std::string(LSDAE_FMU_DIR) + "/" + name, dir_, std::filesystem::copy_options::recursive);
  }
  ~EditableFmu() { std::filesystem::remove_all(dir_); }
  void replace_in_model_description(const std::string& from, const std::string& to) {
    std::ifstream in(dir_ / "modelDescription.xml");
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    auto at = text.find(from);
    if (at == std::string::npos) throw std::runtime_error("EditableFmu: text not found: " + from);
    text.replace(at, from.size(), to);
    std::ofstream(dir_ / "modelDescription.xml") << text;
  }
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
};

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_CATALOG_H
