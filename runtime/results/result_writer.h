// runtime/results/result_writer.h -- the one interface through which a run
// writes its results, whatever the file format.
//
// The run loop (cli/simulate_command.cpp) hands every output point to a
// ResultWriter as a row: the time, the values of the selected channels (one
// scalar column each, typed: RowValues) and a RowKind saying whether the row
// is an ordinary output point or the row just before / just after an event
// (two rows at the same time). The writer decides how the row reaches the
// disk; the run loop never knows the format.
//
// Formats (open_result_writer):
//   csv    csv_writer.h   text, one line per row, written as it goes;
//   hdf5   hdf5_writer.h  chunked, deflate-compressed typed 2-D datasets,
//                         flushed at least once a second;
//   mat    mat_writer.h   the Dymola result layout (MAT v4) that FMPy,
//                         PyFMI, DyMat and OMPython read.
// The format comes from --format or else from the output file's extension
// (result_format_for); "-" (standard output) is CSV only.
//
// Contract: write_row() either stores the row or throws Error(output)
// naming the file, the rows it keeps and what to do; close_rows() (optional)
// ends the rows: every row accepted is in the file when it returns, and the
// writer's own statistics() are final; finish() is called once at the end of
// the run (completed, failed or interrupted) with the run statistics as JSON,
// so that formats that can hold them do; rows() counts the rows written
// (accepted by write_row).
#ifndef LSDAE_RUNTIME_RESULTS_RESULT_WRITER_H
#define LSDAE_RUNTIME_RESULTS_RESULT_WRITER_H

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "results/row_values.h"

namespace lsdae::results {

enum class RowKind : signed char { ordinary = 0, before_event = 1, after_event = 2 };

enum class ResultFormat { csv, hdf5, mat };

std::string to_string(ResultFormat format);

// The format for `path` given `requested` (--format: "csv", "hdf5", "mat",
// or "" for none). Without --format: ".csv" (or no extension at all, or "-")
// is CSV, ".h5"/".hdf5" HDF5, ".mat" MAT (case-insensitive); any other
// extension is Error(usage) naming it, before anything runs. HDF5 and MAT
// need a seekable file: "-" with them is Error(usage).
ResultFormat result_format_for(const std::filesystem::path& path, const std::string& requested);

class ResultWriter {
 public:
  virtual ~ResultWriter() = default;
  virtual void write_row(double time, const RowValues& values, RowKind kind) = 0;
  // The end of the run: the statistics (a JSON document) are stored where
  // the format has room for them (HDF5: an attribute), buffered rows are
  // written and the file is closed. Throws Error(output) when that fails.
  virtual void finish(const std::string& statistics_json) = 0;
  virtual std::size_t rows() const = 0;
  // The end of the rows, before finish(): every row accepted is written to
  // the file when it returns (no write_row() after it). Throws Error(output)
  // when that fails. finish() does it itself when it was not called.
  virtual void close_rows() {}
  // What the writer did that the run statistics report (the "results"
  // object of --stats), e.g. HDF5's chunks stored compressed and raw: final
  // after close_rows(). Empty for formats with nothing to say.
  virtual std::vector<std::pair<std::string, std::uint64_t>> statistics() const { return {}; }
};

struct WriterOptions {
  int stdout_fd = 1;         // the descriptor "-" stands for (lsdae/supervise.h)
  bool csv_units = false;    // CSV: a second header line with the units
  bool csv_events = false;   // CSV: an "event" column after time (0, 1 before, 2 after an event)
  std::string model_name;    // stored in HDF5 and MAT files
  int hdf5_deflate = 1;      // HDF5: deflate level of the values, 0 (none) to 9
  bool hdf5_compress_all = false;  // HDF5: compress every chunk, waiting for the writer thread
                                   // (default: chunks it cannot compress in time are stored raw)
};

std::unique_ptr<ResultWriter> open_result_writer(ResultFormat format, const std::filesystem::path& path,
                                                 const std::vector<Column>& columns, const WriterOptions& options);

// After the process writing `path` was killed (a crash, a watchdog): leaves
// the file readable with the rows it holds -- CSV cut back to its last
// complete line, MAT cut back to its last complete row. HDF5 needs nothing
// (it is flushed whole). Best effort: never throws.
void keep_complete_rows(const std::filesystem::path& path, ResultFormat format);

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_RESULT_WRITER_H
