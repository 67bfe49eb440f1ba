// runtime/supervise/supervisor.cpp -- run_isolated (lsdae/supervise.h): the
// child and the parent's watch over it.
//
// Parent loop: poll() on a pidfd (readable when the child ends) and on the
// StopSignals wake-up pipe (stop_signals.h), waking at least every 100 ms to
// sample the call record (runtime/fmu/call_record.h) in the page it shares
// with the child (run_context.h). A call is "the same call" while its slot
// shows the same (function, sequence); the time it was first seen so starts
// its clock, so the call limit is enforced to within one sampling period.
// How the run ended is put into words by run_end.h.
#include "lsdae/supervise.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <vector>

#include "fmu/call_record.h"
#include "import/temp_dir.h"
#include "supervise/run_context.h"
#include "supervise/run_end.h"
#include "supervise/stop_signals.h"

namespace lsdae {

using namespace supervise;
using call_record::kSlots;

namespace {

[[noreturn]] void child_main(const RunBody& body, const IsolationOptions& options, SharedPage* page, pid_t parent,
                             double started, const std::filesystem::path& tmpdir) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl
  setenv("TMPDIR", tmpdir.c_str(), 1);
  become_child(&page->run);
  int results_fd = STDOUT_FILENO;
  if (options.fmu_stdout_to_stderr) {
    int copy = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (copy >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) results_fd = copy;
  }
  call_record::use_record(&page->calls);
  RunContext context = RunContextAccess::make(true, results_fd, options.timeout, started, &page->run);
  int code = 0;
  auto fail = [&](ErrorKind kind, const std::string& message) {
    const std::size_t n = std::min(message.size(), kMessageBytes - 1);
    std::memcpy(page->run.message, message.data(), n);
    page->run.message[n] = '\0';
    page->run.error_kind.store(static_cast<std::int32_t>(kind));
    page->run.report.store(static_cast<std::uint32_t>(ReportState::failed));
    code = exit_code(kind);
  };
  try {
    code = body(context);
    page->run.exit_code.store(code);
    page->run.report.store(static_cast<std::uint32_t>(ReportState::returned));
  } catch (const Error& e) {
    fail(e.kind(), e.what());
  } catch (const std::exception& e) {
    fail(ErrorKind::internal, std::string("internal error: ") + e.what() + " → please report this with the FMU");
  } catch (...) {
    fail(ErrorKind::internal, "internal error: an unknown exception → please report this with the FMU");
  }
  std::fflush(nullptr);
  _exit(code & 0xff);
}

}  // namespace

RunOutcome run_isolated(const RunBody& body, const IsolationOptions& options) {
  if (const int signo = received_signal()) return interrupted_before_start(signo, options);
  const double started = now_seconds();
  const long page_bytes = sysconf(_SC_PAGESIZE);
  const std::size_t bytes = (sizeof(SharedPage) + static_cast<std::size_t>(page_bytes) - 1) /
                            static_cast<std::size_t>(page_bytes) * static_cast<std::size_t>(page_bytes);
  void* memory = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED)
    throw Error(ErrorKind::internal, prefixed(options, std::string("cannot map the shared call record: ") +
                                                           std::strerror(errno) + " → run with --no-isolate"));
  struct Unmap {
    void* memory;
    std::size_t bytes;
    ~Unmap() { munmap(memory, bytes); }
  } unmap{memory, bytes};
  SharedPage* page = new (memory) SharedPage;
  reset(page->run);
  call_record::reset(page->calls);
  // The child's temporary files (FMUs it unpacks, whatever the FMU writes to
  // $TMPDIR) go to a folder this process owns and removes however the child ends.
  const import::TempDir tmpdir = import::TempDir::create();

  // With SIGCHLD ignored the kernel reaps the child itself and its status is
  // lost: restore the default for the run.
  struct sigaction old_sigchld {};
  sigaction(SIGCHLD, nullptr, &old_sigchld);
  const bool sigchld_ignored = old_sigchld.sa_handler == SIG_IGN;
  if (sigchld_ignored) {
    struct sigaction default_sigchld {};
    default_sigchld.sa_handler = SIG_DFL;
    sigemptyset(&default_sigchld.sa_mask);
    sigaction(SIGCHLD, &default_sigchld, nullptr);
  }
  struct RestoreSigchld {
    bool active;
    struct sigaction previous;
    ~RestoreSigchld() {
      if (active) sigaction(SIGCHLD, &previous, nullptr);
    }
  } restore_sigchld{sigchld_ignored, old_sigchld};

  std::fflush(nullptr);  // nothing buffered may be written twice
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0)
    throw Error(ErrorKind::internal, prefixed(options, std::string("cannot start the process to run the FMU: fork: ") +
                                                           std::strerror(errno) + " → run with --no-isolate"));
  if (pid == 0) child_main(body, options, page, parent, started, tmpdir.path());

  const int pidfd = static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
  RunOutcome out;
  enum class Cause { none, signal, timeout, call } cause = Cause::none;
  double kill_at = 0;
  int count_at_request = 0;
  bool killed = false;
  FmuCallInfo killed_in;
  struct Seen {
    std::uint32_t function = 0;
    std::uint64_t sequence = 0;
    double since = 0;
  };
  std::vector<Seen> seen(kSlots);
  double last_look = now_seconds(), paused = 0;
  auto kill_child = [&](std::optional<std::size_t> slot) {
    if (killed) return;
    killed_in = slot ? read_call(page->calls, *slot) : call_in_progress(page->calls);
    kill(pid, SIGKILL);
    killed = true;
  };
  int status = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) {
      status = 0;
      break;  // cannot happen for our own child; treat as ended
    }
    const double now = now_seconds();
    // This process was stopped (Ctrl-Z stops the child too) or starved: the
    // time it did not look does not count against the child.
    if (const double gap = now - last_look - 0.5; gap > 0) {
      paused += gap;
      for (Seen& s : seen) s.since += gap;
    }
    last_look = now;
    int signo = received_signal();
    // A stop signal sent to the child alone (its own handler recorded it): the same request.
    if (signo == 0 && cause == Cause::none) signo = std::max(0, static_cast<int>(page->run.stop_request.load()));
    if (signo != 0 && cause == Cause::none) {
      cause = Cause::signal;
      out.signal = signo;
      page->run.stop_request.store(signo);
      kill_at = now + options.stop_grace;
      count_at_request = signal_count();
    } else if (cause == Cause::signal && signal_count() > count_at_request) {
      kill_child(std::nullopt);  // a second signal: at once
    }
    if (options.timeout > 0 && cause == Cause::none && now - started - paused > options.timeout) {
      cause = Cause::timeout;
      page->run.stop_request.store(kStopForTimeout);
      kill_at = now + options.stop_grace;
    }
    if ((cause == Cause::signal || cause == Cause::timeout) && now >= kill_at) kill_child(std::nullopt);
    if (options.call_timeout > 0 && !killed) {
      const std::size_t high = std::min<std::size_t>(page->calls.slots_high.load(std::memory_order_relaxed), kSlots);
      for (std::size_t i = 0; i < high && !killed; ++i) {
        const std::uint32_t function = page->calls.slots[i].function.load(std::memory_order_relaxed);
        const std::uint64_t sequence = page->calls.slots[i].sequence.load(std::memory_order_relaxed);
        Seen& s = seen[i];
        if (function == 0) {
          s.function = 0;
          continue;
        }
        if (function != s.function || sequence != s.sequence) {
          s = {function, sequence, now};
          continue;
        }
        if (now - s.since >= options.call_timeout) {
          cause = Cause::call;
          kill_child(i);
        }
      }
    }
    // Sleep until the child ends, a signal comes, or the next sampling time.
    double wait = 0.1;
    if (cause == Cause::signal || cause == Cause::timeout) wait = std::min(wait, std::max(0.0, kill_at - now));
    if (options.timeout > 0 && cause == Cause::none)
      wait = std::min(wait, std::max(0.0, started + paused + options.timeout - now));
    pollfd fds[2];
    nfds_t n = 0;
    if (pidfd >= 0) fds[n++] = {pidfd, POLLIN, 0};
    if (wake_fd() >= 0) fds[n++] = {wake_fd(), POLLIN, 0};
    if (pidfd < 0) wait = std::min(wait, 0.02);
    poll(fds, n, static_cast<int>(std::ceil(wait * 1000.0)));
    drain_wake();
  }
  if (pidfd >= 0) close(pidfd);
  out.seconds = now_seconds() - started;
  read_progress(page->run, out);
  const auto report = static_cast<ReportState>(page->run.report.load());
  if (WIFSIGNALED(status)) {
    if (killed) {
      out.killed = true;
      out.call = killed_in;
      out.end = cause == Cause::call ? RunEnd::call_timeout
                : cause == Cause::timeout ? RunEnd::run_timeout
                                          : RunEnd::interrupted;
    } else {
      out.end = RunEnd::crashed;
      out.signal = WTERMSIG(status);
      out.call = call_in_progress(page->calls);
    }
  } else if (report == ReportState::returned) {
    out.end = RunEnd::completed;
    out.exit_code = page->run.exit_code.load();
  } else if (report == ReportState::failed) {
    out.end = RunEnd::failed;
    const int kind = page->run.error_kind.load();
    out.error_kind = kind >= 0 && kind <= static_cast<int>(ErrorKind::timeout) ? static_cast<ErrorKind>(kind)
                                                                               : ErrorKind::internal;
    out.message = call_record::read_bounded(page->run.message, kMessageBytes);
  } else {
    out.end = RunEnd::exited;
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    out.call = call_in_progress(page->calls);
  }
  // A stop request the work function honoured by returning.
  if (out.end == RunEnd::completed && cause == Cause::timeout) out.end = RunEnd::run_timeout;
  if (out.end == RunEnd::completed && cause == Cause::signal) out.end = RunEnd::interrupted;
  describe_end(out, options, page->calls);
  return out;
}

}  // namespace lsdae
