// runtime/results/mat_writer.h -- results in the Dymola result layout
// (MAT v4, "binTrans"), the file FMPy, PyFMI, DyMat, OMPython and
// ModelicaRes read, written with matio and streamed as the run goes.
//
// Matrices, in this order (MAT v4, little-endian; binTrans: each name,
// description, dataInfo entry and time point is one column):
//   Aclass       char 4 × 11: "Atrajectory", "1.1", "", "binTrans"
//   name         char maxlen × (1 + n): "time", then each column's name,
//                padded with spaces
//   description  char maxlen × (1 + n): "Time in [s]", then each column's
//                description, its unit appended as " [unit]" (Dymola's
//                convention), padded with spaces
//   dataInfo     int32 4 × (1 + n): per name [matrix, row, 0, -1]: time
//                [0, 1, 0, -1]; a parameter [1, k, 0, 0] (row k of
//                data_1); a time series [2, k, 0, -1] (row k of data_2)
//   data_1       double (1 + n1) × 2: the constants and fixed parameters
//                (variability constant or fixed), at the first and the
//                last row's time
//   data_2       double (1 + n2) × rows: time and every other column, one
//                column per output point
// Events: the row just before and just after an event have the same time
// (Dymola's and FMPy's convention).
//
// What MAT cannot hold: String and Binary columns are left out (a warning
// names how many; use .h5 or .csv for them); integers and Booleans are
// stored as doubles, exact up to 2^53 (an Int64/UInt64 beyond rounds).
//
// Streaming: matio writes Aclass, name, description, dataInfo, data_1 and
// an empty data_2 when the first row arrives; each row is then appended to
// data_2 as one column (one write(2)), and data_2's column count in its
// header is updated after it (one pwrite). A write that fails cuts the file
// back to its last complete row (Error(output)); a run killed mid-way
// leaves a file whose header counts only complete rows (keep_complete_rows
// cuts off a partial one).
#ifndef LSDAE_RUNTIME_RESULTS_MAT_WRITER_H
#define LSDAE_RUNTIME_RESULTS_MAT_WRITER_H

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "results/result_writer.h"

namespace lsdae::results {

class MatWriter final : public ResultWriter {
 public:
  // Creates (truncates) the file; Error(output) when it cannot.
  MatWriter(const std::filesystem::path& path, const std::vector<Column>& columns);
  ~MatWriter() override;
  MatWriter(const MatWriter&) = delete;
  MatWriter& operator=(const MatWriter&) = delete;

  void write_row(double time, const RowValues& values, RowKind kind) override;
  void finish(const std::string& statistics_json) override;
  std::size_t rows() const override { return rows_; }
  std::size_t left_out() const { return left_out_; }  // String and Binary columns

 private:
  std::filesystem::path path_;
  std::vector<Column> columns_;
  std::vector<std::size_t> parameters_, series_;  // columns in data_1, data_2
  std::size_t left_out_ = 0;
  int fd_ = -1;
  std::uint64_t end_ = 0;            // end of the last complete row
  std::uint64_t data2_columns_at_ = 0;  // offset of data_2's ncols in its header
  std::uint64_t data1_end_time_at_ = 0;  // offset of data_1's second time value
  std::size_t rows_ = 0;
  double last_time_ = 0.0;
  std::vector<double> column_;

  void start(double time, const RowValues& values);
  [[noreturn]] void fail(const std::string& what, int error);
};

// A matrix of a MAT v4 file: where its header and data are.
struct Mat4Matrix {
  std::string name;
  std::int32_t type = 0, rows = 0, columns = 0;
  std::uint64_t header = 0, data = 0, data_bytes = 0;
};

// The matrices of the MAT v4 file open at `fd` (little-endian, real), as far
// as they are complete; stops at the first incomplete one.
std::vector<Mat4Matrix> mat4_matrices(int fd);

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_MAT_WRITER_H
