// tests/runtime/cli/run_process.h -- runs a program as a child process, the
// way a user's shell would, with stdout and stderr captured.
//
// The child is started with posix_spawn (no shell, so arguments are passed
// verbatim), stdin from /dev/null, stdout and stderr into files of
// `capture_dir` (no pipe can fill up and stall it), and the parent's
// environment with `env` overriding single variables (e.g. TMPDIR).
#ifndef LSDAE_TESTS_RUNTIME_CLI_RUN_PROCESS_H
#define LSDAE_TESTS_RUNTIME_CLI_RUN_PROCESS_H

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace lsdae::test {

struct ProcessResult {
  int exit_code = -1;  // when the child exited normally, else -1
  int signal = 0;      // the signal that ended the child, else 0
  bool timed_out = false;  // killed by wait() after its timeout
  std::string out, err;
  std::string output() const { return out + err; }
  // "exit 3" / "killed by signal 11 (Segmentation fault)" / "timed out", then both streams.
  std::string describe() const;
};

class ChildProcess {
 public:
  ChildProcess(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
               const std::filesystem::path& capture_dir);
  ~ChildProcess();  // kills and reaps a child that is still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  void send(int signo) const;
  // Waits for the child to end; after `timeout` it is killed (SIGKILL) and reported as timed out.
  ProcessResult wait(std::chrono::milliseconds timeout = std::chrono::seconds(60));

 private:
  pid_t pid_ = -1;
  std::filesystem::path out_file_, err_file_;
};

// Starts the child and waits for it.
ProcessResult run_process(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                          const std::filesystem::path& capture_dir,
                          std::chrono::milliseconds timeout = std::chrono::seconds(60));

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_CLI_RUN_PROCESS_H
