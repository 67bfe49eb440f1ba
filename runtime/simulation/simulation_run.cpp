// runtime/simulation/simulation_run.cpp -- lsdae::Simulation::initialize()
// and advance_to(): the run loop (lsdae/simulation.h; simulation_impl.h).
//
// initialize(): the FMU's initialization and event iteration on every
// instance; the numeric choice of dummy derivatives; initial guesses (states
// and algebraic variables from the FMU, derivatives from the FMU or its
// derivative variables); the projection of the start values (projection
// method); IDA started with consistent values (IDACalcIC).
//
// advance_to(t_target) takes IDA steps one at a time (IDA_ONE_STEP) so that
// after every accepted step it can
//   - tell the FMU (fmi3CompletedIntegratorStep, when it asks for it) and
//     handle a step event;
//   - re-select the dummy derivatives when another selection is better
//     conditioned by more than the hysteresis factor, or else project onto
//     the constraints (projection method);
//   - measure, and project onto, an FMI 2.0 FMU's own constraints
//     (simulation_fmu_constraints.cpp);
// while IDA's root finding locates state events (event indicators) and its
// stop time lands exactly on time events. Output times inside a step are
// interpolated (IDAGetDky), as IDA_NORMAL mode would. An event found at the
// end of a step that went past t_target stays pending until the next call.
// On any error the last point IDA accepted is kept (time(), get()).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <utility>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

using simulation::seconds_since;

void Simulation::initialize() {
  Impl& m = *impl_;
  if (m.initialized) throw Error(ErrorKind::usage, "simulate: initialize() was already called");
  auto t0 = std::chrono::steady_clock::now();
  m.mark_faults();
  m.initialize_instances();
  m.read_invariant_values();  // the values the invariants keep: I(x0) after the FMU's initialization
  m.select_dummy_derivatives_numerically();

  // Initial guesses: states and algebraic variables from the FMU; derivatives
  // from the FMU (semi-explicit) or its derivative variables (fully implicit).
  Instance& main = *m.instances[0];
  Impl::VariableValues v;
  v.x.resize(m.dae.state_vrs.size());
  v.xdot.resize(m.dae.state_vrs.size());
  v.z.resize(m.dae.algebraic_vrs.size());
  if (!v.x.empty()) main.get_continuous_states(v.x);
  if (!v.z.empty()) main.get_float64(m.dae.algebraic_vrs, v.z);
  if (!v.x.empty()) {
    if (m.dae.fully_implicit) main.get_float64(m.dae.derivative_vrs, v.xdot);
    else main.get_continuous_state_derivatives(v.xdot);
    for (double& d : v.xdot)
      if (!std::isfinite(d)) d = 0.0;
  }
  m.load_values(v);
  m.nominal = m.nominals();
  m.project_start_values();
  m.make_integrator();
  m.restart(m.t_start);
  m.make_fmu_constraints();
  m.fmu_constraints_after_step();  // the start values onto the FMU's own constraints
  m.initialized = true;
  m.stats.time_initialize = seconds_since(t0);
  if (m.options.jacobian == JacobianMode::check) {
    JacobianCheck c = check_jacobian();
    if (c.agree()) log_info(to_string(c));
    else log_warning(to_string(c));
  }
}

double Simulation::advance_to(double t_target) {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: call initialize() before advance_to()");
  if (std::isnan(t_target))
    throw Error(ErrorKind::usage, "simulate: advance_to(NaN) at t = " + format_number(m.t) +
                                      " → give the time to integrate to, at most the stop time " + format_number(m.t_stop));
  if (t_target < m.t)
    throw Error(ErrorKind::usage, "simulate: advance_to(" + format_number(t_target) + ") is before the current time " +
                                      format_number(m.t) + " → integration goes forward only: give a time at or after it");
  if (t_target > m.t_stop) t_target = m.t_stop;
  if (m.terminated || t_target <= m.t) return m.t;
  auto t0 = std::chrono::steady_clock::now();
  m.mark_faults();
  auto keep_point = [&] {
    std::copy(m.integrator->y().begin(), m.integrator->y().end(), m.y.begin());
    std::copy(m.integrator->yp().begin(), m.integrator->yp().end(), m.yp.begin());
    m.t = m.t_ida = m.integrator->time();
  };
  long steps_this_call = 0;
  const double t_begin = m.t;
  try {
    while (!m.terminated) {
      const double t_end = m.integrator->time();  // IDA's internal time
      if (m.pending != Impl::Pending::none) {
        if (t_end <= t_target) {  // the event comes before (or at) the target: handle it
          Impl::Pending kind = m.pending;
          m.pending = Impl::Pending::none;
          keep_point();
          if (kind == Impl::Pending::state) ++m.stats.state_events, m.handle_event("state");
          else if (kind == Impl::Pending::time) ++m.stats.time_events, m.handle_event("time");
          else ++m.stats.step_events, m.handle_event("step");
          continue;
        }
      }
      if (t_end > t_target) {  // the last step passed the target: interpolate
        m.integrator->interpolate(t_target, m.y, m.yp);
        m.t = t_target;
        break;
      }
      // There: exactly (also right after a restart, before any step), or a
      // rounding error short (typically t_event + n·dt summed by the caller,
      // just after a restart at the event): IDA refuses a tout that close to
      // t0 (IDA_ILL_INPUT, "tout too close to t0"), and the state there is the
      // state at t_end to rounding.
      if (t_target - t_end <= 4.0 * std::numeric_limits<double>::epsilon() *
                                   std::max(std::fabs(t_end), std::fabs(t_target))) {
        keep_point();
        m.t = t_target;
        break;
      }
      if (++steps_this_call > m.options.max_steps) {  // IDA's own mxstep counts per call, i.e. per step here
        std::string cause = m.integrator->known_cause();
        // Steps held at the user's --max-step: that, not a collapsed step, is why.
        const double h_last = m.integrator->stats().last_step;
        if (cause.empty() && m.options.max_step > 0 && h_last >= 0.5 * m.options.max_step) {
          const double needed = std::ceil((t_target - t_begin) / m.options.max_step - 1e-9);
          cause = "the steps are held at --max-step " + format_number(m.options.max_step) + ", so reaching t = " +
                  format_number(t_target) + " from t = " + format_number(t_begin) + " takes " +
                  format_number(needed) + " steps: raise --max-step, or --max-steps to at least " +
                  format_number(needed);
        }
        throw Error(ErrorKind::solver, "ida: at t = " + format_number(m.integrator->time()) + " (h = " +
                                           format_number(m.integrator->stats().last_step) + "): more than " +
                                           std::to_string(m.options.max_steps) + " steps before t = " +
                                           format_number(t_target) + " (IDA_TOO_MUCH_WORK) → " +
                                           (cause.empty() ? "raise --max-steps or shorten the output interval; if the "
                                                            "step size collapsed, the model may be stiff or singular "
                                                            "here"
                                                          : cause));
      }
      if (m.cancel_requested.exchange(false)) {  // Simulation::cancel(): stop at the point IDA accepted last
        keep_point();
        throw Error(ErrorKind::interrupted, "simulate: cancelled at t = " + format_number(m.t) + " on the way to " +
                                                format_number(t_target) + " → the point reached is kept; advance_to "
                                                                          "continues from it");
      }
      if (std::exchange(m.fmu_constraints_due, false)) m.fmu_constraints_after_step();
      if (m.fmu_constraints) m.fmu_constraints_before_step();
      simulation::StepOutcome outcome = m.integrator->one_step(t_target);
      m.t_ida = m.integrator->time();
      if (outcome == simulation::StepOutcome::root) {
        m.pending = Impl::Pending::state;
        continue;
      }
      if (outcome == simulation::StepOutcome::stop_time) {
        if (m.next_time_event && m.t_ida >= *m.next_time_event) m.pending = Impl::Pending::time;
        continue;  // or the stop time itself: the loop head interpolates
      }
      // An accepted step -- unless the FMU's own projection (Najafi et al.)
      // would correct it by more than the local error test allows: then IDA
      // takes it again, smaller, before the FMU or any output sees it.
      if (m.fmu_constraints && m.fmu_constraints_reject_step()) continue;
      if (m.step_callback) {
        m.residuals[0]->apply(m.t_ida, m.integrator->y(), m.integrator->yp());
        IntegratorStepResult r = m.instances[0]->completed_integrator_step(true);
        if (r.terminate_simulation) {
          keep_point();
          m.terminated = m.stats.terminated_by_fmu = true;
          break;
        }
        if (r.enter_event_mode) m.pending = Impl::Pending::step;
      }
      // Index reduction at run time, at IDA's own step points only (a point
      // interpolated for an output is not IDA's state): re-select the dummy
      // derivatives, or project onto the constraints. A step that went past
      // the output time is left as it is; the next step checks again.
      if (m.pending == Impl::Pending::none && m.t_ida <= t_target) {
        if (!m.reselect_if_needed()) m.project_if_needed();
      }
      // An FMI 2.0 FMU's own constraints (Najafi et al.): checked at every
      // accepted step, before the next one is taken (a step past the output
      // time first serves the output rows it covers by interpolation).
      if (m.fmu_constraints && m.pending == Impl::Pending::none) m.fmu_constraints_due = true;
      // observe_steps(): the accepted step point (an event found here is
      // observed by its handler instead).
      if (m.step_observer && m.pending == Impl::Pending::none) {
        keep_point();
        m.step_observer(m.t);
      }
    }
  } catch (...) {
    if (m.integrator) {
      // Keep the last point IDA reached (its y()/yp() are the last accepted values).
      std::copy(m.integrator->y().begin(), m.integrator->y().end(), m.y.begin());
      std::copy(m.integrator->yp().begin(), m.integrator->yp().end(), m.yp.begin());
      m.t = m.t_ida = m.integrator->time();
    }
    m.stats.time_integrate += seconds_since(t0);
    throw;
  }
  m.stats.time_integrate += seconds_since(t0);
  return m.t;
}

}  // namespace lsdae
