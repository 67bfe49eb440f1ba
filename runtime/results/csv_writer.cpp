// runtime/results/csv_writer.cpp -- see csv_writer.h.
#include "results/csv_writer.h"

#include <cerrno>
#include <charconv>
#include <cstring>

#include "common/output_file.h"
#include "lsdae/error.h"

namespace lsdae::results {

std::string csv_field(const std::string& text, bool always) {
  if (!always && text.find_first_of(",\"\n\r") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

CsvWriter::CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& names, int stdout_fd,
                     const std::optional<std::vector<std::string>>& units, bool event_column)
    : file_(std::make_unique<OutputFile>(path, "results", stdout_fd)), event_column_(event_column) {
  std::string header = event_column ? "time,event" : "time";
  for (const auto& name : names) header += "," + csv_field(name);
  header += '\n';
  if (units) {
    header += event_column ? "s," : "s";
    for (const auto& unit : *units) header += "," + csv_field(unit);
    header += '\n';
  }
  if (int error = file_->append(header); error != 0) fail(error);
}

CsvWriter::~CsvWriter() = default;

namespace {
template <typename T>
void append_number(std::string& line, T x) {
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

void CsvWriter::write_row(double time, const RowValues& values, RowKind kind) {
  line_.clear();
  append_number(line_, time);
  if (event_column_) {
    line_ += ',';
    line_ += static_cast<char>('0' + static_cast<int>(kind));
  }
  for (std::size_t c = 0; c < values.size(); ++c) {
    line_ += ',';
    if (values.storage(c) == ValueStorage::text) line_ += csv_field(values.text(c), true);
    else values.append_text(c, line_);
  }
  finish_row();
}

void CsvWriter::finish_row() {
  line_ += '\n';
  if (int error = file_->append(line_); error != 0) fail(error);
  ++rows_;
}

void CsvWriter::fail(int error) const {
  const std::string name = file_->is_stdout() ? "standard output" : "\"" + file_->path().string() + "\"";
  const std::string kept = file_->is_stdout() ? "; the last row may be incomplete"
                                              : "; the file ends with the last complete row";
  const std::string todo = error == ENOSPC ? "free disk space"
                           : error == EFBIG ? "raise the file-size limit (ulimit -f) or write fewer rows"
                                            : "check the disk and the path";
  throw Error(ErrorKind::output, "results: writing " + name + " failed after " + std::to_string(rows_) + " row" +
                                     (rows_ == 1 ? "" : "s") + ": " + std::strerror(error) + kept + " → " + todo);
}

}  // namespace lsdae::results
