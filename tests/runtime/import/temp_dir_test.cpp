// tests/runtime/import/temp_dir_test.cpp -- runtime/import/temp_dir.cpp:
// private folders, removal by destructor and by signal.
#include "import/temp_dir.h"

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
