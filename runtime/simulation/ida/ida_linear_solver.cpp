// runtime/simulation/ida/ida_linear_solver.cpp -- see ida_linear_solver.h.
#include "simulation/ida/ida_linear_solver.h"

#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <ida/ida.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "lsdae/error.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"
#include "simulation/ida/klu32_solver.h"

namespace lsdae::simulation {

namespace {
// The KLU matrix's SUNMatZero (IDA calls it before every Jacobian,
// ida_ls.c idaLsSetup): the values only. SUNMatZero_Sparse clears the index
// arrays too, which the fixed pattern then had to be copied back into at
// every setup (2 % and 1.6 % of the every-model ACTIVSg2000 run's CPU).
int zero_sparse_values(SUNMatrix a) {
  std::fill_n(SUNSparseMatrix_Data(a), SUNSparseMatrix_NNZ(a), 0.0);
  return SUNMAT_SUCCESS;
}
}  // namespace

void IdaLinearSolver::make_clock(N_Vector y, SUNContext ctx) {
  clock_ = true;
  kind_ = LinearSolverKind::dense;
  matrix_ = SUNDenseMatrix(1, 1, ctx);
  solver_ = SUNLinSol_Dense(y, matrix_, ctx);
  if (matrix_ == nullptr || solver_ == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the clock's solver");
}

void IdaLinearSolver::make(N_Vector y, const structure::Pattern& pattern, LinearSolverKind kind, KluOrdering ordering,
                           bool keep_klu_analysis, SUNContext ctx) {
  kind_ = kind;
  const auto n = static_cast<sunindextype>(pattern.cols());
  col_ptr_.assign(pattern.col_ptr().begin(), pattern.col_ptr().end());
  row_idx_.assign(pattern.row_idx().begin(), pattern.row_idx().end());
  if (kind == LinearSolverKind::dense) {
    csc_values_.resize(pattern.nnz());
    matrix_ = SUNDenseMatrix(n, n, ctx);
    solver_ = SUNLinSol_Dense(y, matrix_, ctx);
    if (matrix_ == nullptr || solver_ == nullptr)
      throw Error(ErrorKind::solver, "ida: cannot create the dense solver for " + std::to_string(pattern.cols()) +
                                         " unknowns (out of memory?) → use the KLU solver");
    return;
  }
  const auto nnz = static_cast<sunindextype>(std::max<std::size_t>(1, pattern.nnz()));
  matrix_ = SUNSparseMatrix(n, n, nnz, CSC_MAT, ctx);
  if (matrix_ == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the KLU solver's matrix (out of memory?)");
  // The fixed pattern, once; the matrix's zero operation leaves it (each
  // SUNMatrix owns its operations table: SUNMatNewEmpty).
  std::copy(col_ptr_.begin(), col_ptr_.end(), SUNSparseMatrix_IndexPointers(matrix_));
  std::copy(row_idx_.begin(), row_idx_.end(), SUNSparseMatrix_IndexValues(matrix_));
  matrix_->ops->zero = zero_sparse_values;
  // lsdae's solver on KLU's 32-bit interface (klu32_solver.h), where n and nnz fit.
  if (kind == LinearSolverKind::klu && klu32_fits(pattern.cols(), pattern.nnz())) {
    solver_ = make_klu32_solver(col_ptr_, row_idx_, ordering, keep_klu_analysis, &klu_counters_, ctx);
    if (solver_ == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the KLU solver (out of memory?)");
    klu32_ = true;
    return;
  }
  // n or nnz beyond int32 (or klu64 asked for): SUNDIALS' solver on KLU's 64-bit interface
  // (klu_index_bits 64 in --stats).
  solver_ = SUNLinSol_KLU(y, matrix_, ctx);
  if (solver_ == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the KLU solver");
  set_klu_ordering(solver_, ordering);
  keeping_solver_ = make_klu_symbolic_reuse(solver_, keep_klu_analysis, &klu_counters_, ctx);
  if (keeping_solver_ == nullptr) throw Error(ErrorKind::solver, "ida: cannot create the KLU solver (out of memory?)");
}

void IdaLinearSolver::free() {
  klu32_ = false;
  if (keeping_solver_ != nullptr) SUNLinSolFree(keeping_solver_);
  if (solver_ != nullptr) SUNLinSolFree(solver_);
  if (matrix_ != nullptr) SUNMatDestroy(matrix_);
  keeping_solver_ = nullptr;
  solver_ = nullptr;
  matrix_ = nullptr;
}

std::span<double> IdaLinearSolver::jacobian_values(SUNMatrix J, std::size_t nnz) {
  if (dense()) return csc_values_;
  return {SUNSparseMatrix_Data(J), nnz};  // the pattern is in place (make())
}

void IdaLinearSolver::scatter_dense(SUNMatrix J, const structure::Pattern& pattern) const {
  for (std::size_t c = 0; c < pattern.cols(); ++c) {
    double* column = SUNDenseMatrix_Column(J, static_cast<sunindextype>(c));
    for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
      column[pattern.row_idx()[p]] = csc_values_[p];
  }
}

void IdaLinearSolver::add_stats(IntegratorStats& s) const {
  if (klu32_) {
    if (const klu_numeric* numeric = klu32_numeric(solver_); numeric != nullptr) {
      s.klu_lnz = static_cast<long>(numeric->lnz);
      s.klu_unz = static_cast<long>(numeric->unz);
    }
    s.klu_index_bits = 32;
  } else if (sun_klu_numeric* numeric = keeping_solver_ != nullptr ? SUNLinSol_KLUGetNumeric(solver_) : nullptr;
             numeric != nullptr) {
    s.klu_lnz = static_cast<long>(numeric->lnz);
    s.klu_unz = static_cast<long>(numeric->unz);
  }
  if (keeping_solver_ != nullptr) s.klu_index_bits = 64;
  if (klu32_ || keeping_solver_ != nullptr) {
    s.klu_symbolic_analyses = klu_counters_.symbolic_analyses;
    s.klu_restart_factorizations = klu_counters_.restart_factorizations;
    s.klu_adopted_analyses = klu_counters_.adopted_analyses;
  }
}

KluAnalysisPtr IdaLinearSolver::release_analysis() {
  if (klu32_) return detach_klu32_analysis(solver_);
  if (keeping_solver_ == nullptr) return nullptr;
  return detach_klu_analysis(keeping_solver_, col_ptr_, row_idx_);
}

bool IdaLinearSolver::adopt_analysis(KluAnalysisPtr& analysis) {
  if (klu32_) return adopt_klu32_analysis(solver_, analysis);
  if (keeping_solver_ == nullptr) return false;
  return adopt_klu_analysis(keeping_solver_, analysis, col_ptr_, row_idx_);
}

void IdaIntegrator::Impl::revise_jacobian(const kernels::JacobianPoint& point) {
  long steps = 0, failures = 0;
  IDAGetNumSteps(ida, &steps);
  IDAGetNumNonlinSolvConvFails(ida, &failures);
  const JacobianRevision revision = options.before_jacobian({point.t, point.y, point.yp, steps, failures});
  if (revision.finite_difference_columns_changed && options.finite_difference_columns != nullptr)
    jacobian.set_finite_difference_columns(*options.finite_difference_columns);
  if (revision.constants_changed && options.constant_entries != nullptr && options.varying_coloring != nullptr)
    jacobian.set_constant_entries(*options.constant_entries, *options.varying_coloring);
}

// IDA's Jacobian callback (IDASetJacFn; user data: the integrator's state):
// the coloured Jacobian of kernels/compressed_jacobian.h at IDA's point, with
// IDA's cj, step and error weights, into the solver's matrix. A non-finite
// residual at the point or entry is recorded (ida_diagnostics.h) and reported
// as recoverable.
int IdaIntegrator::Impl::jacobian_fn(realtype t, realtype cj, N_Vector yy, N_Vector ypp, N_Vector rr, SUNMatrix J,
                                     void* data, N_Vector, N_Vector, N_Vector) {
  auto* self = static_cast<Impl*>(data);
  const auto n = static_cast<std::size_t>(NV_LENGTH_S(yy));
  const std::span<double> values = self->linear.jacobian_values(J, self->pattern.nnz());
  // A non-finite residual at the point spoils every column: name it, not them.
  if (!self->diagnostics.check_finite(t, {NV_DATA_S(rr), n})) return static_cast<int>(kernels::EvalStatus::recoverable);
  realtype h = 0;
  IDAGetCurrentStep(self->ida, &h);
  IDAGetErrWeights(self->ida, self->ewt);
  kernels::JacobianPoint point{t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, {NV_DATA_S(rr), n},
                               cj, h, {NV_DATA_S(self->ewt), n}, self->options.nominal};
  if (self->reuse_on) {  // the saved matrix re-formed for this cj, or a fresh one (jacobian_reuse.h)
    long steps = 0, failures = 0;
    IDAGetNumSteps(self->ida, &steps);
    IDAGetNumStepSolveFails(self->ida, &failures);  // steps failed in the nonlinear solve (IDA's ncfn)
    const auto saved_here = [self, &point] { return self->jacobian.saved_at(point); };  // asked only if it decides
    if (self->reuse.reform_now(self->jacobian.can_reform(), steps, failures, saved_here)) {
      self->jacobian.reform(cj, values);
      if (self->linear.dense()) self->linear.scatter_dense(J, self->pattern);
      return 0;
    }
  }
  try {
    if (self->options.before_jacobian) self->revise_jacobian(point);
    kernels::EvalStatus s = self->options.jacobian == JacobianSource::directional
                                ? self->jacobian.evaluate_directional(self->pool, point, values)
                                : self->jacobian.evaluate_finite_differences(self->pool, point, values);
    if (s == kernels::EvalStatus::ok)
      for (std::size_t c = 0; c < n; ++c)
        for (std::size_t p = self->pattern.col_ptr()[c]; p < self->pattern.col_ptr()[c + 1]; ++p)
          if (!std::isfinite(values[p])) {
            self->diagnostics.note_nonfinite(t, self->pattern.row_idx()[p], c, true, values[p]);
            return static_cast<int>(kernels::EvalStatus::recoverable);
          }
    if (self->linear.dense() && s == kernels::EvalStatus::ok)  // SUNMatZero cleared J; scatter the pattern's entries
      self->linear.scatter_dense(J, self->pattern);
    return static_cast<int>(s);
  } catch (...) {
    self->diagnostics.keep_exception();
    return -1;
  }
}

}  // namespace lsdae::simulation
