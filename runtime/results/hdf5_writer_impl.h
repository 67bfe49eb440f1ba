// runtime/results/hdf5_writer_impl.h -- the state of an Hdf5Writer (hdf5_writer.h, which
// states the layout, the chunks and the writer thread), shared by its three files:
// hdf5_writer.cpp (the file's layout, the run thread's calls), hdf5_writer_objects.cpp (the
// datasets and attributes the layout is made of, the failure message) and
// hdf5_writer_thread.cpp (the blocks handed over, the writer thread, the chunks it shuffles,
// deflates and writes). Internal
// to results/: hidden, so liblsdae.so exports none of it (cmake/lsdae.map exports lsdae::*).
#ifndef LSDAE_RUNTIME_RESULTS_HDF5_WRITER_IMPL_H
#define LSDAE_RUNTIME_RESULTS_HDF5_WRITER_IMPL_H

#include <hdf5.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "results/hdf5_handle.h"
#include "results/hdf5_writer.h"

namespace lsdae::results {

namespace hdf5_writer {
constexpr std::size_t kBlockBytes = 4u << 20;  // buffered rows per block: about this many bytes
constexpr std::size_t kChunkBytes = 1u << 20;  // a chunk: about this many bytes
constexpr std::size_t kMaxBlockRows = 1024;
constexpr double kFlushSeconds = 1.0;
constexpr std::size_t kQueuedJobs = 3;  // blocks waiting for the writer thread, at most
// close_rows() waits for compression at most this share of the time since the
// file was opened; what is left then is stored raw.
constexpr double kDrainShare = 0.01;
// ... and at least this many bytes of chunks, whatever the time: a short run's
// whole file is compressed.
constexpr std::size_t kDrainBytes = 1u << 20;
// A chunk is deflated this many bytes at a time, the writer thread checking
// between slices whether it is still keeping up (else the chunk goes raw):
// the run waits for at most one slice's compression, not a chunk's.
constexpr std::size_t kDeflateSlice = 64u << 10;
// H5Dwrite_chunk's filter mask of a chunk stored raw in a dataset whose
// pipeline is shuffle (filter 0) then deflate (filter 1): both skipped.
constexpr std::uint32_t kRawChunkMask = 0b11;
}  // namespace hdf5_writer

// The rows of one block (or of its first rows), row-major, one vector per
// group: what the run thread fills and the writer thread writes.
struct Block {
  std::vector<double> times;
  std::vector<signed char> events;
  struct Values {
    std::vector<double> reals;
    std::vector<std::int64_t> integers;
    std::vector<std::uint64_t> unsigned_integers;
    std::vector<std::string> texts;
  };
  std::vector<Values> groups;
};

struct [[gnu::visibility("hidden")]] Hdf5Writer::Impl {
  using Handle = hdf5::Handle;

  std::filesystem::path path;
  Handle file, vlen_string;
  Handle time_set, event_set;
  struct Group {
    VariableType type;
    ValueStorage storage;
    std::vector<std::size_t> columns;  // the selection's column of each dataset column
    Handle values;
    std::size_t chunk_columns = 1;  // C (numeric groups: their chunks are written by write_chunks)
  };
  std::vector<Group> groups;
  int deflate = 1;
  bool filtered = false;      // the numeric value datasets have the shuffle and deflate filters
  bool compress_all = false;  // never store a chunk raw to keep up: wait instead
  std::size_t block = 1;      // rows per block (B)

  // The run thread's side.
  Block current;                // the block being filled
  std::size_t block_start = 0;  // first row of the current block
  std::size_t buffered = 0;     // rows buffered in it
  std::size_t rows = 0;         // rows accepted
  std::chrono::steady_clock::time_point last_handed{};
  bool closed = false;

  // The writer thread's side: jobs in order, at most kQueuedJobs waiting.
  struct Job {
    Block data;
    std::size_t start = 0;  // the block's first row
    std::size_t count = 0;  // rows of it to write
    bool interim = false;   // a copy of a partial block, rewritten later: its chunks are stored raw
  };
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Job> queue;
  std::vector<Block> spares;  // written blocks, reused
  bool busy = false;          // the writer thread is writing a job
  bool stopping = false;
  std::exception_ptr error;   // the first failure of the writer thread
  std::size_t flushed = 0;    // rows on disk as of the last flush
  std::thread writer;
  std::chrono::steady_clock::time_point opened = std::chrono::steady_clock::now();
  // Set by close_rows() (under the mutex): compress until then, raw after.
  std::optional<std::chrono::steady_clock::time_point> drain_deadline;
  std::size_t drain_bytes = 0;                  // compressed regardless of the deadline
  std::atomic<std::size_t> drained_bytes{0};    // deflated since the deadline was set
  bool rows_closed = false;   // close_rows() done: the writer thread has ended
  std::exception_ptr rows_failure;  // what close_rows() threw, thrown again by a later call
  // The writer thread's chunk buffers (B × C elements of 8 bytes each) and counts.
  std::vector<unsigned char> chunk_buffer, shuffle_buffer, packed_buffer;
  z_stream deflater{};  // the writer thread's, set up at its first chunk
  bool deflater_ready = false;
  // Counted by the writer thread for the chunks written for good (not the interim copies).
  std::atomic<std::uint64_t> chunks_compressed{0}, chunks_raw_behind{0}, chunks_raw_incompressible{0},
      chunks_final{0};

  ~Impl() {
    stop();
    if (deflater_ready) deflateEnd(&deflater);
  }

  // hdf5_writer_objects.cpp (write_numbers: hdf5_writer.cpp): the objects of the file's layout
  // (groups, datasets, attributes) and its failures.
  [[noreturn]] void fail(const std::string& what, std::size_t rows_so_far, std::size_t on_disk);
  [[noreturn]] void fail(const std::string& what) { fail(what, rows, 0); }

  void check(herr_t status, const char* what);
  void write_strings(hid_t parent, const char* name, const std::vector<std::string>& texts);
  template <typename T>
  void write_numbers(hid_t parent, const char* name, hid_t file_type, hid_t memory_type, const std::vector<T>& v);
  void string_attribute(hid_t object, const char* name, const std::string& value);

  // An extendible dataset [0 × width] (rank 1 when width is 0) chunked
  // `chunk_rows` × `chunk_columns`, deflated unless it holds strings.
  Handle extendible(hid_t parent, const char* name, hid_t type, std::size_t width, std::size_t chunk_rows,
                    std::size_t chunk_columns, bool compress);

  // hdf5_writer_thread.cpp: the blocks, the writer thread, the chunks it makes.
  // An empty block sized for B rows.
  Block make_block() const;

  // Writer thread: true when a chunk should be compressed now: always with
  // --hdf5-compress-all; else while no block waits behind the one being
  // written, and after the last row until the drain deadline. (Compressing
  // only with an empty queue leaves the run kQueuedJobs blocks of slack for
  // a writer thread that a loaded machine schedules late.)
  bool keeping_up();

  // Run thread: from now on the writer thread compresses for at most
  // `share` of the time the file has been open, or `bytes` if that is more.
  void set_drain_deadline(double share, std::size_t bytes);

  // Writer thread: deflates shuffle_buffer[0, bytes) into packed_buffer (a
  // zlib stream, as H5Z_FILTER_DEFLATE writes: compress2's window and
  // memory level) a slice at a time. `smaller`: `stored` holds its size;
  // `not_smaller`: it would not be smaller than the raw chunk; `behind`: the
  // writer thread fell behind the run meanwhile (keeping_up()).
  enum class Deflated { smaller, not_smaller, behind };
  Deflated deflate_chunk(std::size_t bytes, std::size_t& stored);

  // Writer thread: the chunks of group `g`'s values in `job` (rows start ..
  // start+count), column chunk by column chunk: gathered (zero beyond the
  // rows and the columns), converted to the file type, shuffled and deflated
  // unless stored raw (hdf5_writer.h), written with H5Dwrite_chunk.
  template <typename Fail>
  void write_chunks(const Group& g, hid_t memory_type, const unsigned char* values, const Job& job, Fail&& check_job);

  // Writer thread: writes `job` (rows start .. start+count, the datasets
  // grow to hold them) and flushes the file. Throws Error(output).
  void write_job(const Job& job, std::size_t on_disk);

  // The writer thread: jobs in order until stopped; after a failure it
  // keeps the error and drops the jobs that follow.
  void run_writer();
  void rethrow_failure();

  // Run thread: hands the buffered rows to the writer thread (the whole
  // block when full, a copy of its first rows otherwise), waiting while
  // kQueuedJobs are queued. `wait`: returns once they are on disk. `last`:
  // no row follows (a partial block is then written for good).
  void hand_over(bool wait, bool last);
  void stop();
};

}  // namespace lsdae::results

#endif  // LSDAE_RUNTIME_RESULTS_HDF5_WRITER_IMPL_H
