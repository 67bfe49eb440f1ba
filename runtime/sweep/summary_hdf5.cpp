// runtime/sweep/summary_hdf5.cpp -- a sweep's summary as HDF5 (the layout,
// the append order and the resume rules: summary_file.h).
#include "sweep/summary_hdf5.h"

#include <hdf5.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>

#include "lsdae/error.h"
#include "results/hdf5_handle.h"
#include "sweep/csv_line.h"

namespace lsdae::sweep {

namespace {

using results::hdf5::Handle;
using namespace summary_detail;

// ---- HDF5 --------------------------------------------------------------------

constexpr const char* kFormat = "lsdae-sweep-summary 1";
constexpr hsize_t kChunkRows = 64;

// Variable-length UTF-8 strings, the type of /id, /status, /message.
Handle text_type() {
  Handle text(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(text.get(), H5T_VARIABLE);
  H5Tset_cset(text.get(), H5T_CSET_UTF8);
  return text;
}

// As results/hdf5_writer.cpp: HDF5's own printout off (its errors become our
// messages) and no at-exit clean-up of a file whose flush failed.
void quiet_hdf5() {
  H5dont_atexit();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
}

// Says what makes a file not a summary lsdae wrote; throws.
using NotASummary = std::function<void(const std::string& what)>;

Handle open_set(hid_t file, const char* name, const NotASummary& not_a_summary) {
  if (H5Lexists(file, name, H5P_DEFAULT) <= 0) not_a_summary(std::string("no dataset /") + name);
  Handle set(H5Dopen2(file, name, H5P_DEFAULT), H5Dclose);
  if (!set.valid()) not_a_summary(std::string("/") + name + " cannot be opened");
  return set;
}

// The number of rows of a dataset (its first dimension).
hsize_t length(hid_t set) {
  Handle space(H5Dget_space(set), H5Sclose);
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_ndims(space.get()) > 2) return 0;
  H5Sget_simple_extent_dims(space.get(), dims, nullptr);
  return dims[0];
}

// The root attribute that counts the complete rows. A row is appended and
// flushed, and only then this count raised and flushed again: HDF5 writes a
// flush's dirty metadata in its own order, not the program's, so a kill in
// the middle of the first flush can leave /id one row longer than /steps
// (seen in CI); the count is one attribute, written after all that is on disk.
constexpr const char* kCompleteRows = "complete_rows";
constexpr const char* kRowSets[] = {"id", "status", "message", "reached_time", "steps", "wall_time_s", "metrics"};

// The complete rows of an open summary: its complete_rows attribute; a file
// written before it (no attribute) counts the rows every dataset holds. A
// dataset shorter than the count is a damaged file.
hsize_t complete_rows(hid_t file, const NotASummary& not_a_summary) {
  std::optional<hsize_t> shortest;
  for (const char* name : kRowSets) {
    if (std::strcmp(name, "metrics") == 0 && H5Lexists(file, name, H5P_DEFAULT) <= 0) continue;
    Handle set = open_set(file, name, not_a_summary);
    const hsize_t n = length(set.get());
    shortest = std::min(shortest.value_or(n), n);
  }
  if (H5Aexists(file, kCompleteRows) <= 0) return shortest.value_or(0);
  Handle attribute(H5Aopen(file, kCompleteRows, H5P_DEFAULT), H5Aclose);
  std::int64_t rows = -1;
  if (!attribute.valid() || H5Aread(attribute.get(), H5T_NATIVE_INT64, &rows) < 0 || rows < 0)
    not_a_summary(std::string("its ") + kCompleteRows + " attribute cannot be read as a count");
  if (static_cast<hsize_t>(rows) > shortest.value_or(0))
    not_a_summary(std::string("its ") + kCompleteRows + " attribute says " + std::to_string(rows) +
                  " rows, a dataset holds " + std::to_string(shortest.value_or(0)));
  return static_cast<hsize_t>(rows);
}

// The first `rows` (all: nullopt) strings of a one-dimensional dataset.
std::vector<std::string> read_strings(hid_t set, hid_t text, const char* name, const NotASummary& not_a_summary,
                                      std::optional<hsize_t> rows = std::nullopt) {
  Handle space(H5Dget_space(set), H5Sclose);
  hsize_t n = 0;
  if (H5Sget_simple_extent_ndims(space.get()) != 1 || H5Sget_simple_extent_dims(space.get(), &n, nullptr) < 0)
    not_a_summary(std::string("its /") + name + " is not a list");
  if (rows) {
    if (*rows > n) not_a_summary(std::string("its /") + name + " is shorter than the complete rows");
    n = *rows;
  }
  std::vector<char*> pointers(n, nullptr);
  if (n > 0) {
    const hsize_t start = 0;
    Handle mem(H5Screate_simple(1, &n, nullptr), H5Sclose);
    if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &n, nullptr) < 0 ||
        H5Dread(set, text, mem.get(), space.get(), H5P_DEFAULT, pointers.data()) < 0)
      not_a_summary(std::string("its /") + name + " cannot be read as strings");
  }
  std::vector<std::string> out;
  for (char* p : pointers) out.emplace_back(p != nullptr ? p : "");
  if (n > 0) {
    Handle mem(H5Screate_simple(1, &n, nullptr), H5Sclose);
    H5Dvlen_reclaim(text, mem.get(), H5P_DEFAULT, pointers.data());
  }
  return out;
}

// The first `rows` rows of a numeric dataset of `width` columns (0: one
// dimension), converted to `type` (a native type of T's size).
template <typename T>
std::vector<T> read_numbers(hid_t set, hid_t type, hsize_t rows, hsize_t width, const char* name,
                            const NotASummary& not_a_summary) {
  Handle space(H5Dget_space(set), H5Sclose);
  const int rank = width == 0 ? 1 : 2;
  hsize_t dims[2] = {0, 0};
  if (H5Sget_simple_extent_ndims(space.get()) != rank || H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0 ||
      dims[0] < rows || (rank == 2 && dims[1] != width))
    not_a_summary(std::string("its /") + name + " has not the shape of " + std::to_string(rows) + " rows" +
                  (rank == 2 ? " of " + std::to_string(width) : std::string()));
  const hsize_t columns = std::max<hsize_t>(width, 1);
  std::vector<T> out(rows * columns);
  if (rows == 0) return out;
  const hsize_t start[2] = {0, 0}, count[2] = {rows, width};
  const hsize_t all = rows * columns;
  Handle mem(H5Screate_simple(1, &all, nullptr), H5Sclose);
  if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
      H5Dread(set, type, mem.get(), space.get(), H5P_DEFAULT, out.data()) < 0)
    not_a_summary(std::string("its /") + name + " cannot be read as numbers");
  return out;
}

class Hdf5Summary final : public SummaryFile {
 public:
  Hdf5Summary(const std::filesystem::path& path, const std::vector<std::string>& metrics, bool resume,
              const std::string& model, const SummaryWording& wording)
      : SummaryFile(path), wording_(wording), metric_count_(metrics.size()) {
    quiet_hdf5();
    text_ = text_type();
    const std::vector<std::string> header = summary_header(metrics);
    if (resume) open_existing(header);
    else create(header, metrics, model);
  }

  ~Hdf5Summary() override {
    if (file_.valid()) H5Fflush(file_.get(), H5F_SCOPE_GLOBAL);
  }

  void append(const SummaryRow& row) override {
    if (!row.metrics.empty() && row.metrics.size() != metric_count_)
      throw Error(ErrorKind::internal, "sweep summary: a row with " + std::to_string(row.metrics.size()) +
                                           " metrics, the file has " + std::to_string(metric_count_));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (metric_count_ > 0) {
      std::vector<double> values(metric_count_, nan);
      for (std::size_t m = 0; m < row.metrics.size(); ++m) values[m] = row.metrics[m].value_or(nan);
      put(metrics_, H5T_NATIVE_DOUBLE, values.data(), "metrics");
    }
    const double reached = row.reached_time.value_or(nan);
    put(reached_time_, H5T_NATIVE_DOUBLE, &reached, "reached_time");
    const std::int64_t steps = row.steps;
    put(steps_, H5T_NATIVE_INT64, &steps, "steps");
    put(wall_time_, H5T_NATIVE_DOUBLE, &row.wall_time, "wall_time_s");
    const char* message = row.message.c_str();
    put(message_, text_.get(), &message, "message");
    const char* status = to_string(row.status);
    put(status_, text_.get(), &status, "status");
    const char* id = row.id.c_str();
    put(id_, text_.get(), &id, "id");
    if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("flushing");
    ++rows_;
    commit_rows();  // after the row is on disk: see complete_rows
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    const std::string cause = results::hdf5::error_message();
    throw Error(ErrorKind::output, quoted(wording_, path_) + ": " + what + " failed after " + std::to_string(rows_) +
                                       " row" + (rows_ == 1 ? "" : "s") +
                                       (cause.empty() ? "" : " (HDF5: " + cause + ")") +
                                       " → free disk space or choose another file; " + wording_.continues);
  }

  // Writes rows_ into the complete_rows attribute (created when a file
  // written before it is resumed) and flushes it.
  void commit_rows() {
    const std::int64_t rows = static_cast<std::int64_t>(rows_);
    Handle a;
    if (H5Aexists(file_.get(), kCompleteRows) > 0) {
      a = Handle(H5Aopen(file_.get(), kCompleteRows, H5P_DEFAULT), H5Aclose);
    } else {
      Handle space(H5Screate(H5S_SCALAR), H5Sclose);
      a = Handle(H5Acreate2(file_.get(), kCompleteRows, H5T_STD_I64LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
                 H5Aclose);
    }
    if (!a.valid() || H5Awrite(a.get(), H5T_NATIVE_INT64, &rows) < 0)
      fail(std::string("writing the attribute ") + kCompleteRows);
    if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("flushing");
  }

  Handle extendible(const char* name, hid_t type, std::size_t width) {
    const int rank = width == 0 ? 1 : 2;
    const hsize_t dims[2] = {0, width}, max[2] = {H5S_UNLIMITED, width}, chunk[2] = {kChunkRows, std::max<hsize_t>(width, 1)};
    Handle space(H5Screate_simple(rank, dims, max), H5Sclose);
    Handle dcpl(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    if (H5Pset_chunk(dcpl.get(), rank, chunk) < 0) fail(std::string("creating ") + name);
    Handle set(H5Dcreate2(file_.get(), name, type, space.get(), H5P_DEFAULT, dcpl.get(), H5P_DEFAULT), H5Dclose);
    if (!set.valid()) fail(std::string("creating ") + name);
    return set;
  }

  void fixed_strings(const char* name, const std::vector<std::string>& texts) {
    const hsize_t n = texts.size();
    Handle space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    Handle set(H5Dcreate2(file_.get(), name, text_.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
               H5Dclose);
    if (!set.valid()) fail(std::string("creating ") + name);
    std::vector<const char*> pointers;
    for (const auto& t : texts) pointers.push_back(t.c_str());
    if (n > 0 && H5Dwrite(set.get(), text_.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, pointers.data()) < 0)
      fail(std::string("writing ") + name);
  }

  void attribute(const char* name, const std::string& value) {
    Handle space(H5Screate(H5S_SCALAR), H5Sclose);
    Handle a(H5Acreate2(file_.get(), name, text_.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT), H5Aclose);
    const char* text = value.c_str();
    if (!a.valid() || H5Awrite(a.get(), text_.get(), &text) < 0) fail(std::string("writing the attribute ") + name);
  }

  void create(const std::vector<std::string>& header, const std::vector<std::string>& metrics,
              const std::string& model) {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18);
    errno = 0;
    file_ = Handle(H5Fcreate(path_.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), H5Fclose);
    if (!file_.valid()) {
      const std::string cause = results::hdf5::error_message();
      throw Error(ErrorKind::output, quoted(wording_, path_) + ": cannot be created (" +
                                         (errno != 0 ? std::string(std::strerror(errno)) : "HDF5: " + cause) +
                                         ") → check the folder exists and is writable");
    }
    attribute("format", kFormat);
    attribute("model", model);
    fixed_strings("columns", header);
    fixed_strings("metric_names", metrics);
    id_ = extendible("id", text_.get(), 0);
    status_ = extendible("status", text_.get(), 0);
    message_ = extendible("message", text_.get(), 0);
    reached_time_ = extendible("reached_time", H5T_IEEE_F64LE, 0);
    steps_ = extendible("steps", H5T_STD_I64LE, 0);
    wall_time_ = extendible("wall_time_s", H5T_IEEE_F64LE, 0);
    if (metric_count_ > 0) metrics_ = extendible("metrics", H5T_IEEE_F64LE, metric_count_);
    if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("flushing");
    commit_rows();
  }

  [[noreturn]] void not_a_summary(const std::string& what) {
    results::hdf5::error_message();
    throw Error(ErrorKind::usage, wording_.resume + ": \"" + path_.string() + "\" is not a sweep summary lsdae wrote (" +
                                      what + ") → " + wording_.new_file);
  }

  Handle open_set(const char* name) {
    return lsdae::sweep::open_set(file_.get(), name, [this](const std::string& what) { not_a_summary(what); });
  }

  void open_existing(const std::vector<std::string>& header) {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18);
    file_ = Handle(H5Fopen(path_.c_str(), H5F_ACC_RDWR, fapl.get()), H5Fclose);
    if (!file_.valid()) {
      const std::string cause = results::hdf5::error_message();
      throw Error(ErrorKind::output, wording_.resume + ": \"" + path_.string() + "\" cannot be opened as HDF5 (" +
                                         (cause.empty() ? "unknown reason" : cause) +
                                         ": not HDF5, or damaged by a kill in the middle of a flush) → " +
                                         wording_.new_file + ", or " + wording_.start_again);
    }
    const NotASummary refuse = [this](const std::string& what) { not_a_summary(what); };
    Handle columns = open_set("columns");
    check_columns(wording_, path_, read_strings(columns.get(), text_.get(), "columns", refuse), header);
    id_ = open_set("id");
    status_ = open_set("status");
    message_ = open_set("message");
    reached_time_ = open_set("reached_time");
    steps_ = open_set("steps");
    wall_time_ = open_set("wall_time_s");
    if (metric_count_ > 0) metrics_ = open_set("metrics");
    // What a kill left of a row beyond the complete ones goes.
    rows_ = complete_rows(file_.get(), refuse);
    for (Handle* set : {&id_, &status_, &message_, &reached_time_, &steps_, &wall_time_, &metrics_}) {
      if (!set->valid() || length(set->get()) == rows_) continue;
      hsize_t dims[2] = {rows_, metric_count_};
      if (H5Dset_extent(set->get(), dims) < 0) fail("cutting back a row left incomplete");
    }
    for (auto& id : read_strings(id_.get(), text_.get(), "id", refuse)) finished_.insert(std::move(id));
    if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("flushing");
    commit_rows();
  }

  // Appends one row (`data`: one element, or metric_count_ for /metrics).
  void put(const Handle& set, hid_t memory_type, const void* data, const char* name) {
    const bool matrix = &set == &metrics_;
    const hsize_t dims[2] = {rows_ + 1, metric_count_};
    if (H5Dset_extent(set.get(), dims) < 0) fail(std::string("extending /") + name);
    Handle space(H5Dget_space(set.get()), H5Sclose);
    const hsize_t start[2] = {rows_, 0}, count[2] = {1, matrix ? metric_count_ : 1};
    if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0)
      fail(std::string("selecting a row of /") + name);
    const hsize_t one = matrix ? metric_count_ : 1;
    Handle mem(H5Screate_simple(1, &one, nullptr), H5Sclose);
    if (H5Dwrite(set.get(), memory_type, mem.get(), space.get(), H5P_DEFAULT, data) < 0)
      fail(std::string("writing /") + name);
  }

  SummaryWording wording_;
  std::size_t metric_count_;
  hsize_t rows_ = 0;
  Handle file_, text_;
  Handle id_, status_, message_, reached_time_, steps_, wall_time_, metrics_;
};

}  // namespace

std::unique_ptr<SummaryFile> make_hdf5_summary(const std::filesystem::path& path,
                                               const std::vector<std::string>& metrics, bool existing,
                                               const std::string& model, const SummaryWording& wording) {
  return std::make_unique<Hdf5Summary>(path, metrics, existing, model, wording);
}

SummaryTable read_hdf5_summary(const std::filesystem::path& path) {
  quiet_hdf5();
  // Readable while a sweep still writes it (which holds HDF5 1.10's file
  // lock), as Python's lsdae.read_summary: complete_rows bounds what is read.
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_file_locking(fapl.get(), false, true);
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  if (!file.valid()) {
    const std::string cause = results::hdf5::error_message();
    throw Error(ErrorKind::output, "summary \"" + path.string() + "\": cannot be opened as HDF5 (" +
                                       (cause.empty() ? "unknown reason" : cause) +
                                       ") → give the path of a summary lsdae wrote");
  }
  const NotASummary refuse = [&path](const std::string& what) {
    results::hdf5::error_message();
    not_a_summary(path, what);
  };
  const Handle text = text_type();
  auto strings = [&](const char* name, std::optional<hsize_t> rows) {
    Handle set = open_set(file.get(), name, refuse);
    return read_strings(set.get(), text.get(), name, refuse, rows);
  };
  SummaryTable table;
  table.columns = strings("columns", std::nullopt);
  const std::size_t metrics = metric_count_of(path, table.columns);
  const hsize_t rows = complete_rows(file.get(), refuse);
  const std::vector<std::string> ids = strings("id", rows);
  const std::vector<std::string> status = strings("status", rows), message = strings("message", rows);
  auto numbers = [&](const char* name) {
    Handle set = open_set(file.get(), name, refuse);
    return read_numbers<double>(set.get(), H5T_NATIVE_DOUBLE, rows, 0, name, refuse);
  };
  const std::vector<double> reached = numbers("reached_time"), wall = numbers("wall_time_s");
  Handle steps_set = open_set(file.get(), "steps", refuse);
  const std::vector<std::int64_t> steps =
      read_numbers<std::int64_t>(steps_set.get(), H5T_NATIVE_INT64, rows, 0, "steps", refuse);
  std::vector<double> values;
  if (metrics > 0) {
    Handle set = open_set(file.get(), "metrics", refuse);
    values = read_numbers<double>(set.get(), H5T_NATIVE_DOUBLE, rows, metrics, "metrics", refuse);
  }
  for (hsize_t r = 0; r < rows; ++r) {
    SummaryRow row;
    row.id = ids[r];
    if (status[r] == to_string(Status::ok)) row.status = Status::ok;
    else if (status[r] == to_string(Status::stopped_early)) row.status = Status::stopped_early;
    else if (status[r] == to_string(Status::failed)) row.status = Status::failed;
    else not_a_summary(path, "row " + std::to_string(r + 1) + " has the status \"" + status[r] + "\"");
    row.message = message[r];
    if (!std::isnan(reached[r])) row.reached_time = reached[r];
    row.steps = static_cast<long>(steps[r]);
    row.wall_time = wall[r];
    for (std::size_t m = 0; m < metrics; ++m) row.metrics.emplace_back(values[r * metrics + m]);
    table.rows.push_back(std::move(row));
  }
  return table;
}

bool is_hdf5_summary(const std::filesystem::path& path) {
  quiet_hdf5();
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_file_locking(fapl.get(), false, true);
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  const bool summary = file.valid() && H5Lexists(file.get(), "columns", H5P_DEFAULT) > 0 &&
                       H5Lexists(file.get(), "id", H5P_DEFAULT) > 0 && H5Lexists(file.get(), "status", H5P_DEFAULT) > 0;
  results::hdf5::error_message();  // what the failed open left on HDF5's error stack
  return summary;
}

}  // namespace lsdae::sweep
