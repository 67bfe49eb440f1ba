// tests/runtime/import/temp_dir_test.cpp -- runtime/import/temp_dir.cpp:
// private folders, removal by destructor and by signal.
#include "import/temp_dir.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <fstream>

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const char* name) {
  fs::path p = fs::temp_directory_path() / ("lsdae-tempdir-test-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

TEST(TempDir, IsPrivateAndRemovedWithItsContents) {
  fs::path root = scratch("destructor");
  fs::path made;
  {
    TempDir dir = TempDir::create(root);
    made = dir.path();
    struct stat st {};
    ASSERT_EQ(::stat(made.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    fs::create_directories(made / "a/b/c");
    std::ofstream(made / "a/b/c/file.txt") << "x";
    std::ofstream(made / "top.txt") << "y";
    fs::create_symlink("/etc", made / "a/link");  // removed, never followed
  }
  EXPECT_FALSE(fs::exists(made));
  EXPECT_TRUE(fs::exists("/etc/passwd"));
  fs::remove_all(root);
}

TEST(TempDir, SignalRemovesLiveFoldersBeforeTheProcessDies) {
  fs::path root = scratch("signal");
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    TempDir dir = TempDir::create(root);
    for (int i = 0; i < 200; ++i) std::ofstream(dir.path() / ("f" + std::to_string(i))) << i;
    char ready = 'r';
    if (::write(pipe_fds[1], &ready, 1) != 1) ::_exit(3);
    ::pause();
    ::_exit(4);  // not reached: SIGTERM kills
  }
  char ready = 0;
  ASSERT_EQ(::read(pipe_fds[0], &ready, 1), 1);
  EXPECT_FALSE(fs::is_empty(root));
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status)) << "the handler re-raises, so the exit status still says 'killed'";
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_TRUE(fs::is_empty(root)) << "the folder was not removed";
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  fs::remove_all(root);
}

// Makes `depth` nested folders "d" below `dir` with openat (the path outgrows PATH_MAX)
// and a file at the bottom.
void make_deep_tree(const fs::path& dir, int depth) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  ASSERT_GE(fd, 0);
  for (int k = 0; k < depth; ++k) {
    ASSERT_EQ(::mkdirat(fd, "d", 0700), 0) << "depth " << k;
    int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
    ::close(fd);
    ASSERT_GE(next, 0);
    fd = next;
  }
  int file = ::openat(fd, "bottom.txt", O_WRONLY | O_CREAT, 0600);
  ASSERT_GE(file, 0);
  ASSERT_EQ(::write(file, "x", 1), 1);
  ::close(file);
  ::close(fd);
}

TEST(TempDir, RemovesTreesOfAnyDepth) {
  // The old recursive removal stopped at depth 64 and left the folder behind; 1200 levels
  // of 8 KiB buffers would not fit a signal handler's stack.
  fs::path root = scratch("deep");
  for (int depth : {65, 100, 1200}) {
    fs::path made;
    {
      TempDir dir = TempDir::create(root);
      made = dir.path();
      make_deep_tree(made, depth);
      std::ofstream(made / "top.txt") << "y";  // and siblings at several levels
      fs::create_directories(made / "d/e/f");
    }
    EXPECT_FALSE(fs::exists(made)) << "depth " << depth;
  }
  EXPECT_TRUE(fs::is_empty(root));
  fs::remove_all(root);
}

TEST(TempDir, RemovesWideTreesAndFoldersAnFmuMadeReadOnly) {
  fs::path root = scratch("wide");
  fs::path made;
  {
    TempDir dir = TempDir::create(root);
    made = dir.path();
    for (int i = 0; i < 100; ++i) {
      fs::path sub = made / ("s" + std::to_string(i));
      fs::create_directories(sub / "inner");
      std::ofstream(sub / "inner/f") << i;
      std::ofstream(sub / "g") << i;
    }
    fs::create_directories(made / "locked/inner");
    std::ofstream(made / "locked/inner/f") << "x";
    ::chmod((made / "locked/inner").c_str(), 0500);  // no write: its entries cannot be unlinked
    ::chmod((made / "locked").c_str(), 0);           // no read or search at all
    ::chmod(made.c_str(), 0);                        // and the temp folder itself
    // (Run as root, the tests cannot see permissions matter; as a user they do.)
  }
  EXPECT_FALSE(fs::exists(made));
  fs::remove_all(root);
}

TEST(TempDir, RemoveTreeReportsSuccessAndAMissingFolder) {
  fs::path root = scratch("report");
  fs::create_directories(root / "t/a/b");
  EXPECT_TRUE(remove_tree_signal_safe((root / "t").c_str()));
  EXPECT_FALSE(fs::exists(root / "t"));
  EXPECT_TRUE(remove_tree_signal_safe((root / "t").c_str())) << "nothing to remove is not a failure";
  fs::remove_all(root);
}

TEST(TempDir, SignalRemovesADeepFolder) {
  fs::path root = scratch("signal-deep");
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    TempDir dir = TempDir::create(root);
    make_deep_tree(dir.path(), 1200);
    char ready = 'r';
    if (::write(pipe_fds[1], &ready, 1) != 1) ::_exit(3);
    ::pause();
    ::_exit(4);
  }
  char ready = 0;
  ASSERT_EQ(::read(pipe_fds[0], &ready, 1), 1);
  ::kill(child, SIGTERM);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(fs::is_empty(root)) << "the deep folder was not removed by the signal handler";
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  fs::remove_all(root);
}

TEST(TempDir, ReportsAnUnusableRoot) {
  try {
    TempDir::create("/proc/definitely/not/here");
    FAIL() << "no error";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("/proc/definitely/not/here"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("TMPDIR"), std::string::npos);
  }
}

}  // namespace
}  // namespace lsdae::import
