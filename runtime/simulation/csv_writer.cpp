// runtime/simulation/csv_writer.cpp -- see csv_writer.h.
#include "simulation/csv_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <unordered_set>

#include "lsdae/error.h"

namespace lsdae::simulation {

bool glob_match(const std::string& pattern, const std::string& name) {
  // Iterative wildcard match with backtracking to the last '*'.
  std::size_t p = 0, s = 0, star = std::string::npos, mark = 0;
  while (s < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[s])) {
      ++p;
      ++s;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = s;
    } else if (star != std::string::npos) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<const Variable*> select_output_variables(const Fmu& fmu, const std::vector<std::string>& patterns,
                                                     bool all) {
  const ModelDescription& md = fmu.model_description();
  std::vector<const Variable*> out;
  if (all) {
    for (const auto& v : md.variables)
      if (v.type == VariableType::float64 && v.causality != Causality::independent && !v.is_array()) out.push_back(&v);
    return out;
  }
  if (patterns.empty()) {
    std::unordered_set<ValueReference> states(fmu.states().begin(), fmu.states().end());
    for (const auto& v : md.variables)
      if (v.type == VariableType::float64 && (v.causality == Causality::output || states.count(v.value_reference)))
        out.push_back(&v);
    return out;
  }
  std::unordered_set<const Variable*> taken;
  for (const auto& pattern : patterns) {
    bool matched = false;
    for (const auto& v : md.variables) {
      if (!glob_match(pattern, v.name)) continue;
      matched = true;
      if (v.type != VariableType::float64) continue;
      if (taken.insert(&v).second) out.push_back(&v);
    }
    if (!matched)
      throw Error(ErrorKind::usage, "--output-vars: \"" + pattern + "\" matches no variable of " +
                                        fmu.display_name() + " → `lsdae info` and the modelDescription list the names");
  }
  return out;
}

namespace {
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}
}  // namespace

CsvWriter::CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& names, int stdout_fd)
    : path_(path) {
  if (path == "-" && stdout_fd == STDOUT_FILENO) {
    file_ = stdout;
  } else if (path == "-") {
    const int fd = fcntl(stdout_fd, F_DUPFD_CLOEXEC, 3);
    file_ = fd >= 0 ? fdopen(fd, "w") : nullptr;
    owned_ = true;
    if (file_ == nullptr) {
      if (fd >= 0) close(fd);
      throw Error(ErrorKind::usage, std::string("results: cannot write to stdout: ") + std::strerror(errno));
    }
  } else {
    file_ = std::fopen(path.c_str(), "w");
    owned_ = true;
    if (file_ == nullptr)
      throw Error(ErrorKind::usage, "results: cannot create \"" + path.string() + "\": " + std::strerror(errno) +
                                        " → check the folder exists and is writable");
  }
  std::string header = "time";
  for (const auto& name : names) header += "," + csv_field(name);
  std::fprintf(file_, "%s\n", header.c_str());
  std::fflush(file_);
}

CsvWriter::~CsvWriter() {
  if (file_ != nullptr) {
    std::fflush(file_);
    if (owned_) std::fclose(file_);
  }
}

void CsvWriter::write_row(double time, std::span<const double> values) {
  std::fprintf(file_, "%.17g", time);
  for (double v : values) std::fprintf(file_, ",%.17g", v);
  std::fputc('\n', file_);
  if (std::fflush(file_) != 0)
    throw Error(ErrorKind::usage, "results: writing \"" + path_.string() + "\" failed: " + std::strerror(errno) +
                                      " → check free disk space");
  ++rows_;
}

}  // namespace lsdae::simulation
