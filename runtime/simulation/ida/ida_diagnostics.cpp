// runtime/simulation/ida/ida_diagnostics.cpp -- see ida_diagnostics.h.
#include "simulation/ida/ida_diagnostics.h"

#include <ida/ida.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::simulation {

namespace {
long failures_so_far(void* ida) {
  long conv = 0, err = 0;
  IDAGetNumNonlinSolvConvFails(ida, &conv);
  IDAGetNumErrTestFails(ida, &err);
  return conv + err;
}
}  // namespace

void IdaDiagnostics::error_handler(int code, const char* module, const char* function, char* message, void* data) {
  auto* self = static_cast<IdaDiagnostics*>(data);
  self->last_message_ = std::string(module) + "/" + function + ": " + message;
  if (code < 0) log_debug(self->last_message_);
}

void IdaDiagnostics::check(int flag, const char* what) const {
  if (flag >= 0) return;
  throw Error(ErrorKind::solver, std::string("ida: ") + what + " failed (" + IDAGetReturnFlagName(flag) + ")" +
                                     (last_message_.empty() ? "" : ": " + last_message_));
}

void IdaDiagnostics::rethrow_kept() {
  if (callback_error_) std::rethrow_exception(std::exchange(callback_error_, nullptr));
}

bool IdaDiagnostics::check_finite(double t, std::span<const double> r) {
  for (std::size_t i = 0; i < r.size(); ++i)
    if (!std::isfinite(r[i])) {
      note_nonfinite(t, i, 0, false, r[i]);
      return false;
    }
  return true;
}

void IdaDiagnostics::note_nonfinite(double t, std::size_t row, std::size_t column, bool in_jacobian, double value) {
  if (nonfinite_.count++ == 0 || (nonfinite_.jacobian && !in_jacobian)) {
    nonfinite_.row = row;
    nonfinite_.column = column;
    nonfinite_.jacobian = in_jacobian;
    nonfinite_.eliminated = false;
    nonfinite_.value = value;
    nonfinite_.t_first = t;
  }
  nonfinite_.t_last = t;
}

void IdaDiagnostics::note_nonfinite_eliminated(double t, std::size_t i, double value) {
  note_nonfinite(t, i, 0, false, value);
  if (nonfinite_.row == i && !nonfinite_.jacobian) nonfinite_.eliminated = true;
}

bool IdaDiagnostics::scan_residuals(void* ida_mem) {
  if (!scanning_ && ida_mem != nullptr && failures_so_far(ida_mem) > failures_baseline_) scanning_ = true;
  return scanning_;
}

void IdaDiagnostics::rearm(void* ida_mem) {
  scanning_ = false;
  failures_baseline_ = ida_mem != nullptr ? failures_so_far(ida_mem) : 0;
}

std::string IdaDiagnostics::nonfinite_report() const {
  if (nonfinite_.count == 0) return "";
  const std::size_t r = nonfinite_.row;
  std::string what = nonfinite_.eliminated
                         ? (names_.eliminated_row_value_name ? names_.eliminated_row_value_name(r)
                                                             : "eliminated row " + std::to_string(r))
                     : names_.row_value_name ? names_.row_value_name(r)
                     : names_.row_name       ? "row \"" + names_.row_name(r) + "\""
                                             : "row " + std::to_string(r);
  if (nonfinite_.jacobian)
    what = "the Jacobian entry of " + what + " for " +
           (names_.unknown_name ? "\"" + names_.unknown_name(nonfinite_.column) + "\""
                                : "unknown " + std::to_string(nonfinite_.column));
  const double v = nonfinite_.value;
  std::string text = std::string("the FMU returned ") + (std::isnan(v) ? "NaN" : v > 0 ? "+inf" : "-inf") + " for " +
                     what + " at t = " + format_number(nonfinite_.t_first);
  if (nonfinite_.count > 1)
    text += " (" + std::to_string(nonfinite_.count) + " non-finite evaluations, the last at t = " +
            format_number(nonfinite_.t_last) + ")";
  return text;
}

std::string IdaDiagnostics::known_cause() const {
  std::string cause = nonfinite_report();
  if (!cause.empty())
    cause += ": IDA cannot step through it; check the model's equations there (a division by zero, a square "
             "root or logarithm of a negative number, an overflow)";
  std::string extra = names_.explain_failure ? names_.explain_failure() : "";
  if (!extra.empty()) cause += (cause.empty() ? "" : "; ") + extra;
  return cause;
}

namespace {
// The algebraic unknowns moving fastest (|y'| · weight), at most three:
//   "V" (-3.1e+04/s), "W" (2.9e+04/s)
std::string fastest_algebraic(const IdaDiagnostics::ImpasseProbe& p,
                              const std::function<std::string(std::size_t)>& name) {
  const std::size_t n = p.derivative.size();
  if (p.weight.size() != n || p.id.size() != n) return "";
  std::vector<std::size_t> algebraic;
  for (std::size_t i = 0; i < n; ++i)
    if (p.id[i] == 0.0 && std::isfinite(p.derivative[i]) && p.derivative[i] != 0.0) algebraic.push_back(i);
  const std::size_t shown = std::min<std::size_t>(3, algebraic.size());
  auto speed = [&](std::size_t i) { return std::fabs(p.derivative[i]) * p.weight[i]; };
  std::partial_sort(algebraic.begin(), algebraic.begin() + static_cast<long>(shown), algebraic.end(),
                    [&](std::size_t a, std::size_t b) { return speed(a) > speed(b); });
  std::string out;
  for (std::size_t k = 0; k < shown; ++k) {
    const std::size_t i = algebraic[k];
    out += (k > 0 ? ", " : "") + (name ? "\"" + name(i) + "\"" : "unknown " + std::to_string(i)) + " (" +
           format_number(p.derivative[i]) + "/s)";
  }
  return out;
}
}  // namespace

void IdaDiagnostics::solve_failed(void* ida_mem, int flag, double t_now, long max_steps_per_output,
                                  const ImpasseProbe& probe) const {
  realtype h = 0, h_tried = 0;
  IDAGetLastStep(ida_mem, &h);
  IDAGetCurrentStep(ida_mem, &h_tried);
  long steps = 0;
  IDAGetNumSteps(ida_mem, &steps);
  std::string hint = known_cause();
  const double scale = std::max(1.0, std::fabs(t_now));
  const bool impasse = flag == IDA_CONV_FAIL && std::fabs(h_tried) < kImpasseStep * scale &&
                       std::fabs(h) < kImpasseApproach * scale && steps >= kImpasseSteps;
  if (hint.empty() && impasse) {
    const std::string fastest = fastest_algebraic(probe, names_.unknown_name);
    hint = "an impasse point: Newton's method fails however small the step (cut to h = " + format_number(h_tried) +
           "): the algebraic equations have no solution that continues this point (a fold, where they become "
           "singular), or their Jacobian is singular or wrong here" +
           (fastest.empty() ? "" : "; the algebraic unknowns moving fastest: " + fastest) +
           " → the model has no continuous solution past t = " + format_number(t_now) +
           " (in a power grid: a voltage collapse, loads drawing more than the network can deliver at their "
           "voltage); change the scenario or the model, or, if it should have one, check the Jacobian "
           "(--jacobian check)";
  }
  if (hint.empty()) {
    switch (flag) {
      case IDA_TOO_MUCH_WORK: hint = "more than " + std::to_string(max_steps_per_output) +
                                     " steps between two output points; raise --max-steps or shorten the output interval"; break;
      case IDA_TOO_MUCH_ACC: hint = "the tolerances are too tight for double precision; loosen --rtol/--atol"; break;
      case IDA_ERR_FAIL: hint = "the error test failed repeatedly: a discontinuity the FMU does not report as an event, or tolerances too tight"; break;
      case IDA_CONV_FAIL: hint = "Newton's method failed repeatedly: a singular or wrong Jacobian (try --jacobian check), or a higher-index DAE"; break;
      case IDA_LSETUP_FAIL: case IDA_LSOLVE_FAIL: hint = "the iteration matrix is singular: the DAE may be higher-index or structurally singular at this point"; break;
      case IDA_RES_FAIL: hint = "the FMU reported an error in a residual evaluation (see its log)"; break;
      case IDA_REP_RES_ERR: hint = "the FMU discarded the residual evaluations repeatedly (status Discard)"; break;
      case IDA_RTFUNC_FAIL: hint = "evaluating the event indicators failed (see the FMU's log)"; break;
      default: hint = "see IDA's message"; break;
    }
  }
  throw Error(ErrorKind::solver, "ida: at t = " + format_number(t_now) + " (h = " + format_number(h) + "): " +
                                     IDAGetReturnFlagName(flag) +
                                     (last_message_.empty() ? "" : " (" + last_message_ + ")") + " → " + hint);
}

void IdaDiagnostics::initial_conditions_failed(int flag, double t, std::span<const double> r, bool after_event) const {
  // Name the residuals that stayed largest (a NaN counts as the largest).
  auto magnitude = [](double v) { return std::isnan(v) ? std::numeric_limits<double>::infinity() : std::fabs(v); };
  const std::size_t n = r.size();
  const std::string cause = known_cause();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::size_t shown = std::min<std::size_t>(5, n);
  std::partial_sort(order.begin(), order.begin() + static_cast<long>(shown), order.end(),
                    [&](std::size_t a, std::size_t b) { return magnitude(r[a]) > magnitude(r[b]); });
  std::string worst;
  for (std::size_t k = 0; k < shown; ++k) {
    std::size_t i = order[k];
    if (r[i] == 0.0) break;
    worst += (worst.empty() ? "" : ", ") +
             (names_.row_name ? "\"" + names_.row_name(i) + "\"" : "row " + std::to_string(i)) + " = " +
             format_number(r[i]);
  }
  throw Error(ErrorKind::solver,
              std::string("ida: consistent initial values at t = ") + format_number(t) + " not found (" +
                  IDAGetReturnFlagName(flag) + "); largest residuals: " + (worst.empty() ? "none" : worst) +
                  (last_message_.empty() ? "" : "; IDA said: " + last_message_) + " → " +
                  (!cause.empty() ? cause
                   : after_event
                       ? "the event at t = " + format_number(t) +
                             " left no consistent point within reach of the values before it: its new equations have "
                             "no solution near them (a network that collapses, a re-initialization the constraints "
                             "cannot take, or modes that switch back and forth: the FMU's log names what switched, "
                             "-v; a PsseGrid FMU: --set limits.log=1); a tighter --rtol locates the event more "
                             "closely"
                       : std::string("check the start values and parameters (--set name=value), or give better "
                                     "guesses for the algebraic variables")));
}

}  // namespace lsdae::simulation
