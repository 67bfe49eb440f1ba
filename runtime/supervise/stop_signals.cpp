// runtime/supervise/stop_signals.cpp -- StopSignals (lsdae/supervise.h) and
// the state of stop_signals.h.
#include "supervise/stop_signals.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "import/temp_dir.h"
#include "lsdae/supervise.h"
#include "supervise/run_context.h"

namespace lsdae {

namespace {

constexpr int kStopSignals[3] = {SIGINT, SIGTERM, SIGHUP};
std::atomic<int> g_signal{0};
std::atomic<int> g_count{0};
std::atomic<bool> g_installed{false};
int g_wake[2] = {-1, -1};  // written by the handler, polled by run_isolated
struct sigaction g_previous[3];
std::atomic<bool> g_in_process_run{false};
char g_abort_folder[4096];
std::atomic<bool> g_abort_folder_set{false};
std::atomic<supervise::RunReport*> g_child_report{nullptr};  // in a child: where its own handler records a stop

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

// guard_cleanup_crashes: one message per fatal signal, written before the
// crash (a handler may only write() it).
constexpr int kCrashSignals[5] = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE};
char g_cleanup_message[5][1024];

extern "C" void on_cleanup_crash(int signo) {
  for (int i = 0; i < 5; ++i) {
    if (kCrashSignals[i] != signo) continue;
    [[maybe_unused]] ssize_t w = write(STDERR_FILENO, g_cleanup_message[i], std::strlen(g_cleanup_message[i]));
  }
  if (g_abort_folder_set.load()) import::remove_tree_signal_safe(g_abort_folder);
  _exit(kExitCompletedThenCrashed);
}

extern "C" void on_child_stop_signal(int signo) {
  if (supervise::RunReport* report = g_child_report.load()) {
    std::int32_t expected = 0;
    report->stop_request.compare_exchange_strong(expected, signo);
  }
}

}  // namespace

namespace supervise {

int received_signal() noexcept { return g_signal.load(); }
int signal_count() noexcept { return g_count.load(); }
int wake_fd() noexcept { return g_wake[0]; }

void drain_wake() noexcept {
  if (g_wake[0] < 0) return;
  char drain[64];
  while (read(g_wake[0], drain, sizeof drain) > 0) {
  }
}

void set_in_process_run(bool on) noexcept { g_in_process_run.store(on); }

void become_child(RunReport* report) noexcept {
  if (g_wake[0] >= 0) {
    close(g_wake[0]);
    close(g_wake[1]);
    g_wake[0] = g_wake[1] = -1;
  }
  g_in_process_run.store(false);
  g_child_report.store(report);
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
}

}  // namespace supervise

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

namespace supervise {

void guard_cleanup_crashes(const std::string& label) noexcept {
  for (int i = 0; i < 5; ++i) {
    const char* name = strsignal(kCrashSignals[i]);
    std::snprintf(g_cleanup_message[i], sizeof g_cleanup_message[i],
                  "lsdae: error: %s%sthe run completed and its results are complete; then the FMU failed while being "
                  "freed: signal %d (%s) → the results stand; the crash is a bug in the FMU's binary: report it to "
                  "its vendor with this FMU\n",
                  label.c_str(), label.empty() ? "" : ": ", kCrashSignals[i], name != nullptr ? name : "?");
    struct sigaction action {};
    action.sa_handler = on_cleanup_crash;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // the handler ends the process
    sigaction(kCrashSignals[i], &action, nullptr);
  }
}

}  // namespace supervise

}  // namespace lsdae
