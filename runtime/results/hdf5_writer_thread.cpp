// runtime/results/hdf5_writer_thread.cpp -- the writer thread of an Hdf5Writer (hdf5_writer.h,
// "The writer thread" and "Chunks and compression"): the run thread hands blocks over through a
// queue of at most kQueuedJobs; the writer thread gathers each block's chunks, converts them to
// the file type, shuffles and deflates them as HDF5's two filters do (or stores them raw when it
// falls behind or deflate does not help), writes them with H5Dwrite_chunk and flushes.
#include <hdf5.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>
#include <thread>

#include "lsdae/error.h"
#include "results/hdf5_handle.h"
#include "results/hdf5_writer_impl.h"

namespace lsdae::results {

namespace {

using namespace hdf5_writer;

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

}  // namespace

Block Hdf5Writer::Impl::make_block() const {
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

bool Hdf5Writer::Impl::keeping_up() {
  if (compress_all) return true;
  std::lock_guard lock(mutex);
  if (drain_deadline)
    return std::chrono::steady_clock::now() < *drain_deadline || drained_bytes.load() < drain_bytes;
  return queue.empty();
}

void Hdf5Writer::Impl::set_drain_deadline(double share, std::size_t bytes) {
  const auto now = std::chrono::steady_clock::now();
  std::lock_guard lock(mutex);
  drain_deadline = now + std::chrono::duration_cast<std::chrono::steady_clock::duration>((now - opened) * share);
  drain_bytes = bytes;
  drained_bytes = 0;
}

Hdf5Writer::Impl::Deflated Hdf5Writer::Impl::deflate_chunk(std::size_t bytes, std::size_t& stored) {
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

template <typename Fail>
void Hdf5Writer::Impl::write_chunks(const Group& g, hid_t memory_type, const unsigned char* values, const Job& job,
                                    Fail&& check_job) {
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

void Hdf5Writer::Impl::write_job(const Job& job, std::size_t on_disk) {
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

void Hdf5Writer::Impl::run_writer() {
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

void Hdf5Writer::Impl::rethrow_failure() {
  std::lock_guard lock(mutex);
  if (error != nullptr) std::rethrow_exception(error);
}

void Hdf5Writer::Impl::hand_over(bool wait, bool last) {
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

void Hdf5Writer::Impl::stop() {
  {
    std::lock_guard lock(mutex);
    stopping = true;
  }
  changed.notify_all();
  if (writer.joinable()) writer.join();
}

}  // namespace lsdae::results
