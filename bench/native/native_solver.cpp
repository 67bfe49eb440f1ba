// bench/native/native_solver.cpp -- see native_solver.h.
#include "native/native_solver.h"
#include "simulation/ida/optimized_nvector.h"

#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace lsdae::bench {

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Solver {
  const TransmissionLine& model;
  SUNContext ctx = nullptr;
  void* ida = nullptr;
  N_Vector y = nullptr, yp = nullptr, atol = nullptr, id = nullptr;
  SUNMatrix matrix = nullptr;
  SUNLinearSolver solver = nullptr;
  std::vector<sunindextype> col_ptr, row_idx;
  long residual_calls = 0, jacobian_evaluations = 0;

  explicit Solver(const TransmissionLine& m) : model(m) {}
  ~Solver() {
    if (ida != nullptr) IDAFree(&ida);
    if (solver != nullptr) SUNLinSolFree(solver);
    if (matrix != nullptr) SUNMatDestroy(matrix);
    for (N_Vector v : {y, yp, atol, id})
      if (v != nullptr) N_VDestroy(v);
    if (ctx != nullptr) SUNContext_Free(&ctx);
  }
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  static int residual(realtype t, N_Vector yy, N_Vector ypp, N_Vector rr, void* data) {
    auto* self = static_cast<Solver*>(data);
    const auto n = static_cast<std::size_t>(NV_LENGTH_S(yy));
    ++self->residual_calls;
    self->model.residual(t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, {NV_DATA_S(rr), n});
    return 0;
  }

  static int jacobian(realtype, realtype cj, N_Vector, N_Vector, N_Vector, SUNMatrix J, void* data, N_Vector,
                      N_Vector, N_Vector) {
    auto* self = static_cast<Solver*>(data);
    ++self->jacobian_evaluations;
    // IDA zeroed J (SUNMatZero clears the index arrays too): restore the pattern.
    std::copy(self->col_ptr.begin(), self->col_ptr.end(), SUNSparseMatrix_IndexPointers(J));
    std::copy(self->row_idx.begin(), self->row_idx.end(), SUNSparseMatrix_IndexValues(J));
    self->model.jacobian(cj, {SUNSparseMatrix_Data(J), self->model.nnz()});
    return 0;
  }

  void check(int flag, const char* what) const {
    if (flag >= 0) return;
    throw std::runtime_error(std::string("native: ") + what + " failed (" + IDAGetReturnFlagName(flag) + ")");
  }
};

}  // namespace

NativeStats simulate_native(const TransmissionLine& model, const NativeOptions& options,
                            const std::function<void(double, std::span<const double>)>& on_output) {
  if (!(options.t_stop > options.t_start) || !(options.interval > 0) || !(options.rtol > 0))
    throw std::invalid_argument("native: need t_stop > t_start, interval > 0 and rtol > 0");
  auto t0 = std::chrono::steady_clock::now();
  NativeStats stats;
  Solver s(model);
  const std::size_t n = model.size();
  const auto ni = static_cast<sunindextype>(n);
  if (SUNContext_Create(nullptr, &s.ctx) != 0) throw std::runtime_error("native: cannot create a SUNContext");
  s.y = N_VNew_Serial(ni, s.ctx);
  s.yp = N_VNew_Serial(ni, s.ctx);
  s.atol = N_VNew_Serial(ni, s.ctx);
  s.id = N_VNew_Serial(ni, s.ctx);
  if (options.optimized_vectors)
    for (N_Vector v : {s.y, s.yp, s.atol, s.id}) lsdae_use_optimized_ops(v);  // IDA's clones inherit them
  N_VConst(options.atol.value_or(options.rtol), s.atol);
  const std::vector<double> id = model.id();
  std::copy(id.begin(), id.end(), NV_DATA_S(s.id));
  s.col_ptr.assign(model.col_ptr().begin(), model.col_ptr().end());
  s.row_idx.assign(model.row_idx().begin(), model.row_idx().end());
  s.matrix = SUNSparseMatrix(ni, ni, static_cast<sunindextype>(model.nnz()), CSC_MAT, s.ctx);
  s.solver = SUNLinSol_KLU(s.y, s.matrix, s.ctx);
  if (s.matrix == nullptr || s.solver == nullptr) throw std::runtime_error("native: cannot create the KLU solver");
  SUNLinSol_KLUSetOrdering(s.solver, 0);  // AMD, lsdae's default
  model.initial_values({NV_DATA_S(s.y), n}, {NV_DATA_S(s.yp), n});

  s.ida = IDACreate(s.ctx);
  if (s.ida == nullptr) throw std::runtime_error("native: IDACreate failed");
  s.check(IDAInit(s.ida, &Solver::residual, options.t_start, s.y, s.yp), "IDAInit");
  s.check(IDASetUserData(s.ida, &s), "IDASetUserData");
  s.check(IDASVtolerances(s.ida, options.rtol, s.atol), "IDASVtolerances");
  s.check(IDASetId(s.ida, s.id), "IDASetId");
  s.check(IDASetLinearSolver(s.ida, s.solver, s.matrix), "IDASetLinearSolver");
  s.check(IDASetJacFn(s.ida, &Solver::jacobian), "IDASetJacFn");
  s.check(IDASetMaxNumSteps(s.ida, options.max_steps), "IDASetMaxNumSteps");
  s.check(IDASetStopTime(s.ida, options.t_stop), "IDASetStopTime");
  stats.time_setup = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  s.check(IDACalcIC(s.ida, IDA_YA_YDP_INIT, std::min(options.t_start + options.interval, options.t_stop)),
          "IDACalcIC");
  s.check(IDAGetConsistentIC(s.ida, s.y, s.yp), "IDAGetConsistentIC");
  stats.time_initialize = seconds_since(t0);
  if (on_output) on_output(options.t_start, {NV_DATA_S(s.y), n});

  t0 = std::chrono::steady_clock::now();
  const auto intervals =
      static_cast<long>(std::ceil((options.t_stop - options.t_start) / options.interval - 1e-9));
  realtype t = options.t_start;
  for (long k = 1; k <= intervals; ++k) {
    const double target =
        k == intervals ? options.t_stop : options.t_start + static_cast<double>(k) * options.interval;
    const int flag = IDASolve(s.ida, target, &t, s.y, s.yp, IDA_NORMAL);
    if (flag < 0) {
      realtype h = 0;
      IDAGetLastStep(s.ida, &h);
      throw std::runtime_error("native: at t = " + std::to_string(t) + " (h = " + std::to_string(h) +
                               "): IDASolve failed (" + IDAGetReturnFlagName(flag) + ")");
    }
    ++stats.outputs;
    if (on_output) on_output(t, {NV_DATA_S(s.y), n});
  }
  stats.time_integrate = seconds_since(t0);

  stats.unknowns = n;
  stats.nonzeros = model.nnz();
  stats.reached_time = t;
  stats.residual_calls = s.residual_calls;
  stats.jacobian_evaluations = s.jacobian_evaluations;
  IDAGetNumSteps(s.ida, &stats.steps);
  IDAGetNumNonlinSolvIters(s.ida, &stats.nonlinear_iterations);
  IDAGetNumNonlinSolvConvFails(s.ida, &stats.nonlinear_convergence_failures);
  IDAGetNumErrTestFails(s.ida, &stats.error_test_failures);
  IDAGetNumLinSolvSetups(s.ida, &stats.linear_solver_setups);
  if (sun_klu_numeric* numeric = SUNLinSol_KLUGetNumeric(s.solver); numeric != nullptr) {
    stats.klu_lnz = static_cast<long>(numeric->lnz);
    stats.klu_unz = static_cast<long>(numeric->unz);
  }
  return stats;
}

}  // namespace lsdae::bench
