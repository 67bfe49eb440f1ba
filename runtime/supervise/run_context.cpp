// runtime/supervise/run_context.cpp -- RunContext (lsdae/supervise.h) and the
// report of run_context.h.
#include "supervise/run_context.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "supervise/stop_signals.h"

namespace lsdae {

namespace supervise {

namespace {
RunReport g_in_process_report;
}  // namespace

double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void reset(RunReport& report) noexcept {
  report.progress_rows.store(0);
  report.progress_time.store(0.0);
  report.progress_set.store(0);
  report.completed.store(0);
  report.report.store(0);
  report.exit_code.store(0);
  report.error_kind.store(0);
  report.stop_request.store(0);
  std::memset(report.message, 0, sizeof report.message);
}

RunReport& in_process_report() noexcept { return g_in_process_report; }

}  // namespace supervise

bool RunContext::stop_requested() const {
  if (report_ != nullptr) return report_->stop_request.load(std::memory_order_relaxed) != 0;
  return supervise::received_signal() != 0 || stop_for_timeout();
}

int RunContext::stop_signal() const {
  if (report_ != nullptr) return std::max(0, static_cast<int>(report_->stop_request.load(std::memory_order_relaxed)));
  return supervise::received_signal();
}

bool RunContext::stop_for_timeout() const {
  if (report_ != nullptr)
    return report_->stop_request.load(std::memory_order_relaxed) == supervise::kStopForTimeout;
  return timeout_ > 0 && supervise::now_seconds() - started_ > timeout_;
}

void RunContext::report_progress(std::uint64_t rows, double time) noexcept {
  supervise::RunReport& report = report_ != nullptr ? *report_ : supervise::in_process_report();
  report.progress_rows.store(rows, std::memory_order_relaxed);
  report.progress_time.store(time, std::memory_order_relaxed);
  report.progress_set.store(1, std::memory_order_relaxed);
}

void RunContext::report_completed(const std::string& label) noexcept {
  supervise::RunReport& report = report_ != nullptr ? *report_ : supervise::in_process_report();
  report.completed.store(1, std::memory_order_relaxed);
  // In this process nothing survives a crash to say it: a handler does.
  if (report_ == nullptr) supervise::guard_cleanup_crashes(label);
}

}  // namespace lsdae
