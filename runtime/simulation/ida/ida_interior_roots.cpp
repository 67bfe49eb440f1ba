// runtime/simulation/ida/ida_interior_roots.cpp -- IdaIntegrator
// (ida_integrator.h): event indicators that change domain and come back
// within one accepted step, which IDA's root finding does not see.
//
// IDA looks for a root where the sign of g differs at the two ends of a step
// and searches inside only there (IDA user guide, "Rootfinding": a root of
// even multiplicity, or two roots within one step, may be missed;
// IDASetRootDirection and IDASetNoInactiveRootWarn change which sign changes
// count, not where g is looked at). A step that covers a whole excursion of
// an indicator loses the event: SliderCrank_ode, whose only state (the crank
// angle) is linear in t, so IDA's error test let one step run from t = 1.20
// to 1.67 over a latching at 1.333 and its release at 1.667 (exit 0, wrong).
// Dymola and OpenModelica leave this to the user (a maximum step size, or
// output points the solver must hit).
//
// The rule lsdae follows: after every accepted step of a run with event
// indicators, the indicators are evaluated at kInteriorSamples equally spaced
// points inside the step (one: the midpoint), on IDA's interpolating
// polynomial (IDAGetDky: no residual call, no Newton iteration). The values
// at the step's ends are IDA's own (its root finding evaluates g at every
// step's end, IDARcheck3: kept by the root callback; after a restart the
// start point is evaluated once). The first pair of neighbouring samples in
// different domains (exactly 0, an indicator without a domain, compares with
// nothing) brackets a crossing IDA did not report; it is located by
// bisection on the same polynomial to IDA's own root tolerance,
// 100 uround (|t| + |h|), and returned as a root at the right end of the
// bracket (where the indicator has changed domain, as IDA's roots are).
// An excursion longer than h/(kInteriorSamples + 1) is always seen; a
// shorter one may still be missed (a bound from the indicators' rate would
// need their derivatives; a maximum step, --max-step, is the user's lever).
//
// Cost: kInteriorSamples evaluations of the indicators per accepted step
// (one FMU indicator call at an interpolated point each) and one per
// restart, about 40 more per crossing found; counted with IDA's
// root-function calls (IntegratorStats::root_function_calls). A run in which
// nothing is found is IDA's run bitwise: the same steps, residual calls and
// Jacobians.
#include <ida/ida.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"

namespace lsdae::simulation {

namespace {

// The two values of one indicator lie in different domains. The values are
// those IDA's root function sees (indicator_domains.h: never exactly 0 but
// for an indicator without a domain, which compares with nothing).
bool sign_changed(double a, double b) { return (a > 0.0 && b < 0.0) || (a < 0.0 && b > 0.0); }

bool any_sign_changed(const std::vector<double>& a, const std::vector<double>& b) {
  for (std::size_t j = 0; j < a.size(); ++j)
    if (sign_changed(a[j], b[j])) return true;
  return false;
}

}  // namespace

bool IdaIntegrator::indicators_at(double t, std::vector<double>& g) {
  Impl& m = *impl_;
  if (m.ida_g_valid && m.ida_g_t == t) {  // IDA's own evaluation there (at a step's end)
    g = m.ida_g;
    return true;
  }
  g.resize(m.root_count);
  ++m.interior_root_calls;
  if (t == t_) return m.root_function(t, y(), yp(), g) == 0;
  m.sample_y.resize(full_n_);
  m.sample_yp.resize(full_n_);
  interpolate(t, m.sample_y, m.sample_yp);
  return m.root_function(t, m.sample_y, m.sample_yp, g) == 0;
}

void IdaIntegrator::note_indicators_at_start() {
  Impl& m = *impl_;
  if (m.root_count == 0 || m.clock || !m.options.scan_inside_steps || m.sample_valid) return;
  m.sample_t = t_;
  m.sample_valid = indicators_at(t_, m.sample_g);
}

bool IdaIntegrator::root_inside_last_step(double from) {
  Impl& m = *impl_;
  if (m.root_count == 0 || m.clock || !m.options.scan_inside_steps) return false;
  realtype hu = 0;
  IDAGetLastStep(m.ida, &hu);
  const double b = t_;
  // Where the step's modes hold: IDA's last step, or from the event IDA went
  // on from when that lies inside it (a crossing before the event is not one
  // of the new modes').
  const double step_start = std::max(b - hu, std::min(from, b));
  // The samples go on from where the last ones ended; else (after an
  // evaluation that failed) from step_start.
  if (!m.sample_valid || m.sample_t < step_start || m.sample_t >= b) {
    m.sample_t = step_start;
    m.sample_valid = indicators_at(step_start, m.sample_g);
    if (!m.sample_valid) return false;
  }
  const double a = m.sample_t;
  double ta = a;
  std::vector<double> ga = m.sample_g, gk;
  constexpr int kSamples = Impl::kInteriorSamples;
  for (int k = 1; k <= kSamples + 1; ++k) {
    const double tk = k <= kSamples ? a + (b - a) * k / (kSamples + 1) : b;
    if (!indicators_at(tk, gk)) return m.sample_valid = false;
    if (any_sign_changed(ga, gk)) {
      // Bisection on IDA's polynomial to IDA's own tolerance (IDARootfind's ttol).
      const double tol = (std::fabs(b) + std::fabs(hu)) * 100.0 * UNIT_ROUNDOFF;
      std::vector<double> gm;
      double lo = ta, hi = tk;
      while (hi - lo > tol) {
        const double mid = 0.5 * (lo + hi);
        if (!indicators_at(mid, gm)) break;
        if (any_sign_changed(ga, gm)) {
          hi = mid, gk = gm;
        } else {
          lo = mid, ga = gm;
        }
      }
      m.inside_roots.assign(m.root_count, 0);
      for (std::size_t j = 0; j < m.root_count; ++j)
        if (sign_changed(ga[j], gk[j])) m.inside_roots[j] = gk[j] > 0.0 ? 1 : -1;
      interpolate_reduced(hi, {NV_DATA_S(m.y), n_}, {NV_DATA_S(m.yp), n_});
      m.full_valid = false;
      t_ = hi;
      m.sample_valid = false;  // the event restarts IDA, which samples anew
      m.inside_root_found = true;
      return true;
    }
    ta = tk;
    ga.swap(gk);
  }
  m.sample_t = b;
  m.sample_g.swap(ga);
  return false;
}

}  // namespace lsdae::simulation
