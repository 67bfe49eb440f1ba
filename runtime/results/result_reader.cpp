// runtime/results/result_reader.cpp -- the format dispatch and event times
// of result_reader.h.
#include "results/result_reader.h"

#include <algorithm>
#include <cctype>

#include "lsdae/error.h"

namespace lsdae::results {

ResultTable read_result(const std::filesystem::path& path, const NameFilter& wanted, const std::string& format,
                        NonNumeric non_numeric) {
  std::string kind = format;
  if (kind.empty()) {
    kind = path.extension().string();
    std::transform(kind.begin(), kind.end(), kind.begin(), [](unsigned char c) { return std::tolower(c); });
    if (!kind.empty()) kind.erase(0, 1);
  }
  if (kind == "csv") return read_csv_result(path, wanted, non_numeric);
  if (kind == "h5" || kind == "hdf5") return read_hdf5_result(path, wanted, non_numeric);
  if (kind == "mat") return read_mat_result(path, wanted);
  throw Error(ErrorKind::usage, "result file " + path.string() + " → unknown result format → \"" + kind +
                                    "\" → use a .csv, .h5/.hdf5 or .mat file, or --format csv|hdf5|mat");
}

std::vector<double> event_times(const std::vector<double>& time) {
  std::vector<double> out;
  for (std::size_t k = 1; k < time.size(); ++k)
    if (time[k] == time[k - 1] && (out.empty() || out.back() != time[k])) out.push_back(time[k]);
  return out;
}

}  // namespace lsdae::results
