// runtime/supervise/run_context.h -- what a supervised child and its parent
// share (lsdae/supervise.h): the page of memory the parent maps before fork,
// and the work function's view of it, RunContext.
//
// The page holds the child's report (progress, how its work function ended,
// its error message) and the parent's stop request (RunReport), next to the
// FMU binding's call record (runtime/fmu/call_record.h), which the child
// writes around every FMU call and the parent only reads. An in-process run
// has no shared page: its progress goes to a static RunReport, its calls to
// the process's static call record.
//
// The child is untrusted (the FMU runs there and may scribble over the
// page): the parent reads only fixed-size numbers and characters, checks
// every index and copies strings with a bound (call_record::read_bounded).
#ifndef LSDAE_RUNTIME_SUPERVISE_RUN_CONTEXT_H
#define LSDAE_RUNTIME_SUPERVISE_RUN_CONTEXT_H

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "fmu/call_record.h"
#include "lsdae/supervise.h"

namespace lsdae::supervise {

inline constexpr std::size_t kMessageBytes = 32768;

// What the child reports when its work function ends (no FMU involved).
enum class ReportState : std::uint32_t { running = 0, returned = 1, failed = 2 };

// Parent → child: why the parent asks the child to stop (0: it does not).
// A positive value is the signal (SIGINT, SIGTERM, SIGHUP) the parent got.
inline constexpr std::int32_t kStopForTimeout = -1;

struct RunReport {
  // child → parent: progress, published by the work function
  std::atomic<std::uint64_t> progress_rows{0};
  std::atomic<double> progress_time{0.0};
  std::atomic<std::uint32_t> progress_set{0};  // 1 once progress was published
  // child → parent: how the work function ended
  std::atomic<std::uint32_t> report{0};        // ReportState
  std::atomic<std::int32_t> exit_code{0};      // returned: its value
  std::atomic<std::int32_t> error_kind{0};     // failed: the lsdae::ErrorKind
  std::atomic<std::uint32_t> completed{0};     // 1 once the work function said its results are complete
  // parent → child
  std::atomic<std::int32_t> stop_request{0};
  char message[kMessageBytes] = {};            // failed: the message, NUL-terminated (truncated)
};

// The memory a supervised child shares with its parent.
struct SharedPage {
  RunReport run;
  call_record::CallRecord calls;
};

// Clears every field (the parent does this to a fresh shared page).
void reset(RunReport& report) noexcept;
// Where an in-process run's progress goes.
RunReport& in_process_report() noexcept;

// Seconds on the steady clock.
double now_seconds();

}  // namespace lsdae::supervise

namespace lsdae {

// Makes the RunContext a runner hands to the work function; `report` is the
// shared page's in a child, null in process.
struct RunContextAccess {
  static RunContext make(bool isolated, int results_fd, double timeout, double started, supervise::RunReport* report) {
    RunContext c;
    c.isolated_ = isolated;
    c.results_fd_ = results_fd;
    c.timeout_ = timeout;
    c.started_ = started;
    c.report_ = report;
    return c;
  }
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_SUPERVISE_RUN_CONTEXT_H
