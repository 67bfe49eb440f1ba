// runtime/simulation/csv_writer.h -- results as CSV, streamed to disk.
//
// One header line ("time" and the channel names, quoted when they contain a
// comma or a quote) and one line per output point. Numbers are printed in
// the shortest form that reads back to the same double (std::to_chars), so
// 0.03 stays "0.03" and every value round-trips exactly; integers in
// decimal; String values always quoted; Binary as hex. Each row is flushed
// when written: memory stays flat however long the run, and whatever was
// computed before a failure or an interruption is on disk.
// What to record: output_channels.h.
#ifndef LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H
#define LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H

#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "lsdae/fmu.h"
#include "simulation/output_channels.h"

namespace lsdae::simulation {


class CsvWriter {
 public:
  // Throws Error(usage) naming the path when it cannot be created. "-" is
  // stdout, or the file descriptor `stdout_fd` when another one stands for it
  // (a supervised child's results descriptor, lsdae/supervise.h).
  CsvWriter(const std::filesystem::path& path, const std::vector<std::string>& names, int stdout_fd = 1);
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;

  void write_row(double time, std::span<const double> values);
  void write_row(double time, const OutputReader& reader);
  std::size_t rows() const { return rows_; }

 private:
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::filesystem::path path_;
  std::size_t rows_ = 0;
  std::string line_;  // the row being formatted, reused

  void finish_row();
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H
