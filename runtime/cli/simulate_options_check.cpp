// runtime/cli/simulate_options_check.cpp -- see simulate_options_check.h.
#include "cli/simulate_options_check.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>
#include <vector>

#include "lsdae/error.h"

namespace lsdae::cli {

namespace {

namespace fs = std::filesystem;

struct Output {
  std::string option;  // "-o", "--stats"
  std::string path;
};

std::optional<struct stat> stat_of(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return st;
}

[[noreturn]] void cannot_write(const Output& out, const std::string& what, const std::string& todo) {
  throw Error(ErrorKind::output,
              "simulate " + out.option + " \"" + out.path + "\": " + what + " → " + todo + " (nothing was run)");
}

bool writable(const std::string& path, int mode) { return ::faccessat(AT_FDCWD, path.c_str(), mode, AT_EACCESS) == 0; }

void check_can_create(const Output& out) {
  if (auto st = stat_of(out.path)) {
    if (S_ISDIR(st->st_mode)) cannot_write(out, "is a folder", "give a file name, e.g. " + out.path + "/result.csv");
    if (!writable(out.path, W_OK))
      cannot_write(out, std::string("cannot be written: ") + std::strerror(errno),
                   "check its permissions, or choose another file");
    return;
  }
  if (errno != ENOENT && errno != ENOTDIR)
    cannot_write(out, std::string("cannot be used: ") + std::strerror(errno), "check the path");
  // A new file: its folder must exist and take new files.
  // Built, not assigned: GCC 12 at -O2 reported a false -Wrestrict (GCC bug
  // 105329) for `folder = "."` on a string that might hold the parent.
  const fs::path parent = fs::path(out.path).parent_path();
  const std::string folder = parent.empty() ? std::string(".") : parent.string();
  auto st = stat_of(folder);
  if (!st) cannot_write(out, "the folder \"" + folder + "\" does not exist", "create it first, or choose another path");
  if (!S_ISDIR(st->st_mode)) cannot_write(out, "\"" + folder + "\" is not a folder", "check the path");
  if (!writable(folder, W_OK | X_OK))
    cannot_write(out, "cannot create a file in \"" + folder + "\": " + std::strerror(errno),
                 "choose a folder you can write to");
}

}  // namespace

void check_output_files(const RunFiles& files) {
  if (files.results == "-" && files.statistics == "-")
    throw Error(ErrorKind::usage, "simulate: -o - and --stats - both write to standard output → send one of them to a "
                                  "file, e.g. --stats stats.json");
  std::vector<Output> outputs;
  if (files.results != "-") outputs.push_back({"-o", files.results});
  if (!files.statistics.empty() && files.statistics != "-") outputs.push_back({"--stats", files.statistics});

  // No output is an input, and -o and --stats differ (common/output_clash.h).
  std::vector<files::WritePath> writes;
  for (const Output& out : outputs)
    writes.push_back({"simulate " + out.option, out.path, out.option + (out.option == "-o" ? " result.csv" : " stats.json")});
  std::vector<files::ReadPath> reads{{files.fmu, "the FMU being simulated"}};
  reads.insert(reads.end(), files.inputs.begin(), files.inputs.end());
  if (const std::string clash = files::output_over_input(writes, reads); !clash.empty())
    throw Error(ErrorKind::usage, clash);
  if (files::same_output(writes))
    throw Error(ErrorKind::usage, "simulate: -o and --stats both name \"" + outputs[1].path +
                                      "\" → give the results and the statistics different files");
  for (const Output& out : outputs) check_can_create(out);
}

}  // namespace lsdae::cli
