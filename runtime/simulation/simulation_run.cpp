// runtime/simulation/simulation_run.cpp -- lsdae::Simulation::initialize()
// and advance_to(): the run loop (lsdae/simulation.h; simulation_impl.h).
//
// initialize(): the FMU's initialization and event iteration on every
// instance (event_loop.h); the invariants' values; the numeric choice of
// dummy derivatives (dummy_reselector.h); initial guesses (states and
// algebraic variables from the FMU, derivatives from the FMU or its
// derivative variables: model_dae.h, read_point); the projection of the start
// values (projection method); IDA started with consistent values
// (IDACalcIC); an FMI 2.0 FMU's own constraints at the start point.
//
// advance_to(t_target) takes IDA steps one at a time (IDA_ONE_STEP) so that
// after every accepted step it can
//   - tell the FMU (fmi3CompletedIntegratorStep, when it asks for it) and
//     handle a step event;
//   - re-select the dummy derivatives when another selection is better
//     conditioned by more than the hysteresis factor, or else measure the
//     drift of the constraints;
//   - measure, and project onto, an FMI 2.0 FMU's own constraints
//     (fmu_constraint_guard.h);
// while IDA's root finding locates state events (event indicators) and its
// stop time lands exactly on time events. Output times inside a step are
// interpolated (IDAGetDky), as IDA_NORMAL mode would. An event found at the
// end of a step that went past t_target stays pending until the next call.
// On any error the last point IDA accepted is kept (time(), get()).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

using simulation::EventLoop;
using simulation::seconds_since;

void Simulation::initialize() {
  Impl& m = *impl_;
  if (m.initialized) throw Error(ErrorKind::usage, "simulate: initialize() was already called");
  auto t0 = std::chrono::steady_clock::now();
  m.mark_faults();
  m.events.initialize_instances(*m.evaluation);
  m.refresh_invariants(m.session.time());  // the values the invariants keep: I(x0) after the FMU's initialization
  m.select_dummy_derivatives_at_start();

  // Initial guesses: states and algebraic variables from the FMU; derivatives
  // from the FMU (semi-explicit) or its derivative variables (fully implicit).
  simulation::DaePoint v = simulation::empty_point(m.evaluation->dae(), m.settings->t_start);
  simulation::read_point(m.evaluation->instance(0), m.evaluation->dae(), simulation::PointRead::everything, v);
  std::vector<double> y, yp;
  m.evaluation->to_unknowns(v, y, yp);
  m.session.set_point(std::move(y), std::move(yp));
  // The integrator first: its claims check decides where the projection's
  // dC/dx comes from (make_integrator); the start values are projected
  // before IDA starts from them.
  m.make_integrator();
  m.projection.project_start_values(*m.evaluation, m.session.y_to_move(), m.session.yp());
  m.restart(m.settings->t_start);
  m.fmu_constraints.make(*m.evaluation);
  m.fmu_constraints.after_step(*m.evaluation, m.session, true);  // the start values onto the FMU's own constraints
  m.initialized = true;
  m.stats.time_initialize = seconds_since(t0);
  if (m.settings->options.jacobian == JacobianMode::check) {
    JacobianCheck c = check_jacobian();
    if (c.agree()) log_info(to_string(c));
    else log_warning(to_string(c));
  }
}

double Simulation::advance_to(double t_target) {
  Impl& m = *impl_;
  const simulation::RunSettings& settings = *m.settings;
  simulation::IntegrationSession& session = m.session;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: call initialize() before advance_to()");
  if (std::isnan(t_target))
    throw Error(ErrorKind::usage, "simulate: advance_to(NaN) at t = " + format_number(session.time()) +
                                      " → give the time to integrate to, at most the stop time " +
                                      format_number(settings.t_stop));
  if (t_target < session.time())
    throw Error(ErrorKind::usage, "simulate: advance_to(" + format_number(t_target) + ") is before the current time " +
                                      format_number(session.time()) +
                                      " → integration goes forward only: give a time at or after it");
  if (t_target > settings.t_stop) t_target = settings.t_stop;
  if (m.events.terminated() || (t_target <= session.time() && !m.paused)) return session.time();
  auto t0 = std::chrono::steady_clock::now();
  m.mark_faults();
  long steps_this_call = 0;
  const double t_begin = session.time();
  const long max_steps = settings.options.max_steps;
  const double max_step = settings.options.max_step;
  try {
    if (m.paused) {  // paused before this event (pause_before_event_at, restore): handle it now
      m.paused = m.sets_at_event = false;
      m.event_after_pause = true;
      m.handle_event(m.events.take_pending());
      m.event_after_pause = false;
    }
    while (!m.events.terminated()) {
      const double t_end = session.integrator().time();  // IDA's internal time
      if (m.events.pending() != EventLoop::Pending::none) {
        if (t_end <= t_target) {  // the event comes before (or at) the target: handle it
          session.keep_point();
          if (m.pause_at && t_end >= *m.pause_at) {  // pause_before_event_at: leave it pending
            m.paused = true;
            m.pause_at.reset();  // once: a later pause is asked for anew
            break;
          }
          const EventLoop::Pending kind = m.events.take_pending();
          m.handle_event(kind);
          continue;
        }
      }
      if (t_end > t_target) {  // the last step passed the target: interpolate
        session.interpolate_to(t_target);
        break;
      }
      // There: exactly (also right after a restart, before any step), or a
      // rounding error short (typically t_event + n·dt summed by the caller,
      // just after a restart at the event): IDA refuses a tout that close to
      // t0 (IDA_ILL_INPUT, "tout too close to t0"), and the state there is the
      // state at t_end to rounding.
      if (t_target - t_end <= 4.0 * std::numeric_limits<double>::epsilon() *
                                   std::max(std::fabs(t_end), std::fabs(t_target))) {
        session.keep_point_as(t_target);
        break;
      }
      if (++steps_this_call > max_steps) {  // IDA's own mxstep counts per call, i.e. per step here
        const simulation::IdaIntegrator& integrator = session.integrator();
        std::string cause = integrator.known_cause();
        // Steps held at the user's --max-step: that, not a collapsed step, is why.
        const double h_last = integrator.stats().last_step;
        if (cause.empty() && max_step > 0 && h_last >= 0.5 * max_step) {
          const double needed = std::ceil((t_target - t_begin) / max_step - 1e-9);
          cause = "the steps are held at --max-step " + format_number(max_step) + ", so reaching t = " +
                  format_number(t_target) + " from t = " + format_number(t_begin) + " takes " +
                  format_number(needed) + " steps: raise --max-step, or --max-steps to at least " +
                  format_number(needed);
        }
        throw Error(ErrorKind::solver, "ida: at t = " + format_number(integrator.time()) + " (h = " +
                                           format_number(integrator.stats().last_step) + "): more than " +
                                           std::to_string(max_steps) + " steps before t = " +
                                           format_number(t_target) + " (IDA_TOO_MUCH_WORK) → " +
                                           (cause.empty() ? "raise --max-steps or shorten the output interval; if the "
                                                            "step size collapsed, the model may be stiff or singular "
                                                            "here"
                                                          : cause));
      }
      if (m.cancel_requested.exchange(false)) {  // Simulation::cancel(): stop at the point IDA accepted last
        session.keep_point();
        throw Error(ErrorKind::interrupted, "simulate: cancelled at t = " + format_number(session.time()) +
                                                " on the way to " + format_number(t_target) +
                                                " → the point reached is kept; advance_to continues from it");
      }
      if (m.fmu_constraints.take_due()) m.fmu_constraints.after_step(*m.evaluation, session, false);
      if (m.fmu_constraints.active()) m.fmu_constraints.before_step(*m.evaluation, session);
      const simulation::StepOutcome outcome = session.step(t_target);
      const double t_ida = session.ida_time();
      if (outcome == simulation::StepOutcome::root) {
        m.events.set_pending(EventLoop::Pending::state);
        continue;
      }
      if (outcome == simulation::StepOutcome::stop_time) {
        if (m.events.next_time_event() && t_ida >= *m.events.next_time_event())
          m.events.set_pending(EventLoop::Pending::time);
        continue;  // or the stop time itself: the loop head interpolates
      }
      // An accepted step -- unless the FMU's own projection (Najafi et al.)
      // would correct it by more than the local error test allows: then IDA
      // takes it again, smaller, before the FMU or any output sees it.
      if (m.fmu_constraints.active() && m.fmu_constraints.reject_step(*m.evaluation, session)) continue;
      if (settings.step_callback &&
          m.events.completed_step(*m.evaluation, t_ida, session.integrator().y(), session.integrator().yp())) {
        session.keep_point();  // the FMU asked to terminate
        break;
      }
      // Index reduction at run time, at IDA's own step points only (a point
      // interpolated for an output is not IDA's state): re-select the dummy
      // derivatives, or measure the drift of the constraints. A step that
      // went past the output time is left as it is; the next step checks again.
      if (m.events.pending() == EventLoop::Pending::none && t_ida <= t_target) {
        if (!m.reselect_after_step())
          m.projection.measure_drift(t_ida, session.integrator().y(), session.integrator().yp());
      }
      // An FMI 2.0 FMU's own constraints (Najafi et al.): checked at every
      // accepted step, before the next one is taken (a step past the output
      // time first serves the output rows it covers by interpolation).
      if (m.fmu_constraints.active() && m.events.pending() == EventLoop::Pending::none)
        m.fmu_constraints.step_accepted();
      // observe_steps(): the accepted step point (an event found here is
      // observed by its handler instead).
      if (m.events.steps_observed() && m.events.pending() == EventLoop::Pending::none) {
        session.keep_point();
        m.events.notify_step(session.time());
      }
    }
  } catch (...) {
    // Keep the last point IDA reached (its y()/yp() are the last accepted values).
    session.keep_point_if_any();
    m.stats.time_integrate += seconds_since(t0);
    throw;
  }
  m.stats.time_integrate += seconds_since(t0);
  return session.time();
}

}  // namespace lsdae
