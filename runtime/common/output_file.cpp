// runtime/common/output_file.cpp -- see output_file.h.
#include "common/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "lsdae/error.h"

namespace lsdae {

OutputFile::OutputFile(const std::filesystem::path& path, const std::string& what, int stdout_fd) : path_(path) {
  if (path == "-") {
    fd_ = stdout_fd;
  } else {
    fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd_ < 0)
      throw Error(ErrorKind::output, what + ": cannot create \"" + path.string() + "\": " + std::strerror(errno) +
                                         " → check the folder exists and is writable");
    owned_ = true;
  }
  struct stat st {};
  seekable_ = ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode);
}

OutputFile::~OutputFile() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

int OutputFile::append(std::string_view record) {
  std::size_t done = 0;
  while (done < record.size()) {
    const ssize_t n = ::write(fd_, record.data() + done, record.size() - done);
    if (n > 0) {
      done += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    const int error = n < 0 ? errno : EIO;  // write() returning 0 for a non-empty buffer: treat as an I/O error
    if (seekable_ && done > 0) {
      // Cut the partial record off so the file ends with a complete one; the
      // offset follows, so a later append would not leave a hole.
      if (::ftruncate(fd_, static_cast<off_t>(bytes_)) == 0) ::lseek(fd_, static_cast<off_t>(bytes_), SEEK_SET);
    }
    return error;
  }
  bytes_ += record.size();
  return 0;
}

}  // namespace lsdae
