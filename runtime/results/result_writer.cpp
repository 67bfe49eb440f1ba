// runtime/results/result_writer.cpp -- see result_writer.h.
#include "results/result_writer.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>

#include "lsdae/error.h"
#include "results/csv_writer.h"
#include "results/hdf5_writer.h"
#include "results/mat_writer.h"

namespace lsdae::results {

std::string to_string(ResultFormat format) {
  switch (format) {
    case ResultFormat::csv: return "csv";
    case ResultFormat::hdf5: return "hdf5";
    case ResultFormat::mat: return "mat";
  }
  return "csv";
}

ResultFormat result_format_for(const std::filesystem::path& path, const std::string& requested) {
  ResultFormat format = ResultFormat::csv;
  if (requested == "csv") format = ResultFormat::csv;
  else if (requested == "hdf5" || requested == "h5") format = ResultFormat::hdf5;
  else if (requested == "mat") format = ResultFormat::mat;
  else if (!requested.empty())
    throw Error(ErrorKind::usage, "--format \"" + requested + "\": not a result format → csv, hdf5 or mat");
  else if (path != "-") {
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension == ".h5" || extension == ".hdf5") format = ResultFormat::hdf5;
    else if (extension == ".mat") format = ResultFormat::mat;
    else if (!extension.empty() && extension != ".csv")
      throw Error(ErrorKind::usage, "-o \"" + path.string() + "\": the extension \"" + path.extension().string() +
                                        "\" names no result format → name the file .csv, .h5 (or .hdf5) or .mat, "
                                        "or give --format csv|hdf5|mat");
  }
  if (path == "-" && format != ResultFormat::csv)
    throw Error(ErrorKind::usage, "-o -: " + to_string(format) +
                                      " results need a file they can seek in, not standard output → give a file "
                                      "name, or --format csv");
  return format;
}

std::unique_ptr<ResultWriter> open_result_writer(ResultFormat format, const std::filesystem::path& path,
                                                 const std::vector<Column>& columns, const WriterOptions& options) {
  switch (format) {
    case ResultFormat::hdf5: return std::make_unique<Hdf5Writer>(path, columns, options.model_name, options.hdf5_deflate,
                                        options.hdf5_compress_all);
    case ResultFormat::mat: return std::make_unique<MatWriter>(path, columns);
    case ResultFormat::csv: break;
  }
  std::vector<std::string> names;
  names.reserve(columns.size());
  for (const auto& c : columns) {
    if (options.csv_events && c.name == "event")
      throw Error(ErrorKind::usage, "--csv-events → the column \"event\" it adds would repeat a variable's name → "
                                    "\"event\" is recorded → leave out --csv-events (the repeated time marks "
                                    "events) or that variable, or write .h5 (its /event dataset)");
    names.push_back(c.name);
  }
  std::optional<std::vector<std::string>> units;
  if (options.csv_units) {
    units.emplace();
    for (const auto& c : columns) units->push_back(c.unit);
  }
  return std::make_unique<CsvWriter>(path, names, options.stdout_fd, units, options.csv_events);
}

namespace {

// CSV: cut a partial last line (a row the killed process was writing).
void cut_to_last_line(int fd, off_t size) {
  char block[65536];
  off_t end = size;
  while (end > 0) {
    const off_t begin = end > static_cast<off_t>(sizeof block) ? end - static_cast<off_t>(sizeof block) : 0;
    const ssize_t n = ::pread(fd, block, static_cast<std::size_t>(end - begin), begin);
    if (n <= 0) return;
    ssize_t i = n - 1;
    while (i >= 0 && block[i] != '\n') --i;
    if (i >= 0) {
      const off_t keep = begin + i + 1;
      if (keep != size && ::ftruncate(fd, keep) != 0) {
        // best effort: the rows before stay either way
      }
      return;
    }
    end = begin;
  }
}

// MAT: cut whatever follows data_2's counted columns (a partial row).
void cut_to_counted_columns(int fd, off_t size) {
  const std::vector<Mat4Matrix> matrices = mat4_matrices(fd);
  if (matrices.empty() || matrices.back().name != "data_2") return;
  const auto end = static_cast<off_t>(matrices.back().data + matrices.back().data_bytes);
  if (end < size && ::ftruncate(fd, end) != 0) {
    // best effort
  }
}

}  // namespace

void keep_complete_rows(const std::filesystem::path& path, ResultFormat format) {
  if (format == ResultFormat::hdf5) return;
  const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    if (format == ResultFormat::csv) cut_to_last_line(fd, st.st_size);
    else cut_to_counted_columns(fd, st.st_size);
  }
  ::close(fd);
}

}  // namespace lsdae::results
