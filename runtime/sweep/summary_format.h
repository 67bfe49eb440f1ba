// runtime/sweep/summary_format.h -- what a sweep's summary is in either
// format (summary_file.h states the formats, the resume rules and the
// errors): the wording of its messages, the format chosen by the
// extension, the SummaryFile a format implements, the table read back, and
// the checks the CSV (summary_file.cpp) and HDF5 (summary_hdf5.cpp) formats
// share. Below both formats, so that neither needs the other.
#ifndef LSDAE_RUNTIME_SWEEP_SUMMARY_FORMAT_H
#define LSDAE_RUNTIME_SWEEP_SUMMARY_FORMAT_H

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "lsdae/sweep.h"

namespace lsdae::sweep {

// How the messages name the summary's options; the defaults are the command
// line's. A message reads e.g. `<file> "s.csv": cannot be written: ... →
// ...`, `<resume>: "s.csv" has the columns ... → <same_metrics>, or
// <new_file>`.
struct SummaryWording {
  std::string file = "--summary";                                 // what names the file
  std::string resume = "--resume";                                // what asked to continue it
  std::string continues = "--resume continues the sweep";         // the hint after a write error
  std::string same_metrics = "resume with the same --metric options";
  std::string new_file = "write a new --summary";
  std::string start_again = "--overwrite it";                     // after "write a new ..., or "
};

enum class SummaryFormat { csv, hdf5 };
// By the extension: .h5 / .hdf5 (any case) HDF5, else CSV.
SummaryFormat summary_format_for(const std::filesystem::path& path);

class SummaryFile {
 public:
  virtual ~SummaryFile() = default;
  // Writes one row; it is on disk when this returns. Error(output) when it
  // cannot be written.
  virtual void append(const SummaryRow& row) = 0;
  // The ids of the rows the file held when it was opened (resume; empty for
  // a new file).
  const std::set<std::string>& finished() const { return finished_; }
  const std::filesystem::path& path() const { return path_; }

 protected:
  explicit SummaryFile(std::filesystem::path path) : path_(std::move(path)) {}
  std::filesystem::path path_;
  std::set<std::string> finished_;
};

// A summary read back: its columns (the CSV header, /columns of an HDF5
// file) and its rows in file order.
struct SummaryTable {
  std::vector<std::string> columns;
  std::vector<SummaryRow> rows;
};
// What the CSV (summary_file.cpp) and HDF5 (summary_hdf5.cpp) formats share.
namespace summary_detail {
// `--summary "x.csv"` (or the C interface's field): where a message comes from.
std::string quoted(const SummaryWording& wording, const std::filesystem::path& path);
// A resumed file's columns must be this sweep's: Error(usage) otherwise.
void check_columns(const SummaryWording& wording, const std::filesystem::path& path,
                   const std::vector<std::string>& found, const std::vector<std::string>& header);
// Error(usage): `path` is not a summary lsdae wrote, because of `what`.
[[noreturn]] void not_a_summary(const std::filesystem::path& path, const std::string& what);
// The number of metric columns after the fixed ones; not_a_summary when the
// fixed columns are not there.
std::size_t metric_count_of(const std::filesystem::path& path, const std::vector<std::string>& columns);
}  // namespace summary_detail

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_SUMMARY_FORMAT_H
