// runtime/sweep/summary_file.cpp -- the summary of a sweep (summary_file.h):
// open, resume and read by the format (summary_format.h), and the CSV
// format; the HDF5 format is summary_hdf5.cpp.
#include "sweep/summary_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "lsdae/error.h"
#include "sweep/csv_line.h"
#include "sweep/summary_hdf5.h"

namespace lsdae::sweep {

namespace {

using namespace summary_detail;

// The text of a CSV file up to its last line break: what a kill left of a
// last line is not part of it.
std::string complete_lines(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  const auto last_newline = text.rfind('\n');
  text.resize(last_newline == std::string::npos ? 0 : last_newline + 1);
  return text;
}

// ---- CSV ---------------------------------------------------------------------

class CsvSummary final : public SummaryFile {
 public:
  CsvSummary(const std::filesystem::path& path, const std::vector<std::string>& metrics, bool resume,
             const SummaryWording& wording)
      : SummaryFile(path), wording_(wording) {
    const std::vector<std::string> header = summary_header(metrics);
    bool has_header = false;
    if (resume) has_header = read_finished(header, metrics.size());
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (resume ? O_APPEND : O_TRUNC), 0666);
    if (fd_ < 0)
      throw Error(ErrorKind::output, quoted(wording_, path) + ": cannot be written: " + std::strerror(errno) +
                                         " → check the folder exists and is writable");
    if (!has_header) write(csv_record(header) + "\n");
  }
  ~CsvSummary() override {
    if (fd_ >= 0) ::close(fd_);
  }
  void append(const SummaryRow& row) override { write(row.to_csv() + "\n"); }

 private:
  void write(const std::string& line) {
    std::size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw Error(ErrorKind::output, quoted(wording_, path_) + ": writing failed: " + std::strerror(errno) +
                                           " → free disk space or choose another file; " + wording_.continues);
      done += static_cast<std::size_t>(n);
    }
  }

  // Reads the ids of an existing summary, cutting a last line left
  // incomplete by a kill; false when the file is empty (no header yet).
  bool read_finished(const std::vector<std::string>& header, std::size_t metric_count) {
    const std::string text = complete_lines(path_);
    std::size_t pos = 0;
    if (!text.empty()) check_columns(wording_, path_, parse_csv_record(text, pos), header);  // before any change
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    if (!ec && size != text.size() && ::truncate(path_.c_str(), static_cast<off_t>(text.size())) != 0)
      throw Error(ErrorKind::output, quoted(wording_, path_) + ": cannot cut back its incomplete last line: " +
                                         std::strerror(errno) + " → check the file's permissions");
    if (text.empty()) return false;
    while (pos < text.size()) {
      const std::size_t begin = pos;
      parse_csv_record(text, pos);
      finished_.insert(SummaryRow::from_csv(text.substr(begin, pos - begin - 1), metric_count).id);
    }
    return true;
  }

  SummaryWording wording_;
  int fd_ = -1;
};

// ---- Reading a CSV summary back ------------------------------------------------

SummaryTable read_csv_summary(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw Error(ErrorKind::output, "summary \"" + path.string() + "\": no such file → give the path of a summary");
  const std::string text = complete_lines(path);
  if (text.empty()) not_a_summary(path, "no complete header line");
  SummaryTable table;
  std::size_t pos = 0;
  table.columns = parse_csv_record(text, pos);
  const std::size_t metrics = metric_count_of(path, table.columns);
  while (pos < text.size()) {
    const std::size_t begin = pos;
    parse_csv_record(text, pos);
    table.rows.push_back(SummaryRow::from_csv(text.substr(begin, pos - begin - 1), metrics));
  }
  return table;
}

}  // namespace

std::unique_ptr<SummaryFile> open_summary(const std::filesystem::path& path, const std::vector<std::string>& metrics,
                                          bool resume, const std::string& model, const SummaryWording& wording) {
  std::error_code ec;
  const bool existing = resume && std::filesystem::exists(path, ec);
  if (summary_format_for(path) == SummaryFormat::hdf5)
    return make_hdf5_summary(path, metrics, existing, model, wording);
  return std::make_unique<CsvSummary>(path, metrics, existing, wording);
}

std::vector<std::size_t> unfinished(const std::vector<Scenario>& scenarios, const std::set<std::string>& finished) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    if (finished.count(scenarios[i].id) == 0) todo.push_back(i);
  return todo;
}

bool is_summary(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  if (summary_format_for(path) == SummaryFormat::csv) {
    std::ifstream in(path, std::ios::binary);
    std::string first;
    std::getline(in, first);
    return first.rfind(csv_record(summary_header({})), 0) == 0;
  }
  return is_hdf5_summary(path);
}

SummaryTable read_summary(const std::filesystem::path& path) {
  return summary_format_for(path) == SummaryFormat::hdf5 ? read_hdf5_summary(path) : read_csv_summary(path);
}

}  // namespace lsdae::sweep
