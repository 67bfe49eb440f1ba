// runtime/supervise/stop_signals.h -- this process's stop signals (SIGINT,
// SIGTERM, SIGHUP): what the handler StopSignals installs (lsdae/supervise.h)
// records, for the runners.
//
// While a StopSignals object lives, the first signal is kept (received_signal)
// and every one counted (signal_count); each also writes a byte to a wake-up
// pipe that run_isolated polls, so it notices at once. During run_in_process
// a second signal ends the process at once (exit 130), after removing the
// folder named by StopSignals::remove_on_abort: the run cannot be
// interrupted inside this process. In a supervised child the signals are
// only recorded as the child's stop request in its report, which the child's
// work function sees through RunContext.
// The handlers are async-signal-safe: atomic stores, write(2), and the
// removal of a folder by a signal-safe walk (import/temp_dir.h).
#ifndef LSDAE_RUNTIME_SUPERVISE_STOP_SIGNALS_H
#define LSDAE_RUNTIME_SUPERVISE_STOP_SIGNALS_H

#include <string>

namespace lsdae::supervise {

struct RunReport;

// The first stop signal received while StopSignals is installed (0: none),
// and how many came.
int received_signal() noexcept;
int signal_count() noexcept;
// The read end of the wake-up pipe (-1: none), and reading it empty.
int wake_fd() noexcept;
void drain_wake() noexcept;
// run_in_process marks its run: a second signal during it ends the process.
void set_in_process_run(bool on) noexcept;
// In a forked child, before its work function: drops the parent's pipe and
// handlers, records stop signals as `report`'s stop request instead, and lets
// a crash end the child by its own signal (SIGSEGV, SIGBUS, SIGFPE, SIGILL,
// SIGABRT back to their defaults, whatever the caller installed).
void become_child(RunReport* report) noexcept;
// In process, once the work function's results are complete
// (RunContext::report_completed): a crash from now on (SIGABRT, SIGSEGV,
// SIGBUS, SIGILL, SIGFPE: an FMU failing while it is freed) writes that the
// run completed and the FMU crashed at cleanup, removes the extraction
// folder (remove_on_abort) and ends the process with kExitCompletedThenCrashed.
void guard_cleanup_crashes(const std::string& label) noexcept;

}  // namespace lsdae::supervise

#endif  // LSDAE_RUNTIME_SUPERVISE_STOP_SIGNALS_H
