// runtime/common/output_file.h -- a result file written in whole records.
//
// Results (CSV rows) and statistics (one JSON document) are written through
// this: each append() is one record written completely with write(2) (no
// stdio buffer to flush or to lose), so what is on disk after a failure is a
// whole number of records. When a write fails part-way -- a full disk
// (ENOSPC), the file-size limit (EFBIG; the CLI ignores SIGXFSZ so this is an
// error, not a death), an I/O error -- a regular file is cut back
// (ftruncate) to the end of the last complete record, and append() returns
// the errno for the caller's message. Standard output ("-") cannot be cut
// back: a pipe keeps what it received.
//
// Contract: the constructor creates or truncates the file (mode 0666 before
// the umask) or throws Error(output) naming the path and the reason;
// append() returns 0 or an errno and never throws; bytes() counts the bytes
// of complete records.
#ifndef LSDAE_RUNTIME_COMMON_OUTPUT_FILE_H
#define LSDAE_RUNTIME_COMMON_OUTPUT_FILE_H

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace lsdae {

class OutputFile {
 public:
  // `what` names the file in messages: "results", "statistics". "-" writes
  // to `stdout_fd` (standard output, or the descriptor that stands for it in
  // a supervised child), which is never closed.
  OutputFile(const std::filesystem::path& path, const std::string& what, int stdout_fd = 1);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Writes all of `record`, or (for a regular file) nothing; 0 or the errno.
  int append(std::string_view record);
  std::uint64_t bytes() const { return bytes_; }
  const std::filesystem::path& path() const { return path_; }
  bool is_stdout() const { return !owned_; }

 private:
  std::filesystem::path path_;
  int fd_ = -1;
  bool owned_ = false;       // false for "-" (stdout_fd, not closed)
  bool seekable_ = false;    // a regular file: a failed record can be cut off
  std::uint64_t bytes_ = 0;  // end of the last complete record
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_COMMON_OUTPUT_FILE_H
