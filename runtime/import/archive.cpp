// runtime/import/archive.cpp -- see archive.h.
#include "import/archive.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "lsdae/error.h"

namespace lsdae::import {

namespace {

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int u = 0;
  while (value >= 1024 && u < 4) { value /= 1024; ++u; }
  char text[64];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", value, units[u]);
  return text;
}

[[noreturn]] void fail(const std::filesystem::path& archive, const std::string& what, const std::string& todo) {
  throw Error(ErrorKind::archive, archive.filename().string() + ": " + what + " → " + todo);
}

std::vector<std::string> split_components(const std::string& name) {
  std::vector<std::string> parts;
  std::string current;
  for (char c : name) {
    if (c == '/' || c == '\\') {
      parts.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  parts.push_back(current);
  return parts;
}

struct ZipCloser {
  void operator()(zip_t* z) const { zip_discard(z); }
};
struct ZipFileCloser {
  void operator()(zip_file_t* f) const { zip_fclose(f); }
};
struct Fd {
  int fd = -1;
  ~Fd() { if (fd >= 0) close(fd); }
};

// Creates the directories of `parts[0..n-1]` below `root_fd`; returns an fd of the last.
int open_parent(int root_fd, const std::vector<std::string>& parts, std::size_t n, std::string& error) {
  int fd = dup(root_fd);
  for (std::size_t i = 0; i < n; ++i) {
    if (parts[i].empty() || parts[i] == ".") continue;
    if (mkdirat(fd, parts[i].c_str(), 0700) != 0 && errno != EEXIST) {
      error = std::strerror(errno);
      close(fd);
      return -1;
    }
    int next = openat(fd, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(fd);
    if (next < 0) {
      error = std::string("cannot open directory \"") + parts[i] + "\": " + std::strerror(errno);
      return -1;
    }
    fd = next;
  }
  return fd;
}

}  // namespace

std::string unsafe_member_reason(const std::string& name) {
  if (name.empty()) return "has an empty name";
  if (name.find('\0') != std::string::npos) return "contains a NUL byte";
  if (name[0] == '/' || name[0] == '\\') return "is an absolute path";
  if (name.size() >= 2 && name[1] == ':') return "starts with a drive letter";
  for (const auto& part : split_components(name))
    if (part == "..") return "contains a \"..\" component";
  return {};
}

ExtractionReport extract_archive(const std::filesystem::path& archive, const std::filesystem::path& destination,
                                 const ArchiveLimits& limits) {
  int zip_error = 0;
  std::unique_ptr<zip_t, ZipCloser> zip(zip_open(archive.c_str(), ZIP_RDONLY, &zip_error));
  if (!zip) {
    zip_error_t error;
    zip_error_init_with_code(&error, zip_error);
    std::string reason = zip_error_strerror(&error);
    zip_error_fini(&error);
    if (zip_error == ZIP_ER_NOENT || zip_error == ZIP_ER_OPEN || zip_error == ZIP_ER_READ)
      fail(archive, "cannot open the file (" + reason + ")", "check the path and its permissions");
    if (zip_error == ZIP_ER_NOZIP)
      fail(archive, "is not a zip archive, or a truncated one (no zip directory at its end)",
           "an FMU must be a complete zip file; re-download or re-export it");
    fail(archive, "is a damaged zip archive (" + reason + "; it may be truncated)", "re-export or re-download the FMU");
  }

  zip_int64_t count = zip_get_num_entries(zip.get(), 0);
  if (count < 0) fail(archive, "cannot read the zip directory", "re-export the FMU");
  if (static_cast<std::uint64_t>(count) > limits.max_entries)
    fail(archive, "has " + std::to_string(count) + " members, more than the limit of " +
                      std::to_string(limits.max_entries),
         "this looks like a zip bomb; if the FMU is genuine, raise ArchiveLimits::max_entries (C++ API)");

  // Pass 1: check every name and type before writing anything.
  std::vector<std::string> names(static_cast<std::size_t>(count));
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* raw = zip_get_name(zip.get(), static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
    if (raw == nullptr) fail(archive, "member #" + std::to_string(i) + " has no readable name", "re-export the FMU");
    std::string name = raw;
    std::string reason = unsafe_member_reason(name);
    if (!reason.empty())
      fail(archive, "member \"" + name + "\" " + reason + ", which would write outside the FMU's folder",
           "refusing a hostile or broken archive; re-export the FMU");
    zip_uint8_t opsys = 0;
    zip_uint32_t attributes = 0;
    if (zip_file_get_external_attributes(zip.get(), static_cast<zip_uint64_t>(i), 0, &opsys, &attributes) == 0 &&
        opsys == ZIP_OPSYS_UNIX) {
      mode_t mode = static_cast<mode_t>(attributes >> 16);
      if (S_ISLNK(mode))
        fail(archive, "member \"" + name + "\" is a symbolic link", "FMUs must not contain symlinks; re-export the FMU");
      if (mode != 0 && !S_ISREG(mode) && !S_ISDIR(mode))
        fail(archive, "member \"" + name + "\" is a special file (mode " + std::to_string(mode) + ")",
             "FMUs may contain only files and folders");
    }
    names[static_cast<std::size_t>(i)] = std::move(name);
  }

  Fd root;
  root.fd = open(destination.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (root.fd < 0) fail(archive, "cannot open the extraction folder \"" + destination.string() + "\"", "check TMPDIR");

  ExtractionReport report;
  std::vector<char> buffer(1 << 16);
  for (zip_int64_t i = 0; i < count; ++i) {
    const std::string& name = names[static_cast<std::size_t>(i)];
    std::vector<std::string> parts = split_components(name);
    bool is_dir = parts.back().empty();
    std::string error;
    Fd parent;
    parent.fd = open_parent(root.fd, parts, is_dir ? parts.size() : parts.size() - 1, error);
    if (parent.fd < 0) fail(archive, "member \"" + name + "\": " + error, "check free space in TMPDIR");
    ++report.entries;
    if (is_dir) continue;

    std::unique_ptr<zip_file_t, ZipFileCloser> in(zip_fopen_index(zip.get(), static_cast<zip_uint64_t>(i), 0));
    if (!in)
      fail(archive, "member \"" + name + "\" cannot be read (" + zip_strerror(zip.get()) + ")",
           "the archive is damaged or uses an unsupported compression or encryption; re-export the FMU");
    Fd out;
    out.fd = openat(parent.fd, parts.back().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out.fd < 0)
      fail(archive, "member \"" + name + "\" cannot be created (" + std::strerror(errno) + ")",
           errno == EEXIST ? "the archive lists this member twice; re-export the FMU" : "check free space in TMPDIR");
    std::uint64_t member_bytes = 0;
    for (;;) {
      zip_int64_t n = zip_fread(in.get(), buffer.data(), buffer.size());
      if (n < 0)
        fail(archive, "member \"" + name + "\" is corrupt (" + zip_file_strerror(in.get()) + ")",
             "re-export or re-download the FMU");
      if (n == 0) break;
      member_bytes += static_cast<std::uint64_t>(n);
      report.bytes += static_cast<std::uint64_t>(n);
      if (member_bytes > limits.max_entry_bytes)
        fail(archive, "member \"" + name + "\" inflates to more than " + human_bytes(limits.max_entry_bytes),
             "this looks like a zip bomb; if the FMU is genuine, raise the limit (lsdae --max-unpacked-size, or ArchiveLimits::max_entry_bytes)");
      if (report.bytes > limits.max_total_bytes)
        fail(archive, "members inflate to more than " + human_bytes(limits.max_total_bytes) + " in total (at \"" +
                          name + "\")",
             "this looks like a zip bomb; if the FMU is genuine, raise the limit (lsdae --max-unpacked-size, or ArchiveLimits::max_total_bytes)");
      const char* p = buffer.data();
      zip_int64_t left = n;
      while (left > 0) {
        ssize_t w = write(out.fd, p, static_cast<std::size_t>(left));
        if (w < 0) {
          if (errno == EINTR) continue;
          fail(archive, "writing member \"" + name + "\" failed (" + std::strerror(errno) + ")",
               "check free space in TMPDIR");
        }
        p += w;
        left -= w;
      }
    }
    // Keep the executable bit for binaries (some loaders want it); nothing else.
    zip_uint8_t opsys = 0;
    zip_uint32_t attributes = 0;
    if (zip_file_get_external_attributes(zip.get(), static_cast<zip_uint64_t>(i), 0, &opsys, &attributes) == 0 &&
        opsys == ZIP_OPSYS_UNIX && ((attributes >> 16) & 0111) != 0)
      fchmod(out.fd, 0700);
  }
  return report;
}

}  // namespace lsdae::import
