// runtime/simulation/jacobian_recheck.h -- when the FMU's Jacobian claims
// are checked again during a run (issue 32: "check again when Newton fails
// repeatedly at a point where it should not: a convergence failure after a
// fresh Jacobian is a sign that the Jacobian is wrong").
//
// The claims (constant entries, directional derivatives) are checked at the
// start (jacobian_claims.h) at the start point and at a moved one; a claim can
// still be right there and wrong later (a derivative wrong only for t > 1).
// SUNDIALS' Newton solver (sunnonlinsol_newton.c) retries a failed iteration
// with a fresh Jacobian before it reports the failure, so every convergence
// failure IDA counts (IDAGetNumNonlinSolvConvFails) had a Jacobian evaluated
// for that step attempt; IDA then cuts the step to a quarter and asks for
// another Jacobian. A right Jacobian converges once the step is small enough;
// kFailuresAtOneStep such failures while no step is accepted are the sign.
// NewtonFailureWatch sees every Jacobian call (IntegratorOptions::
// before_jacobian, with IDA's counters) and says when that happened; the
// session then checks the claims again at that call's point, once per claim
// kind per run (IntegrationSession::recheck_claims), falls back for what is
// false (one warning naming the entry, the point and the values) and IDA
// retries with the revised Jacobian.
// Cost: O(1) per Jacobian; a recheck costs what the start check costs
// (kernels/constant_claims.h, kernels/derivative_claims.h), at most once per
// kind and run, and none of it goes through IDA's counters.
#ifndef LSDAE_RUNTIME_SIMULATION_JACOBIAN_RECHECK_H
#define LSDAE_RUNTIME_SIMULATION_JACOBIAN_RECHECK_H

#include "simulation/ida/ida_integrator.h"

namespace lsdae::simulation {

// Convergence failures with a fresh Jacobian, no step accepted in between,
// that make the claims suspect.
inline constexpr long kFailuresAtOneStep = 2;

class NewtonFailureWatch {
 public:
  // Whether the Jacobian of `call` is asked for after kFailuresAtOneStep
  // convergence failures since the last accepted step (or IDA's restart).
  bool due(const JacobianCall& call) {
    // A step accepted, or IDAReInit (which zeroes IDA's counters): counted afresh.
    if (call.steps != steps_ || call.convergence_failures < failures_at_step_start_) {
      steps_ = call.steps;
      failures_at_step_start_ = call.convergence_failures;
    }
    return call.convergence_failures - failures_at_step_start_ >= kFailuresAtOneStep;
  }

 private:
  long steps_ = -1;
  long failures_at_step_start_ = 0;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_JACOBIAN_RECHECK_H
