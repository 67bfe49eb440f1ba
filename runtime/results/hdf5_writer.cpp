// runtime/results/hdf5_writer.cpp -- see hdf5_writer.h.
#include "results/hdf5_writer.h"
#include "results/hdf5_handle.h"

#include <hdf5.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "lsdae/error.h"

namespace lsdae::results {

namespace {

using hdf5::Handle;

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

// H5Z_FILTER_SHUFFLE's transform: byte k of every element of `in` (n
// elements of `size` bytes) goes to out[k·n ...]. For size 1 it is a copy,
// as the filter leaves such data alone.
void shuffle_bytes(const unsigned char* in, std::size_t n, std::size_t size, unsigned char* out) {
  if (size == 1) {
    std::memcpy(out, in, n);
    return;
  }
  for (std::size_t k = 0; k < size; ++k) {
    unsigned char* to = out + k * n;
    const unsigned char* from = in + k;
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i * size];
  }
}

// The file type that holds an FMI type exactly.
hid_t file_type_of(VariableType type, hid_t vlen_string) {
  switch (type) {
    case VariableType::float32: return H5T_IEEE_F32LE;
    case VariableType::float64: return H5T_IEEE_F64LE;
    case VariableType::int8: return H5T_STD_I8LE;
    case VariableType::uint8: return H5T_STD_U8LE;
    case VariableType::int16: return H5T_STD_I16LE;
    case VariableType::uint16: return H5T_STD_U16LE;
    case VariableType::int32: return H5T_STD_I32LE;
    case VariableType::uint32: return H5T_STD_U32LE;
    case VariableType::int64: return H5T_STD_I64LE;
    case VariableType::uint64: return H5T_STD_U64LE;
    case VariableType::boolean: return H5T_STD_U8LE;
    case VariableType::enumeration: return H5T_STD_I64LE;
    case VariableType::string:
    case VariableType::binary:
    case VariableType::clock: return vlen_string;
  }
  return H5T_IEEE_F64LE;
}

}  // namespace

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

struct Hdf5Writer::Impl {
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

  [[noreturn]] void fail(const std::string& what, std::size_t rows_so_far, std::size_t on_disk) {
    const std::string cause = hdf5::error_message();
    const int error_number = errno;
    throw Error(ErrorKind::output,
                "results: writing \"" + path.string() + "\" failed after " + std::to_string(rows_so_far) + " row" +
                    (rows_so_far == 1 ? "" : "s") + " (" + what + (cause.empty() ? "" : ": " + cause) +
                    "); the file holds the " + std::to_string(on_disk) + " rows of its last flush → " +
                    (error_number == ENOSPC ? "free disk space"
                     : error_number == EFBIG ? "raise the file-size limit (ulimit -f) or write fewer rows"
                                             : "check the disk and the path"));
  }
  [[noreturn]] void fail(const std::string& what) { fail(what, rows, 0); }

  void check(herr_t status, const char* what) {
    if (status < 0) fail(what);
  }

  void write_strings(hid_t parent, const char* name, const std::vector<std::string>& texts) {
    const hsize_t n = texts.size();
    Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    Handle set(H5Dcreate2(parent, name, vlen_string.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
               H5Dclose);
    if (!set.valid()) fail(std::string("creating ") + name);
    std::vector<const char*> pointers;
    pointers.reserve(texts.size());
    for (const auto& t : texts) pointers.push_back(t.c_str());
    if (n > 0) check(H5Dwrite(set.get(), vlen_string.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()), name);
  }

  template <typename T>
  void write_numbers(hid_t parent, const char* name, hid_t file_type, hid_t memory_type, const std::vector<T>& v) {
    const hsize_t n = v.size();
    Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    Handle set(H5Dcreate2(parent, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    if (!set.valid()) fail(std::string("creating ") + name);
    if (n > 0) check(H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), name);
  }

  void string_attribute(hid_t object, const char* name, const std::string& value) {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    if (H5Aexists(object, name) > 0) H5Adelete(object, name);
    Handle attribute(H5Acreate2(object, name, vlen_string.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    if (!attribute.valid()) fail(std::string("creating the attribute ") + name);
    const char* text = value.c_str();
    check(H5Awrite(attribute.get(), vlen_string.get(), &text), name);
  }

  // An extendible dataset [0 × width] (rank 1 when width is 0) chunked
  // `chunk_rows` × `chunk_columns`, deflated unless it holds strings.
  Handle extendible(hid_t parent, const char* name, hid_t type, std::size_t width, std::size_t chunk_rows,
                    std::size_t chunk_columns, bool compress) {
    const int rank = width == 0 ? 1 : 2;
    const hsize_t dims[2] = {0, width}, max[2] = {H5S_UNLIMITED, width};
    const hsize_t chunk[2] = {chunk_rows, std::max<std::size_t>(chunk_columns, 1)};
    Handle space(H5Screate_simple(rank, dims, max), H5Sclose);
    Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    check(H5Pset_chunk(dcpl.get(), rank, chunk), "setting the chunk size");
    if (compress && filtered) {
      H5Pset_shuffle(dcpl.get());
      H5Pset_deflate(dcpl.get(), static_cast<unsigned>(deflate));
    }
    // The chunk cache holds a whole block row of chunks (written once per flush).
    Handle dapl(H5Pcreate(H5P_DATASET_ACCESS), H5Pclose);
    const std::size_t element = H5Tget_size(type);
    const std::size_t across = rank == 1 ? 1 : (width + chunk[1] - 1) / chunk[1];
    const std::size_t cache = std::max<std::size_t>(1u << 20, 2 * across * chunk[0] * chunk[1] * element);
    H5Pset_chunk_cache(dapl.get(), 12421, cache, 1.0);
    Handle set(H5Dcreate2(parent, name, type, space.get(), H5P_DEFAULT, dcpl.get(), dapl.get()), H5Dclose);
    if (!set.valid()) fail(std::string("creating ") + name);
    return set;
  }

  // An empty block sized for B rows.
  Block make_block() const {
    Block b;
    b.times.resize(block);
    b.events.resize(block);
    b.groups.resize(groups.size());
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const std::size_t size = block * groups[i].columns.size();
      switch (groups[i].storage) {
        case ValueStorage::real: b.groups[i].reals.resize(size); break;
        case ValueStorage::integer: b.groups[i].integers.resize(size); break;
        case ValueStorage::unsigned_integer: b.groups[i].unsigned_integers.resize(size); break;
        case ValueStorage::text: b.groups[i].texts.resize(size); break;
      }
    }
    return b;
  }

  // Writer thread: true when a chunk should be compressed now: always with
  // --hdf5-compress-all; else while no block waits behind the one being
  // written, and after the last row until the drain deadline. (Compressing
  // only with an empty queue leaves the run kQueuedJobs blocks of slack for
  // a writer thread that a loaded machine schedules late.)
  bool keeping_up() {
    if (compress_all) return true;
    std::lock_guard lock(mutex);
    if (drain_deadline)
      return std::chrono::steady_clock::now() < *drain_deadline || drained_bytes.load() < drain_bytes;
    return queue.empty();
  }

  // Run thread: from now on the writer thread compresses for at most
  // `share` of the time the file has been open, or `bytes` if that is more.
  void set_drain_deadline(double share, std::size_t bytes) {
    const auto now = std::chrono::steady_clock::now();
    std::lock_guard lock(mutex);
    drain_deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>((now - opened) * share);
    drain_bytes = bytes;
    drained_bytes = 0;
  }

  // Writer thread: deflates shuffle_buffer[0, bytes) into packed_buffer (a
  // zlib stream, as H5Z_FILTER_DEFLATE writes: compress2's window and
  // memory level) a slice at a time. `smaller`: `stored` holds its size;
  // `not_smaller`: it would not be smaller than the raw chunk; `behind`: the
  // writer thread fell behind the run meanwhile (keeping_up()).
  enum class Deflated { smaller, not_smaller, behind };
  Deflated deflate_chunk(std::size_t bytes, std::size_t& stored) {
    if (!deflater_ready) {
      if (deflateInit2(&deflater, deflate, Z_DEFLATED, 15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return Deflated::not_smaller;
      deflater_ready = true;
    } else if (deflateReset(&deflater) != Z_OK) {
      return Deflated::not_smaller;
    }
    deflater.next_out = packed_buffer.data();
    deflater.avail_out = static_cast<uInt>(bytes - 1);  // only a smaller chunk is worth it
    for (std::size_t offset = 0; offset < bytes; offset += kDeflateSlice) {
      if (offset > 0 && !keeping_up()) return Deflated::behind;
      const std::size_t slice = std::min(kDeflateSlice, bytes - offset);
      deflater.next_in = shuffle_buffer.data() + offset;
      deflater.avail_in = static_cast<uInt>(slice);
      const bool last = offset + slice == bytes;
      const int status = ::deflate(&deflater, last ? Z_FINISH : Z_NO_FLUSH);
      drained_bytes += slice;
      if (status == Z_STREAM_END) {
        stored = deflater.total_out;
        return Deflated::smaller;
      }
      if (deflater.avail_out == 0 || (status != Z_OK && status != Z_BUF_ERROR)) return Deflated::not_smaller;
    }
    return Deflated::not_smaller;
  }

  // Writer thread: the chunks of group `g`'s values in `job` (rows start ..
  // start+count), column chunk by column chunk: gathered (zero beyond the
  // rows and the columns), converted to the file type, shuffled and deflated
  // unless stored raw (hdf5_writer.h), written with H5Dwrite_chunk.
  template <typename Fail>
  void write_chunks(const Group& g, hid_t memory_type, const unsigned char* values, const Job& job, Fail&& check_job) {
    const std::size_t n = g.columns.size(), width = g.chunk_columns;
    const std::size_t elements = block * width;
    const hid_t file_type = H5Dget_type(g.values.get());
    Handle file_type_handle(file_type, H5Tclose);
    const std::size_t size = H5Tget_size(file_type);
    const bool convert = H5Tequal(memory_type, file_type) <= 0;
    chunk_buffer.resize(elements * 8);
    for (std::size_t first = 0; first < n; first += width) {
      const std::size_t across = std::min(width, n - first);
      if (across < width || job.count < block) std::fill(chunk_buffer.begin(), chunk_buffer.end(), 0);
      for (std::size_t r = 0; r < job.count; ++r)
        std::memcpy(chunk_buffer.data() + r * width * 8, values + (r * n + first) * 8, across * 8);
      if (convert)
        check_job(H5Tconvert(memory_type, file_type, elements, chunk_buffer.data(), nullptr, H5P_DEFAULT),
                  "converting values to the file type");
      const std::size_t bytes = elements * size;
      const unsigned char* data = chunk_buffer.data();
      std::size_t stored = bytes;
      std::uint32_t mask = 0;
      if (filtered) {
        mask = kRawChunkMask;
        if (job.interim) {
          // raw: rewritten with the full block
        } else if (!keeping_up()) {
          ++chunks_raw_behind;
        } else {
          shuffle_buffer.resize(bytes);
          shuffle_bytes(chunk_buffer.data(), elements, size, shuffle_buffer.data());
          packed_buffer.resize(bytes);
          switch (deflate_chunk(bytes, stored)) {
            case Deflated::smaller:
              data = packed_buffer.data();
              mask = 0;
              ++chunks_compressed;
              break;
            case Deflated::not_smaller: ++chunks_raw_incompressible; break;
            case Deflated::behind: ++chunks_raw_behind; break;
          }
        }
      }
      if (!job.interim) ++chunks_final;
      const hsize_t offset[2] = {job.start, first};
      check_job(H5Dwrite_chunk(g.values.get(), H5P_DEFAULT, mask, offset, stored, data), "writing a chunk");
    }
  }

  // Writer thread: writes `job` (rows start .. start+count, the datasets
  // grow to hold them) and flushes the file. Throws Error(output).
  void write_job(const Job& job, std::size_t on_disk) {
    const hsize_t end = job.start + job.count;
    auto check_job = [&](herr_t status, const char* what) {
      if (status < 0) fail(what, end, on_disk);
    };
    auto grow = [&](hid_t set, std::size_t width) {
      const hsize_t extent[2] = {end, width};
      check_job(H5Dset_extent(set, extent), "extending a dataset");
    };
    auto put = [&](hid_t set, hid_t memory_type, const void* data, std::size_t width) {
      const int rank = width == 0 ? 1 : 2;
      grow(set, width);
      Handle file_space(H5Dget_space(set), H5Sclose);
      const hsize_t start[2] = {job.start, 0}, count[2] = {job.count, width};
      check_job(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr),
                "selecting rows");
      Handle memory_space(H5Screate_simple(rank, count, nullptr), H5Sclose);
      check_job(H5Dwrite(set, memory_type, memory_space.get(), file_space.get(), H5P_DEFAULT, data), "writing rows");
    };
    put(time_set.get(), H5T_NATIVE_DOUBLE, job.data.times.data(), 0);
    put(event_set.get(), H5T_NATIVE_SCHAR, job.data.events.data(), 0);
    std::vector<const char*> pointers;
    for (std::size_t i = 0; i < groups.size(); ++i) {
      const Group& g = groups[i];
      const Block::Values& v = job.data.groups[i];
      const std::size_t n = g.columns.size();
      auto bytes = [](const auto& vector) { return reinterpret_cast<const unsigned char*>(vector.data()); };
      switch (g.storage) {
        case ValueStorage::real:
          grow(g.values.get(), n);
          write_chunks(g, H5T_NATIVE_DOUBLE, bytes(v.reals), job, check_job);
          break;
        case ValueStorage::integer:
          grow(g.values.get(), n);
          write_chunks(g, H5T_NATIVE_INT64, bytes(v.integers), job, check_job);
          break;
        case ValueStorage::unsigned_integer:
          grow(g.values.get(), n);
          write_chunks(g, H5T_NATIVE_UINT64, bytes(v.unsigned_integers), job, check_job);
          break;
        case ValueStorage::text:
          pointers.clear();
          for (std::size_t k = 0; k < job.count * n; ++k) pointers.push_back(v.texts[k].c_str());
          put(g.values.get(), vlen_string.get(), pointers.data(), n);
          break;
      }
    }
    check_job(H5Fflush(file.get(), H5F_SCOPE_LOCAL), "flushing");
  }

  // The writer thread: jobs in order until stopped; after a failure it
  // keeps the error and drops the jobs that follow.
  void run_writer() {
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // per thread in a thread-safe HDF5
    std::unique_lock lock(mutex);
    for (;;) {
      changed.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;
      Job job = std::move(queue.front());
      queue.pop_front();
      busy = true;
      const std::size_t on_disk = flushed;
      const bool failed = error != nullptr;
      lock.unlock();
      std::exception_ptr caught;
      if (!failed) {
        try {
          write_job(job, on_disk);
        } catch (...) {
          caught = std::current_exception();
        }
      }
      lock.lock();
      busy = false;
      if (caught != nullptr) error = caught;
      else if (!failed) flushed = job.start + job.count;
      spares.push_back(std::move(job.data));
      changed.notify_all();
    }
  }

  void rethrow_failure() {
    std::lock_guard lock(mutex);
    if (error != nullptr) std::rethrow_exception(error);
  }

  // Run thread: hands the buffered rows to the writer thread (the whole
  // block when full, a copy of its first rows otherwise), waiting while
  // kQueuedJobs are queued. `wait`: returns once they are on disk. `last`:
  // no row follows (a partial block is then written for good).
  void hand_over(bool wait, bool last) {
    if (buffered == 0) return;
    Job job;
    job.start = block_start;
    job.count = buffered;
    job.interim = buffered < block && !last;
    Block spare;
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return queue.size() < kQueuedJobs || error != nullptr; });
      if (error != nullptr) std::rethrow_exception(error);
      if (!spares.empty()) {
        spare = std::move(spares.back());
        spares.pop_back();
      }
    }
    if (spare.times.empty()) spare = make_block();
    if (buffered == block) {  // the block is complete: the next one starts
      job.data = std::move(current);
      current = std::move(spare);
      block_start += block;
      buffered = 0;
    } else {  // a copy of the rows so far; they are written again with the full block
      job.data = std::move(spare);
      std::copy_n(current.times.begin(), buffered, job.data.times.begin());
      std::copy_n(current.events.begin(), buffered, job.data.events.begin());
      for (std::size_t i = 0; i < groups.size(); ++i) {
        const std::size_t size = buffered * groups[i].columns.size();
        const Block::Values& from = current.groups[i];
        Block::Values& to = job.data.groups[i];
        switch (groups[i].storage) {
          case ValueStorage::real: std::copy_n(from.reals.begin(), size, to.reals.begin()); break;
          case ValueStorage::integer: std::copy_n(from.integers.begin(), size, to.integers.begin()); break;
          case ValueStorage::unsigned_integer:
            std::copy_n(from.unsigned_integers.begin(), size, to.unsigned_integers.begin());
            break;
          case ValueStorage::text: std::copy_n(from.texts.begin(), size, to.texts.begin()); break;
        }
      }
    }
    const std::size_t end = job.start + job.count;
    last_handed = std::chrono::steady_clock::now();
    std::unique_lock lock(mutex);
    queue.push_back(std::move(job));
    changed.notify_all();
    if (wait) {
      changed.wait(lock, [&] { return flushed >= end || error != nullptr; });
      if (error != nullptr) std::rethrow_exception(error);
    }
  }

  void stop() {
    {
      std::lock_guard lock(mutex);
      stopping = true;
    }
    changed.notify_all();
    if (writer.joinable()) writer.join();
  }
};

Hdf5Writer::Hdf5Writer(const std::filesystem::path& path, const std::vector<Column>& columns,
                       const std::string& model_name, int deflate, bool compress_all)
    : m_(std::make_unique<Impl>()) {
  Impl& m = *m_;
  m.path = path;
  m.deflate = std::clamp(deflate, 0, 9);
  m.compress_all = compress_all;
  // A file whose flush failed (disk full, file-size limit) cannot be closed:
  // HDF5 keeps its ID, and its at-exit clean-up then crashes closing it again
  // (libhdf5 1.10.8: SIGSEGV in H5F__close_cb), turning exit code 9 into a
  // crash. Every file lsdae writes is closed (or left as flushed) by its
  // writer, so the at-exit clean-up has nothing to do: it is switched off.
  // Effective when this is the process's first HDF5 call (keep it first);
  // harmless otherwise.
  H5dont_atexit();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // errors become our messages, not HDF5's printout
  m.filtered = m.deflate > 0 && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0;
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18);
  errno = 0;
  m.file = Handle(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
  if (!m.file.valid()) {
    const std::string cause = hdf5::error_message();
    throw Error(ErrorKind::output, "results: cannot create \"" + path.string() + "\" (HDF5" +
                                       (cause.empty() ? "" : ": " + cause) +
                                       ") → check the folder exists and is writable");
  }
  m.vlen_string = Handle(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(m.vlen_string.get(), H5T_VARIABLE);
  H5Tset_cset(m.vlen_string.get(), H5T_CSET_UTF8);

  // Columns grouped by FMI type, in the order types first appear.
  std::map<VariableType, std::size_t> group_of;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    VariableType type = columns[c].type;
    auto [it, fresh] = group_of.emplace(type, m.groups.size());
    if (fresh) m.groups.push_back({type, storage_of(type), {}, {}});
    m.groups[it->second].columns.push_back(c);
  }
  std::size_t row_bytes = 9;  // time and event
  for (const auto& g : m.groups) row_bytes += g.columns.size() * (g.storage == ValueStorage::text ? 32 : 8);
  m.block = std::clamp<std::size_t>(kBlockBytes / row_bytes, 1, kMaxBlockRows);
  const std::size_t chunk_columns = std::max<std::size_t>(kChunkBytes / (8 * m.block), 1);

  m.string_attribute(m.file.get(), "format", "lsdae-results 1");
  m.string_attribute(m.file.get(), "model", model_name);
  m.time_set = m.extendible(m.file.get(), "time", H5T_IEEE_F64LE, 0, std::max<std::size_t>(m.block, 1024), 1, true);
  m.string_attribute(m.time_set.get(), "unit", "s");
  m.event_set = m.extendible(m.file.get(), "event", H5T_STD_I8LE, 0, std::max<std::size_t>(m.block, 1024), 1, true);
  m.string_attribute(m.event_set.get(), "meaning", "0 an output point, 1 just before an event, 2 just after it");
  for (auto& g : m.groups) {
    const char* type_name = to_string(g.type);
    Handle group(H5Gcreate2(m.file.get(), type_name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!group.valid()) m.fail(std::string("creating the group ") + type_name);
    const std::size_t n = g.columns.size();
    std::vector<std::string> names, units, descriptions, causalities, variabilities;
    std::vector<std::uint32_t> references;
    std::vector<std::uint64_t> places;
    for (std::size_t c : g.columns) {
      names.push_back(columns[c].name);
      units.push_back(columns[c].unit);
      descriptions.push_back(columns[c].description);
      causalities.push_back(to_string(columns[c].causality));
      variabilities.push_back(to_string(columns[c].variability));
      references.push_back(columns[c].value_reference);
      places.push_back(c);
    }
    m.write_strings(group.get(), "name", names);
    m.write_strings(group.get(), "unit", units);
    m.write_strings(group.get(), "description", descriptions);
    m.write_strings(group.get(), "causality", causalities);
    m.write_strings(group.get(), "variability", variabilities);
    m.write_numbers(group.get(), "value_reference", H5T_STD_U32LE, H5T_NATIVE_UINT32, references);
    m.write_numbers(group.get(), "column", H5T_STD_U64LE, H5T_NATIVE_UINT64, places);
    const bool text = g.storage == ValueStorage::text;
    g.chunk_columns = std::max<std::size_t>(std::min(n, chunk_columns), 1);
    g.values = m.extendible(group.get(), "values", file_type_of(g.type, m.vlen_string.get()), n, m.block,
                            g.chunk_columns, !text);
  }
  m.current = m.make_block();
  m.check(H5Fflush(m.file.get(), H5F_SCOPE_LOCAL), "flushing");
  // From here on only the writer thread calls HDF5, until finish() or the
  // destructor has stopped it.
  m.writer = std::thread([&m] { m.run_writer(); });
}

Hdf5Writer::~Hdf5Writer() {
  if (!m_->closed && !m_->rows_closed) {
    m_->set_drain_deadline(0.0, 0);  // unwinding after a failure: the rows raw, at once
    try {
      m_->hand_over(false, true);
    } catch (...) {
      // the rows of the last flush stay
    }
    m_->stop();  // writes what is queued
  }
}

std::size_t Hdf5Writer::rows() const { return m_->rows; }
std::size_t Hdf5Writer::block_rows() const { return m_->block; }

void Hdf5Writer::write_row(double time, const RowValues& values, RowKind kind) {
  Impl& m = *m_;
  if (m.closed || m.rows_closed) throw Error(ErrorKind::internal, "results: a row after close_rows() or finish()");
  m.rethrow_failure();
  const std::size_t r = m.buffered;
  Block& b = m.current;
  b.times[r] = time;
  b.events[r] = static_cast<signed char>(kind);
  for (std::size_t i = 0; i < m.groups.size(); ++i) {
    const auto& columns = m.groups[i].columns;
    Block::Values& v = b.groups[i];
    const std::size_t n = columns.size();
    switch (m.groups[i].storage) {
      case ValueStorage::real:
        for (std::size_t k = 0; k < n; ++k) v.reals[r * n + k] = values.real(columns[k]);
        break;
      case ValueStorage::integer:
        for (std::size_t k = 0; k < n; ++k) v.integers[r * n + k] = values.integer(columns[k]);
        break;
      case ValueStorage::unsigned_integer:
        for (std::size_t k = 0; k < n; ++k) v.unsigned_integers[r * n + k] = values.unsigned_integer(columns[k]);
        break;
      case ValueStorage::text:
        for (std::size_t k = 0; k < n; ++k) v.texts[r * n + k] = values.text(columns[k]);
        break;
    }
  }
  ++m.buffered;
  ++m.rows;
  const bool first = m.rows == 1;  // on disk at once: the file is readable from the first row
  if (first || m.buffered == m.block ||
      std::chrono::duration<double>(std::chrono::steady_clock::now() - m.last_handed).count() >= kFlushSeconds)
    m.hand_over(first, false);
}

void Hdf5Writer::close_rows() {
  Impl& m = *m_;
  if (m.closed) return;
  if (!m.rows_closed) {
    m.rows_closed = true;
    m.set_drain_deadline(kDrainShare, kDrainBytes);
    try {
      m.hand_over(false, true);
    } catch (...) {
      m.rows_failure = std::current_exception();
    }
    m.stop();  // the writer thread writes what is queued and ends: HDF5 is ours again
    if (m.rows_failure == nullptr) m.rows_failure = m.error;
  }
  if (m.rows_failure != nullptr) std::rethrow_exception(m.rows_failure);
}

std::vector<std::pair<std::string, std::uint64_t>> Hdf5Writer::statistics() const {
  const Impl& m = *m_;
  return {{"chunks", m.chunks_final.load()},
          {"chunks_compressed", m.chunks_compressed.load()},
          {"chunks_raw_writer_behind", m.chunks_raw_behind.load()},
          {"chunks_raw_incompressible", m.chunks_raw_incompressible.load()}};
}

void Hdf5Writer::finish(const std::string& statistics_json) {
  Impl& m = *m_;
  if (m.closed) return;
  close_rows();  // throws the writer thread's failure; the destructor then leaves the file as flushed
  m.closed = true;
  m.string_attribute(m.file.get(), "statistics", statistics_json);
  for (auto& g : m.groups) g.values.reset();
  m.time_set.reset();
  m.event_set.reset();
  const herr_t status = H5Fclose(m.file.release());
  if (status < 0) m.fail("closing", m.rows, m.flushed);
}

}  // namespace lsdae::results
