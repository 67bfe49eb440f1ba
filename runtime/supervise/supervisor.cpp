// runtime/supervise/supervisor.cpp -- see lsdae/supervise.h.
//
// Parent loop: poll() on a pidfd (readable when the child ends) and on the
// StopSignals wake-up pipe, waking at least every 100 ms to sample the call
// record (runtime/supervise/call_record.h). A call is "the same call" while
// its slot shows the same (function, sequence); the time it was first seen
// so starts its clock, so the call limit is enforced to within one sampling
// period.
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
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <vector>

#include "common/format.h"
#include "import/temp_dir.h"
#include "lsdae/fmi_names.h"
#include "supervise/call_record.h"

namespace lsdae {

using supervise::CallPage;
using supervise::kSlots;
using supervise::ReportState;

struct RunContextAccess {
  static RunContext make(bool isolated, int results_fd, double timeout, double started, CallPage* page) {
    RunContext c;
    c.isolated_ = isolated;
    c.results_fd_ = results_fd;
    c.timeout_ = timeout;
    c.started_ = started;
    c.page_ = page;
    return c;
  }
};

namespace {

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---- stop signals -----------------------------------------------------------

constexpr int kStopSignals[3] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};
std::atomic<bool> g_installed{false};
int g_wake[2] = {-1, -1};  // written by the handler, polled by run_isolated
struct sigaction g_previous[3];
std::atomic<bool> g_in_process_run{false};
char g_abort_folder[4096];
std::atomic<bool> g_abort_folder_set{false};
std::atomic<CallPage*> g_child_page{nullptr};  // in a child: where its own handler records a stop

extern "C" void on_stop_signal(int signo) {
  const int saved_errno = errno;
  int expected = 0;
  g_signal.compare_exchange_strong(expected, signo);
  const int n = g_count.fetch_add(1) + 1;
  if (g_wake[1] >= 0) {
    const char byte = 1;
    [[maybe_unused]] ssize_t w = write(g_wake[1], &byte, 1);
  }
  if (n >= 2 && g_in_process_run.load()) {
    // The run cannot be interrupted inside this process: end it, clean up first.
    if (g_abort_folder_set.load()) import::remove_tree_signal_safe(g_abort_folder);
    static const char message[] = "lsdae: a second stop signal: ending at once\n";
    [[maybe_unused]] ssize_t w = write(STDERR_FILENO, message, sizeof message - 1);
    _exit(130);
  }
  errno = saved_errno;
}

extern "C" void on_child_stop_signal(int signo) {
  if (CallPage* page = g_child_page.load()) {
    std::int32_t expected = 0;
    page->stop_request.compare_exchange_strong(expected, signo);
  }
}

// ---- messages ---------------------------------------------------------------

std::string signal_text(int signo) {
  const char* abbrev = sigabbrev_np(signo);
  std::string text = abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signo);
  if (const char* description = strsignal(signo)) text += std::string(" (") + description + ")";
  return text;
}

std::string prefixed(const IsolationOptions& options, const std::string& text) {
  return options.label.empty() ? text : options.label + ": " + text;
}

std::string seconds_text(double s) { return format_number(s) + " s"; }

FmuCallInfo read_call(const CallPage& page, std::size_t slot_index) {
  const supervise::CallSlot& slot = page.slots[slot_index];
  FmuCallInfo call;
  call.function = supervise::function_name(slot.function.load(std::memory_order_relaxed));
  call.instance = supervise::read_bounded(slot.instance, supervise::kInstanceNameBytes);
  const double t = slot.time.load(std::memory_order_relaxed);
  if (std::isfinite(t)) call.time = t;
  return call;
}

// The first slot with a call in progress (the child may have had several
// threads in calls: any of them is where it stopped).
FmuCallInfo call_in_progress(const CallPage& page) {
  const std::size_t high = std::min<std::size_t>(page.slots_high.load(std::memory_order_relaxed), kSlots);
  for (std::size_t i = 0; i < high; ++i)
    if (page.slots[i].function.load(std::memory_order_relaxed) != 0) return read_call(page, i);
  return {};
}

// The last call made at all (for "outside any FMU call (the last was ...)"):
// the slot with the highest sequence is a fair guess.
std::string last_call_hint(const CallPage& page) {
  const std::size_t high = std::min<std::size_t>(page.slots_high.load(std::memory_order_relaxed), kSlots);
  std::size_t best = kSlots;
  std::uint64_t best_sequence = 0;
  for (std::size_t i = 0; i < high; ++i) {
    const std::uint64_t s = page.slots[i].sequence.load(std::memory_order_relaxed);
    if (s > best_sequence) best_sequence = s, best = i;
  }
  if (best == kSlots) return "";
  std::string instance = supervise::read_bounded(page.slots[best].instance, supervise::kInstanceNameBytes);
  return instance.empty() ? "" : " (instance \"" + instance + "\" made " + std::to_string(best_sequence) + " FMU calls)";
}

void read_progress(const CallPage& page, RunOutcome& out) {
  if (page.progress_set.load() == 0) return;
  out.rows = page.progress_rows.load();
  out.reached_time = page.progress_time.load();
}

RunOutcome interrupted_before_start(int signo, const IsolationOptions& options) {
  RunOutcome out;
  out.end = RunEnd::interrupted;
  out.signal = signo;
  out.message = prefixed(options, "interrupted by " + signal_text(signo) + " before the run started");
  return out;
}

void describe_end(RunOutcome& out, const IsolationOptions& options, const CallPage& page) {
  const bool in_call = !out.call.function.empty();
  const std::string where = in_call ? out.call.describe() : "";
  switch (out.end) {
    case RunEnd::completed:
    case RunEnd::failed:
      return;
    case RunEnd::crashed: {
      std::string hint = out.signal == SIGABRT ? " (abort() or a failed assertion)" : "";
      if (in_call)
        out.message = prefixed(options, "the FMU crashed in " + where + ": the process running it was killed by " +
                                            signal_text(out.signal) + hint +
                                            " → a bug in the FMU's binary: report it to its vendor with this FMU "
                                            "(run with --no-isolate under a debugger to see where)");
      else if (out.signal == SIGPIPE)
        out.message = prefixed(options, "the results could not be written: the reader of the output went away (" +
                                            signal_text(out.signal) + ") → read the whole output, or write to a file");
      else
        out.message = prefixed(options, "the process running the FMU was killed by " + signal_text(out.signal) + hint +
                                            " outside any FMU call" + last_call_hint(page) +
                                            " → the system may have run out of memory, or the FMU corrupted memory "
                                            "earlier; if neither, report it as an lsdae bug with this FMU");
      return;
    }
    case RunEnd::exited:
      if (in_call)
        out.message = prefixed(options, "the FMU ended the process running it in " + where + ": exit status " +
                                            std::to_string(out.exit_code) +
                                            " (it called exit()) → an FMU must return " +
                                            (out.call.function.rfind("fmi", 0) == 0 ? fmi_status_name_for(out.call.function, 3)
                                                                                     : std::string("an error status")) +
                                            ", not end the process: report it to its vendor with this FMU");
      else
        out.message = prefixed(options, "the process running the FMU ended with exit status " +
                                            std::to_string(out.exit_code) + " outside any FMU call" +
                                            last_call_hint(page) +
                                            " → something in the FMU (a thread, an atexit handler) ended it: report "
                                            "it to the FMU's vendor");
      return;
    case RunEnd::call_timeout:
      out.message = prefixed(options, where + " did not return within " + seconds_text(options.call_timeout) +
                                          ": the process running the FMU was stopped → the FMU hangs (an endless "
                                          "loop?); if the call is legitimately that slow, raise --call-timeout");
      return;
    case RunEnd::run_timeout:
      out.message = prefixed(options, "the run took longer than its limit of " + seconds_text(options.timeout) +
                                          (out.killed ? (in_call ? "; it was stopped in " + where + ", which did not return in time"
                                                                 : "; it was stopped")
                                                      : "; it stopped at its next check point") +
                                          " → raise --timeout, or simulate a shorter time span");
      return;
    case RunEnd::interrupted:
      out.message = prefixed(options, "interrupted by " + signal_text(out.signal) +
                                          (out.killed ? (in_call ? " in " + where + "; the call did not return, so the "
                                                                                  "process running the FMU was stopped"
                                                                 : "; the process running the FMU was stopped")
                                                      : ""));
      return;
  }
}

// ---- the child ----------------------------------------------------------------

[[noreturn]] void child_main(const RunBody& body, const IsolationOptions& options, CallPage* page, pid_t parent,
                             double started, const std::filesystem::path& tmpdir) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(127);  // the parent died before prctl
  setenv("TMPDIR", tmpdir.c_str(), 1);
  if (g_wake[0] >= 0) {
    close(g_wake[0]);
    close(g_wake[1]);
    g_wake[0] = g_wake[1] = -1;
  }
  g_in_process_run.store(false);
  g_child_page.store(page);
  struct sigaction action {};
  action.sa_handler = on_child_stop_signal;
  sigemptyset(&action.sa_mask);
  for (int signo : kStopSignals) sigaction(signo, &action, nullptr);
  // A crash ends the child by its signal, whatever handlers the caller (a
  // crash reporter, a sanitizer runtime) installed: the parent reports it.
  struct sigaction fatal {};
  fatal.sa_handler = SIG_DFL;
  sigemptyset(&fatal.sa_mask);
  for (int signo : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) sigaction(signo, &fatal, nullptr);
  int results_fd = STDOUT_FILENO;
  if (options.fmu_stdout_to_stderr) {
    int copy = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (copy >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) results_fd = copy;
  }
  supervise::use_page(page);
  RunContext context = RunContextAccess::make(true, results_fd, options.timeout, started, page);
  int code = 0;
  auto fail = [&](ErrorKind kind, const std::string& message) {
    const std::size_t n = std::min(message.size(), supervise::kMessageBytes - 1);
    std::memcpy(page->message, message.data(), n);
    page->message[n] = '\0';
    page->error_kind.store(static_cast<std::int32_t>(kind));
    page->report.store(static_cast<std::uint32_t>(ReportState::failed));
    code = exit_code(kind);
  };
  try {
    code = body(context);
    page->exit_code.store(code);
    page->report.store(static_cast<std::uint32_t>(ReportState::returned));
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

// ---- RunContext -------------------------------------------------------------------

bool RunContext::stop_requested() const {
  if (page_ != nullptr) return page_->stop_request.load(std::memory_order_relaxed) != 0;
  return g_signal.load() != 0 || stop_for_timeout();
}

int RunContext::stop_signal() const {
  if (page_ != nullptr) return std::max(0, static_cast<int>(page_->stop_request.load(std::memory_order_relaxed)));
  return g_signal.load();
}

bool RunContext::stop_for_timeout() const {
  if (page_ != nullptr) return page_->stop_request.load(std::memory_order_relaxed) == supervise::kStopForTimeout;
  return timeout_ > 0 && now_seconds() - started_ > timeout_;
}

void RunContext::report_progress(std::uint64_t rows, double time) noexcept {
  CallPage& page = page_ != nullptr ? *page_ : supervise::current_page();
  page.progress_rows.store(rows, std::memory_order_relaxed);
  page.progress_time.store(time, std::memory_order_relaxed);
  page.progress_set.store(1, std::memory_order_relaxed);
}

// ---- outcome ------------------------------------------------------------------

const char* to_string(RunEnd end) noexcept {
  switch (end) {
    case RunEnd::completed: return "completed";
    case RunEnd::failed: return "failed";
    case RunEnd::crashed: return "crashed";
    case RunEnd::exited: return "exited";
    case RunEnd::call_timeout: return "call_timeout";
    case RunEnd::run_timeout: return "run_timeout";
    case RunEnd::interrupted: return "interrupted";
  }
  return "?";
}

std::string FmuCallInfo::describe() const {
  if (function.empty()) return "";
  std::string text = function;
  std::string details;
  if (!instance.empty()) details = "instance \"" + instance + "\"";
  if (time) details += (details.empty() ? "" : ", ") + std::string("t = ") + format_number(*time);
  return details.empty() ? text : text + " (" + details + ")";
}

ErrorKind RunOutcome::kind() const {
  switch (end) {
    case RunEnd::completed: return ErrorKind::internal;
    case RunEnd::failed: return error_kind;
    case RunEnd::crashed: return signal == SIGPIPE && call.function.empty() ? ErrorKind::output : ErrorKind::fmu_crash;
    case RunEnd::exited: return ErrorKind::fmu_crash;
    case RunEnd::call_timeout:
    case RunEnd::run_timeout: return ErrorKind::timeout;
    case RunEnd::interrupted: return ErrorKind::interrupted;
  }
  return ErrorKind::internal;
}

// ---- runners ------------------------------------------------------------------------

RunOutcome run_isolated(const RunBody& body, const IsolationOptions& options) {
  if (const int signo = g_signal.load()) return interrupted_before_start(signo, options);
  const double started = now_seconds();
  const long page_bytes = sysconf(_SC_PAGESIZE);
  const std::size_t bytes = (sizeof(CallPage) + static_cast<std::size_t>(page_bytes) - 1) /
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
  CallPage* page = new (memory) CallPage;
  supervise::reset_page(*page);
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
    killed_in = slot ? read_call(*page, *slot) : call_in_progress(*page);
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
    int signo = g_signal.load();
    // A stop signal sent to the child alone (its own handler recorded it): the same request.
    if (signo == 0 && cause == Cause::none) signo = std::max(0, static_cast<int>(page->stop_request.load()));
    if (signo != 0 && cause == Cause::none) {
      cause = Cause::signal;
      out.signal = signo;
      page->stop_request.store(signo);
      kill_at = now + options.stop_grace;
      count_at_request = g_count.load();
    } else if (cause == Cause::signal && g_count.load() > count_at_request) {
      kill_child(std::nullopt);  // a second signal: at once
    }
    if (options.timeout > 0 && cause == Cause::none && now - started - paused > options.timeout) {
      cause = Cause::timeout;
      page->stop_request.store(supervise::kStopForTimeout);
      kill_at = now + options.stop_grace;
    }
    if ((cause == Cause::signal || cause == Cause::timeout) && now >= kill_at) kill_child(std::nullopt);
    if (options.call_timeout > 0 && !killed) {
      const std::size_t high = std::min<std::size_t>(page->slots_high.load(std::memory_order_relaxed), kSlots);
      for (std::size_t i = 0; i < high && !killed; ++i) {
        const std::uint32_t function = page->slots[i].function.load(std::memory_order_relaxed);
        const std::uint64_t sequence = page->slots[i].sequence.load(std::memory_order_relaxed);
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
    if (g_wake[0] >= 0) fds[n++] = {g_wake[0], POLLIN, 0};
    if (pidfd < 0) wait = std::min(wait, 0.02);
    poll(fds, n, static_cast<int>(std::ceil(wait * 1000.0)));
    if (g_wake[0] >= 0) {
      char drain[64];
      while (read(g_wake[0], drain, sizeof drain) > 0) {
      }
    }
  }
  if (pidfd >= 0) close(pidfd);
  out.seconds = now_seconds() - started;
  read_progress(*page, out);
  const auto report = static_cast<ReportState>(page->report.load());
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
      out.call = call_in_progress(*page);
    }
  } else if (report == ReportState::returned) {
    out.end = RunEnd::completed;
    out.exit_code = page->exit_code.load();
  } else if (report == ReportState::failed) {
    out.end = RunEnd::failed;
    const int kind = page->error_kind.load();
    out.error_kind = kind >= 0 && kind <= static_cast<int>(ErrorKind::timeout) ? static_cast<ErrorKind>(kind)
                                                                               : ErrorKind::internal;
    out.message = supervise::read_bounded(page->message, supervise::kMessageBytes);
  } else {
    out.end = RunEnd::exited;
    out.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    out.call = call_in_progress(*page);
  }
  // A stop request the work function honoured by returning.
  if (out.end == RunEnd::completed && cause == Cause::timeout) out.end = RunEnd::run_timeout;
  if (out.end == RunEnd::completed && cause == Cause::signal) out.end = RunEnd::interrupted;
  describe_end(out, options, *page);
  return out;
}

RunOutcome run_in_process(const RunBody& body, const IsolationOptions& options) {
  if (const int signo = g_signal.load()) return interrupted_before_start(signo, options);
  const double started = now_seconds();
  CallPage& page = supervise::current_page();
  page.progress_set.store(0);
  int results_fd = STDOUT_FILENO, saved_stdout = -1;
  if (options.fmu_stdout_to_stderr) {
    std::fflush(stdout);
    saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved_stdout >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) results_fd = saved_stdout;
  }
  RunContext context = RunContextAccess::make(false, results_fd, options.timeout, started, nullptr);
  RunOutcome out;
  g_in_process_run.store(true);
  try {
    out.exit_code = body(context);
    out.end = RunEnd::completed;
  } catch (const Error& e) {
    out.end = RunEnd::failed;
    out.error_kind = e.kind();
    out.message = e.what();
  } catch (const std::exception& e) {
    out.end = RunEnd::failed;
    out.error_kind = ErrorKind::internal;
    out.message = std::string("internal error: ") + e.what() + " → please report this with the FMU";
  }
  g_in_process_run.store(false);
  if (saved_stdout >= 0) {
    std::fflush(stdout);
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
  }
  out.seconds = now_seconds() - started;
  read_progress(page, out);
  if (out.end == RunEnd::completed && g_signal.load() != 0) {
    out.end = RunEnd::interrupted;
    out.signal = g_signal.load();
  } else if (out.end == RunEnd::completed && context.stop_for_timeout()) {
    out.end = RunEnd::run_timeout;
  }
  describe_end(out, options, page);
  return out;
}

// ---- StopSignals ------------------------------------------------------------------

StopSignals::StopSignals() {
  bool expected = false;
  if (!g_installed.compare_exchange_strong(expected, true))
    throw Error(ErrorKind::internal, "StopSignals: only one object may exist at a time");
  g_signal.store(0);
  g_count.store(0);
  if (pipe2(g_wake, O_CLOEXEC | O_NONBLOCK) != 0) g_wake[0] = g_wake[1] = -1;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < 3; ++i) sigaction(kStopSignals[i], &action, &g_previous[i]);
}

StopSignals::~StopSignals() {
  for (int i = 0; i < 3; ++i) sigaction(kStopSignals[i], &g_previous[i], nullptr);
  if (g_wake[0] >= 0) {
    close(g_wake[0]);
    close(g_wake[1]);
    g_wake[0] = g_wake[1] = -1;
  }
  g_abort_folder_set.store(false);
  g_signal.store(0);
  g_count.store(0);
  g_installed.store(false);
}

int StopSignals::received() noexcept { return g_signal.load(); }
int StopSignals::count() noexcept { return g_count.load(); }

void StopSignals::remove_on_abort(const std::filesystem::path& folder) {
  g_abort_folder_set.store(false);
  const std::string text = folder.string();
  if (text.empty() || text.size() >= sizeof g_abort_folder) return;
  std::memcpy(g_abort_folder, text.c_str(), text.size() + 1);
  g_abort_folder_set.store(true);
}

}  // namespace lsdae
