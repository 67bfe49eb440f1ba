// runtime/supervise/run_end.cpp -- see run_end.h; also the words of
// lsdae/supervise.h's outcome (to_string(RunEnd), FmuCallInfo::describe,
// RunOutcome::kind).
#include "supervise/run_end.h"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "common/format.h"
#include "fmu/fmi_functions.h"
#include "lsdae/fmi_names.h"

namespace lsdae {

namespace supervise {

namespace {

using call_record::kSlots;

std::string signal_text(int signo) {
  const char* abbrev = sigabbrev_np(signo);
  std::string text = abbrev != nullptr ? std::string("SIG") + abbrev : "signal " + std::to_string(signo);
  if (const char* description = strsignal(signo)) text += std::string(" (") + description + ")";
  return text;
}

std::string seconds_text(double s) { return format_number(s) + " s"; }

std::string last_call_hint(const call_record::CallRecord& calls) {
  const std::size_t high = std::min<std::size_t>(calls.slots_high.load(std::memory_order_relaxed), kSlots);
  std::size_t best = kSlots;
  std::uint64_t best_sequence = 0;
  for (std::size_t i = 0; i < high; ++i) {
    const std::uint64_t s = calls.slots[i].sequence.load(std::memory_order_relaxed);
    if (s > best_sequence) best_sequence = s, best = i;
  }
  if (best == kSlots) return "";
  std::string instance = call_record::read_bounded(calls.slots[best].instance, call_record::kInstanceNameBytes);
  return instance.empty() ? "" : " (instance \"" + instance + "\" made " + std::to_string(best_sequence) + " FMU calls)";
}

}  // namespace

std::string prefixed(const IsolationOptions& options, const std::string& text) {
  return options.label.empty() ? text : options.label + ": " + text;
}

FmuCallInfo read_call(const call_record::CallRecord& calls, std::size_t slot_index) {
  const call_record::CallSlot& slot = calls.slots[slot_index];
  FmuCallInfo call;
  call.function = fmi_function_name(slot.function.load(std::memory_order_relaxed));
  call.instance = call_record::read_bounded(slot.instance, call_record::kInstanceNameBytes);
  const double t = slot.time.load(std::memory_order_relaxed);
  if (std::isfinite(t)) call.time = t;
  return call;
}

FmuCallInfo call_in_progress(const call_record::CallRecord& calls) {
  const std::size_t high = std::min<std::size_t>(calls.slots_high.load(std::memory_order_relaxed), kSlots);
  for (std::size_t i = 0; i < high; ++i)
    if (calls.slots[i].function.load(std::memory_order_relaxed) != 0) return read_call(calls, i);
  return {};
}

void read_progress(const RunReport& report, RunOutcome& out) {
  out.completed_before_end = report.completed.load() != 0;
  if (report.progress_set.load() == 0) return;
  out.rows = report.progress_rows.load();
  out.reached_time = report.progress_time.load();
}

RunOutcome interrupted_before_start(int signo, const IsolationOptions& options) {
  RunOutcome out;
  out.end = RunEnd::interrupted;
  out.signal = signo;
  out.message = prefixed(options, "interrupted by " + signal_text(signo) + " before the run started");
  return out;
}

void describe_end(RunOutcome& out, const IsolationOptions& options, const call_record::CallRecord& calls) {
  const bool in_call = !out.call.function.empty();
  const std::string where = in_call ? out.call.describe() : "";
  if ((out.end == RunEnd::crashed || out.end == RunEnd::exited) && out.completed_before_end) {
    // The results were complete: the FMU failed while lsdae freed it.
    const std::string how = out.end == RunEnd::crashed ? "was killed by " + signal_text(out.signal)
                                                      : "ended with exit status " + std::to_string(out.exit_code);
    out.message = prefixed(options, "the run completed and its results are complete; then the FMU failed while "
                                    "being freed: the process running it " + how +
                                        (in_call ? " in " + where : std::string(" after the run")) +
                                        " → the results stand; the crash is a bug in the FMU's binary: report it "
                                        "to its vendor with this FMU");
    return;
  }
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
                                            " outside any FMU call" + last_call_hint(calls) +
                                            " → the machine may have run out of memory, or the FMU corrupted memory "
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
                                            last_call_hint(calls) +
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

}  // namespace supervise

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

}  // namespace lsdae
