// runtime/import/temp_dir.h -- private temporary directories that are removed
// on every exit path.
//
// TempDir::create makes "<root>/lsdae-XXXXXX" with mkdtemp (mode 0700, so no
// other user can plant files in it). The destructor removes it recursively.
// Every live directory is also listed in a fixed-size, lock-free registry that
// a SIGINT/SIGTERM/SIGHUP handler walks before re-raising the signal, so an
// interrupted `lsdae` leaves nothing behind. The handler removes files with
// async-signal-safe system calls only (open, getdents64, unlinkat, close).
// Removal is iterative (down into a folder, back up through ".."), so it
// works at any depth with a fixed 8 KiB of stack: a zip member name of 64 KiB
// nests 32768 folders.
//
// Programs that handle SIGINT themselves (the simulator stops cleanly and
// keeps its results) call `TempDir::set_signal_cleanup(false)` and rely on
// the destructors.
#ifndef LSDAE_RUNTIME_IMPORT_TEMP_DIR_H
#define LSDAE_RUNTIME_IMPORT_TEMP_DIR_H

#include <filesystem>

namespace lsdae::import {

class TempDir {
 public:
  // Throws lsdae::Error(archive) naming the root when mkdtemp fails.
  static TempDir create(const std::filesystem::path& root = {});
  TempDir(TempDir&& other) noexcept;
  TempDir& operator=(TempDir&&) = delete;
  TempDir(const TempDir&) = delete;
  ~TempDir();

  const std::filesystem::path& path() const { return path_; }

  // Installs (true) or removes (false) the signal handlers. Installed by the
  // first create() unless disabled before.
  static void set_signal_cleanup(bool enabled);

 private:
  explicit TempDir(std::filesystem::path path, int slot) : path_(std::move(path)), slot_(slot) {}
  std::filesystem::path path_;
  int slot_ = -1;
};

// Removes `path` recursively without following symlinks, using only
// async-signal-safe calls. Returns false if something could not be removed.
bool remove_tree_signal_safe(const char* path) noexcept;

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_TEMP_DIR_H
