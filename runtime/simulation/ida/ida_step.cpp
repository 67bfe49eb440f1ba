// runtime/simulation/ida/ida_step.cpp -- IdaIntegrator (ida_integrator.h):
// driving IDASolve one step at a time, the first step from a start tried again
// smaller, the interpolation inside the last step (IDAGetDky) and IDA's error
// weights (SUNDIALS: IDASolve in ida.c).
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
#include <ida/ida.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "simulation/eliminated_residual.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"

namespace lsdae::simulation {

// One IDASolve call in `mode`; failures throw with time, step and reason.
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
                      !m.diagnostics.has_exception();
       ++retry) {
    long steps = 0;
    IDAGetNumSteps(m.ida, &steps);
    realtype h_next = 0;
    IDAGetCurrentStep(m.ida, &h_next);
    if (steps > 0 || !(h_next != 0)) break;
    m.carried.carry(m.ida, m.root_count > 0);
    std::copy(m.y_start.begin(), m.y_start.end(), NV_DATA_S(m.y));
    std::copy(m.yp_start.begin(), m.yp_start.end(), NV_DATA_S(m.yp));
    m.check(IDAReInit(m.ida, t_start, m.y, m.yp), "IDAReInit");
    m.check(IDASetInitStep(m.ida, std::fabs(h_next) * Impl::kFirstStepShrink), "IDASetInitStep");
    m.initial_step_overridden = true;  // the next start() goes back to the caller's choice
    m.use_error_test_mask();
    m.rearm_scan();
    m.diagnostics.clear_last_message();
    ++m.first_step_retries;
    t_reached = t_start;
    flag = IDASolve(m.ida, tout, &t_reached, m.y, m.yp, mode);
  }
  m.full_valid = false;
  if (flag >= 0) m.at_start = false;
  m.diagnostics.rethrow_kept();
  if (flag < 0) {
    realtype t_now = t_;
    IDAGetCurrentTime(m.ida, &t_now);
    t_ = t_now;
    // What an impasse point is recognised by (IdaDiagnostics::ImpasseProbe):
    // y' of the last step's interpolant at t_now, the error weights, the id.
    IdaDiagnostics::ImpasseProbe probe;
    std::vector<double> derivative;
    if (flag == IDA_CONV_FAIL && !m.clock && m.id != nullptr && IDAGetErrWeights(m.ida, m.ewt) >= 0) {
      derivative.resize(n_);
      N_VSetArrayPointer(derivative.data(), m.dky);
      const int f = IDAGetDky(m.ida, t_now, 1, m.dky);
      N_VSetArrayPointer(nullptr, m.dky);
      if (f >= 0) probe = {derivative, {NV_DATA_S(m.ewt), n_}, {NV_DATA_S(m.id), n_}};
    }
    m.diagnostics.solve_failed(m.ida, flag, t_now, m.options.max_steps_per_output, probe);
  }
  t_ = t_reached;
  return flag;
}

StepOutcome IdaIntegrator::one_step(double tout) {
  note_indicators_at_start();
  const double from = t_;
  const int flag = solve(tout, IDA_ONE_STEP);
  impl_->inside_root_found = false;
  if (flag == IDA_ROOT_RETURN) {
    impl_->sample_valid = false;
    return StepOutcome::root;
  }
  if (root_inside_last_step(from)) return StepOutcome::root;
  if (flag == IDA_TSTOP_RETURN) return StepOutcome::stop_time;
  return StepOutcome::step;
}

double IdaIntegrator::last_step() const {
  const Impl& m = *impl_;
  realtype h = 0;
  if (m.ida != nullptr && !m.clock) IDAGetLastStep(m.ida, &h);
  return h;
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

}  // namespace lsdae::simulation
