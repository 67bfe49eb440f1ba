// runtime/simulation/ida/projecting_nonlinear_solver.h -- IDA's Newton corrector
// followed by a projection onto the constraints, as ONE SUNDIALS nonlinear
// solver, so that the projection is part of IDA's step.
//
// Why: IDA 6 has no projection hook (CVODE has CVodeSetProjFn, after
// CPODES: R. Serban, A. C. Hindmarsh, "CVODES: the sensitivity-enabled ODE
// solver in SUNDIALS" / "CPODES", and the coordinate projection of Eich 1993
// for multistep methods, seed 000 section 2.3). Projecting after an accepted
// step and restarting IDA (IDAReInit) throws away the BDF history: order 1,
// tiny steps, once per projection. Here the projection happens inside the
// step, before IDA's error test, the way CVODE's cvDoProjection does:
//   1. the inner Newton solver (SUNNonlinSol_Newton) solves G(t_n, y, y') = 0
//      for the correction e = y − y_pred (y' = y'_pred + c_j·e);
//   2. `project(t_n, y, y', w)` moves y onto the constraints (only the
//      moved unknowns; y' is given), with IDA's error weights w;
//   3. the correction becomes e + Δ, Δ = y_projected − y.
// IDA then computes y = y_pred + e + Δ and y' = y'_pred + c_j·(e + Δ), tests
// ‖e + Δ‖ for the local error and, on success, updates its divided
// differences with e + Δ: the projection correction enters the error
// control and the history, so the next step predicts from projected points.
// A step whose projection correction is large fails the error test and is
// retried with a smaller step by IDA itself. A projection that fails
// (singular constraint Jacobian, no convergence, fmi3Discard) makes the
// solve return SUN_NLS_CONV_RECVR: IDA retries with a smaller step
// (counted as a nonlinear convergence failure) and, after its limit of
// such failures, stops with IDA_CONV_FAIL.
//
// Contract: make() returns a SUNNonlinearSolver owning the inner Newton
// solver; pass it to IDASetNonlinearSolver and free it with
// SUNNonlinSolFree after IDAFree. `project` returns 0 (y changed or not), or
// > 0 for a recoverable failure; it may throw (the exception is stored and
// reported as an unrecoverable failure, -1, and re-thrown by the caller).
// The point (t_n, y_pred, y'_pred, c_j) comes from IDAGetNonlinearSystemData.
// An empty `project` makes it the Newton solver alone.
//
// Jacobian reuse (jacobian_reuse.h): with `reuse`, IDA's linear solver setup
// (idaNlsLSetup, which always reports jcur = true) is wrapped: `reuse` hears
// the Newton solver's jbad before the setup, and a setup that re-formed the
// saved matrix for the new cj is reported as jcur = false, so that
// sunnonlinsol_newton.c retries a failed iteration with a fresh Jacobian
// (jbad) as it does for a matrix of an earlier step, instead of failing the
// step (IDA would cut h by 4).
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_PROJECTING_NONLINEAR_SOLVER_H
#define LSDAE_RUNTIME_SIMULATION_IDA_PROJECTING_NONLINEAR_SOLVER_H

#include <sundials/sundials_nonlinearsolver.h>

#include <exception>
#include <functional>
#include <span>

namespace lsdae::simulation {

class JacobianReuse;

using StepProjection =
    std::function<int(double t, std::span<double> y, std::span<const double> yp, std::span<const double> weights)>;

struct ProjectingNonlinearSolver {
  // `y_template`: an N_Vector of IDA's size; `error` receives an exception
  // thrown by `project`; `reuse`: null, or kept by pointer (must outlive the solver).
  static SUNNonlinearSolver make(N_Vector y_template, SUNContext ctx, StepProjection project,
                                 std::exception_ptr* error, JacobianReuse* reuse = nullptr);
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_PROJECTING_NONLINEAR_SOLVER_H
