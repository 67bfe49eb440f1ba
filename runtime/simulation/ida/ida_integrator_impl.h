// runtime/simulation/ida/ida_integrator_impl.h -- the state of one
// IdaIntegrator, shared by the files of the IDA driver (as SUNDIALS' ida_impl.h
// is by ida.c, ida_ic.c, ida_ls.c). Private to runtime/simulation/ida/.
//
// Who owns what:
//   the problem          main, pool, pattern, options, jacobian (the coloured Jacobian)
//   IDA's memory         ctx, ida, the N_Vectors; initialized, clock   (ida_integrator.cpp)
//   the linear solver    linear (IdaLinearSolver)                       (ida_linear_solver.cpp)
//   the nonlinear solver projecting (in-step projection only), newton (Jacobian reuse without it)
//   messages, NaN record diagnostics (IdaDiagnostics)                   (ida_diagnostics.cpp)
//   counters             residual_calls, carried (IDAReInit zeroes IDA's) (ida_statistics.cpp)
//   the first step       at_start, y_start, yp_start, first_step_retries,
//                        next_initial_step, initial_step_overridden    (ida_step.cpp)
//   elimination          expansion, full_atol, y_full, yp_full, scratch, full_valid
//   root finding         root_count, root_function                  (ida_roots.cpp)
//   roots inside a step  sample_*, inside_roots, interior_root_calls (ida_interior_roots.cpp)
// Invariants: ida is null until the first start() (initialized); with clock
// (no unknowns) the vectors have one entry and nothing but the clock's 1 × 1
// solver exists; y_full/yp_full are the expansion of (y, yp) when full_valid,
// which every change of y, yp clears.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_IDA_INTEGRATOR_IMPL_H
#define LSDAE_RUNTIME_SIMULATION_IDA_IDA_INTEGRATOR_IMPL_H

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_nonlinearsolver.h>

#include <span>
#include <string>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "simulation/ida/ida_diagnostics.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_linear_solver.h"
#include "simulation/ida/ida_statistics.h"
#include "simulation/ida/jacobian_reuse.h"

namespace lsdae::simulation {

struct IdaIntegrator::Impl {
  Impl(kernels::ResidualFunction& m, std::vector<kernels::ResidualFunction*> p, const structure::Pattern& pat,
       const structure::Coloring& coloring, IntegratorOptions opts);
  ~Impl();
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  // ---- the problem
  kernels::ResidualFunction& main;
  std::vector<kernels::ResidualFunction*> pool;
  const structure::Pattern& pattern;
  IntegratorOptions options;
  kernels::CompressedJacobian jacobian;

  // ---- IDA's memory and vectors (ida_integrator.cpp)
  SUNContext ctx = nullptr;
  void* ida = nullptr;
  N_Vector y = nullptr, yp = nullptr, atol = nullptr, id = nullptr, ewt = nullptr;
  // options.error_test as a vector, or null when every unknown is in the test.
  N_Vector error_test = nullptr;
  // Views for IDAGetDky (interpolation at every output row): the caller's
  // arrays are attached per call; the optimised kernels, not Debian's -O0 ones.
  N_Vector dky = nullptr, dkyp = nullptr;
  bool initialized = false;
  bool clock = false;  // no unknowns: IDA integrates the internal clock c' = 0 (clock_residual)

  // ---- solvers (ida_linear_solver.cpp) and diagnostics (ida_diagnostics.cpp)
  IdaLinearSolver linear;
  SUNNonlinearSolver projecting = nullptr;  // options.step_projection only
  // Jacobian reuse without a projection: the Newton solver with the setup
  // wrapper (ProjectingNonlinearSolver with no projection); else IDA's own.
  SUNNonlinearSolver newton = nullptr;
  // Jacobian reuse (jacobian_reuse.h): on when options.jacobian_reuse and ∂G/∂y' is known.
  bool reuse_on = false;
  JacobianReuse reuse;
  IdaDiagnostics diagnostics;

  // ---- counters (ida_statistics.cpp)
  long residual_calls = 0;
  IdaCarriedCounters carried;  // IDAReInit zeroes IDA's counters: what earlier segments counted

  // ---- the first step from a start (ida_step.cpp)
  double next_initial_step = 0;          // set_next_initial_step(): for the next start() only
  bool initial_step_overridden = false;  // the last start() used it
  // The point of the last start() (after make_consistent()), kept until IDA
  // has taken a step from it: a first step that fails the error test down to
  // IDA's limit is tried again from it with a smaller step (solve()).
  bool at_start = false;
  long first_step_retries = 0;
  long events_continued = 0;  // events after which IDA went on from its history (ida_event_continuation.cpp)
  std::vector<double> y_start, yp_start;
  static constexpr int kFirstStepRetries = 2;
  static constexpr double kFirstStepShrink = 1e-3;

  // ---- linear elimination: the full point recovered from IDA's (y(), yp()),
  // valid until IDA moves; scratch for interpolate() and the root function.
  EliminatedResidual* expansion = nullptr;
  std::vector<double> y_full, yp_full, scratch_y, scratch_yp;
  bool full_valid = false;
  std::vector<double> full_atol;  // per full unknown

  // ---- root finding (ida_roots.cpp)
  std::size_t root_count = 0;
  RootFunction root_function;
  // Crossings inside a step (ida_interior_roots.cpp): the indicators' values
  // at sample_t (the end of the last step scanned) when sample_valid; the
  // roots of the last crossing found inside a step (inside_root_found: the
  // last root came from there, not from IDA).
  static constexpr int kInteriorSamples = 1;
  bool sample_valid = false;
  double sample_t = 0.0;
  std::vector<double> sample_g, sample_y, sample_yp;
  std::vector<int> inside_roots;
  bool inside_root_found = false;
  long interior_root_calls = 0;  // root-function evaluations of the scan
  // IDA's last evaluation of the root function (at ida_g_t) when ida_g_valid.
  bool ida_g_valid = false;
  double ida_g_t = 0.0;
  std::vector<double> ida_g;
  int remember_roots(double t, int status, const double* g);
  // Throws Error when t or an indicator is not finite (ida_roots.cpp).
  static void check_finite_roots(double t, const double* g, std::size_t count);

  // Recovers the full point at (t, y_r, y'_r); on a refusal the kept unknowns
  // are exact and the eliminated ones keep the values they had (the failure
  // itself surfaces through IDA's own evaluations).
  void expand(double t, std::span<const double> yr, std::span<const double> ypr, std::span<double> yf,
              std::span<double> ypf);
  void check(int flag, const char* what) const { diagnostics.check(flag, what); }
  // Residuals are scanned for non-finite values once IDA failed since the last rearm.
  void rearm_scan() { diagnostics.rearm(ida); }

  // IDA has one id vector for two uses: IDACalcIC (which unknowns are
  // algebraic) and, with suppressalg, the mask of the local error test. The
  // integrator switches it: `id` around IDACalcIC, the error-test mask while
  // stepping (ida_initial_conditions.cpp).
  void use_id_for_initial_conditions();
  void use_error_test_mask();

  // IDA's callbacks (user data: this object). The residual path is
  // IDA → residual() → main.residual() → the FMU: no allocation.
  static int clock_residual(realtype, N_Vector, N_Vector ypp, N_Vector rr, void* data);
  static int residual(realtype t, N_Vector yy, N_Vector ypp, N_Vector rr, void* data);
  static int roots(realtype t, N_Vector yy, N_Vector ypp, realtype* gout, void* data);
  // options.before_jacobian with IDA's counters, and what it revised applied
  // (ida_linear_solver.cpp).
  void revise_jacobian(const kernels::JacobianPoint& point);
  // The Jacobian callback (ida_linear_solver.cpp): the coloured Jacobian into linear's matrix.
  static int jacobian_fn(realtype t, realtype cj, N_Vector yy, N_Vector ypp, N_Vector rr, SUNMatrix J, void* data,
                         N_Vector, N_Vector, N_Vector);
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_IDA_INTEGRATOR_IMPL_H
