// runtime/import/archive.cpp -- see archive.h.
#include "import/archive.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <unordered_map>
#include <vector>

#include "lsdae/error.h"

namespace lsdae::import {

namespace {

std::string human_bytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int u = 0;
  while (value >= 1024 && u < 6) { value /= 1024; ++u; }
  char text[64];
  std::snprintf(text, sizeof text, u == 0 ? "%.0f %s" : "%.1f %s", value, units[u]);
  return text;
}

std::string octal(unsigned value) {
  char text[32];
  std::snprintf(text, sizeof text, "0%o", value);
  return text;
}

// Archive names are untrusted bytes: quoted, with control characters shown as \xNN.
std::string quote_name(const std::string& name) {
  std::string out = "\"";
  for (char raw : name) {
    const auto c = static_cast<unsigned char>(raw);
    if (c < 0x20 || c == 0x7f) {
      char text[8];
      std::snprintf(text, sizeof text, "\\x%02x", c);
      out += text;
    } else {
      out += raw;
    }
  }
  return out + "\"";
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

// The path a member lands on: its components without empty ones and ".", joined by '/'.
// "a/x", "a\\x", "a//x" and "./a/x" all land on "a/x".
std::string landing_path(const std::vector<std::string>& parts) {
  std::string path;
  for (const auto& part : parts) {
    if (part.empty() || part == ".") continue;
    if (!path.empty()) path += '/';
    path += part;
  }
  return path;
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

// What pass 1 learns about one member.
struct Member {
  std::string name;                 // as stored
  std::vector<std::string> parts;   // split on '/' and '\\'
  bool is_dir = false;
  bool executable = false;
  std::uint64_t size = 0;           // declared uncompressed size
  std::uint64_t compressed = 0;     // declared compressed size
  std::optional<std::uint32_t> crc;
  std::optional<std::size_t> copy_of;  // earlier member landing on the same path
  bool reported = false;               // named in the duplicates warning
};

// Creates the directories of `parts[0..n-1]` below `root_fd`; returns an fd of the last.
int open_parent(int root_fd, const std::vector<std::string>& parts, std::size_t n, std::string& error) {
  int fd = dup(root_fd);
  std::string path;
  for (std::size_t i = 0; i < n; ++i) {
    if (parts[i].empty() || parts[i] == ".") continue;
    path += (path.empty() ? "" : "/") + parts[i];
    if (mkdirat(fd, parts[i].c_str(), 0700) != 0 && errno != EEXIST) {
      error = std::string("cannot create the folder ") + quote_name(path) + " (" + std::strerror(errno) + ")";
      close(fd);
      return -1;
    }
    int next = openat(fd, parts[i].c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(fd);
    if (next < 0) {
      error = errno == ENOTDIR ? "needs " + quote_name(path) + " to be a folder, but an earlier member made it a file"
                               : "cannot open the folder " + quote_name(path) + " (" + std::strerror(errno) + ")";
      return -1;
    }
    fd = next;
  }
  return fd;
}

// "a FIFO" for the Unix file types lsdae refuses.
const char* special_kind(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFIFO: return "a FIFO";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFSOCK: return "a socket";
    default: return "of an unknown file type";
  }
}

void write_all(const std::filesystem::path& archive, const std::string& name, int fd, const char* p,
               std::size_t left) {
  while (left > 0) {
    ssize_t w = write(fd, p, left);
    if (w < 0) {
      if (errno == EINTR) continue;
      fail(archive, "writing member " + quote_name(name) + " failed (" + std::strerror(errno) + ")",
           "check free space in TMPDIR");
    }
    p += w;
    left -= static_cast<std::size_t>(w);
  }
}

// Reads exactly `n` bytes of `fd` (fewer at its end); returns the count.
std::size_t read_up_to(int fd, char* p, std::size_t n) {
  std::size_t got = 0;
  while (got < n) {
    ssize_t r = read(fd, p + got, n - got);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) break;
    got += static_cast<std::size_t>(r);
  }
  return got;
}

std::string ratio_text(double ratio) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", ratio);
  return text;
}

std::string zip_bomb_todo(const char* limit) {
  return std::string("this looks like a zip bomb; if the FMU is genuine, raise the limit (lsdae --max-unpacked-size, "
                     "or ArchiveLimits::") +
         limit + ")";
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
                                 const ArchiveLimits& limits, Diagnostics* diagnostics) {
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

  // Pass 1: check every name, type, declared size and duplicate before writing anything.
  std::vector<Member> members(static_cast<std::size_t>(count));
  std::unordered_map<std::string, std::size_t> landed;  // landing path -> first member there
  std::uint64_t declared_total = 0;
  for (std::size_t i = 0; i < members.size(); ++i) {
    const auto index = static_cast<zip_uint64_t>(i);
    Member& m = members[i];
    const char* raw = zip_get_name(zip.get(), index, ZIP_FL_ENC_RAW);
    if (raw == nullptr) fail(archive, "member #" + std::to_string(i) + " has no readable name", "re-export the FMU");
    m.name = raw;
    std::string reason = unsafe_member_reason(m.name);
    if (!reason.empty())
      fail(archive, "member " + quote_name(m.name) + " " + reason + ", which would write outside the FMU's folder",
           "refusing a hostile or broken archive; re-export the FMU");
    m.parts = split_components(m.name);
    m.is_dir = m.parts.back().empty() || m.parts.back() == ".";

    zip_uint8_t opsys = 0;
    zip_uint32_t attributes = 0;
    if (zip_file_get_external_attributes(zip.get(), index, 0, &opsys, &attributes) == 0 &&
        opsys == ZIP_OPSYS_UNIX) {
      const auto mode = static_cast<mode_t>(attributes >> 16);
      // No file-type bits (S_IFMT == 0) is a regular file (or a folder, by its trailing '/'),
      // as unzip reads it: Python's zipfile.writestr stores 0600 that way.
      if (S_ISLNK(mode))
        fail(archive, "member " + quote_name(m.name) + " is a symbolic link",
             "FMUs must not contain symlinks; re-export the FMU");
      if ((mode & S_IFMT) != 0 && !S_ISREG(mode) && !S_ISDIR(mode))
        fail(archive, "member " + quote_name(m.name) + " is a special file (" + special_kind(mode) + ", mode " +
                          octal(mode) + ")",
             "FMUs may contain only files and folders; re-export the FMU");
      m.executable = (mode & 0111) != 0;
    }

    std::string path = landing_path(m.parts);
    if (path.empty()) m.is_dir = true;  // "./" and the like: the extraction folder itself
    auto [first, inserted] = landed.emplace(path, i);
    if (!inserted) {
      const Member& earlier = members[first->second];
      if (earlier.is_dir != m.is_dir)
        fail(archive, "member " + quote_name(m.name) + " is a " + (m.is_dir ? "folder" : "file") + ", but member " +
                          quote_name(earlier.name) + " is a " + (earlier.is_dir ? "folder" : "file") +
                          " at the same place",
             "the archive is inconsistent; re-export the FMU");
      if (!m.is_dir) m.copy_of = first->second;
    }
    if (m.is_dir) continue;

    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(zip.get(), index, 0, &st) != 0)
      fail(archive, "member " + quote_name(m.name) + " has an unreadable directory entry (" + zip_strerror(zip.get()) +
                        ")",
           "re-export or re-download the FMU");
    if ((st.valid & ZIP_STAT_ENCRYPTION_METHOD) && st.encryption_method != ZIP_EM_NONE)
      fail(archive, "member " + quote_name(m.name) + " is encrypted", "FMUs cannot be encrypted; re-export the FMU");
    if ((st.valid & ZIP_STAT_SIZE) == 0 || (st.valid & ZIP_STAT_COMP_SIZE) == 0)
      fail(archive, "member " + quote_name(m.name) + " has no size in the zip directory", "re-export the FMU");
    m.size = st.size;
    m.compressed = st.comp_size;
    if (st.valid & ZIP_STAT_CRC) m.crc = st.crc;

    // The declared sizes are checked here, before anything is written; pass 2
    // then holds every member to its declared size, so the checks also bound
    // what a lying directory can make lsdae write.
    if (m.size > limits.max_entry_bytes)
      fail(archive, "member " + quote_name(m.name) + " inflates to more than " + human_bytes(limits.max_entry_bytes) +
                        " (its zip entry declares " + human_bytes(m.size) + ")",
           zip_bomb_todo("max_entry_bytes"));
    declared_total = m.size > UINT64_MAX - declared_total ? UINT64_MAX : declared_total + m.size;
    if (declared_total > limits.max_total_bytes)
      fail(archive, "members inflate to more than " + human_bytes(limits.max_total_bytes) + " in total (at " +
                        quote_name(m.name) + "), by the sizes the zip directory declares",
           zip_bomb_todo("max_total_bytes"));
    if (m.size > limits.ratio_check_bytes &&
        static_cast<double>(m.size) > limits.max_compression_ratio * static_cast<double>(std::max<std::uint64_t>(m.compressed, 1)))
      fail(archive, "member " + quote_name(m.name) + " inflates " + human_bytes(m.compressed) + " to " +
                        human_bytes(m.size) + ", a compression ratio above " +
                        ratio_text(limits.max_compression_ratio) + ":1",
           "this looks like a zip bomb; if the FMU is genuine, unzip it yourself and give lsdae the folder, or "
           "raise ArchiveLimits::max_compression_ratio (C++ API)");
    if (m.copy_of) {
      const Member& earlier = members[*m.copy_of];
      if (earlier.size != m.size || (earlier.crc && m.crc && *earlier.crc != *m.crc))
        fail(archive, "member " + quote_name(m.name) + " is listed twice with different contents (" +
                          std::to_string(earlier.size) + " and " + std::to_string(m.size) + " bytes" +
                          (earlier.crc && m.crc && *earlier.crc != *m.crc ? ", different CRC-32" : "") + ")",
             "lsdae cannot tell which copy is meant; re-export the FMU");
    }
  }

  Fd root;
  root.fd = open(destination.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (root.fd < 0) fail(archive, "cannot open the extraction folder \"" + destination.string() + "\"", "check TMPDIR");

  // Pass 2: extract; a second copy of a file is compared with the first instead of written.
  ExtractionReport report;
  std::vector<char> buffer(1 << 16), previous(1 << 16);
  for (std::size_t i = 0; i < members.size(); ++i) {
    Member& m = members[i];
    std::string error;
    Fd parent;
    parent.fd = open_parent(root.fd, m.parts, m.is_dir ? m.parts.size() : m.parts.size() - 1, error);
    if (parent.fd < 0) fail(archive, "member " + quote_name(m.name) + " " + error, "re-export the FMU, or check TMPDIR");
    ++report.entries;
    if (m.is_dir) continue;

    std::unique_ptr<zip_file_t, ZipFileCloser> in(zip_fopen_index(zip.get(), static_cast<zip_uint64_t>(i), 0));
    if (!in)
      fail(archive, "member " + quote_name(m.name) + " cannot be read (" + zip_strerror(zip.get()) + ")",
           "the archive is damaged or uses an unsupported compression or encryption; re-export the FMU");
    Fd out;
    const char* leaf = m.parts.back().c_str();
    if (m.copy_of)
      out.fd = openat(parent.fd, leaf, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    else
      out.fd = openat(parent.fd, leaf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out.fd < 0) {
      int err = errno;
      fail(archive, "member " + quote_name(m.name) + " cannot be " + (m.copy_of ? "compared" : "created") + " (" +
                        (err == EEXIST ? std::string("an earlier member made a folder of that name")
                                       : std::string(std::strerror(err))) +
                        ")",
           err == EEXIST ? "the archive is inconsistent; re-export the FMU" : "check free space in TMPDIR");
    }
    std::uint64_t member_bytes = 0;
    for (;;) {
      // Ask for at most one byte beyond the declared size, so a lying entry is caught at once.
      const std::uint64_t left = m.size - member_bytes;  // never negative: checked below
      const std::size_t want = left >= buffer.size() ? buffer.size() : static_cast<std::size_t>(left) + 1;
      zip_int64_t n = zip_fread(in.get(), buffer.data(), want);
      if (n < 0)
        fail(archive, "member " + quote_name(m.name) + " is corrupt (" + zip_file_strerror(in.get()) + ")",
             "re-export or re-download the FMU");
      if (n == 0) break;
      member_bytes += static_cast<std::uint64_t>(n);
      report.bytes += static_cast<std::uint64_t>(n);
      // Held to the declared size, which pass 1 held to the caps and the ratio.
      if (member_bytes > m.size)
        fail(archive, "member " + quote_name(m.name) + " inflates to more than the " + std::to_string(m.size) +
                          " bytes its zip entry declares",
             "the archive is corrupt or hostile; re-export or re-download the FMU");
      if (m.copy_of) {
        const auto got = read_up_to(out.fd, previous.data(), static_cast<std::size_t>(n));
        if (got != static_cast<std::size_t>(n) ||
            std::memcmp(previous.data(), buffer.data(), static_cast<std::size_t>(n)) != 0)
          fail(archive, "member " + quote_name(m.name) + " is listed twice with different contents",
               "lsdae cannot tell which copy is meant; re-export the FMU");
      } else {
        write_all(archive, m.name, out.fd, buffer.data(), static_cast<std::size_t>(n));
      }
    }
    if (member_bytes != m.size)
      fail(archive, "member " + quote_name(m.name) + " inflates to " + std::to_string(member_bytes) +
                        " bytes, but its zip entry declares " + std::to_string(m.size),
           "the archive is corrupt; re-export or re-download the FMU");
    if (m.copy_of) {
      char extra = 0;
      if (read_up_to(out.fd, &extra, 1) != 0)
        fail(archive, "member " + quote_name(m.name) + " is listed twice with different contents",
             "lsdae cannot tell which copy is meant; re-export the FMU");
      Member& first = members[*m.copy_of];
      if (!first.reported) report.identical_duplicates.push_back(first.name);
      first.reported = true;
    }
    // Keep the executable bit for binaries (some loaders want it); nothing else.
    if (m.executable) fchmod(out.fd, 0700);
  }

  if (!report.identical_duplicates.empty() && diagnostics != nullptr) {
    const auto& names = report.identical_duplicates;
    std::string list;
    const std::size_t shown = std::min<std::size_t>(names.size(), 10);
    for (std::size_t k = 0; k < shown; ++k) list += (k ? ", " : "") + quote_name(names[k]);
    if (names.size() > shown) list += " and " + std::to_string(names.size() - shown) + " more";
    diagnostics->warning({}, 0,
                         "the zip archive lists " +
                             (names.size() == 1 ? std::string("the member ") + list
                                                : std::to_string(names.size()) + " members (" + list + ")") +
                             " more than once, with identical bytes; one copy was extracted",
                         "harmless; a fixed exporter would list each member once");
  }
  return report;
}

}  // namespace lsdae::import
