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
// variable's series decompresses only its chunk column). The numeric value
// datasets carry HDF5's shuffle and deflate filters (level --hdf5-deflate,
// default 1; 0: no filters, a quarter to a half more bytes) and their chunks
// are made by this writer, not by HDF5's pipeline: each chunk is gathered from
// the block, converted to the file type (H5Tconvert), byte-shuffled and
// deflated with zlib exactly as the two filters do (H5Z_FILTER_SHUFFLE:
// byte k of every element together; H5Z_FILTER_DEFLATE: a zlib stream at
// the level, compress2's window and memory level), and stored with
// H5Dwrite_chunk. A chunk may also be stored raw: H5Dwrite_chunk's filter
// mask (bit i: filter i skipped) marks it 0b11, and every HDF5 reader (the
// C library, h5py, lsdae's readers) decodes chunk by chunk, so one dataset
// can mix both. A chunk is stored raw
//   - when the writer thread is behind: a block waits in the queue below,
//     or the time allowed after the last row has passed (default;
//     --hdf5-compress-all waits instead: every chunk compressed, the run
//     waiting for the writer thread when compression is slower than the
//     run, the smallest file);
//   - when deflate does not make it smaller (noise-like values);
//   - for a partial block's interim copy (rewritten whole later).
// Reference: the HDF5 1.10 reference manual, H5Dwrite_chunk (since 1.10.2)
// and the filter pipeline's chunk filter mask (file format spec, "Version 1
// B-tree, type 1 node": filter mask per chunk). The counts are statistics():
// chunks (value chunks in the file), chunks_compressed,
// chunks_raw_writer_behind, chunks_raw_incompressible; how many are raw
// depends on timing (the machine's load), so it is a statistic of the run,
// not a deterministic counter.
// String and Binary values (variable-length, which H5Dwrite_chunk cannot
// store) and the small /time and /event datasets go through H5Dwrite and
// HDF5's own pipeline.
//
// The writer thread: compressing is most of the cost of a row (deflate at
// level 1 is about 25 times the time of writing the bytes), so every HDF5
// call after the constructor is made by one writer thread. write_row() only
// copies the row into the current block; a full block (and, once a second,
// a copy of a partial one) is handed to the writer thread through a queue of
// at most 3 blocks, which compresses, writes and flushes it while the run
// goes on. The writer thread compresses only while no block waits behind the
// one it writes: it deflates a chunk 64 KiB at a time, and once a block
// waits, the rest of the chunk and of the block is stored raw. So by default
// the run's thread does not wait for compression: it waits (for a full
// queue) only when raw writes cannot keep up either (a slow disk, or a
// writer thread a loaded machine does not schedule for a while), and memory
// stays bounded (about 6 blocks of 4 MiB). After the last row (close_rows(),
// finish()) the rows still queued are compressed for at most 1 % of the
// time the file has been open (but at least their first MiB: a short run's
// file is compressed whole), the rest stored raw (the destructor, unwinding
// after a failure: all raw). Only one thread calls HDF5 at a time
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
  // `compress_all`: every chunk compressed, the run waiting for the writer
  // thread when needed (default: raw when the writer thread is behind).
  Hdf5Writer(const std::filesystem::path& path, const std::vector<Column>& columns, const std::string& model_name,
             int deflate = 1, bool compress_all = false);
  ~Hdf5Writer() override;
  Hdf5Writer(const Hdf5Writer&) = delete;
  Hdf5Writer& operator=(const Hdf5Writer&) = delete;

  void write_row(double time, const RowValues& values, RowKind kind) override;
  void finish(const std::string& statistics_json) override;
  std::size_t rows() const override;
  void close_rows() override;
  std::vector<std::pair<std::string, std::uint64_t>> statistics() const override;
  std::size_t block_rows() const;  // B above

 private:
  struct Impl;
  std::unique_ptr<Impl> m_;
};

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_HDF5_WRITER_H
