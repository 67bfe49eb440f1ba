// runtime/simulation/ida/ida_event_continuation.cpp -- IdaIntegrator
// (ida_integrator.h): going on from IDA's own history after a state event
// instead of re-initializing it (continue_after_event).
//
// Where IDA stands after a root. IDASolve returns a root at t_r interpolated
// inside the step that passed it; IDA itself stays at that step's end
// t_n >= t_r, its history (the divided differences phi, order k, step h)
// computed with the equations before the event. Called again without
// IDAReInit, IDASolve (IDA_ONE_STEP) first returns the rest of that step, t_n,
// and then steps on from t_n at order k with the equations after the event
// (SUNDIALS ida.c, IDASolve and IDAStopTest1: "tn past tretlast"; IDA user
// guide, "Rootfinding": the integration may be continued after a root
// return). So going on means: the old law holds from t_r to t_n, the new one
// from t_n on -- the event takes effect up to one step late. The SUNDIALS
// usage notes on discontinuities say why solvers restart instead: the history
// before a discontinuity is not the new solution's, so it is to be discarded
// (CVodeReInit/IDAReInit: order 1, a new history). Dymola and OpenModelica
// restart at every event (OpenModelica's ida_solver.c: IDAReInit after each).
//
// The rule lsdae follows: IDA goes on from its history only when that late
// switch changes nothing beyond IDA's own tolerance, measured at t_n:
//   (a) the unknowns the event re-initialized (a state put onto the limit it
//       reached) hold, at t_n, within IDA's tolerance of the value the event
//       gave them: WRMS norm, with IDA's error weights, of (value given −
//       IDA's value at t_n) over those unknowns <= 1;
//   (b) IDA's point at t_n solves the equations after the event within IDA's
//       tolerance: the Newton correction those equations ask there,
//       δ = M⁻¹ G_new(t_n, y_n, y'_n) with IDA's current iteration matrix M
//       (its last factorization, not rescaled to the current cj), has WRMS
//       norm <= 1 with IDA's error weights over every unknown (also those the
//       error test leaves out). A limiter that cuts a slope by Δf over a step
//       of h asks about h·Δf of its state: a kink IDA's next error test sees
//       (it is no larger than what one step accepts), not a jump;
//   (c) the event was IDA's own root return (not a crossing found inside a
//       step by ida_interior_roots.cpp: IDA's root-function values at t_n are
//       then the old ones), IDA has stepped since its last start, there is
//       no in-step projection, and the stop time is not before t_n.
// Otherwise the caller restarts as before (IDAReInit and IDACalcIC at t_r).
// After an accepted continuation the Jacobian's constant entries are taken
// again at the next evaluation (tunable and discrete ones may have changed),
// the stop time is IDA's again, and the indicators are sampled anew.
// Cost per event tried: one residual evaluation, one solve with the factors
// IDA holds, two interpolations; no Jacobian.
#include <ida/ida.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_linearsolver.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "simulation/eliminated_residual.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"

namespace lsdae::simulation {

bool IdaIntegrator::continue_after_event(std::span<const double> y_before, std::span<const double> y_after,
                                         double t_stop) {
  Impl& m = *impl_;
  if (!m.initialized || m.clock || m.at_start || m.inside_root_found || m.projecting != nullptr) return false;
  if (y_after.size() != full_n_ || !(y_before.empty() || y_before.size() == full_n_)) return false;
  realtype tn = t_;
  if (IDAGetCurrentTime(m.ida, &tn) != IDA_SUCCESS || !(tn >= t_) || !(t_stop >= tn)) return false;

  // IDA's point at t_n and its error weights there; a WRMS norm with them
  // (N_VWrmsNorm, as IDA measures its own corrections).
  std::vector<double> yn(n_), ypn(n_);
  interpolate_reduced(tn, yn, ypn);
  if (IDAGetErrWeights(m.ida, m.ewt) < 0) return false;
  auto wrms = [&](std::vector<double>& v) {
    N_Vector nv = N_VMake_Serial(static_cast<sunindextype>(n_), v.data(), m.ctx);
    if (nv == nullptr) return std::numeric_limits<double>::infinity();
    const double norm = N_VWrmsNorm(nv, m.ewt);
    N_VDestroy(nv);
    return norm;
  };

  // (a) the re-initialized unknowns against IDA's values at t_n.
  if (!y_before.empty()) {
    const std::vector<std::size_t>* kept = m.expansion != nullptr ? &m.expansion->plan().kept : nullptr;
    std::size_t moved = 0, moved_kept = 0;
    for (std::size_t k = 0; k < full_n_; ++k) moved += y_after[k] != y_before[k] ? std::size_t{1} : std::size_t{0};
    std::vector<double> d(n_, 0.0);
    for (std::size_t i = 0; i < n_; ++i) {
      const std::size_t k = kept != nullptr ? (*kept)[i] : i;
      if (y_after[k] == y_before[k]) continue;
      ++moved_kept;
      d[i] = y_after[k] - yn[i];
    }
    if (moved_kept != moved) return false;  // an eliminated unknown moved: not IDA's
    if (!(wrms(d) <= 1.0)) return false;
  }

  // (b) the Newton correction the new equations ask at IDA's point.
  std::vector<double> r(n_), x(n_, 0.0);
  ++m.residual_calls;
  if (m.main.residual(tn, yn, ypn, r) != kernels::EvalStatus::ok) return false;
  if (!std::all_of(r.begin(), r.end(), [](double v) { return std::isfinite(v); })) return false;
  N_Vector b = N_VMake_Serial(static_cast<sunindextype>(n_), r.data(), m.ctx);
  N_Vector xv = N_VMake_Serial(static_cast<sunindextype>(n_), x.data(), m.ctx);
  const int solved = b != nullptr && xv != nullptr ? SUNLinSolSolve(m.linear.for_ida(), m.linear.matrix(), xv, b, 0.0)
                                                   : -1;
  const double correction = solved == 0 ? N_VWrmsNorm(xv, m.ewt) : std::numeric_limits<double>::infinity();
  if (b != nullptr) N_VDestroy(b);
  if (xv != nullptr) N_VDestroy(xv);
  if (!(correction <= 1.0)) return false;

  // Going on: what the event may have changed is taken anew.
  m.jacobian.invalidate_constants();
  set_stop_time(t_stop);
  m.sample_valid = false;
  m.ida_g_valid = false;
  ++m.events_continued;
  return true;
}

}  // namespace lsdae::simulation
