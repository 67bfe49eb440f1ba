// runtime/sweep/summary_file.cpp -- the summary of a sweep as CSV or HDF5
// (summary_file.h).
#include "sweep/summary_file.h"

#include <fcntl.h>
#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <limits>
#include <sstream>

#include "lsdae/error.h"
#include "results/hdf5_handle.h"
#include "sweep/csv_line.h"

namespace lsdae::sweep {

SummaryFormat summary_format_for(const std::filesystem::path& path) {
  std::string ext = path.extension().string();
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".h5" || ext == ".hdf5" ? SummaryFormat::hdf5 : SummaryFormat::csv;
}

namespace {

using results::hdf5::Handle;

// `--summary "x.csv"` (or the C interface's field): where a message comes from.
std::string quoted(const SummaryWording& wording, const std::filesystem::path& path) {
  return wording.file + " \"" + path.string() + "\"";
}

// A resumed file's columns must be this sweep's (Error(usage)).
void check_columns(const SummaryWording& wording, const std::filesystem::path& path,
                   const std::vector<std::string>& found, const std::vector<std::string>& header) {
  if (found != header)
    throw Error(ErrorKind::usage, wording.resume + ": \"" + path.string() + "\" has the columns " + csv_record(found) +
                                      ", this sweep writes " + csv_record(header) + " → " + wording.same_metrics +
                                      ", or " + wording.new_file);
}

// The text of a CSV file up to its last line break: what a kill left of a
// last line is not part of it.
std::string complete_lines(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  const auto last_newline = text.rfind('\n');
  text.resize(last_newline == std::string::npos ? 0 : last_newline + 1);
  return text;
}

// ---- CSV ---------------------------------------------------------------------

class CsvSummary final : public SummaryFile {
 public:
  CsvSummary(const std::filesystem::path& path, const std::vector<std::string>& metrics, bool resume,
             const SummaryWording& wording)
      : SummaryFile(path), wording_(wording) {
    const std::vector<std::string> header = summary_header(metrics);
    bool has_header = false;
    if (resume) has_header = read_finished(header, metrics.size());
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (resume ? O_APPEND : O_TRUNC), 0666);
    if (fd_ < 0)
      throw Error(ErrorKind::output, quoted(wording_, path) + ": cannot be written: " + std::strerror(errno) +
                                         " → check the folder exists and is writable");
    if (!has_header) write(csv_record(header) + "\n");
  }
  ~CsvSummary() override {
    if (fd_ >= 0) ::close(fd_);
  }
  void append(const SummaryRow& row) override { write(row.to_csv() + "\n"); }

 private:
  void write(const std::string& line) {
    std::size_t done = 0;
    while (done < line.size()) {
      const ssize_t n = ::write(fd_, line.data() + done, line.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw Error(ErrorKind::output, quoted(wording_, path_) + ": writing failed: " + std::strerror(errno) +
                                           " → free disk space or choose another file; " + wording_.continues);
      done += static_cast<std::size_t>(n);
    }
  }

  // Reads the ids of an existing summary, cutting a last line left
  // incomplete by a kill; false when the file is empty (no header yet).
  bool read_finished(const std::vector<std::string>& header, std::size_t metric_count) {
    const std::string text = complete_lines(path_);
    std::size_t pos = 0;
    if (!text.empty()) check_columns(wording_, path_, parse_csv_record(text, pos), header);  // before any change
    std::error_code ec;
    const auto size = std::filesystem::file_size(path_, ec);
    if (!ec && size != text.size() && ::truncate(path_.c_str(), static_cast<off_t>(text.size())) != 0)
      throw Error(ErrorKind::output, quoted(wording_, path_) + ": cannot cut back its incomplete last line: " +
                                         std::strerror(errno) + " → check the file's permissions");
    if (text.empty()) return false;
    while (pos < text.size()) {
      const std::size_t begin = pos;
      parse_csv_record(text, pos);
      finished_.insert(SummaryRow::from_csv(text.substr(begin, pos - begin - 1), metric_count).id);
    }
    return true;
  }

  SummaryWording wording_;
  int fd_ = -1;
};

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

// The first `rows` (all: nullopt) strings of a one-dimensional dataset.
std::vector<std::string> read_strings(hid_t set, hid_t text, const char* name, const NotASummary& not_a_summary,
                                      std::optional<hsize_t> rows = std::nullopt) {
  Handle space(H5Dget_space(set), H5Sclose);
  hsize_t n = 0;
  if (H5Sget_simple_extent_ndims(space.get()) != 1 || H5Sget_simple_extent_dims(space.get(), &n, nullptr) < 0)
    not_a_summary(std::string("its /") + name + " is not a list");
  if (rows) {
    if (*rows > n) not_a_summary(std::string("its /") + name + " is shorter than /id");
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
    put(id_, text_.get(), &id, "id");  // last: its length counts the complete rows
    ++rows_;
    if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("flushing");
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    const std::string cause = results::hdf5::error_message();
    throw Error(ErrorKind::output, quoted(wording_, path_) + ": " + what + " failed after " + std::to_string(rows_) +
                                       " row" + (rows_ == 1 ? "" : "s") +
                                       (cause.empty() ? "" : " (HDF5: " + cause + ")") +
                                       " → free disk space or choose another file; " + wording_.continues);
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
    // /id is written last: its length counts the complete rows; what a kill
    // left of a row in the other datasets goes.
    rows_ = length(id_.get());
    for (Handle* set : {&status_, &message_, &reached_time_, &steps_, &wall_time_, &metrics_}) {
      if (!set->valid()) continue;
      const hsize_t n = length(set->get());
      if (n < rows_) not_a_summary("a dataset shorter than /id");
      if (n > rows_) {
        hsize_t dims[2] = {rows_, metric_count_};
        if (H5Dset_extent(set->get(), dims) < 0) fail("cutting back a row left incomplete");
      }
    }
    for (auto& id : read_strings(id_.get(), text_.get(), "id", refuse)) finished_.insert(std::move(id));
    if (H5Fflush(file_.get(), H5F_SCOPE_GLOBAL) < 0) fail("flushing");
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

// ---- Reading a summary back ----------------------------------------------------

[[noreturn]] void not_a_summary(const std::filesystem::path& path, const std::string& what) {
  throw Error(ErrorKind::usage, "summary \"" + path.string() + "\": " + what +
                                    " → give a summary lsdae sweep (or lsdae_sweep) wrote");
}

std::size_t metric_count_of(const std::filesystem::path& path, const std::vector<std::string>& columns) {
  const std::vector<std::string> fixed = summary_header({});
  if (columns.size() < fixed.size() || !std::equal(fixed.begin(), fixed.end(), columns.begin()))
    not_a_summary(path, "its columns are " + csv_record(columns) + ", not " + csv_record(fixed) + ",<metrics>");
  return columns.size() - fixed.size();
}

SummaryTable read_csv_summary(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw Error(ErrorKind::output, "summary \"" + path.string() + "\": no such file → give the path of a summary");
  const std::string text = complete_lines(path);
  if (text.empty()) not_a_summary(path, "no complete header line");
  SummaryTable table;
  std::size_t pos = 0;
  table.columns = parse_csv_record(text, pos);
  const std::size_t metrics = metric_count_of(path, table.columns);
  while (pos < text.size()) {
    const std::size_t begin = pos;
    parse_csv_record(text, pos);
    table.rows.push_back(SummaryRow::from_csv(text.substr(begin, pos - begin - 1), metrics));
  }
  return table;
}

SummaryTable read_hdf5_summary(const std::filesystem::path& path) {
  quiet_hdf5();
  // Readable while a sweep still writes it (which holds HDF5 1.10's file
  // lock), as Python's lsdae.read_summary: /id bounds what is read.
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
  const std::vector<std::string> ids = strings("id", std::nullopt);
  const hsize_t rows = ids.size();
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

}  // namespace

std::unique_ptr<SummaryFile> open_summary(const std::filesystem::path& path, const std::vector<std::string>& metrics,
                                          bool resume, const std::string& model, const SummaryWording& wording) {
  std::error_code ec;
  const bool existing = resume && std::filesystem::exists(path, ec);
  if (summary_format_for(path) == SummaryFormat::hdf5)
    return std::make_unique<Hdf5Summary>(path, metrics, existing, model, wording);
  return std::make_unique<CsvSummary>(path, metrics, existing, wording);
}

std::vector<std::size_t> unfinished(const std::vector<Scenario>& scenarios, const std::set<std::string>& finished) {
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < scenarios.size(); ++i)
    if (finished.count(scenarios[i].id) == 0) todo.push_back(i);
  return todo;
}

bool is_summary(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  if (summary_format_for(path) == SummaryFormat::csv) {
    std::ifstream in(path, std::ios::binary);
    std::string first;
    std::getline(in, first);
    return first.rfind(csv_record(summary_header({})), 0) == 0;
  }
  quiet_hdf5();
  Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
  H5Pset_file_locking(fapl.get(), false, true);
  Handle file(H5Fopen(path.c_str(), H5F_ACC_RDONLY, fapl.get()), H5Fclose);
  const bool summary = file.valid() && H5Lexists(file.get(), "columns", H5P_DEFAULT) > 0 &&
                       H5Lexists(file.get(), "id", H5P_DEFAULT) > 0 && H5Lexists(file.get(), "status", H5P_DEFAULT) > 0;
  results::hdf5::error_message();  // what the failed open left on HDF5's error stack
  return summary;
}

SummaryTable read_summary(const std::filesystem::path& path) {
  return summary_format_for(path) == SummaryFormat::hdf5 ? read_hdf5_summary(path) : read_csv_summary(path);
}

}  // namespace lsdae::sweep
