// runtime/results/hdf5_writer.h -- results as HDF5 (the C API of libhdf5),
// written as the run goes.
//
// Layout (h5py: f["time"][:], f["Float64/values"][:, k], f["Float64/name"]):
//   /time                 float64 [rows]
//   /event                int8 [rows]: 0 an ordinary output point, 1 the row
//                         just before an event, 2 the row just after it
//   /<Type>/values        [rows, n] one 2-D dataset per FMI type present
//                         (Float64, Float32, Int8 ... UInt64, Boolean as
//                         uint8, Enumeration as int64, String and Binary
//                         as variable-length UTF-8 strings), in the file
//                         type of that FMI type: every value exact
//   /<Type>/name, unit, description, causality, variability   strings [n]
//   /<Type>/value_reference uint32 [n]
//   /<Type>/column        uint64 [n]: the column's place in the selection
//                         (the CSV's column order, 0-based, time excluded)
//   attributes of /:      format ("lsdae-results 1"), model, and at the end
//                         statistics (the --stats JSON document, also
//                         without --stats)
// The per-column facts are 1-D datasets, not attributes: an attribute is
// kept in the object header, limited to 64 KiB, and --all on a large model
// has 10^5 names.
//
// Why one 2-D dataset per type, not one per variable: with 10^4..10^5
// columns, a dataset per variable would mean as many H5Dwrite calls, chunk
// indexes and metadata objects per row (seconds per row, a metadata-bound
// file); one 2-D dataset takes a row block in one call and compresses whole
// chunks.
//
// Chunks and compression: rows are buffered in blocks of B rows (B = 4 MiB /
// bytes per row, 1 ≤ B ≤ 1024) and a 2-D dataset is chunked B rows × C
// columns (C = 1 MiB / (8·B), so a chunk is about 1 MiB and reading one
// variable's series decompresses only its chunk column), shuffled and
// deflated at level 1 (--hdf5-deflate: 0 turns compression off, which
// costs a quarter to a half more bytes and saves most of the write time;
// docs/performance.md).
//
// The writer thread: compressing is most of the cost of a row (deflate at
// level 1 is about 25 times the time of writing the bytes), so every HDF5
// call after the constructor is made by one writer thread. write_row() only
// copies the row into the current block; a full block (and, once a second,
// a copy of a partial one) is handed to the writer thread through a queue of
// at most 2 blocks, which shuffles, deflates, writes and flushes it while
// the run goes on. When the queue is full the run waits (memory stays
// bounded: about 4 blocks of 4 MiB). Only one thread calls HDF5 at a time
// (the queue's mutex orders them), so it works with a serial libhdf5 too.
//
// Durability: a block is written and the file flushed (H5Fflush) when it is
// full and at least once a second (a partial block is rewritten in place
// later), and at finish(); the first row is on disk before write_row()
// returns. A run killed mid-way (SIGKILL) leaves a file h5py opens, holding
// the rows up to the last flush: at most about a second (plus the queued
// blocks) of rows is lost. The file uses the HDF5 1.8 format (no SWMR
// flags), so no h5clear is needed after a kill.
//
// A failed HDF5 call (disk full, file-size limit) is Error(output) naming
// the file and the rows it holds; when the writer thread fails, the next
// write_row() or finish() throws it.
#ifndef LSDAE_RUNTIME_RESULTS_HDF5_WRITER_H
#define LSDAE_RUNTIME_RESULTS_HDF5_WRITER_H

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "results/result_writer.h"

namespace lsdae::results {

class Hdf5Writer final : public ResultWriter {
 public:
  // Creates (truncates) the file and its datasets; Error(output) when it cannot.
  // `deflate`: the deflate level of the value datasets, 0 (none: fastest) to 9.
  Hdf5Writer(const std::filesystem::path& path, const std::vector<Column>& columns, const std::string& model_name,
             int deflate = 1);
  ~Hdf5Writer() override;
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  void write_row(double time, const RowValues& values, RowKind kind) override;
  void finish(const std::string& statistics_json) override;
  std::size_t rows() const override;
  std::size_t block_rows() const;  // B above

 private:
  struct Impl;
  std::unique_ptr<Impl> m_;
};

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_HDF5_WRITER_H
