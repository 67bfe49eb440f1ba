// runtime/common/output_clash.h -- no command writes over its own input, and
// no two outputs of one command share a file.
//
// Every writer of lsdae checks its outputs with this before it writes
// anything (`lsdae simulate`, `sweep`, `plot`, `report`, lsdae_run,
// Python's run(result_file=...), `lsdae-grid`, `lsdae_grid_data`). A
// careless command line -- the summary named like the sweep's table, a
// plot's -o a symlink to the result it plots -- used to replace the input
// with the output and exit 0.
//
// The identity rule (same_file): two paths name one file when
//   - both exist and are the same file (device and inode as stat(2) gives
//     them after following links, so a symlink or a hard link counts), or
//   - their normal forms are equal: absolute, links resolved as far as the
//     path exists, then "." and ".." removed lexically
//     (std::filesystem::weakly_canonical), so ./x, a/../x and x agree also
//     for a file not yet written.
// An input that is a folder (an unpacked FMU) is never modified: any output
// inside it clashes, an existing file or a new one (allowed once, the same
// command would be refused the next time, the file then being there).
//
// Cost: an lstat(2) and a stat(2) per output and input, and the normal form
// of each folder once (a few stat calls); the pairs are then compared in
// memory, the outputs among themselves through a map: O(m n + n log n)
// comparisons for m inputs and n outputs (a sweep's --results-dir: one output
// per scenario: 3190 in 15 ms, 100 000 in half a second, both checks). Header-only, standard library and POSIX stat only, so the tools
// outside the runtime library (models/) include it too.
//
// Contract: the functions never throw and never create, open or modify a
// file; they return the message (empty: no clash) for the caller to throw or
// print as a usage error (exit 2), prefixed by its command. The messages:
//   OPTION "PATH": this is WHAT; writing there would destroy it → choose another file name, e.g. EXAMPLE
//   OPTION "PATH": this lies inside FOLDER_WHAT "DIR", which lsdae reads but never modifies → write outside that folder
// and for two outputs the caller's own (same_output gives the pair).
#ifndef LSDAE_RUNTIME_COMMON_OUTPUT_CLASH_H
#define LSDAE_RUNTIME_COMMON_OUTPUT_CLASH_H

#include <sys/stat.h>

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

namespace lsdae::files {

// A file or folder the command reads.
struct ReadPath {
  std::string path;  // as given
  std::string what;  // after "this is": "the FMU being simulated", "the --scenarios table"
  std::string folder_what = "the unpacked FMU";  // when `path` is a folder: "lies inside ..."
};

// A file the command writes. "-" (standard output) and "" (none) are skipped.
struct WritePath {
  std::string option;   // "-o", "--summary"
  std::string path;     // as given
  std::string example;  // the proposed fix, "-o result.csv"
};

// The normal form of the identity rule: absolute, links resolved as far as
// the path exists, "." and ".." removed.
inline std::filesystem::path normal_form(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path absolute = std::filesystem::absolute(path, ec);
  if (ec) return std::filesystem::path(path).lexically_normal();
  // Absolute first: weakly_canonical leaves a relative path whose first part
  // does not exist as it is ("x.csv", but "/cwd/x.csv" for "./x.csv").
  std::filesystem::path p = std::filesystem::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : p;
}

namespace detail {

struct Known {
  std::filesystem::path normal;
  bool exists = false, folder = false;
  dev_t device = 0;
  ino_t inode = 0;
};

// Knows paths, the normal form of each folder computed once: a sweep's
// --results-dir gives thousands of outputs in one folder (3190 for an N-1
// sweep of ACTIVSg2000), each then one lstat and one stat.
class Knower {
 public:
  Known operator()(const std::string& path) {
    Known k;
    const std::filesystem::path p(path), name = p.filename();
    struct stat st {};
    const bool link = ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
    if (link || name.empty() || name == "." || name == "..") {
      k.normal = normal_form(path);
    } else {  // weakly_canonical(folder / name) is weakly_canonical(folder) / name for a name that is no link
      const std::filesystem::path folder = p.parent_path();
      auto it = folders_.find(folder);
      if (it == folders_.end()) it = folders_.emplace(folder, normal_form(folder.empty() ? "." : folder.string())).first;
      k.normal = it->second / name;
    }
    if (::stat(path.c_str(), &st) == 0) {
      k.exists = true;
      k.folder = S_ISDIR(st.st_mode);
      k.device = st.st_dev;
      k.inode = st.st_ino;
    }
    return k;
  }

 private:
  std::map<std::filesystem::path, std::filesystem::path> folders_;
};

// The identity rule on two known paths: the same existing file (device and
// inode after following links), or the same normal form.
inline bool identical(const Known& a, const Known& b) {
  return (a.exists && b.exists && a.device == b.device && a.inode == b.inode) || a.normal == b.normal;
}

inline bool skipped(const WritePath& w) { return w.path.empty() || w.path == "-"; }

// `file` lies under `folder` (both normal forms): a proper prefix by components.
inline bool under(const std::filesystem::path& file, const std::filesystem::path& folder) {
  auto fi = file.begin();
  for (auto di = folder.begin(); di != folder.end(); ++di, ++fi)
    if (fi == file.end() || *fi != *di) return false;
  return fi != file.end();
}

}  // namespace detail

// Whether two paths name one file (the identity rule above; the one the
// checks below apply).
inline bool same_file(const std::string& a, const std::string& b) {
  detail::Knower know;
  return detail::identical(know(a), know(b));
}

// The message for the first output that would write over an input (or
// anywhere inside an input folder); "" when none does.
inline std::string output_over_input(const std::vector<WritePath>& outputs, const std::vector<ReadPath>& inputs) {
  detail::Knower know;
  std::vector<detail::Known> read;
  read.reserve(inputs.size());
  for (const ReadPath& r : inputs) read.push_back(r.path.empty() ? detail::Known{} : know(r.path));
  for (const WritePath& w : outputs) {
    if (detail::skipped(w)) continue;
    const detail::Known out = know(w.path);
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const detail::Known& in = read[i];
      if (inputs[i].path.empty()) continue;
      if (detail::identical(out, in))
        return w.option + " \"" + w.path + "\": this is " + inputs[i].what +
               "; writing there would destroy it → choose another file name, e.g. " + w.example;
      if (in.folder && !out.folder && detail::under(out.normal, in.normal))
        return w.option + " \"" + w.path + "\": this lies inside " + inputs[i].folder_what + " \"" +
               inputs[i].path + "\", which lsdae reads but never modifies → write outside that folder";
    }
  }
  return {};
}

// The first two outputs that name one file (by the identity rule), as
// indices into `outputs` (first < second); nullopt when all differ.
inline std::optional<std::pair<std::size_t, std::size_t>> same_output(const std::vector<WritePath>& outputs) {
  std::map<std::filesystem::path, std::size_t> by_name;
  std::map<std::pair<dev_t, ino_t>, std::size_t> by_identity;
  detail::Knower know;
  for (std::size_t k = 0; k < outputs.size(); ++k) {
    if (detail::skipped(outputs[k])) continue;
    const detail::Known out = know(outputs[k].path);
    if (auto [it, fresh] = by_name.emplace(out.normal, k); !fresh) return std::pair{it->second, k};
    if (out.exists)
      if (auto [it, fresh] = by_identity.emplace(std::pair{out.device, out.inode}, k); !fresh) return std::pair{it->second, k};
  }
  return std::nullopt;
}

}  // namespace lsdae::files

#endif  // LSDAE_RUNTIME_COMMON_OUTPUT_CLASH_H
