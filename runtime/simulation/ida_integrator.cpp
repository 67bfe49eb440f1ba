// runtime/simulation/ida_integrator.cpp -- see ida_integrator.h.
#include "simulation/ida_integrator.h"

#include "simulation/projecting_nonlinear_solver.h"

#include <ida/ida.h>
#include <metis.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/eliminated_residual.h"
#include "simulation/klu_symbolic_reuse.h"
#include "simulation/optimized_nvector.h"

namespace lsdae::simulation {

IntegratorStats& IntegratorStats::operator+=(const IntegratorStats& o) {
  steps += o.steps;
  residual_calls += o.residual_calls;
  jacobian_evaluations += o.jacobian_evaluations;
  jacobian_residual_calls += o.jacobian_residual_calls;
  directional_calls += o.directional_calls;
  nonlinear_iterations += o.nonlinear_iterations;
  nonlinear_convergence_failures += o.nonlinear_convergence_failures;
  error_test_failures += o.error_test_failures;
  linear_solver_setups += o.linear_solver_setups;
  root_function_calls += o.root_function_calls;
  constant_evaluations += o.constant_evaluations;
  constant_calls += o.constant_calls;
  klu_symbolic_analyses += o.klu_symbolic_analyses;
  klu_restart_factorizations += o.klu_restart_factorizations;
  klu_adopted_analyses += o.klu_adopted_analyses;
  first_step_retries += o.first_step_retries;
  eliminated = o.eliminated;
  colors = o.colors;
  varying_colors = o.varying_colors;
  constant_entries = o.constant_entries;
  jacobian_nonzeros = o.jacobian_nonzeros;
  klu_lnz = o.klu_lnz;
  klu_unz = o.klu_unz;
  last_step = o.last_step;
  return *this;
}

const char* to_string(JacobianSource source) noexcept {
  return source == JacobianSource::directional ? "directional" : "finite differences";
}
const char* to_string(KluOrdering ordering) noexcept {
  switch (ordering) {
    case KluOrdering::amd: return "amd";
    case KluOrdering::colamd: return "colamd";
    case KluOrdering::metis: return "metis";
  }
  return "?";
}

namespace {

// KLU user ordering: METIS nested dissection of the pattern of A + Aᵀ
// (diagonal dropped). Returns a positive number on success, 0 on failure,
// as KLU expects of `user_order`.
SuiteSparse_long metis_order(SuiteSparse_long n, SuiteSparse_long* Ap, SuiteSparse_long* Ai, SuiteSparse_long* Perm,
                             klu_l_common* /*common*/) {
  std::vector<std::vector<idx_t>> adjacency(static_cast<std::size_t>(n));
  for (SuiteSparse_long j = 0; j < n; ++j)
    for (SuiteSparse_long p = Ap[j]; p < Ap[j + 1]; ++p) {
      SuiteSparse_long i = Ai[p];
      if (i == j) continue;
      adjacency[static_cast<std::size_t>(i)].push_back(static_cast<idx_t>(j));
      adjacency[static_cast<std::size_t>(j)].push_back(static_cast<idx_t>(i));
    }
  std::vector<idx_t> xadj{0}, adjncy;
  for (auto& list : adjacency) {
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    adjncy.insert(adjncy.end(), list.begin(), list.end());
    xadj.push_back(static_cast<idx_t>(adjncy.size()));
  }
  idx_t nvtxs = static_cast<idx_t>(n);
  std::vector<idx_t> perm(static_cast<std::size_t>(n)), iperm(static_cast<std::size_t>(n));
  if (adjncy.empty()) {
    for (SuiteSparse_long k = 0; k < n; ++k) Perm[k] = k;
    return 1;
  }
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_SEED] = 1;  // deterministic
  if (METIS_NodeND(&nvtxs, xadj.data(), adjncy.data(), nullptr, options, perm.data(), iperm.data()) != METIS_OK)
    return 0;
  // METIS: row k of the permuted matrix is row perm[k] of A -- KLU's Perm.
  for (SuiteSparse_long k = 0; k < n; ++k) Perm[k] = perm[static_cast<std::size_t>(k)];
  return 1;
}

}  // namespace

struct IdaIntegrator::Impl {
  kernels::ResidualFunction& main;
  std::vector<kernels::ResidualFunction*> pool;
  const structure::Pattern& pattern;
  IntegratorOptions options;
  kernels::CompressedJacobian jacobian;

  SUNContext ctx = nullptr;
  void* ida = nullptr;
  N_Vector y = nullptr, yp = nullptr, atol = nullptr, id = nullptr, ewt = nullptr;
  // options.error_test as a vector, or null when every unknown is in the test.
  N_Vector error_test = nullptr;
  // Views for IDAGetDky (interpolation at every output row): the caller's
  // arrays are attached per call; the optimised kernels, not Debian's -O0 ones.
  N_Vector dky = nullptr, dkyp = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  // KLU only: `solver` behind the decorator that keeps its analysis at restarts (handed to IDA).
  SUNLinearSolver keeping_solver = nullptr;
  KluCounters klu_counters;
  SUNNonlinearSolver projecting = nullptr;  // options.step_projection only
  bool initialized = false;
  bool clock = false;  // no unknowns: IDA integrates the internal clock c' = 0 (clock_residual)
  long residual_calls = 0;
  double next_initial_step = 0;         // set_next_initial_step(): for the next start() only
  bool initial_step_overridden = false;  // the last start() used it
  // The point of the last start() (after make_consistent()), kept until IDA
  // has taken a step from it: a first step that fails the error test down to
  // IDA's limit is tried again from it with a smaller step (solve()).
  bool at_start = false;
  long first_step_retries = 0;
  std::vector<double> y_start, yp_start;
  static constexpr int kFirstStepRetries = 2;
  static constexpr double kFirstStepShrink = 1e-3;
  std::string last_ida_message;
  std::vector<sunindextype> col_ptr, row_idx;
  std::vector<double> csc_values;  // dense solver: the Jacobian in CSC order before scattering
  std::exception_ptr callback_error;
  // Linear elimination: the full point recovered from IDA's (y(), yp()), valid
  // until IDA moves; scratch for interpolate() and the root function.
  EliminatedResidual* expansion = nullptr;
  std::vector<double> y_full, yp_full, scratch_y, scratch_yp;
  bool full_valid = false;
  std::vector<double> full_atol;  // per full unknown
  // Recovers the full point at (t, y_r, y'_r); on a refusal the kept unknowns
  // are exact and the eliminated ones keep the values they had (the failure
  // itself surfaces through IDA's own evaluations).
  void expand(double t, std::span<const double> yr, std::span<const double> ypr, std::span<double> yf,
              std::span<double> ypf) {
    if (expansion->expand(t, yr, ypr, yf, ypf) == kernels::EvalStatus::ok) return;
    const auto& kept = expansion->plan().kept;
    for (std::size_t i = 0; i < kept.size(); ++i) yf[kept[i]] = yr[i], ypf[kept[i]] = ypr[i];
    log_debug("ida: the eliminated unknowns could not be recovered at t = " + format_number(t));
  }
  // Non-finite values since reset_faults(): how many, the first and the last.
  struct NonFinite {
    long count = 0;
    std::size_t row = 0, column = 0;
    bool jacobian = false;
    double value = 0, t_first = 0, t_last = 0;
  } nonfinite;
  // Residuals are scanned for non-finite values only once IDA had a failure
  // (a NaN always causes one) since the last output point or restart: a run
  // that goes well pays two counter reads per evaluation, not a pass over r.
  bool scanning = false;
  long failures_baseline = 0;

  long failures_so_far() const {
    long conv = 0, err = 0;
    IDAGetNumNonlinSolvConvFails(ida, &conv);
    IDAGetNumErrTestFails(ida, &err);
    return conv + err;
  }
  bool scan_residuals() {
    if (!scanning && ida != nullptr && failures_so_far() > failures_baseline) scanning = true;
    return scanning;
  }
  void rearm_scan() {
    scanning = false;
    failures_baseline = ida != nullptr ? failures_so_far() : 0;
  }
  // Records the first non-finite entry of r, if any; true when there was one.
  bool check_finite(double t, std::span<const double> r) {
    for (std::size_t i = 0; i < r.size(); ++i)
      if (!std::isfinite(r[i])) {
        note_nonfinite(t, i, 0, false, r[i]);
        return false;
      }
    return true;
  }
  std::size_t root_count = 0;
  RootFunction root_function;
  // IDAReInit zeroes IDA's counters: what earlier segments (between events) counted.
  long carried_steps = 0, carried_nonlinear = 0, carried_nonlinear_failures = 0, carried_error_failures = 0,
       carried_setups = 0, carried_root_calls = 0;

  void carry_counters() {
    long v = 0;
    IDAGetNumSteps(ida, &v), carried_steps += v;
    IDAGetNumNonlinSolvIters(ida, &v), carried_nonlinear += v;
    IDAGetNumNonlinSolvConvFails(ida, &v), carried_nonlinear_failures += v;
    IDAGetNumErrTestFails(ida, &v), carried_error_failures += v;
    IDAGetNumLinSolvSetups(ida, &v), carried_setups += v;
    if (root_count > 0) IDAGetNumGEvals(ida, &v), carried_root_calls += v;
  }

  Impl(kernels::ResidualFunction& m, std::vector<kernels::ResidualFunction*> p, const structure::Pattern& pat,
       const structure::Coloring& coloring, IntegratorOptions opts)
      : main(m), pool(std::move(p)), pattern(pat), options(std::move(opts)),
        jacobian(pat, coloring, options.threads) {
    if (options.constant_entries != nullptr && options.varying_coloring != nullptr)
      jacobian.set_constant_entries(*options.constant_entries, *options.varying_coloring);
  }

  ~Impl() {
    if (ida != nullptr) IDAFree(&ida);
    if (projecting != nullptr) SUNNonlinSolFree(projecting);
    if (keeping_solver != nullptr) SUNLinSolFree(keeping_solver);
    if (solver != nullptr) SUNLinSolFree(solver);
    if (matrix != nullptr) SUNMatDestroy(matrix);
    for (N_Vector v : {y, yp, atol, id, ewt, dky, dkyp, error_test})
      if (v != nullptr) N_VDestroy(v);
    if (ctx != nullptr) SUNContext_Free(&ctx);
  }

  // No unknowns: IDA carries one internal clock unknown c with c' = 0 so that
  // it can still advance time, stop at time events and locate the roots of
  // the event indicators (which then depend on time and discrete states only).
  static int clock_residual(realtype, N_Vector, N_Vector ypp, N_Vector rr, void* data) {
    ++static_cast<Impl*>(data)->residual_calls;
    NV_Ith_S(rr, 0) = NV_Ith_S(ypp, 0);
    return 0;
  }

  static int residual(realtype t, N_Vector yy, N_Vector ypp, N_Vector rr, void* data) {
    auto* self = static_cast<Impl*>(data);
    const auto n = static_cast<std::size_t>(NV_LENGTH_S(yy));
    ++self->residual_calls;
    try {
      kernels::EvalStatus s = self->main.residual(t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, {NV_DATA_S(rr), n});
      if (s == kernels::EvalStatus::ok && self->scan_residuals() && !self->check_finite(t, {NV_DATA_S(rr), n}))
        return static_cast<int>(kernels::EvalStatus::recoverable);
      return static_cast<int>(s);
    } catch (...) {
      self->callback_error = std::current_exception();
      return -1;
    }
  }

  static int jacobian_fn(realtype t, realtype cj, N_Vector yy, N_Vector ypp, N_Vector rr, SUNMatrix J, void* data,
                         N_Vector, N_Vector, N_Vector) {
    auto* self = static_cast<Impl*>(data);
    const auto n = static_cast<std::size_t>(NV_LENGTH_S(yy));
    const bool dense = self->options.linear_solver == LinearSolverKind::dense;
    std::span<double> values;
    if (dense) {
      values = self->csc_values;
    } else {
      // SUNMatZero cleared the index arrays: restore the fixed pattern.
      std::copy(self->col_ptr.begin(), self->col_ptr.end(), SUNSparseMatrix_IndexPointers(J));
      std::copy(self->row_idx.begin(), self->row_idx.end(), SUNSparseMatrix_IndexValues(J));
      values = {SUNSparseMatrix_Data(J), self->pattern.nnz()};
    }
    // A non-finite residual at the point spoils every column: name it, not them.
    if (!self->check_finite(t, {NV_DATA_S(rr), n})) return static_cast<int>(kernels::EvalStatus::recoverable);
    realtype h = 0;
    IDAGetCurrentStep(self->ida, &h);
    IDAGetErrWeights(self->ida, self->ewt);
    kernels::JacobianPoint point{t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, {NV_DATA_S(rr), n},
                                 cj, h, {NV_DATA_S(self->ewt), n}, self->options.nominal};
    try {
      kernels::EvalStatus s = self->options.jacobian == JacobianSource::directional
                                  ? self->jacobian.evaluate_directional(self->pool, point, values)
                                  : self->jacobian.evaluate_finite_differences(self->pool, point, values);
      if (s == kernels::EvalStatus::ok)
        for (std::size_t c = 0; c < n; ++c)
          for (std::size_t p = self->pattern.col_ptr()[c]; p < self->pattern.col_ptr()[c + 1]; ++p)
            if (!std::isfinite(values[p])) {
              self->note_nonfinite(t, self->pattern.row_idx()[p], c, true, values[p]);
              return static_cast<int>(kernels::EvalStatus::recoverable);
            }
      if (dense && s == kernels::EvalStatus::ok)  // SUNMatZero cleared J; scatter the pattern's entries
        for (std::size_t c = 0; c < n; ++c) {
          double* column = SUNDenseMatrix_Column(J, static_cast<sunindextype>(c));
          for (std::size_t p = self->pattern.col_ptr()[c]; p < self->pattern.col_ptr()[c + 1]; ++p)
            column[self->pattern.row_idx()[p]] = values[p];
        }
      return static_cast<int>(s);
    } catch (...) {
      self->callback_error = std::current_exception();
      return -1;
    }
  }

  static int roots(realtype t, N_Vector yy, N_Vector ypp, realtype* gout, void* data) {
    auto* self = static_cast<Impl*>(data);
    const auto n = self->clock ? std::size_t{0} : static_cast<std::size_t>(NV_LENGTH_S(yy));
    try {
      if (self->expansion != nullptr && !self->clock) {
        self->expand(t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, self->scratch_y, self->scratch_yp);
        return self->root_function(t, self->scratch_y, self->scratch_yp, {gout, self->root_count});
      }
      return self->root_function(t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, {gout, self->root_count});
    } catch (...) {
      self->callback_error = std::current_exception();
      return -1;
    }
  }

  // The record names the first residual (else Jacobian entry) found: a
  // residual says more than the derivatives it spoils.
  void note_nonfinite(double t, std::size_t row, std::size_t column, bool in_jacobian, double value) {
    if (nonfinite.count++ == 0 || (nonfinite.jacobian && !in_jacobian)) {
      nonfinite.row = row;
      nonfinite.column = column;
      nonfinite.jacobian = in_jacobian;
      nonfinite.value = value;
      nonfinite.t_first = t;
    }
    nonfinite.t_last = t;
  }

  std::string nonfinite_report() const {
    if (nonfinite.count == 0) return "";
    const std::size_t r = nonfinite.row;
    std::string what = options.row_value_name ? options.row_value_name(r)
                       : options.row_name     ? "row \"" + options.row_name(r) + "\""
                                              : "row " + std::to_string(r);
    if (nonfinite.jacobian)
      what = "the Jacobian entry of " + what + " for " +
             (options.unknown_name ? "\"" + options.unknown_name(nonfinite.column) + "\""
                                   : "unknown " + std::to_string(nonfinite.column));
    const double v = nonfinite.value;
    std::string text = std::string("the FMU returned ") + (std::isnan(v) ? "NaN" : v > 0 ? "+inf" : "-inf") + " for " +
                       what + " at t = " +
                       format_number(nonfinite.t_first);
    if (nonfinite.count > 1)
      text += " (" + std::to_string(nonfinite.count) + " non-finite evaluations, the last at t = " +
              format_number(nonfinite.t_last) + ")";
    return text;
  }

  // IDA has one id vector for two uses: IDACalcIC (which unknowns are
  // algebraic) and, with suppressalg, the mask of the local error test. The
  // integrator switches it: `id` around IDACalcIC, the error-test mask while
  // stepping (ida_integrator.h, error_test_mask.h).
  void use_id_for_initial_conditions() {
    if (error_test != nullptr) check(IDASetId(ida, id), "IDASetId");
  }
  void use_error_test_mask() {
    if (error_test == nullptr) return;
    check(IDASetId(ida, error_test), "IDASetId");
    check(IDASetSuppressAlg(ida, SUNTRUE), "IDASetSuppressAlg");
  }

  // What the caller and the NaN record know of a failure, instead of IDA's advice ("" when nothing).
  std::string known_cause() const {
    std::string cause = nonfinite_report();
    if (!cause.empty())
      cause += ": IDA cannot step through it; check the model's equations there (a division by zero, a square "
               "root or logarithm of a negative number, an overflow)";
    std::string extra = options.explain_failure ? options.explain_failure() : "";
    if (!extra.empty()) cause += (cause.empty() ? "" : "; ") + extra;
    return cause;
  }

  [[noreturn]] void solve_failed(int flag, double t_now) {
    realtype h = 0;
    IDAGetLastStep(ida, &h);
    std::string hint = known_cause();
    if (hint.empty()) {
      switch (flag) {
        case IDA_TOO_MUCH_WORK: hint = "more than " + std::to_string(options.max_steps_per_output) +
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
    throw Error(ErrorKind::solver, "ida: at t = " + format_number(t_now) + " (h = " + format_number(h) + "): " + IDAGetReturnFlagName(flag) +
                                       (last_ida_message.empty() ? "" : " (" + last_ida_message + ")") + " → " + hint);
  }

  static void error_handler(int code, const char* module, const char* function, char* message, void* data) {
    auto* self = static_cast<Impl*>(data);
    self->last_ida_message = std::string(module) + "/" + function + ": " + message;
    if (code < 0) log_debug(self->last_ida_message);
  }

  void check(int flag, const char* what) {
    if (flag >= 0) return;
    throw Error(ErrorKind::solver, std::string("ida: ") + what + " failed (" + IDAGetReturnFlagName(flag) + ")" +
                                       (last_ida_message.empty() ? "" : ": " + last_ida_message));
  }
};

IdaIntegrator::IdaIntegrator(kernels::ResidualFunction& main, std::vector<kernels::ResidualFunction*> pool,
                             const structure::Pattern& pattern, const structure::Coloring& coloring,
                             IntegratorOptions options)
    : n_(main.size()), full_n_(main.size()) {
  std::vector<double> full_atol;
  if (options.expansion != nullptr) {
    full_atol = options.atol;
    // Per full unknown and row → per kept one.
    const structure::LinearElimination& plan = options.expansion->plan();
    full_n_ = plan.reduced_unknown.size();
    if (plan.kept.size() != n_ || options.step_projection)
      throw Error(ErrorKind::internal, "ida: linear elimination with a residual of " + std::to_string(n_) +
                                           " unknowns for " + std::to_string(plan.kept.size()) +
                                           " kept ones, or with in-step projection");
    auto pick = [&](std::vector<double>& v) {
      if (v.size() != full_n_) return;
      std::vector<double> kept(plan.kept.size());
      for (std::size_t i = 0; i < kept.size(); ++i) kept[i] = v[plan.kept[i]];
      v = std::move(kept);
    };
    pick(options.atol), pick(options.id), pick(options.error_test), pick(options.nominal);
    auto remap = [](std::function<std::string(std::size_t)>& f, const std::vector<std::size_t>& to_full) {
      if (f) f = [g = std::move(f), &to_full](std::size_t k) { return g(k < to_full.size() ? to_full[k] : k); };
    };
    remap(options.row_name, plan.kept_rows), remap(options.row_value_name, plan.kept_rows);
    remap(options.unknown_name, plan.kept);
  }
  if (pattern.rows() != n_ || pattern.cols() != n_)
    throw Error(ErrorKind::internal, "ida: the iteration pattern is " + std::to_string(pattern.rows()) + " × " +
                                         std::to_string(pattern.cols()) + " for " + std::to_string(n_) + " unknowns");
  if (options.atol.size() != n_ || options.id.size() != n_ ||
      !(options.error_test.empty() || options.error_test.size() == n_))
    throw Error(ErrorKind::internal, "ida: atol, id and error_test must have one entry per unknown");
  if (pool.size() < options.threads)
    throw Error(ErrorKind::internal, "ida: the evaluation pool is smaller than the thread count");
  impl_ = std::make_unique<Impl>(main, std::move(pool), pattern, coloring, std::move(options));
  Impl& m = *impl_;
  if (m.options.expansion != nullptr) {
    m.expansion = m.options.expansion;
    m.full_atol = std::move(full_atol);
    m.full_atol.resize(full_n_, m.full_atol.empty() ? 1e-6 : m.full_atol.back());
    for (auto* v : {&m.y_full, &m.yp_full, &m.scratch_y, &m.scratch_yp}) v->assign(full_n_, 0.0);
  }
  if (SUNContext_Create(nullptr, &m.ctx) != 0) throw Error(ErrorKind::solver, "ida: cannot create a SUNContext");
  m.clock = n_ == 0;
  const auto n = static_cast<sunindextype>(m.clock ? 1 : n_);
  m.y = N_VNew_Serial(n, m.ctx);
  m.yp = N_VNew_Serial(n, m.ctx);
  m.atol = N_VNew_Serial(n, m.ctx);
  m.id = N_VNew_Serial(n, m.ctx);
  m.ewt = N_VNew_Serial(n, m.ctx);
  m.dky = N_VNewEmpty_Serial(n, m.ctx);
  m.dkyp = N_VNewEmpty_Serial(n, m.ctx);
  // Debian's libsundials is built without optimisation; IDA's vector kernels
  // dominate a step. The same operations compiled with the project give
  // bitwise the same results (optimized_nvector.h); clones inherit them.
  for (N_Vector v : {m.y, m.yp, m.atol, m.id, m.ewt, m.dky, m.dkyp}) lsdae_use_optimized_ops(v);
  std::copy(m.options.atol.begin(), m.options.atol.end(), NV_DATA_S(m.atol));
  std::copy(m.options.id.begin(), m.options.id.end(), NV_DATA_S(m.id));
  if (!m.clock && std::any_of(m.options.error_test.begin(), m.options.error_test.end(), [](double v) { return v == 0.0; })) {
    m.error_test = N_VNew_Serial(n, m.ctx);
    lsdae_use_optimized_ops(m.error_test);
    std::copy(m.options.error_test.begin(), m.options.error_test.end(), NV_DATA_S(m.error_test));
  }
  if (m.clock) {
    // c = 0, c' = 0: nothing to factor but a 1 × 1 matrix (IDA's own difference quotient).
    NV_Ith_S(m.y, 0) = NV_Ith_S(m.yp, 0) = 0.0;
    NV_Ith_S(m.atol, 0) = 1.0;
    NV_Ith_S(m.id, 0) = 1.0;
    m.matrix = SUNDenseMatrix(1, 1, m.ctx);
    m.solver = SUNLinSol_Dense(m.y, m.matrix, m.ctx);
    if (m.matrix == nullptr || m.solver == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the clock's solver");
    return;
  }
  m.col_ptr.assign(pattern.col_ptr().begin(), pattern.col_ptr().end());
  m.row_idx.assign(pattern.row_idx().begin(), pattern.row_idx().end());
  if (m.options.linear_solver == LinearSolverKind::dense) {
    m.csc_values.resize(pattern.nnz());
    m.matrix = SUNDenseMatrix(n, n, m.ctx);
    m.solver = SUNLinSol_Dense(m.y, m.matrix, m.ctx);
    if (m.matrix == nullptr || m.solver == nullptr)
      throw Error(ErrorKind::solver, "ida: cannot create the dense solver for " + std::to_string(n_) +
                                         " unknowns (out of memory?) → use the KLU solver");
    return;
  }
  const auto nnz = static_cast<sunindextype>(std::max<std::size_t>(1, pattern.nnz()));
  m.matrix = SUNSparseMatrix(n, n, nnz, CSC_MAT, m.ctx);
  m.solver = SUNLinSol_KLU(m.y, m.matrix, m.ctx);
  if (m.matrix == nullptr || m.solver == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the KLU solver");
  switch (m.options.ordering) {
    case KluOrdering::amd: SUNLinSol_KLUSetOrdering(m.solver, 0); break;
    case KluOrdering::colamd: SUNLinSol_KLUSetOrdering(m.solver, 1); break;
    case KluOrdering::metis: {
      sun_klu_common* common = SUNLinSol_KLUGetCommon(m.solver);
      common->ordering = 3;  // user ordering
      common->user_order = metis_order;
      break;
    }
  }
  {
    m.keeping_solver = make_klu_symbolic_reuse(m.solver, m.options.keep_klu_analysis, &m.klu_counters, m.ctx);
    if (m.keeping_solver == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the KLU solver (out of memory?)");
  }
}

IdaIntegrator::~IdaIntegrator() = default;

void IdaIntegrator::start(double t0, std::span<const double> y0, std::span<const double> yp0) {
  Impl& m = *impl_;
  if (m.clock) {
    NV_Ith_S(m.y, 0) = NV_Ith_S(m.yp, 0) = 0.0;
  } else if (m.expansion != nullptr) {
    const auto& kept = m.expansion->plan().kept;
    for (std::size_t i = 0; i < kept.size(); ++i) NV_Ith_S(m.y, i) = y0[kept[i]], NV_Ith_S(m.yp, i) = yp0[kept[i]];
  } else {
    std::copy(y0.begin(), y0.end(), NV_DATA_S(m.y));
    std::copy(yp0.begin(), yp0.end(), NV_DATA_S(m.yp));
  }
  m.full_valid = false;
  t_ = t0;
  if (!m.initialized) {
    m.ida = IDACreate(m.ctx);
    if (m.ida == nullptr) throw Error(ErrorKind::solver, "ida: IDACreate failed (out of memory?)");
    IDASetErrHandlerFn(m.ida, &Impl::error_handler, &m);
    m.check(IDAInit(m.ida, m.clock ? &Impl::clock_residual : &Impl::residual, t0, m.y, m.yp), "IDAInit");
    m.check(IDASetUserData(m.ida, &m), "IDASetUserData");
    m.check(IDASVtolerances(m.ida, m.options.rtol, m.atol), "IDASVtolerances");
    m.check(IDASetId(m.ida, m.id), "IDASetId");
    m.check(IDASetLinearSolver(m.ida, m.keeping_solver != nullptr ? m.keeping_solver : m.solver, m.matrix),
            "IDASetLinearSolver");
    if (!m.clock) m.check(IDASetJacFn(m.ida, &Impl::jacobian_fn), "IDASetJacFn");
    if (m.options.step_projection) {
      m.projecting = ProjectingNonlinearSolver::make(m.y, m.ctx, m.options.step_projection, &m.callback_error);
      if (m.projecting == nullptr) throw Error(ErrorKind::solver, "ida: creating the projecting nonlinear solver failed");
      m.check(IDASetNonlinearSolver(m.ida, m.projecting), "IDASetNonlinearSolver");
    }
    if (m.root_count > 0) {
      m.check(IDARootInit(m.ida, static_cast<int>(m.root_count), &Impl::roots), "IDARootInit");
      IDASetNoInactiveRootWarn(m.ida);
    }
    m.check(IDASetMaxNumSteps(m.ida, m.options.max_steps_per_output), "IDASetMaxNumSteps");
    if (m.options.max_step > 0) m.check(IDASetMaxStep(m.ida, m.options.max_step), "IDASetMaxStep");
    if (m.options.initial_step > 0) m.check(IDASetInitStep(m.ida, m.options.initial_step), "IDASetInitStep");
    m.initialized = true;
  } else {
    m.carry_counters();
    m.jacobian.invalidate_constants();  // an event: tunable and discrete entries may have changed
    m.check(IDAReInit(m.ida, t0, m.y, m.yp), "IDAReInit");
  }
  // IDA keeps hin across IDAReInit: a one-off first step is undone at the next start.
  if (m.next_initial_step > 0) {
    m.check(IDASetInitStep(m.ida, m.next_initial_step), "IDASetInitStep");
    m.next_initial_step = 0;
    m.initial_step_overridden = true;
  } else if (m.initial_step_overridden) {
    m.check(IDASetInitStep(m.ida, m.options.initial_step > 0 ? m.options.initial_step : 0.0), "IDASetInitStep");
    m.initial_step_overridden = false;
  }
  m.use_error_test_mask();
  m.rearm_scan();  // IDAReInit zeroed IDA's counters
  m.at_start = true;
}

void IdaIntegrator::set_next_initial_step(double h) {
  if (!(h > 0 && std::isfinite(h)))
    throw Error(ErrorKind::usage, "ida: the next initial step " + format_number(h) + " is not positive and finite");
  impl_->next_initial_step = h;
}

void IdaIntegrator::set_stop_time(double t_stop) { impl_->check(IDASetStopTime(impl_->ida, t_stop), "IDASetStopTime"); }

void IdaIntegrator::make_consistent(double t_next) {
  Impl& m = *impl_;
  m.use_id_for_initial_conditions();
  int flag = IDACalcIC(m.ida, IDA_YA_YDP_INIT, t_next);
  m.use_error_test_mask();
  if (m.callback_error) std::rethrow_exception(std::exchange(m.callback_error, nullptr));
  IDAGetConsistentIC(m.ida, m.y, m.yp);
  m.full_valid = false;
  if (flag >= 0) return;
  // Name the residuals that stayed largest (a NaN counts as the largest).
  auto magnitude = [](double v) { return std::isnan(v) ? std::numeric_limits<double>::infinity() : std::fabs(v); };
  std::vector<double> r(n_);
  if (m.main.residual(t_, {NV_DATA_S(m.y), n_}, {NV_DATA_S(m.yp), n_}, r) == kernels::EvalStatus::ok)
    m.check_finite(t_, r);
  const std::string cause = m.known_cause();
  std::vector<std::size_t> order(n_);
  std::iota(order.begin(), order.end(), 0);
  std::size_t shown = std::min<std::size_t>(5, n_);
  std::partial_sort(order.begin(), order.begin() + static_cast<long>(shown), order.end(),
                    [&](std::size_t a, std::size_t b) { return magnitude(r[a]) > magnitude(r[b]); });
  std::string worst;
  for (std::size_t k = 0; k < shown; ++k) {
    std::size_t i = order[k];
    if (r[i] == 0.0) break;
    worst += (worst.empty() ? "" : ", ") +
             (m.options.row_name ? "\"" + m.options.row_name(i) + "\"" : "row " + std::to_string(i)) + " = " + format_number(r[i]);
  }
  throw Error(ErrorKind::solver,
              std::string("ida: consistent initial values at t = ") + format_number(t_) + " not found (" +
                  IDAGetReturnFlagName(flag) + "); largest residuals: " + (worst.empty() ? "none" : worst) +
                  (m.last_ida_message.empty() ? "" : "; IDA said: " + m.last_ida_message) + " → " +
                  (cause.empty() ? "check the start values and parameters (--set name=value), or give better guesses "
                                   "for the algebraic variables"
                                 : cause));
}

// One IDASolve call in `mode`; failures throw with time, step and reason.
//
// The first step from a start may fail IDA's error test all the way down
// (IDA_ERR_FAIL after its 10 tries, each step a quarter of the last) when an
// algebraic unknown in the error test moves at once while IDA predicts it
// constant: IDA knows the derivatives of the differential unknowns only, so
// the first order-1 prediction of an algebraic z misses by h·ż, and at tight
// tolerances (atol 1e-10: h ≤ 1e-10/|ż|) ten quarterings from IDA's first
// guess (a thousandth of the distance to the next output point) do not get
// there: CoupledMasses, whose coupling force follows sin(ωt), failed at t = 0
// with rtol = atol = 1e-10 and rows every 0.1 s, and ran with rows every
// 0.01 s. Such a first step is tried again from the same point, up to
// kFirstStepRetries times, each from kFirstStepShrink of the step IDA was
// about to try; a run that never fails is untouched (the same steps, bitwise).
int IdaIntegrator::solve(double tout, int mode) {
  Impl& m = *impl_;
  if (m.at_start && !m.clock) {
    m.y_start.assign(NV_DATA_S(m.y), NV_DATA_S(m.y) + n_);
    m.yp_start.assign(NV_DATA_S(m.yp), NV_DATA_S(m.yp) + n_);
  }
  const double t_start = t_;
  realtype t_reached = t_;
  int flag = IDASolve(m.ida, tout, &t_reached, m.y, m.yp, mode);
  for (int retry = 0; flag == IDA_ERR_FAIL && m.at_start && !m.clock && retry < Impl::kFirstStepRetries &&
                      !m.callback_error;
       ++retry) {
    long steps = 0;
    IDAGetNumSteps(m.ida, &steps);
    realtype h_next = 0;
    IDAGetCurrentStep(m.ida, &h_next);
    if (steps > 0 || !(h_next != 0)) break;
    m.carry_counters();
    std::copy(m.y_start.begin(), m.y_start.end(), NV_DATA_S(m.y));
    std::copy(m.yp_start.begin(), m.yp_start.end(), NV_DATA_S(m.yp));
    m.check(IDAReInit(m.ida, t_start, m.y, m.yp), "IDAReInit");
    m.check(IDASetInitStep(m.ida, std::fabs(h_next) * Impl::kFirstStepShrink), "IDASetInitStep");
    m.initial_step_overridden = true;  // the next start() goes back to the caller's choice
    m.use_error_test_mask();
    m.rearm_scan();
    m.last_ida_message.clear();
    ++m.first_step_retries;
    t_reached = t_start;
    flag = IDASolve(m.ida, tout, &t_reached, m.y, m.yp, mode);
  }
  m.full_valid = false;
  if (flag >= 0) m.at_start = false;
  if (m.callback_error) std::rethrow_exception(std::exchange(m.callback_error, nullptr));
  if (flag < 0) {
    realtype t_now = t_;
    IDAGetCurrentTime(m.ida, &t_now);
    t_ = t_now;
    m.solve_failed(flag, t_now);
  }
  t_ = t_reached;
  return flag;
}

void IdaIntegrator::set_root_function(std::size_t count, RootFunction g) {
  Impl& m = *impl_;
  m.root_count = count;
  m.root_function = std::move(g);
  if (m.initialized) {
    m.check(IDARootInit(m.ida, static_cast<int>(count), count > 0 ? &Impl::roots : nullptr), "IDARootInit");
    if (count > 0) IDASetNoInactiveRootWarn(m.ida);
  }
}

std::vector<int> IdaIntegrator::roots_found() const {
  std::vector<int> found(impl_->root_count, 0);
  if (!found.empty()) IDAGetRootInfo(impl_->ida, found.data());
  return found;
}

StepOutcome IdaIntegrator::one_step(double tout) {
  const int flag = solve(tout, IDA_ONE_STEP);
  if (flag == IDA_ROOT_RETURN) return StepOutcome::root;
  if (flag == IDA_TSTOP_RETURN) return StepOutcome::stop_time;
  return StepOutcome::step;
}

void IdaIntegrator::error_weights(std::span<double> w) const {
  const Impl& m = *impl_;
  if (m.clock) return;
  if (IDAGetErrWeights(m.ida, m.ewt) < 0)
    throw Error(ErrorKind::internal, "ida: error weights requested before the first step");
  if (m.expansion != nullptr) {
    // The eliminated unknowns are not in IDA's test: IDA's formula with the caller's atol.
    const std::span<const double> full = y();
    const auto& kept = m.expansion->plan().kept;
    for (std::size_t k = 0; k < full_n_; ++k) w[k] = 0.0;
    for (std::size_t i = 0; i < kept.size(); ++i) w[kept[i]] = NV_Ith_S(m.ewt, i);
    for (const std::size_t k : m.expansion->plan().eliminated)
      w[k] = 1.0 / (m.options.rtol * std::fabs(full[k]) + m.full_atol[k]);
    return;
  }
  std::copy(NV_DATA_S(m.ewt), NV_DATA_S(m.ewt) + n_, w.begin());
}

void IdaIntegrator::interpolate(double t, std::span<double> y, std::span<double> yp) const {
  const Impl& m = *impl_;
  if (y.size() != full_n_ || yp.size() != full_n_)
    throw Error(ErrorKind::internal, "ida: interpolate needs spans of size() values");
  if (m.clock) return;
  if (m.expansion != nullptr) {
    std::vector<double> yr(n_), ypr(n_);
    interpolate_reduced(t, yr, ypr);
    impl_->expand(t, yr, ypr, y, yp);
    return;
  }
  interpolate_reduced(t, y, yp);
}

void IdaIntegrator::interpolate_reduced(double t, std::span<double> y, std::span<double> yp) const {
  const Impl& m = *impl_;
  N_VSetArrayPointer(y.data(), m.dky);
  N_VSetArrayPointer(yp.data(), m.dkyp);
  const int f1 = IDAGetDky(m.ida, t, 0, m.dky);
  const int f2 = IDAGetDky(m.ida, t, 1, m.dkyp);
  N_VSetArrayPointer(nullptr, m.dky);
  N_VSetArrayPointer(nullptr, m.dkyp);
  if (f1 < 0 || f2 < 0)
    throw Error(ErrorKind::internal, "ida: cannot interpolate at t = " + format_number(t) + " (outside the last step)");
}

std::string IdaIntegrator::nonfinite_report() const { return impl_->nonfinite_report(); }
std::string IdaIntegrator::known_cause() const { return impl_->known_cause(); }
void IdaIntegrator::reset_faults() {
  impl_->nonfinite = {};
  impl_->rearm_scan();
}

std::span<const double> IdaIntegrator::y() const {
  Impl& m = *impl_;
  if (m.expansion == nullptr || m.clock) return {NV_DATA_S(m.y), n_};
  if (!m.full_valid) {
    m.expand(t_, {NV_DATA_S(m.y), n_}, {NV_DATA_S(m.yp), n_}, m.y_full, m.yp_full);
    m.full_valid = true;
  }
  return m.y_full;
}
std::span<const double> IdaIntegrator::yp() const {
  if (impl_->expansion == nullptr || impl_->clock) return {NV_DATA_S(impl_->yp), n_};
  y();
  return impl_->yp_full;
}

IntegratorStats IdaIntegrator::stats() const {
  const Impl& m = *impl_;
  IntegratorStats s;
  s.colors = m.jacobian.colors();
  s.varying_colors = m.jacobian.varying_colors();
  s.constant_entries = m.jacobian.constant_entry_count();
  s.constant_evaluations = static_cast<long>(m.jacobian.counters().constant_evaluations);
  s.constant_calls = static_cast<long>(m.jacobian.counters().constant_calls);
  s.jacobian_nonzeros = m.pattern.nnz();
  s.eliminated = full_n_ - n_;
  s.jacobian_evaluations = static_cast<long>(m.jacobian.counters().evaluations);
  s.jacobian_residual_calls = static_cast<long>(m.jacobian.counters().residual_calls);
  s.directional_calls = static_cast<long>(m.jacobian.counters().directional_calls);
  s.residual_calls = m.residual_calls;
  if (m.ida != nullptr) {
    IDAGetNumSteps(m.ida, &s.steps);
    IDAGetNumNonlinSolvIters(m.ida, &s.nonlinear_iterations);
    IDAGetNumNonlinSolvConvFails(m.ida, &s.nonlinear_convergence_failures);
    IDAGetNumErrTestFails(m.ida, &s.error_test_failures);
    IDAGetNumLinSolvSetups(m.ida, &s.linear_solver_setups);
    realtype h = 0;
    IDAGetLastStep(m.ida, &h);
    s.last_step = h;
    if (m.root_count > 0) IDAGetNumGEvals(m.ida, &s.root_function_calls);
    s.steps += m.carried_steps;
    s.nonlinear_iterations += m.carried_nonlinear;
    s.nonlinear_convergence_failures += m.carried_nonlinear_failures;
    s.error_test_failures += m.carried_error_failures;
    s.linear_solver_setups += m.carried_setups;
    s.root_function_calls += m.carried_root_calls;
  }
  if (sun_klu_numeric* numeric = !m.clock && m.options.linear_solver == LinearSolverKind::klu ? SUNLinSol_KLUGetNumeric(m.solver)
                                                                                  : nullptr;
      numeric != nullptr) {
    s.klu_lnz = static_cast<long>(numeric->lnz);
    s.klu_unz = static_cast<long>(numeric->unz);
  }
  if (m.keeping_solver != nullptr) {
    s.klu_symbolic_analyses = m.klu_counters.symbolic_analyses;
    s.klu_restart_factorizations = m.klu_counters.restart_factorizations;
    s.klu_adopted_analyses = m.klu_counters.adopted_analyses;
  }
  s.first_step_retries = m.first_step_retries;
  return s;
}

KluAnalysisPtr IdaIntegrator::release_klu_analysis() {
  Impl& m = *impl_;
  if (m.keeping_solver == nullptr) return nullptr;
  return detach_klu_analysis(m.keeping_solver, m.col_ptr, m.row_idx);
}

bool IdaIntegrator::adopt_klu_analysis(KluAnalysisPtr& analysis) {
  Impl& m = *impl_;
  if (m.keeping_solver == nullptr || m.initialized) return false;
  return simulation::adopt_klu_analysis(m.keeping_solver, analysis, m.col_ptr, m.row_idx);
}

}  // namespace lsdae::simulation
