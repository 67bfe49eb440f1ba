// runtime/sweep/summary_file.h -- a sweep's summary on disk, one row per
// scenario written as it finishes, so that a killed sweep keeps what it had
// and `--resume` skips what is there (docs/sweeps.md, "The summary").
//
// The format comes from the extension, as for `lsdae simulate -o`: .h5,
// .hdf5 (any case) is HDF5, anything else CSV.
//
// CSV: a header line (summary_header: id, status, message, reached_time,
// steps, wall_time_s, one column per metric), then one record per row
// (SummaryRow::to_csv), each written with one write(2) on a file opened
// O_APPEND: a kill loses at most the row being written, and a last line cut
// by it is removed when the file is resumed.
//
// HDF5 (libhdf5's C API, the 1.8 file format as results/hdf5_writer.h, so no
// h5clear is needed after a kill; h5py: f["id"][:], f["metrics"][:, k]):
//   /id, /status, /message   variable-length UTF-8 strings [rows]
//   /reached_time            float64 [rows] (NaN: initialisation failed)
//   /steps                   int64 [rows]
//   /wall_time_s             float64 [rows]
//   /metrics                 float64 [rows, metrics] (NaN: no point sampled,
//                            or no sample was a number); absent without
//                            metrics
//   /metric_names            strings [metrics], the metrics' texts
//   /columns                 strings: the CSV header, to check a resume
//   attributes of /: format ("lsdae-sweep-summary 1"), model, complete_rows
// Every dataset is chunked (64 rows) and extendible. A row is appended
// dataset by dataset and the file flushed (H5Fflush); then complete_rows is
// raised and flushed before append() returns (HDF5 writes one flush's
// metadata in its own order: a kill inside the first flush can leave /id
// longer than /steps). Resuming cuts every dataset back to complete_rows (a
// file written before it: to its shortest dataset; a row cut by a kill is
// dropped), checks /columns against this sweep's header, and continues.
//
// Errors: Error(output) naming the file when it cannot be created, opened or
// written (the rows already written stay); Error(usage) when a resumed file's
// columns differ from this sweep's or it is not a summary. The messages name
// what the caller gave (SummaryWording: the command line's options, or the
// fields of the C interface's lsdae_sweep_spec).
//
// Resume, for every front end (`lsdae sweep --resume`, lsdae_sweep with
// spec->resume): open_summary(..., resume = true) keeps the rows of an
// existing file (a missing file is started as a new one), finished() gives
// their ids, and unfinished(scenarios, finished()) the scenarios still to run
// -- every id in the file is skipped, whatever its status.
//
// read_summary reads a summary back (CSV or HDF5, by the extension): its
// columns and its rows in file order, without what a kill left incomplete --
// the C++ counterpart of Python's lsdae.read_summary.
#ifndef LSDAE_RUNTIME_SWEEP_SUMMARY_FILE_H
#define LSDAE_RUNTIME_SWEEP_SUMMARY_FILE_H

#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "lsdae/sweep.h"
#include "sweep/summary_format.h"

namespace lsdae::sweep {

// Creates (truncates) the summary of a sweep with these metrics, or, with
// `resume`, continues the file when it exists (its columns must be this
// sweep's: Error(usage) otherwise) and creates it when it does not. `model`
// is recorded in an HDF5 file.
std::unique_ptr<SummaryFile> open_summary(const std::filesystem::path& path, const std::vector<std::string>& metrics,
                                          bool resume, const std::string& model = "",
                                          const SummaryWording& wording = {});

// The indices of the scenarios whose ids are not in `finished`, in order:
// what a resumed sweep runs (all of them for an empty set). Pass them to
// run_sweep only when not empty (an empty list there means every scenario).
std::vector<std::size_t> unfinished(const std::vector<Scenario>& scenarios, const std::set<std::string>& finished);

// Reads the summary at `path` (CSV or HDF5 by the extension), leaving out
// what a kill left incomplete (a CSV last line without its line break, the
// HDF5 rows past complete_rows). CSV keeps every field as written (an
// empty metric: nullopt, "nan": NaN); HDF5 stores both as NaN, read as a NaN
// value, and a NaN reached_time as nullopt. A summary a sweep is still
// writing can be read (HDF5: without taking the file lock; a read that
// meets a flush half done may fail: read again). Error(output) when the file
// cannot be read, Error(usage) when it is not a summary lsdae wrote.
SummaryTable read_summary(const std::filesystem::path& path);
// Whether `path` is a summary lsdae wrote (CSV: its first line starts with
// the fixed columns of summary_header; HDF5: it has /columns, /id and
// /status), so that `lsdae report` can tell one from a result file. Reads
// the first line or opens the file only; false for what cannot be read.
bool is_summary(const std::filesystem::path& path);

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_SUMMARY_FILE_H
