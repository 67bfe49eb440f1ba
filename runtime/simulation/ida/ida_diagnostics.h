// runtime/simulation/ida/ida_diagnostics.h -- IDA's failures turned into
// lsdae's message shape (where → what → value seen → what to do), and the
// record of non-finite values that explains many of them (SUNDIALS: the
// error handler of ida.c, IDAGetReturnFlagName).
//
// Messages (every text IdaIntegrator throws is made here):
//   check()              "ida: IDAReInit failed (IDA_ILL_INPUT): <IDA's message>"
//   solve_failed()       "ida: at t = 1.25e-03 (h = 3.1e-12): IDA_CONV_FAIL (<IDA's
//                        message>) → <the known cause, or advice per flag>"
//                        or, for IDA_CONV_FAIL with the step cut below
//                        kImpasseStep (relative to t), "... → an impasse
//                        point: ... the algebraic unknowns moving fastest:
//                        "V" (-3.1e+04/s), ... → ..." (ImpasseProbe)
//   initial_conditions_failed()
//                        "ida: consistent initial values at t = 0 not found
//                        (IDA_NO_RECOVERY); largest residuals: "g" = 0.5, ...
//                        → <the known cause, or advice: the start's, or after
//                        an event the event's>"
// All are Error(ErrorKind::solver).
//
// Non-finite values. A residual (or Jacobian entry) that comes back NaN or
// ±inf is treated like a refused evaluation (IDA retries with a smaller step)
// and recorded here: which row, at what time, how often since reset(). The
// record names the first residual (else Jacobian entry) found -- a residual
// says more than the derivatives it spoils. Residuals are scanned only once
// IDA had a convergence or error-test failure since the last rearm() (a NaN
// residual always causes one within a Newton iteration or two), so a run that
// goes well pays two counter reads per evaluation, not a pass over r.
//
// Exceptions thrown inside IDA's callbacks (an FMU error) cannot cross IDA's
// C frames: the callback keeps it here (keep_exception()), tells IDA -1, and
// the integrator rethrows it after IDA returns (rethrow_kept()).
//
// Contract: `names` (the integrator's options) outlives this object; the IDA
// memory passed to scan_residuals()/rearm() is the one the integrator runs.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_IDA_DIAGNOSTICS_H
#define LSDAE_RUNTIME_SIMULATION_IDA_IDA_DIAGNOSTICS_H

#include <cstddef>
#include <exception>
#include <functional>
#include <span>
#include <string>

namespace lsdae::simulation {

// Names for messages (rows of G and unknowns of y) and what the caller knows
// of a failure; any may be empty (IntegratorOptions carries them).
struct IdaMessageNames {
  std::function<std::string(std::size_t)> row_name, unknown_name;
  // What row k's value is, e.g. "the residual \"g\"" (empty: "row \"<row_name>\"").
  std::function<std::string(std::size_t)> row_value_name;
  // The same for the rows a linear elimination took out of IDA's system (i:
  // the i-th eliminated row, LinearElimination::eliminated_rows).
  std::function<std::string(std::size_t)> eliminated_row_value_name;
  // A cause the caller knows of ("the FMU returned fmi3Discard 40 times ..."); "" when none.
  std::function<std::string()> explain_failure;
};

class IdaDiagnostics {
 public:
  explicit IdaDiagnostics(const IdaMessageNames& names) : names_(names) {}

  // IDA's error handler (IDASetErrHandlerFn, user data: this object): keeps
  // the last message, logs it (debug) when it is an error.
  static void error_handler(int code, const char* module, const char* function, char* message, void* data);
  void clear_last_message() { last_message_.clear(); }

  // Throws Error(solver) "ida: <what> failed (<flag>)..." when flag < 0.
  void check(int flag, const char* what) const;

  // Exceptions from callbacks: kept, rethrown after IDA returns.
  void keep_exception() { callback_error_ = std::current_exception(); }
  bool has_exception() const { return static_cast<bool>(callback_error_); }
  void rethrow_kept();
  std::exception_ptr* exception_slot() { return &callback_error_; }

  // Non-finite values. check_finite records the first non-finite entry of r
  // (false when there was one); note_nonfinite records one entry.
  bool check_finite(double t, std::span<const double> r);
  void note_nonfinite(double t, std::size_t row, std::size_t column, bool in_jacobian, double value);
  // A non-finite value in the i-th eliminated row (eliminated_residual.h).
  void note_nonfinite_eliminated(double t, std::size_t i, double value);
  // Whether residuals are to be scanned now (IDA failed since rearm()).
  bool scan_residuals(void* ida_mem);
  void rearm(void* ida_mem);  // ida_mem may be null (before IDAInit)
  void reset(void* ida_mem) {
    nonfinite_ = {};
    rearm(ida_mem);
  }

  // "" when no non-finite value was seen, else e.g. "the FMU returned NaN for
  // the residual \"g\" at t = 0.5 (3 non-finite evaluations, the last at t = 0.51)".
  std::string nonfinite_report() const;
  // The report above with advice, and the caller's explain_failure: what a
  // failure message states instead of IDA's generic advice ("" when nothing).
  std::string known_cause() const;

  // What solve_failed reads to recognise an impasse point (all of IDA's n
  // unknowns, or empty): y' at the failure (IDAGetDky, order 1: the last
  // step's interpolant), IDA's error weights, and which unknowns are
  // differential (1) or algebraic (0).
  struct ImpasseProbe {
    std::span<const double> derivative, weight, id;
  };
  // An impasse point. A DAE whose trajectory reaches a fold of its algebraic
  // equations g(x, z) = 0 (∂g/∂z singular there, and no solution z beyond
  // it for the states that follow: a constant-power load at the nose of its
  // P-V curve) has no continuous solution past it; approaching it, z moves
  // as sqrt(t* − t) and z' grows without bound (P. J. Rabier and W. C.
  // Rheinboldt, "Theoretical and numerical analysis of differential-algebraic
  // equations", Handbook of Numerical Analysis VIII, 2002: impasse points).
  // IDA then cuts its step by a factor 4 per failed Newton iteration until
  // IDA_CONV_FAIL, at steps of 1e-15 of t (ACTIVSg2000: 8e-16 to 2e-19; two
  // buses: 3e-16 to 2e-15), whatever the tolerance or Jacobian. A Newton
  // failure at a step that small (below kImpasseStep · max(1, |t|): a failure
  // at an ordinary step of 1e-3 ends about 1e-9 after IDA's ten cuts), after
  // accepted steps that had shrunk on the way in (the last below
  // kImpasseApproach · max(1, |t|); there 1e-10) and at least kImpasseSteps
  // steps since IDA's last start (not a first step that cannot begin: a wrong
  // Jacobian at the start fails so), is reported as an impasse point, naming
  // the algebraic unknowns with the largest |z'| · weight. A singular or wrong
  // Jacobian fails alike; the message says so.
  static constexpr double kImpasseStep = 1e-12;
  static constexpr double kImpasseApproach = 1e-6;
  static constexpr long kImpasseSteps = 10;

  // The message of a failed IDASolve (flag < 0) at t_now; h is IDA's last step.
  [[noreturn]] void solve_failed(void* ida_mem, int flag, double t_now, long max_steps_per_output,
                                 const ImpasseProbe& probe = {}) const;
  // The message of a failed IDACalcIC: `r` the residuals at the point IDA
  // left (their largest entries are named), `flag` its return value;
  // `after_event`: a restart after an event at t, not the start (the
  // advice then speaks of the event, not of start values the user set).
  [[noreturn]] void initial_conditions_failed(int flag, double t, std::span<const double> r,
                                              bool after_event = false) const;

 private:
  const IdaMessageNames& names_;
  std::string last_message_;
  std::exception_ptr callback_error_;
  // Non-finite values since reset(): how many, the first and the last.
  struct NonFinite {
    long count = 0;
    std::size_t row = 0, column = 0;
    bool jacobian = false, eliminated = false;
    double value = 0, t_first = 0, t_last = 0;
  } nonfinite_;
  bool scanning_ = false;
  long failures_baseline_ = 0;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_IDA_DIAGNOSTICS_H
