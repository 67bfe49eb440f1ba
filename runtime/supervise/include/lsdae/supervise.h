// lsdae/supervise.h -- run work that calls an FMU in a watched child process,
// and learn how it ended.
//
// An FMU is someone else's binary: it can crash (SIGSEGV, abort()), call
// exit(), hang in a call, or print to stdout. run_isolated() forks, runs the
// work function in the child and supervises it from the parent:
//
//   lsdae::StopSignals signals;                 // optional: SIGINT/SIGTERM/SIGHUP become stop requests
//   auto fmu = lsdae::Fmu::open("model.fmu");   // parent: unpack and parse (the parent owns the folder)
//   lsdae::IsolationOptions iso;
//   iso.call_timeout = 10;                      // one FMU call may take 10 s at most
//   iso.label = fmu->display_name();
//   lsdae::RunOutcome r = lsdae::run_isolated([&](lsdae::RunContext& ctx) {
//     auto sim = lsdae::Simulation::create(fmu);   // child: loads the binary
//     sim->initialize();
//     while (sim->time() < sim->stop_time() && !ctx.stop_requested()) {
//       sim->advance_to(sim->time() + sim->output_interval());
//       ... write a row, flush it ...; ctx.report_progress(rows, sim->time());
//     }
//     return 0;
//   }, iso);
//   if (!r.ok()) std::cerr << r.message << '\n';   // e.g. "model.fmu: the FMU crashed in fmi3GetFloat64 ..."
//
// The contract:
// - Call it before the FMU's binary is loaded in this process (Fmu::open is
//   fine: it does not load the binary). The child is a fork of the caller:
//   it sees the caller's objects; nothing it changes comes back, except what
//   it writes to files and what it reports (return value, lsdae::Error,
//   progress). The child never returns into the caller's code: it ends with
//   _exit() after the work function, without running destructors of objects
//   it inherited (so the parent's extraction folder stays the parent's).
// - Every FMU call made through lsdae::Instance is recorded (function,
//   instance, simulation time) in a page of memory shared with the parent
//   (the FMU binding's call record, runtime/fmu/call_record.h, which the
//   supervisor only reads): plain stores, no system call per call. When the
//   child dies the parent says in which call.
// - The child's $TMPDIR is a private folder ($TMPDIR/lsdae-XXXXXX) that the
//   parent creates and removes, so whatever the child unpacks or the FMU
//   writes there is gone however the child ends.
// - The child's file descriptor 1 (stdout) is sent to stderr, so whatever the
//   FMU prints cannot mix with results written to stdout: the work function
//   writes such results to RunContext::results_fd(), the original stdout.
// - Limits: `call_timeout` for one FMU call (the child is killed: a call
//   cannot be interrupted); `timeout` for the whole run (a stop request, then
//   SIGKILL after `stop_grace`).
// - Stop requests (a signal caught by StopSignals, or the run's time limit)
//   are seen by the work function through RunContext::stop_requested(); it
//   should stop at its next convenient point (the CLI: the next output
//   point). If it has not ended `stop_grace` seconds later, or a second stop
//   signal comes, the child is killed. Rows already written stay.
// - The child dies with its parent (PR_SET_PDEATHSIG). It shares the
//   parent's process group, so a terminal's Ctrl-C reaches both.
// - Threads: fork() copies only the calling thread. In a multi-threaded
//   caller, the work function must not need locks other threads may hold
//   (glibc's malloc and stdio are safe). OpenMP in particular: once the
//   caller has run a parallel region (an in-process Simulation with
//   threads > 1), GNU libgomp's thread pool does not survive fork, and a
//   child that uses more than one thread hangs in its first parallel region
//   (only the run's time limit would stop it). Keep multi-threaded
//   simulations in the children; the `lsdae` program does.
// - Linux only (pidfd, prctl).
//
// run_in_process() runs the same work function in this process, with the
// same RunContext: for debuggers and for FMUs that must not be forked. No
// watchdog for single calls there; the run's time limit becomes a stop
// request seen at the work function's next check; a crash ends the process.
#ifndef LSDAE_SUPERVISE_H
#define LSDAE_SUPERVISE_H

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "lsdae/error.h"

namespace lsdae {

namespace supervise {
struct RunReport;
}

struct IsolationOptions {
  double timeout = 0.0;        // seconds for the whole run; 0: no limit
  double call_timeout = 60.0;  // seconds for one FMU call (isolated runs only); 0: no limit
  double stop_grace = 2.0;     // seconds from a stop request to killing the child; 0: at once
  bool fmu_stdout_to_stderr = true;  // fd 1 goes to stderr while the work function runs
  std::string label;           // prefixes the messages, e.g. the FMU's file name
};

// What the work function sees, in the child or in-process.
class RunContext {
 public:
  bool isolated() const { return isolated_; }
  // Where results meant for stdout go (stdout itself when fmu_stdout_to_stderr is off).
  int results_fd() const { return results_fd_; }
  // A stop was requested: a signal (stop_signal() says which) or the run's time limit.
  bool stop_requested() const;
  int stop_signal() const;        // SIGINT, SIGTERM, SIGHUP; 0 when none or for the time limit
  bool stop_for_timeout() const;  // the run's time limit
  // Rows written and simulation time reached, for the parent's report if the child dies.
  void report_progress(std::uint64_t rows, double time) noexcept;
  // The work is done and its results are complete (files closed); what is
  // left is cleanup (freeing the FMU's instances). A crash after this ends
  // the run with kExitCompletedThenCrashed and a message that says the run
  // completed: from the parent (isolated), or from a handler of the fatal
  // signals this call installs for the rest of the process (in process;
  // `label` prefixes its message, e.g. the FMU's file name).
  void report_completed(const std::string& label) noexcept;

 private:
  friend struct RunContextAccess;
  bool isolated_ = false;
  int results_fd_ = 1;
  double timeout_ = 0.0;
  double started_ = 0.0;  // steady clock, seconds (in-process time limit)
  supervise::RunReport* report_ = nullptr;  // the shared page's in a child; null in process
};

enum class RunEnd {
  completed,     // the work function returned (exit_code has its value)
  failed,        // the work function threw lsdae::Error (error_kind, message)
  crashed,       // the child was killed by a signal (signal), not by the supervisor
  exited,        // the child called exit() before the work function returned (exit_code)
  call_timeout,  // one FMU call took longer than call_timeout: the child was killed
  run_timeout,   // the run took longer than timeout (stopped at a check point, or killed)
  interrupted,   // a stop signal (signal): stopped at a check point, or killed
};
const char* to_string(RunEnd end) noexcept;

// The FMU call in progress (function empty: none).
struct FmuCallInfo {
  std::string function;  // "fmi3GetFloat64", "loading the binary (dlopen)", ...
  std::string instance;  // empty for the loader
  std::optional<double> time;  // the last simulation time given to that instance
  // "fmi3GetFloat64 (instance "lsdae", t = 0.5)"
  std::string describe() const;
};

struct RunOutcome {
  RunEnd end = RunEnd::completed;
  int exit_code = 0;      // completed: the work function's value; exited: the exit status
  int signal = 0;         // crashed: the signal that killed the child; interrupted: the stop signal
  bool killed = false;    // the supervisor killed the child (watchdog, grace period over, second signal)
  ErrorKind error_kind = ErrorKind::internal;  // failed: the kind of the work function's error
  std::string message;    // failed: its message; crashed ... interrupted: what happened (house shape)
  FmuCallInfo call;       // crashed, exited, killed: the FMU call in progress then
  std::optional<std::uint64_t> rows;  // progress last reported by the work function
  // crashed or exited after RunContext::report_completed(): the results were
  // complete, the FMU failed while being cleaned up (message says so).
  bool completed_before_end = false;
  std::optional<double> reached_time;
  double seconds = 0.0;   // wall time of the run

  bool ok() const { return end == RunEnd::completed; }
  // The error kind of a run that did not complete: failed → error_kind,
  // crashed/exited → fmu_crash, timeouts → timeout, interrupted → interrupted.
  ErrorKind kind() const;
};

// Exit code of a run that completed (its results complete) and whose FMU then
// crashed or ended the process while being freed (fmi3FreeInstance,
// fmi2FreeInstance, a destructor): README.md, "Exit codes".
inline constexpr int kExitCompletedThenCrashed = 13;

using RunBody = std::function<int(RunContext&)>;

// Runs `body` in a supervised child process (see above). Never throws for
// what happens in the child; throws lsdae::Error when no child can be
// started (internal: fork, mmap; archive: no private temporary folder).
RunOutcome run_isolated(const RunBody& body, const IsolationOptions& options = {});
// The same in this process: completed or failed (also interrupted /
// run_timeout when the work function returned after such a stop request).
RunOutcome run_in_process(const RunBody& body, const IsolationOptions& options = {});

// While an object lives, SIGINT, SIGTERM and SIGHUP do not end the process:
// they are recorded as stop requests for the runs above (and a run started
// after one returns `interrupted` at once). In an isolated run a second
// signal kills the child at once. In an in-process run a second signal ends
// the process at once with exit code 130, after removing the folder given to
// remove_on_abort(). The destructor restores the previous handlers. One
// object at a time.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  // The first signal received while installed (0: none) and how many came;
  // both are reset when the object goes.
  static int received() noexcept;
  static int count() noexcept;
  // The folder an in-process run's abort removes (an FMU's extraction folder).
  static void remove_on_abort(const std::filesystem::path& folder);
};

}  // namespace lsdae

#endif  // LSDAE_SUPERVISE_H
