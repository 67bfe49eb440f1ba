// runtime/fuzz/fuzz_archive.cpp -- libFuzzer target for the archive layer:
// lsdae::import::extract_archive (zip structure, member names, Unix modes,
// duplicates, declared and real sizes) into a fresh lsdae::import::TempDir.
//
// Each input is written as "<work>/input.fmu" and extracted into a new
// TempDir below "<work>/1/2/3/4/5/6/7/8/tmp" (so that a member escaping by up
// to eight ".." still lands inside <work>); the TempDir is then destroyed. <work> is a
// private folder made once per process below $TMPDIR (use a tmpfs such as
// /dev/shm: thousands of folders are made and removed per second).
// lsdae::Error(archive) is the documented refusal and is caught. A finding is
// anything else: a crash, a sanitizer report, an exception of another kind,
// a leak, a time-out, or -- checked after every input, with abort() -- a
// file or folder left anywhere in <work> except input.fmu and the folders of
// the chain (something written outside the extraction folder, or a temp
// folder that was not removed).
// The caps are lowered (64 members, 1 MiB per member, 4 MiB in all) so that
// one input cannot spend seconds inflating; the checks are the same.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "import/archive.h"
#include "import/temp_dir.h"
#include "lsdae/diagnostics.h"
#include "lsdae/error.h"

namespace {

namespace fs = std::filesystem;

fs::path g_work, g_input, g_tmp;

volatile std::size_t g_sink = 0;

// The first path in <work> that should not be there, or "" when all is clean.
std::string stray_path() {
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(g_work, ec); !ec && it != fs::recursive_directory_iterator();
       it.increment(ec)) {
    const fs::path& p = it->path();
    if (p == g_input) continue;
    if (it->is_directory(ec) && !it->is_symlink(ec) && g_tmp.string().rfind(p.string(), 0) == 0 &&
        (g_tmp.string().size() == p.string().size() || g_tmp.string()[p.string().size()] == '/'))
      continue;  // a folder of the chain down to tmp
    return p.string();
  }
  if (ec) return "(cannot list " + g_work.string() + ": " + ec.message() + ")";
  return {};
}

void cleanup_work() {
  std::error_code ec;
  fs::remove_all(g_work, ec);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* env = std::getenv("TMPDIR");
  std::string templ = std::string(env != nullptr && *env != '\0' ? env : "/tmp") + "/lsdae-fuzz-archive-XXXXXX";
  if (mkdtemp(templ.data()) == nullptr) {
    std::perror("fuzz_archive: mkdtemp");
    std::abort();
  }
  g_work = templ;
  g_input = g_work / "input.fmu";
  g_tmp = g_work / "1/2/3/4/5/6/7/8/tmp";
  fs::create_directories(g_tmp);
  std::atexit(cleanup_work);
  // The TempDir signal handlers would remove folders and re-raise; libFuzzer
  // handles the signals itself.
  lsdae::import::TempDir::set_signal_cleanup(false);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    FILE* out = std::fopen(g_input.c_str(), "wb");
    if (out == nullptr || std::fwrite(data, 1, size, out) != size || std::fclose(out) != 0) {
      std::perror("fuzz_archive: writing the input");
      std::abort();
    }
  }
  lsdae::ArchiveLimits limits;
  limits.max_entries = 64;
  limits.max_entry_bytes = 1u << 20;
  limits.max_total_bytes = 4u << 20;
  limits.ratio_check_bytes = 64u << 10;
  fs::path made;
  {
    lsdae::import::TempDir temp = lsdae::import::TempDir::create(g_tmp);
    made = temp.path();
    lsdae::Diagnostics diagnostics;
    try {
      lsdae::import::ExtractionReport report = lsdae::import::extract_archive(g_input, temp.path(), limits, &diagnostics);
      g_sink = report.entries + report.bytes + report.identical_duplicates.size();
    } catch (const lsdae::Error& e) {
      if (e.kind() != lsdae::ErrorKind::archive) {
        std::fprintf(stderr, "fuzz_archive: an error of another kind than archive: %s\n", e.what());
        std::abort();
      }
      g_sink = std::string(e.what()).size();
    }
    for (const auto& d : diagnostics.items()) g_sink = g_sink + d.format().size();
  }
  std::string stray = stray_path();
  if (!stray.empty()) {
    std::fprintf(stderr, "fuzz_archive: left behind after extracting into %s: %s\n", made.c_str(), stray.c_str());
    std::abort();
  }
  return 0;
}
