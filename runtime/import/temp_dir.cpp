// runtime/import/temp_dir.cpp -- see temp_dir.h.
#include "import/temp_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "lsdae/error.h"

namespace lsdae::import {

namespace {

constexpr int kSlots = 64;
constexpr std::size_t kPathMax = 4096;

// Registry of live directories: a slot is claimed by CAS on `used`, then its
// path is written, then `ready` is set. The handler reads only ready slots.
struct Slot {
  std::atomic<bool> used{false};
  std::atomic<bool> ready{false};
  char path[kPathMax];
};
Slot g_slots[kSlots];
std::atomic<bool> g_signal_cleanup{true};
std::atomic<bool> g_handlers_installed{false};
struct sigaction g_previous[3];
constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

// The kernel's struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), then the name.
constexpr std::size_t kDirentReclenOffset = 16;
constexpr std::size_t kDirentNameOffset = 19;

// Identity of a directory, to check that ".." led back to where we came from.
struct DirId {
  std::size_t depth = static_cast<std::size_t>(-1);
  dev_t dev = 0;
  ino_t ino = 0;
};
constexpr std::size_t kTrail = 64;

// Opens the subdirectory `name` of `dir_fd` without following a symlink. A
// folder without read or search permission (an FMU may chmod its resources)
// is made 0700 first: we own everything below our private folder.
int open_subdir(int dir_fd, const char* name) noexcept {
  int child = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (child < 0 && errno == EACCES) {
    struct stat st {};
    if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode) &&
        fchmodat(dir_fd, name, S_IRWXU, 0) == 0)
      child = openat(dir_fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  }
  if (child >= 0) fchmod(child, S_IRWXU);  // so its entries can be unlinked; harmless if not ours
  return child;
}

// Empties the directory `root_fd` (which is not removed and stays open).
//
// Depth-first and iterative, so the depth of the tree does not matter (a zip
// member name of 64 KiB nests 32768 folders) and the stack stays at one
// getdents buffer, as a signal handler needs: in the current folder, unlink
// every file and rmdir every empty folder; descend into the first folder that
// is not empty; when the current folder is empty, go back up through "..",
// where the now empty folder is removed on the next scan. The last kTrail
// ancestors' identities are kept and compared after each ".." (deeper ones
// only by device), so a folder moved away during the removal stops it instead
// of emptying a stranger's folder. A scan that removes nothing and leaves
// something behind stops the whole removal (returns false) instead of looping.
bool remove_children(int root_fd) noexcept {
  struct stat root_st {};
  if (fstat(root_fd, &root_st) != 0) return false;
  int fd = openat(root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  DirId trail[kTrail];
  std::size_t depth = 0;
  bool ok = true;
  alignas(8) char buffer[8192];
  for (;;) {
    lseek(fd, 0, SEEK_SET);
    bool progress = false, descended = false, left_behind = false;
    long n = 0;
    while (!descended && (n = syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0) {
      for (long offset = 0; offset < n;) {
        const char* entry = buffer + offset;
        unsigned short reclen = 0;
        std::memcpy(&reclen, entry + kDirentReclenOffset, sizeof reclen);
        offset += reclen;
        const char* name = entry + kDirentNameOffset;
        if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
        if (unlinkat(fd, name, 0) == 0 || errno == ENOENT) {
          progress = true;
          continue;
        }
        if (errno == EISDIR || errno == EPERM) {
          if (unlinkat(fd, name, AT_REMOVEDIR) == 0) {
            progress = true;
            continue;
          }
          if (errno == ENOTEMPTY || errno == EEXIST) {
            int child = open_subdir(fd, name);
            if (child >= 0) {
              struct stat st {};
              fstat(fd, &st);
              trail[depth % kTrail] = DirId{depth, st.st_dev, st.st_ino};
              close(fd);
              fd = child;
              ++depth;
              descended = true;
              break;
            }
          }
        }
        left_behind = true;
      }
    }
    if (descended) continue;
    if (n < 0) left_behind = true;
    if (progress && n == 0) continue;  // entries were removed while reading: scan again so none is skipped
    if (left_behind) {
      ok = false;
      break;
    }
    if (depth == 0) break;  // the root is empty
    int parent = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    close(fd);
    fd = parent;
    --depth;
    struct stat st {};
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_dev != root_st.st_dev ||
        (trail[depth % kTrail].depth == depth &&
         (trail[depth % kTrail].dev != st.st_dev || trail[depth % kTrail].ino != st.st_ino)) ||
        (depth == 0 && st.st_ino != root_st.st_ino)) {
      ok = false;
      break;
    }
  }
  if (fd >= 0) close(fd);
  return ok;
}

void cleanup_all() noexcept {
  for (auto& slot : g_slots)
    if (slot.ready.load(std::memory_order_acquire)) remove_tree_signal_safe(slot.path);
}

void on_signal(int signo) {
  if (g_signal_cleanup.load()) cleanup_all();
  // Restore the previous disposition and re-raise so the exit status says "killed by signo".
  for (int i = 0; i < 3; ++i)
    if (kSignals[i] == signo) sigaction(signo, &g_previous[i], nullptr);
  raise(signo);
}

void install_handlers() {
  bool expected = false;
  if (!g_handlers_installed.compare_exchange_strong(expected, true)) return;
  struct sigaction action {};
  action.sa_handler = on_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &g_previous[i]);
}

void uninstall_handlers() {
  bool expected = true;
  if (!g_handlers_installed.compare_exchange_strong(expected, false)) return;
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &g_previous[i], nullptr);
}

}  // namespace

bool remove_tree_signal_safe(const char* path) noexcept {
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0 && errno == EACCES) {  // made unreadable (by the FMU): ours, so make it 0700 again
    struct stat st {};
    if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && chmod(path, S_IRWXU) == 0)
      fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  }
  if (fd < 0) return errno == ENOENT;
  fchmod(fd, S_IRWXU);  // in case the FMU made it read-only
  bool ok = remove_children(fd);
  close(fd);
  return rmdir(path) == 0 && ok;
}

TempDir TempDir::create(const std::filesystem::path& root_in) {
  std::filesystem::path root = root_in;
  if (root.empty()) {
    const char* env = std::getenv("TMPDIR");
    root = (env != nullptr && *env != '\0') ? env : "/tmp";
  }
  std::string templ = (root / "lsdae-XXXXXX").string();
  if (templ.size() >= kPathMax)
    throw Error(ErrorKind::archive, "temporary directory: root \"" + root.string() + "\" is too long → set TMPDIR to a shorter path");
  if (mkdtemp(templ.data()) == nullptr)
    throw Error(ErrorKind::archive, "temporary directory: cannot create one in \"" + root.string() + "\": " +
                                        std::strerror(errno) + " → set TMPDIR to a writable directory");
  int slot_index = -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_slots[i].used.compare_exchange_strong(expected, true)) {
      std::memcpy(g_slots[i].path, templ.c_str(), templ.size() + 1);
      g_slots[i].ready.store(true, std::memory_order_release);
      slot_index = i;
      break;
    }
  }
  if (g_signal_cleanup.load()) install_handlers();
  return TempDir(templ, slot_index);
}

TempDir::TempDir(TempDir&& other) noexcept : path_(std::move(other.path_)), slot_(other.slot_) {
  other.path_.clear();
  other.slot_ = -1;
}

TempDir::~TempDir() {
  if (path_.empty()) return;
  if (slot_ >= 0) {
    g_slots[slot_].ready.store(false, std::memory_order_release);
    g_slots[slot_].used.store(false, std::memory_order_release);
  }
  remove_tree_signal_safe(path_.c_str());
}

void TempDir::set_signal_cleanup(bool enabled) {
  g_signal_cleanup.store(enabled);
  if (enabled) install_handlers(); else uninstall_handlers();
}

}  // namespace lsdae::import
