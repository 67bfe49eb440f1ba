// runtime/results/hdf5_writer.cpp -- see hdf5_writer.h: the file's layout (groups, datasets,
// attributes) and the run thread's calls; the writer thread is in hdf5_writer_thread.cpp, the
// HDF5 objects the layout is made of and the failure message in hdf5_writer_objects.cpp.
#include "results/hdf5_writer.h"
#include "results/hdf5_handle.h"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "lsdae/error.h"
#include "results/hdf5_writer_impl.h"

namespace lsdae::results {

namespace {

using hdf5::Handle;
using namespace hdf5_writer;

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

template <typename T>
void Hdf5Writer::Impl::write_numbers(hid_t parent, const char* name, hid_t file_type, hid_t memory_type,
                                     const std::vector<T>& v) {
  const hsize_t n = v.size();
  Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
  Handle set(H5Dcreate2(parent, name, file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
  if (!set.valid()) fail(std::string("creating ") + name);
  if (n > 0) check(H5Dwrite(set.get(), memory_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), name);
}

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
