// runtime/simulation/csv_writer.h -- results as CSV, streamed to disk.
//
// One header line ("time" and the variable names, quoted when they contain a
// comma or a quote) and one line per output point, every value printed with
// 17 significant digits so it reads back exactly. Each row is flushed when
// written: memory stays flat however long the run, and whatever was computed
// before a failure or an interruption is on disk.
//
// select_output_variables picks what to record:
//   default     the outputs and the continuous states (Float64), in
//               ModelVariables order;
//   patterns    names or globs (`*` any run of characters, `?` one character;
//               brackets are literal, so "L[1].i" and "L[*].i" work); a pattern
//               that matches nothing is Error(usage) naming it;
//   all         every Float64 variable except the independent one.
#ifndef LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H
#define LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H

#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "lsdae/fmu.h"

namespace lsdae::simulation {

std::vector<const Variable*> select_output_variables(const Fmu& fmu, const std::vector<std::string>& patterns,
                                                     bool all);
bool glob_match(const std::string& pattern, const std::string& name);

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
  std::size_t rows() const { return rows_; }

 private:
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::filesystem::path path_;
  std::size_t rows_ = 0;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_CSV_WRITER_H
