// runtime/results/result_reader.h -- reading back the result files the
// writers produce (csv_writer.h, hdf5_writer.h, mat_writer.h), for
// `lsdae plot`.
//
// A reader returns the time column and the numeric columns whose names
// `wanted` accepts, each with its unit ("" when the file has none), plus
// every column name in the file (for "matches nothing" messages).
//   CSV   the header line; a second line whose first field is not a number
//         is the units line (--csv-units). A selected column holding a
//         field that is not a number (a String column) is an error, or with
//         NonNumeric::skip left out (listed in `skipped`).
//   HDF5  /time and /<Type>/{name,unit,values} (every numeric type read as
//         double; String and Binary columns are not numeric: refused when
//         selected, or skipped as in CSV).
//   MAT   the Dymola layout: name, description (unit taken from its
//         trailing " [unit]"), dataInfo, data_1 (held constant over the
//         run) and data_2.
// Events are where the time repeats (the writers' convention, all three
// formats): event_times() lists them.
// Errors: Error(usage) in lsdae's shape (where → what → value → what to
// do) for a missing or unreadable file, a malformed one, an unknown
// format and a selected non-numeric column.
#ifndef LSDAE_RUNTIME_RESULTS_RESULT_READER_H
#define LSDAE_RUNTIME_RESULTS_RESULT_READER_H

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace lsdae::results {

struct ResultSeries {
  std::string name;
  std::string unit;
  std::vector<double> values;  // one per time point
};

struct ResultTable {
  std::vector<double> time;
  std::vector<ResultSeries> series;      // the wanted numeric columns, in file order
  std::vector<std::string> all_names;    // every column of the file (time excluded)
  std::vector<std::string> skipped;      // selected columns left out as not numeric (NonNumeric::skip)
};

// What a selected column that is not numeric (String, Binary) does: an error
// (a name the user asked for), or left out (a default selection).
enum class NonNumeric { refuse, skip };

using NameFilter = std::function<bool(const std::string&)>;

ResultTable read_csv_result(const std::filesystem::path& path, const NameFilter& wanted,
                            NonNumeric non_numeric = NonNumeric::refuse);
ResultTable read_hdf5_result(const std::filesystem::path& path, const NameFilter& wanted,
                             NonNumeric non_numeric = NonNumeric::refuse);
ResultTable read_mat_result(const std::filesystem::path& path, const NameFilter& wanted);  // numbers only

// By the extension (.csv, .h5/.hdf5, .mat, any case) or `format` when not
// empty ("csv", "hdf5", "mat"); Error(usage) for any other.
ResultTable read_result(const std::filesystem::path& path, const NameFilter& wanted, const std::string& format = "",
                        NonNumeric non_numeric = NonNumeric::refuse);

// The run statistics an HDF5 result holds (its "statistics" attribute, the
// JSON of lsdae simulate --stats, written at the end of the run), or "" when
// it has none (a killed run) or is no HDF5 file.
std::string read_hdf5_statistics(const std::filesystem::path& path);

// The times that occur more than once (an event: the rows just before and
// just after it), each once, in order.
std::vector<double> event_times(const std::vector<double>& time);

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_RESULT_READER_H
