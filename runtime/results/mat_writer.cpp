// runtime/results/mat_writer.cpp -- see mat_writer.h.
#include "results/mat_writer.h"

#include <fcntl.h>
#include <matio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::results {

namespace {

bool write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    p += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

bool pwrite_all(int fd, const void* data, std::size_t size, std::uint64_t offset) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::pwrite(fd, p, size, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    p += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

// A char matrix whose columns are `texts` (binTrans), padded with spaces.
std::vector<char> text_columns(const std::vector<std::string>& texts, std::size_t& height) {
  height = 1;
  for (const auto& t : texts) height = std::max(height, t.size());
  std::vector<char> out(height * texts.size(), ' ');
  for (std::size_t c = 0; c < texts.size(); ++c) std::copy(texts[c].begin(), texts[c].end(), out.begin() + static_cast<std::ptrdiff_t>(c * height));
  return out;
}

// Writes one matrix with matio; false when matio fails.
bool put(mat_t* mat, const char* name, matio_classes cls, matio_types type, std::size_t rows, std::size_t columns,
         void* data) {
  std::size_t dims[2] = {rows, columns};
  matvar_t* v = Mat_VarCreate(name, cls, type, 2, dims, data, MAT_F_DONT_COPY_DATA);
  if (v == nullptr) return false;
  const int status = Mat_VarWrite(mat, v, MAT_COMPRESSION_NONE);
  Mat_VarFree(v);
  return status == 0;
}

std::size_t element_size(std::int32_t type) {
  switch ((type / 10) % 10) {
    case 0: return 8;
    case 1: return 4;
    case 2: return 4;
    case 3: return 2;
    case 4: return 2;
    default: return 1;
  }
}

}  // namespace

std::vector<Mat4Matrix> mat4_matrices(int fd) {
  std::vector<Mat4Matrix> out;
  struct stat st {};
  if (::fstat(fd, &st) != 0) return out;
  const auto size = static_cast<std::uint64_t>(st.st_size);
  std::uint64_t at = 0;
  while (at + 20 <= size) {
    std::int32_t h[5];
    if (::pread(fd, h, sizeof h, static_cast<off_t>(at)) != static_cast<ssize_t>(sizeof h)) break;
    if (h[0] < 0 || h[0] > 52 || h[1] < 0 || h[2] < 0 || h[3] != 0 || h[4] <= 0 || h[4] > 4096) break;
    Mat4Matrix m;
    m.type = h[0];
    m.rows = h[1];
    m.columns = h[2];
    m.header = at;
    std::string name(static_cast<std::size_t>(h[4]), '\0');
    if (at + 20 + name.size() > size ||
        ::pread(fd, name.data(), name.size(), static_cast<off_t>(at + 20)) != static_cast<ssize_t>(name.size()))
      break;
    m.name = name.substr(0, name.find('\0'));
    m.data = at + 20 + name.size();
    m.data_bytes = static_cast<std::uint64_t>(m.rows) * static_cast<std::uint64_t>(m.columns) * element_size(m.type);
    if (m.data + m.data_bytes > size) break;
    out.push_back(m);
    at = m.data + m.data_bytes;
  }
  return out;
}

MatWriter::MatWriter(const std::filesystem::path& path, const std::vector<Column>& columns)
    : path_(path), columns_(columns) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd_ < 0)
    throw Error(ErrorKind::output, "results: cannot create \"" + path.string() + "\": " + std::strerror(errno) +
                                       " → check the folder exists and is writable");
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    const Column& col = columns_[c];
    if (storage_of(col.type) == ValueStorage::text) ++left_out_;
    else if (col.variability == Variability::constant || col.variability == Variability::fixed) parameters_.push_back(c);
    else series_.push_back(c);
  }
  if (left_out_ > 0)
    log_warning("results: \"" + path.string() + "\": a MAT file holds numbers only; " + std::to_string(left_out_) +
                " String/Binary column" + (left_out_ == 1 ? " is" : "s are") +
                " left out → write .h5 or .csv to keep them");
}

MatWriter::~MatWriter() {
  if (fd_ >= 0) ::close(fd_);
}

void MatWriter::fail(const std::string& what, int error) {
  if (fd_ >= 0 && end_ > 0 && ::ftruncate(fd_, static_cast<off_t>(end_)) != 0) {
    // best effort: the header counts complete rows only either way
  }
  throw Error(ErrorKind::output,
              "results: writing \"" + path_.string() + "\" failed after " + std::to_string(rows_) + " row" +
                  (rows_ == 1 ? "" : "s") + " (" + what + "): " + std::strerror(error) +
                  "; the file ends with the last complete row → " +
                  (error == ENOSPC ? "free disk space"
                   : error == EFBIG ? "raise the file-size limit (ulimit -f) or write fewer rows"
                                    : "check the disk and the path"));
}

namespace {
double as_double(const RowValues& values, std::size_t c) {
  switch (values.storage(c)) {
    case ValueStorage::real: return values.real(c);
    case ValueStorage::integer: return static_cast<double>(values.integer(c));
    case ValueStorage::unsigned_integer: return static_cast<double>(values.unsigned_integer(c));
    case ValueStorage::text: break;
  }
  return 0.0;
}
}  // namespace

void MatWriter::start(double time, const RowValues& values) {
  // The names, in dataInfo order: time, the parameters, the series.
  std::vector<std::string> names{"time"}, descriptions{"Time in [s]"};
  std::vector<std::int32_t> info{0, 1, 0, -1};
  std::vector<double> data1{time};
  std::int32_t k = 2;
  for (std::size_t c : parameters_) {
    names.push_back(columns_[c].name);
    info.insert(info.end(), {1, k++, 0, 0});
    data1.push_back(as_double(values, c));
  }
  k = 2;
  for (std::size_t c : series_) {
    names.push_back(columns_[c].name);
    info.insert(info.end(), {2, k++, 0, -1});
  }
  for (std::size_t c : parameters_) {
    const Column& col = columns_[c];
    descriptions.push_back(col.unit.empty() ? col.description : col.description + " [" + col.unit + "]");
  }
  for (std::size_t c : series_) {
    const Column& col = columns_[c];
    descriptions.push_back(col.unit.empty() ? col.description : col.description + " [" + col.unit + "]");
  }
  const std::size_t n1 = data1.size();
  data1.insert(data1.end(), data1.begin(), data1.end());  // the second time point: patched at finish()
  std::vector<std::string> aclass_rows{"Atrajectory", "1.1", "", "binTrans"};
  std::vector<char> aclass(4 * 11, ' ');
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t j = 0; j < aclass_rows[r].size(); ++j) aclass[j * 4 + r] = aclass_rows[r][j];
  std::size_t name_height = 0, description_height = 0;
  std::vector<char> name_chars = text_columns(names, name_height);
  std::vector<char> description_chars = text_columns(descriptions, description_height);
  double none = 0.0;

  mat_t* mat = Mat_CreateVer(path_.c_str(), nullptr, MAT_FT_MAT4);
  if (mat == nullptr) fail("matio cannot create the file", errno != 0 ? errno : EIO);
  errno = 0;
  const bool ok =
      put(mat, "Aclass", MAT_C_CHAR, MAT_T_UINT8, 4, 11, aclass.data()) &&
      put(mat, "name", MAT_C_CHAR, MAT_T_UINT8, name_height, names.size(), name_chars.data()) &&
      put(mat, "description", MAT_C_CHAR, MAT_T_UINT8, description_height, descriptions.size(),
          description_chars.data()) &&
      put(mat, "dataInfo", MAT_C_INT32, MAT_T_INT32, 4, names.size(), info.data()) &&
      put(mat, "data_1", MAT_C_DOUBLE, MAT_T_DOUBLE, n1, 2, data1.data()) &&
      put(mat, "data_2", MAT_C_DOUBLE, MAT_T_DOUBLE, 1 + series_.size(), 0, &none);
  const int error = errno != 0 ? errno : EIO;
  Mat_Close(mat);
  if (!ok) fail("matio cannot write the header matrices", error);
  const std::vector<Mat4Matrix> matrices = mat4_matrices(fd_);
  if (matrices.size() != 6 || matrices[4].name != "data_1" || matrices[5].name != "data_2")
    fail("the header matrices did not reach the file", EIO);
  data1_end_time_at_ = matrices[4].data + n1 * sizeof(double);
  data2_columns_at_ = matrices[5].header + 8;
  end_ = matrices[5].data;
  if (::lseek(fd_, static_cast<off_t>(end_), SEEK_SET) < 0) fail("seeking", errno);
  column_.resize(1 + series_.size());
}

void MatWriter::write_row(double time, const RowValues& values, RowKind) {
  if (rows_ == 0) start(time, values);
  column_[0] = time;
  for (std::size_t k = 0; k < series_.size(); ++k) column_[k + 1] = as_double(values, series_[k]);
  if (rows_ + 1 > static_cast<std::size_t>(INT32_MAX)) fail("MAT v4 holds at most 2^31 - 1 rows", EFBIG);
  if (!write_all(fd_, column_.data(), column_.size() * sizeof(double))) {
    const int error = errno;
    fail("appending a row", error);
  }
  const auto columns = static_cast<std::int32_t>(rows_ + 1);
  if (!pwrite_all(fd_, &columns, sizeof columns, data2_columns_at_)) {
    const int error = errno;
    fail("counting the row", error);
  }
  end_ += column_.size() * sizeof(double);
  ++rows_;
  last_time_ = time;
}

void MatWriter::finish(const std::string&) {
  if (fd_ < 0) return;
  if (rows_ > 0 && !pwrite_all(fd_, &last_time_, sizeof last_time_, data1_end_time_at_)) {
    const int error = errno;
    fail("writing data_1's last time", error);
  }
  const int status = ::close(fd_);
  fd_ = -1;
  if (status != 0) fail("closing", errno);
}

}  // namespace lsdae::results
