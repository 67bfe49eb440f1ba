// runtime/sweep/summary_format.cpp -- see summary_format.h.
#include "sweep/summary_format.h"

#include <algorithm>
#include <cctype>

#include "lsdae/error.h"
#include "sweep/csv_line.h"

namespace lsdae::sweep {

SummaryFormat summary_format_for(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".h5" || ext == ".hdf5" ? SummaryFormat::hdf5 : SummaryFormat::csv;
}

namespace summary_detail {

// `--summary "x.csv"` (or the C interface's field): where a message comes from.
std::string quoted(const SummaryWording& wording, const std::filesystem::path& path) {
  return wording.file + " \"" + path.string() + "\"";
}

// A resumed file's columns must be this sweep's (Error(usage)).
void check_columns(const SummaryWording& wording, const std::filesystem::path& path,
                   const std::vector<std::string>& found, const std::vector<std::string>& header) {
  if (found != header)
    throw Error(ErrorKind::usage, wording.resume + ": \"" + path.string() + "\" has the columns " + csv_record(found) +
                                      ", this sweep writes " + csv_record(header) + " → " + wording.same_metrics +
                                      ", or " + wording.new_file);
}

[[noreturn]] void not_a_summary(const std::filesystem::path& path, const std::string& what) {
  throw Error(ErrorKind::usage, "summary \"" + path.string() + "\": " + what +
                                    " → give a summary lsdae sweep (or lsdae_sweep) wrote");
}

std::size_t metric_count_of(const std::filesystem::path& path, const std::vector<std::string>& columns) {
  const std::vector<std::string> fixed = summary_header({});
  if (columns.size() < fixed.size() || !std::equal(fixed.begin(), fixed.end(), columns.begin()))
    not_a_summary(path, "its columns are " + csv_record(columns) + ", not " + csv_record(fixed) + ",<metrics>");
  return columns.size() - fixed.size();
}

}  // namespace summary_detail

}  // namespace lsdae::sweep
