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

std::string quoted(const std::filesystem::path& path) { return "--summary \"" + path.string() + "\""; }

// ---- CSV ---------------------------------------------------------------------

class CsvSummary final : public SummaryFile {
 public:
  CsvSummary(const std::filesystem::path& path, const std::vector<std::string>& metrics, bool resume)
      : SummaryFile(path) {
    const std::vector<std::string> header = summary_header(metrics);
    bool has_header = false;
    if (resume) has_header = read_finished(header, metrics.size());
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (resume ? O_APPEND : O_TRUNC), 0666);
    if (fd_ < 0)
      throw Error(ErrorKind::output, quoted(path) + ": cannot be written: " + std::strerror(errno) +
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
        throw Error(ErrorKind::output, quoted(path_) + ": writing failed: " + std::strerror(errno) +
                                           " → free disk space or choose another file; --resume continues the sweep");
      done += static_cast<std::size_t>(n);
    }
  }

  // Reads the ids of an existing summary, cutting a last line left
  // incomplete by a kill; false when the file is empty (no header yet).
  bool read_finished(const std::vector<std::string>& header, std::size_t metric_count) {
    std::ifstream in(path_, std::ios::binary);
    std::ostringstream all;
    all << in.rdbuf();
    std::string text = all.str();
    const auto last_newline = text.rfind('\n');
    const std::size_t keep = last_newline == std::string::npos ? 0 : last_newline + 1;
    if (keep != text.size()) {
      if (::truncate(path_.c_str(), static_cast<off_t>(keep)) != 0)
        throw Error(ErrorKind::output, quoted(path_) + ": cannot cut back its incomplete last line: " +
                                           std::strerror(errno) + " → check the file's permissions");
      text.resize(keep);
    }
    if (text.empty()) return false;
    std::size_t pos = 0;
    const auto found = parse_csv_record(text, pos);
    if (found != header)
      throw Error(ErrorKind::usage, "--resume: \"" + path_.string() + "\" has the columns " + csv_record(found) +
                                        ", this sweep writes " + csv_record(header) +
                                        " → resume with the same --metric options, or write a new --summary");
    while (pos < text.size()) {
      const std::size_t begin = pos;
      parse_csv_record(text, pos);
      finished_.insert(SummaryRow::from_csv(text.substr(begin, pos - begin - 1), metric_count).id);
    }
    return true;
  }

  int fd_ = -1;
};

// ---- HDF5 --------------------------------------------------------------------

constexpr const char* kFormat = "lsdae-sweep-summary 1";
constexpr hsize_t kChunkRows = 64;

class Hdf5Summary final : public SummaryFile {
 public:
  Hdf5Summary(const std::filesystem::path& path, const std::vector<std::string>& metrics, bool resume,
              const std::string& model)
      : SummaryFile(path), metric_count_(metrics.size()) {
    // As results/hdf5_writer.cpp: HDF5's own printout off (its errors become
    // our messages) and no at-exit clean-up of a file whose flush failed.
    H5dont_atexit();
    H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);
    text_ = Handle(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(text_.get(), H5T_VARIABLE);
    H5Tset_cset(text_.get(), H5T_CSET_UTF8);
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
    throw Error(ErrorKind::output, quoted(path_) + ": " + what + " failed after " + std::to_string(rows_) + " row" +
                                       (rows_ == 1 ? "" : "s") + (cause.empty() ? "" : " (HDF5: " + cause + ")") +
                                       " → free disk space or choose another file; --resume continues the sweep");
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
      throw Error(ErrorKind::output, quoted(path_) + ": cannot be created (" +
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

  std::vector<std::string> read_strings(hid_t set, const char* name) {
    Handle space(H5Dget_space(set), H5Sclose);
    hsize_t n = 0;
    if (H5Sget_simple_extent_ndims(space.get()) != 1 || H5Sget_simple_extent_dims(space.get(), &n, nullptr) < 0)
      not_a_summary(std::string("its /") + name + " is not a list");
    std::vector<char*> pointers(n, nullptr);
    if (n > 0) {
      Handle mem(H5Screate_simple(1, &n, nullptr), H5Sclose);
      if (H5Dread(set, text_.get(), mem.get(), space.get(), H5P_DEFAULT, pointers.data()) < 0)
        not_a_summary(std::string("its /") + name + " cannot be read as strings");
    }
    std::vector<std::string> out;
    for (char* p : pointers) out.emplace_back(p != nullptr ? p : "");
    if (n > 0) H5Dvlen_reclaim(text_.get(), space.get(), H5P_DEFAULT, pointers.data());
    return out;
  }

  [[noreturn]] void not_a_summary(const std::string& what) {
    results::hdf5::error_message();
    throw Error(ErrorKind::usage, "--resume: \"" + path_.string() + "\" is not a sweep summary lsdae wrote (" + what +
                                      ") → write a new --summary");
  }

  Handle open_set(const char* name) {
    if (H5Lexists(file_.get(), name, H5P_DEFAULT) <= 0) not_a_summary(std::string("no dataset /") + name);
    Handle set(H5Dopen2(file_.get(), name, H5P_DEFAULT), H5Dclose);
    if (!set.valid()) not_a_summary(std::string("/") + name + " cannot be opened");
    return set;
  }

  static hsize_t length(hid_t set) {
    Handle space(H5Dget_space(set), H5Sclose);
    hsize_t dims[2] = {0, 0};
    H5Sget_simple_extent_dims(space.get(), dims, nullptr);
    return dims[0];
  }

  void open_existing(const std::vector<std::string>& header) {
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_V18, H5F_LIBVER_V18);
    file_ = Handle(H5Fopen(path_.c_str(), H5F_ACC_RDWR, fapl.get()), H5Fclose);
    if (!file_.valid()) {
      const std::string cause = results::hdf5::error_message();
      throw Error(ErrorKind::output, "--resume: \"" + path_.string() + "\" cannot be opened as HDF5 (" +
                                         (cause.empty() ? "unknown reason" : cause) +
                                         ": not HDF5, or damaged by a kill in the middle of a flush) → write a new "
                                         "--summary, or --overwrite it");
    }
    Handle columns = open_set("columns");
    const std::vector<std::string> found = read_strings(columns.get(), "columns");
    if (found != header)
      throw Error(ErrorKind::usage, "--resume: \"" + path_.string() + "\" has the columns " + csv_record(found) +
                                        ", this sweep writes " + csv_record(header) +
                                        " → resume with the same --metric options, or write a new --summary");
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
    for (auto& id : read_strings(id_.get(), "id")) finished_.insert(std::move(id));
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

  std::size_t metric_count_;
  hsize_t rows_ = 0;
  Handle file_, text_;
  Handle id_, status_, message_, reached_time_, steps_, wall_time_, metrics_;
};

}  // namespace

std::unique_ptr<SummaryFile> open_summary(const std::filesystem::path& path, const std::vector<std::string>& metrics,
                                          bool resume, const std::string& model) {
  if (summary_format_for(path) == SummaryFormat::hdf5)
    return std::make_unique<Hdf5Summary>(path, metrics, resume, model);
  return std::make_unique<CsvSummary>(path, metrics, resume);
}

}  // namespace lsdae::sweep
