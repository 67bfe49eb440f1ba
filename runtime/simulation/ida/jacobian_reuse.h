// runtime/simulation/ida/jacobian_reuse.h -- when IDA's Jacobian callback
// evaluates the Jacobian afresh and when it re-forms the saved one for the
// new cj (kernels/compressed_jacobian.h, CompressedJacobian::reform).
//
// Why. IDA (SUNDIALS 6.4, ida.c: idaNls) calls its linear solver setup at
// the first step after IDAInit/IDAReInit, whenever cj = α/h left
// [cj_last·(1 − dcj)/(1 + dcj), cj_last·(1 + dcj)/(1 − dcj)] (dcj:
// IDASetDeltaCjLSetup, IntegratorOptions::newton_dcj, --newton-dcj; at IDA's
// default 0.25 the band is [0.6, 1.67]·cj_last) and when its Newton solver
// asks again after a failure; every setup evaluates J = ∂G/∂y + cj·∂G/∂y' in full,
// because the matrix mixes the two parts. CVODE keeps a saved Jacobian and
// only re-forms I − γJ when γ changed (cvode_ls.c, cvLsSetup:
//     jbad = nst == 0 || nst >= nstlj + msbj || (convfail == CV_FAIL_BAD_J
//            && dgamma < CVLS_DGMAX) || convfail == CV_FAIL_OTHER;
// otherwise the saved J is reused, msbj = 51 by default). The same rule for
// IDA, where ∂G/∂y' is known (CompressedJacobian::can_reform):
//
// A Jacobian is evaluated afresh when
//   1. there is no saved one (none yet, or dropped: an event, whether IDA
//      restarted or went on from its history, CompressedJacobian::
//      invalidate_constants; a failed evaluation; a revised claim);
//   2. IDA has taken no step since the integrator's start (IDAInit, or
//      IDAReInit at an event or a snapshot's restore: nst = 0) and nothing
//      was evaluated since that start -- so a restart, and the restart of a
//      snapshot (run_snapshot.h), begin from the same state whatever came
//      before; later setups before the first step (IDA cutting its first
//      step, a first-step retry) re-form the matrix evaluated after the
//      start, which depends on nothing before it either;
//   2a. IDACalcIC asks for the setup: its damped Newton iteration asks for a
//      new matrix after a failure (ida_ic.c) and cannot say jbad, so every
//      setup inside it is fresh;
//   3. the saved one is kMaxAge steps old or older (CVODE's msbj);
//   4. IDA's Newton solver asks for a setup with jbad (it failed with a
//      matrix that was re-formed: ProjectingNonlinearSolver reports such a
//      setup as jcur = false, so sunnonlinsol_newton.c retries with jbad
//      instead of failing the step; idaNlsLSetup always says jcur = true);
//   5. a step failed in its nonlinear solve since the last setup (IDA
//      cut the step after a fresh matrix failed too; IDAGetNumStepSolveFails:
//      CVODE's CV_FAIL_OTHER).
// Otherwise it is re-formed. A setup that is to be fresh at the point and cj
// of the saved matrix (CompressedJacobian::saved_at, bitwise) takes that
// matrix instead -- it is what the evaluation would give: IDACalcIC
// (SUNDIALS 6.4 ida_ic.c) makes its point consistent twice, the second time
// with the error weights of the first one's result, and sets up at the start
// of each; when the first converged without moving the point (its first
// Newton correction already below the test), the second setup is at the same
// t, y, y' and cj (ACTIVSg2000 with every PSS/E model: 97 of 151 restarts).
// It is recorded as a fresh evaluation (jcur: the matrix is current).
// Everything is counted, nothing timed: the choice is deterministic.
//
// kMaxAge = 20 steps, not CVODE's 51: IDA's own rule already re-uses the
// factored matrix for as many steps as cj stays in range, so a re-form is
// asked for only when the step size (or order) moved cj out of the band, by a
// factor (1 + dcj)/(1 − dcj) (5/3 at 0.25; any dcj in (0, 1): the rule here
// does not depend on it, only how often IDA asks); the varying part
// it keeps has already aged over those steps (grid models: a limiter, a load
// switching to constant impedance change ∂G/∂y between events without a
// restart). 20 keeps the rate of fresh evaluations at about one in 20 steps
// at worst, more than one in two saved on the PSS/E workload
// (docs/performance/psse-activsg2000-events.md).
// Cost: O(1) per Jacobian call, and the O(n) comparison of saved_at at the
// fresh setups with a matrix saved only.
#ifndef LSDAE_RUNTIME_SIMULATION_IDA_JACOBIAN_REUSE_H
#define LSDAE_RUNTIME_SIMULATION_IDA_JACOBIAN_REUSE_H

namespace lsdae::simulation {

class JacobianReuse {
 public:
  static constexpr long kMaxAge = 20;

  // Set by the Newton solver's setup wrapper just before IDA's setup
  // (ProjectingNonlinearSolver): whether it asked with jbad.
  void setup_requested(bool jbad) {
    jbad_ = jbad;
    reformed_ = false;
  }
  // Whether the last setup re-formed the matrix (then the Newton solver is
  // told jcur = false).
  bool reformed() const { return reformed_; }

  // The decision at a Jacobian call: `can_reform` (a matrix saved and ∂G/∂y'
  // known), IDA's steps and convergence failures since its last
  // (re)initialization, `saved_here()` (whether the saved matrix was
  // evaluated at this very point and cj: CompressedJacobian::saved_at, O(n)),
  // called only where it decides: a fresh setup with a matrix saved. Records
  // the call; true: take the saved matrix (re-formed for this cj; reformed()
  // says whether it stands for a fresh one).
  template <class SavedHere>
  bool reform_now(bool can_reform, long steps, long failures, const SavedHere& saved_here) {
    const bool fresh = !can_reform || in_initial_conditions_ || (steps == 0 && !fresh_since_start_) ||
                       steps >= fresh_steps_ + kMaxAge || jbad_ || failures > failures_;
    jbad_ = false;
    failures_ = failures;
    if (fresh) {
      fresh_steps_ = steps;
      fresh_since_start_ = true;
    }
    reformed_ = !fresh;
    return reformed_ || (can_reform && saved_here());
  }
  // The same with `saved_here` known (the tests).
  bool reform_now(bool can_reform, long steps, long failures, bool saved_here = false) {
    return reform_now(can_reform, steps, failures, [saved_here] { return saved_here; });
  }
  // IDA was (re)initialized (IDAInit, IDAReInit at a start): the next setup evaluates afresh.
  void started() { fresh_since_start_ = false; }
  // Around IDACalcIC: its damped Newton asks a new matrix after a failure, so every setup there is fresh.
  void set_in_initial_conditions(bool on) { in_initial_conditions_ = on; }

 private:
  long fresh_steps_ = 0;  // IDA's steps at the last fresh evaluation
  long failures_ = 0;     // IDA's convergence failures at the last call
  bool jbad_ = false;
  bool fresh_since_start_ = false;
  bool in_initial_conditions_ = false;
  bool reformed_ = false;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IDA_JACOBIAN_REUSE_H
