// runtime/results/csv_writer.h -- results as CSV, streamed to disk.
//
// One header line ("time" and the column names, quoted when they contain a
// comma, a quote or a line break), with --csv-units a second header line
// (the unit of each column: "s" for time, empty for a variable without
// one), then one line per output point. Numbers are printed in the
// shortest form that reads back to the same double (std::to_chars), so 0.03
// stays "0.03" and every value round-trips exactly (a Float32 as the float
// it is: "0.1", not "0.10000000149011612"); integers in decimal;
// Booleans 0/1; String values always quoted; Binary as hex (quoted).
// Events: the row just before and the row just after an event have the same
// time (FMPy's convention: repeated times are events; pandas keeps both
// rows). With `event_column` (--csv-events) a column "event" follows "time":
// 0 an ordinary output point, 1 the row just before an event, 2 the row just
// after it (HDF5's /event). Opt-in: FMPy's read_csv, OMSimulator and pandas
// users see every column as a variable, and the repeated time already marks
// events for them.
// Each row goes to the file with one write(2) when computed
// (common/output_file.h): memory stays flat however long the run, whatever
// was computed before a failure or an interruption is on disk, and a write
// that fails (disk full, file-size limit) leaves the file ending with its
// last complete row and throws Error(output) saying how many rows it holds.
#ifndef LSDAE_RUNTIME_RESULTS_CSV_WRITER_H
#define LSDAE_RUNTIME_RESULTS_CSV_WRITER_H

#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "results/result_writer.h"

namespace lsdae {
class OutputFile;
}

namespace lsdae::results {

class CsvWriter final : public ResultWriter {
 public:
  // Throws Error(output) naming the path when it cannot be created or the
  // header cannot be written. "-" is stdout, or the file descriptor
  // `stdout_fd` when another one stands for it (a supervised child's results
  // descriptor, lsdae/supervise.h; it is not closed). `units`, when given,
  // is the units line (one per name).
  CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& names, int stdout_fd = 1,
            const std::optional<std::vector<std::string>>& units = std::nullopt, bool event_column = false);
  ~CsvWriter() override;
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  // Both throw Error(output) when the row cannot be written (nothing of it stays).
  void write_row(double time, std::span<const double> values);
  void write_row(double time, const RowValues& values, RowKind kind) override;
  void finish(const std::string&) override {}
  std::size_t rows() const override { return rows_; }

 private:
  std::unique_ptr<OutputFile> file_;
  std::size_t rows_ = 0;
  bool event_column_ = false;
  std::string line_;  // the row being formatted, reused

  void finish_row();
  [[noreturn]] void fail(int error) const;
};

// The CSV field for `text` (RFC 4180): quoted when it holds a comma, a quote
// or a line break, or always (`always`).
std::string csv_field(const std::string& text, bool always = false);

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_CSV_WRITER_H
