// runtime/simulation/csv_writer.cpp -- see csv_writer.h.
#include "simulation/csv_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>

#include "lsdae/error.h"

namespace lsdae::simulation {

namespace {
// A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line
// break, or always (`always`: String values, so that "1" stays text).
std::string csv_field(const std::string& text, bool always = false) {
  if (!always && text.find_first_of(",\"\n\r") == std::string::npos) return text;
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

namespace {
void append_number(std::string& line, double x) {
  char buffer[32];
  auto r = std::to_chars(buffer, buffer + sizeof buffer, x);
  line.append(buffer, r.ptr);
}
}  // namespace

void CsvWriter::write_row(double time, std::span<const double> values) {
  line_.clear();
  append_number(line_, time);
  for (double v : values) {
    line_ += ',';
    append_number(line_, v);
  }
  finish_row();
}

void CsvWriter::write_row(double time, const OutputReader& reader) {
  line_.clear();
  append_number(line_, time);
  for (std::size_t c = 0; c < reader.size(); ++c) {
    line_ += ',';
    if (reader.is_text(c)) line_ += csv_field(reader.text(c), true);
    else reader.append_text(c, line_);
  }
  finish_row();
}

void CsvWriter::finish_row() {
  line_ += '\n';
  std::fwrite(line_.data(), 1, line_.size(), file_);
  if (std::fflush(file_) != 0)
    throw Error(ErrorKind::usage, "results: writing \"" + path_.string() + "\" failed: " + std::strerror(errno) +
                                      " → check free disk space");
  ++rows_;
}

}  // namespace lsdae::simulation
