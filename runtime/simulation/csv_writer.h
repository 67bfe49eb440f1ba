// runtime/simulation/csv_writer.h -- results as CSV, streamed to disk.
//
// One header line ("time" and the channel names, quoted when they contain a
// comma or a quote) and one line per output point. Numbers are printed in
// the shortest form that reads back to the same double (std::to_chars), so
// 0.03 stays "0.03" and every value round-trips exactly; integers in
// decimal; String values always quoted; Binary as hex. Each row goes to the
// file with one write(2) when computed (common/output_file.h): memory stays
// flat however long the run, whatever was computed before a failure or an
// interruption is on disk, and a write that fails (disk full, file-size
// limit) leaves the file ending with its last complete row and throws
// Error(output) saying how many rows it holds.
// What to record: output_channels.h.
#ifndef LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H
#define LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H

#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lsdae/fmu.h"
#include "simulation/output_channels.h"

namespace lsdae {
class OutputFile;
}

namespace lsdae::simulation {


class CsvWriter {
 public:
  // Throws Error(output) naming the path when it cannot be created or the
  // header cannot be written. "-" is stdout, or the file descriptor
  // `stdout_fd` when another one stands for it (a supervised child's results
  // descriptor, lsdae/supervise.h; it is not closed).
  CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& names, int stdout_fd = 1);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  // Both throw Error(output) when the row cannot be written (nothing of it stays).
  void write_row(double time, std::span<const double> values);
  void write_row(double time, const OutputReader& reader);
  std::size_t rows() const { return rows_; }

 private:
  std::unique_ptr<OutputFile> file_;
  std::size_t rows_ = 0;
  std::string line_;  // the row being formatted, reused

  void finish_row();
  [[noreturn]] void fail(int error) const;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H
