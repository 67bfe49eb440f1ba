// runtime/supervise/run_in_process.cpp -- run_in_process (lsdae/supervise.h):
// the work function in this process, with the same outcome and messages as
// an isolated run, where this process can know them (no crash survives).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

#include "fmu/call_record.h"
#include "lsdae/supervise.h"
#include "supervise/run_context.h"
#include "supervise/run_end.h"
#include "supervise/stop_signals.h"

namespace lsdae {

using namespace supervise;

RunOutcome run_in_process(const RunBody& body, const IsolationOptions& options) {
  if (const int signo = received_signal()) return interrupted_before_start(signo, options);
  const double started = now_seconds();
  RunReport& report = in_process_report();
  report.progress_set.store(0);
  int results_fd = STDOUT_FILENO, saved_stdout = -1;
  if (options.fmu_stdout_to_stderr) {
    std::fflush(stdout);
    saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved_stdout >= 0 && dup2(STDERR_FILENO, STDOUT_FILENO) >= 0) results_fd = saved_stdout;
  }
  RunContext context = RunContextAccess::make(false, results_fd, options.timeout, started, nullptr);
  RunOutcome out;
  set_in_process_run(true);
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
  set_in_process_run(false);
  if (saved_stdout >= 0) {
    std::fflush(stdout);
    dup2(saved_stdout, STDOUT_FILENO);
    close(saved_stdout);
  }
  out.seconds = now_seconds() - started;
  read_progress(report, out);
  if (out.end == RunEnd::completed && received_signal() != 0) {
    out.end = RunEnd::interrupted;
    out.signal = received_signal();
  } else if (out.end == RunEnd::completed && context.stop_for_timeout()) {
    out.end = RunEnd::run_timeout;
  }
  describe_end(out, options, call_record::current());
  return out;
}

}  // namespace lsdae
