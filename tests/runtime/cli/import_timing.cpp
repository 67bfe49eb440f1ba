// tests/runtime/cli/import_timing.cpp -- how long importing an FMU takes:
// lsdae::Fmu::open as a whole (unpack + parse + validate), then its phases
// one by one through the internal API. Not a test; built on demand:
//
//   cmake --build build --target lsdae_import_timing
//   build/tests/runtime/cli/lsdae_import_timing [--repeat N] FMU...
//
// Prints, per FMU and phase, the best and the median of N runs (default 5)
// in milliseconds. docs/performance/import-and-grids.md records the figures.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "import/archive.h"
#include "import/manifest_parser.h"
#include "import/model_description_parser.h"
#include "import/temp_dir.h"
#include "import/validate.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"

namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs `body` `repeat` times; returns the sorted durations in milliseconds.
std::vector<double> measure(int repeat, const std::function<void()>& body) {
  std::vector<double> ms;
  for (int i = 0; i < repeat; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    body();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ms.begin(), ms.end());
  return ms;
}

void report(const char* phase, const std::vector<double>& ms) {
  std::printf("  %-34s best %8.2f ms   median %8.2f ms\n", phase, ms.front(), ms[ms.size() / 2]);
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 5;
  std::vector<fs::path> fmus;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) repeat = std::max(1, std::atoi(argv[++i]));
    else fmus.emplace_back(arg);
  }
  if (fmus.empty()) {
    std::fprintf(stderr, "usage: lsdae_import_timing [--repeat N] FMU...\n");
    return 2;
  }
  try {
    for (const auto& fmu : fmus) {
      std::printf("%s (%.2f MiB), %d runs\n", fmu.filename().c_str(),
                  static_cast<double>(fs::file_size(fmu)) / (1 << 20), repeat);
      report("Fmu::open (unpack+parse+validate)", measure(repeat, [&] { lsdae::Fmu::open(fmu); }));

      // The phases, on one extraction.
      auto temp = lsdae::import::TempDir::create();
      report("  unpack (TempDir + extract_archive)", measure(repeat, [&] {
               auto dir = lsdae::import::TempDir::create();
               lsdae::import::extract_archive(fmu, dir.path(), lsdae::ArchiveLimits{});
             }));
      lsdae::import::extract_archive(fmu, temp.path(), lsdae::ArchiveLimits{});
      std::string md_text = slurp(temp.path() / lsdae::import::kModelDescriptionFile);
      fs::path manifest_file = temp.path() / lsdae::import::kManifestFile;
      std::string manifest_text = fs::exists(manifest_file) ? slurp(manifest_file) : std::string();
      std::printf("  (modelDescription.xml %.2f MiB, manifest %.2f MiB)\n",
                  static_cast<double>(md_text.size()) / (1 << 20),
                  static_cast<double>(manifest_text.size()) / (1 << 20));
      lsdae::Diagnostics d;
      lsdae::ModelDescription md = lsdae::import::parse_model_description(md_text, d);
      report("  parse modelDescription.xml", measure(repeat, [&] {
               lsdae::Diagnostics scratch;
               lsdae::import::parse_model_description(md_text, scratch);
             }));
      lsdae::Manifest manifest;
      if (!manifest_text.empty()) {
        manifest = lsdae::import::parse_manifest(manifest_text, &md, d);
        report("  parse manifest", measure(repeat, [&] {
                 lsdae::Diagnostics scratch;
                 lsdae::import::parse_manifest(manifest_text, &md, scratch);
               }));
      }
      report("  validate", measure(repeat, [&] {
               lsdae::Diagnostics scratch;
               lsdae::import::validate(md, manifest, scratch);
             }));
    }
  } catch (const lsdae::Error& e) {
    std::fprintf(stderr, "lsdae_import_timing: %s\n", e.what());
    return 1;
  }
  return 0;
}
