// runtime/simulation/simulation_events.cpp -- Simulation::Impl: an event,
// composed from the collaborators (simulation_impl.h;
// docs/simulation/events.md, "Events").
//
// At an event (handle_event, called by the run loop at t = the event time
// with the session's point there): the event loop iterates the FMU's
// discrete states on every instance (event_loop.h: the observer sees the
// values before, instance 0's answers decide termination, the next time
// event and whether the continuous states were re-initialized); then
//   - re-initialized states are read back from the FMU, with (semi-explicit)
//     the FMU's own derivatives there as IDA's starting guess -- the same
//     reading as at the start (model_dae.h, read_point);
//   - the invariants keep their post-event values from here on;
//   - with the projection method the point is moved back onto the
//     constraints (projection_controller.h), with dummy derivatives the
//     selection is checked there (dummy_reselector.h) -- a failure is named
//     here (Error(solver)) instead of surfacing as IDA's;
//   - IDA restarts with consistent algebraic variables and derivatives (the
//     equations may have changed even when the states did not), from its own
//     pre-event algebraic values; when IDACalcIC fails from there, once more
//     from the algebraic values the FMU holds after its event iteration (read
//     before anything sets them again): an FMU that solves its equations at
//     the event (PsseGrid's event solve) has reached the post-event point,
//     which IDACalcIC's damped Newton may not reach from the pre-event one
//     (docs/simulation/events.md, "Events"). A run that restarts at the first try is
//     unchanged by this: the FMU's values are only read;
//   - after a STATE event found by IDA's root finding that left the states
//     within tolerance, IDA may go on from its own history instead (no
//     IDAReInit: its order and step kept) when the event, applied at the end
//     of the step that passed it, changes nothing beyond IDA's tolerance
//     (ida/ida_event_continuation.cpp: the rule; never at an event the run
//     was paused before, so a restored snapshot stays bitwise the same);
//   - after a STATE event (a located root) that did not re-initialize the
//     continuous states, or moved them by less than IDA's tolerance (WRMS norm
//     of the jump with IDA's error weights <= 1: a state put onto the limit it
//     reached), such as a limiter engaging or releasing (the solution goes on
//     continuously, only the law of its derivative changed), IDA's first step is
//     the size of the step that passed the root (IDASetInitStep), not IDA's own
//     estimate for a cold start (a thousandth of the distance to the next
//     output time, or less where y' is large), from which the step grows back
//     over many steps with a Jacobian at most changes of cj. The restart is of
//     order 1, and IDA's error test cuts a step the new mode does not allow;
//     the first-step retry (ida_step.cpp) catches a start that fails all the
//     way down. After a TIME event (a fault applied or cleared, an input step)
//     and after states were re-initialized (a bounce) IDA estimates as before:
//     a jump starts a new transient, and the old step cost error-test failures
//     and accuracy there (PowerGrid case39: 9 more Jacobians; CauerLowPass: 93
//     more steps; BouncingBall's impacts 1.1e-6 off the analytic times);
// and the observer sees the values after. The FMU asking to terminate ends
// the run at t, observed after.
#include <cmath>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "common/format.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

void Simulation::Impl::handle_event(simulation::EventLoop::Pending kind) {
  const double t = session.time();
  const simulation::EventLoop::Iteration iteration =
      events.iterate(*evaluation, t, session.y(), session.yp(), simulation::EventLoop::name(kind));
  if (iteration.terminate) {
    log_info(evaluation->model().display_name() + ": the FMU asked to terminate at t = " + format_number(t));
    events.notify_after(t);
    return;
  }
  // The FMU's algebraic values after its event iteration: the second guess
  // of the restart below (read now: every residual evaluation overwrites them).
  std::vector<double> fmu_algebraic;
  const simulation::ModelDae& dae = evaluation->dae();
  if (!dae.algebraic_vrs.empty()) {
    fmu_algebraic.resize(dae.algebraic_vrs.size());
    if (evaluation->instance(0).get_float64(dae.algebraic_vrs, fmu_algebraic) != CallStatus::ok) fmu_algebraic.clear();
  }
  // The restart's first step: the step before, after a state event whose
  // re-initialization (if any) moved the states by less than IDA's tolerance.
  bool keep_step = kind == simulation::EventLoop::Pending::state;
  std::vector<double> y_before;  // the point before a re-initialization within tolerance
  if (iteration.states_changed) {
    // The re-initialized states, and (semi-explicit) the FMU's derivatives
    // there, as at the start: the pre-event derivatives are no guess for
    // them. IDACalcIC corrects a guess with a Newton step on a Jacobian taken
    // by differences, which a model whose right-hand side jumps at the new
    // point cannot give: BouncingBall put at rest (h = v = 0, where any
    // v != 0 means falling) kept the pre-event der(v) = -g, IDA's first step
    // predicted v < 0, the ball fell through the floor at once, and 100,000
    // events followed 1.5e-14 s apart (--set e=0.3 --rtol 1e-10).
    simulation::DaePoint v = evaluation->point_at(t, session.y(), session.yp());
    simulation::read_point(evaluation->instance(0), evaluation->dae(), simulation::PointRead::states, v);
    std::vector<double> y, yp;
    evaluation->to_unknowns(v, y, yp);
    keep_step = keep_step && jump_within_tolerance(session.y(), y);
    if (keep_step) y_before.assign(session.y().begin(), session.y().end());
    session.set_point(std::move(y), std::move(yp));
  }
  // An event may change what an invariant is (a re-initialized state, a new
  // mode): from here on the invariants keep their post-event values.
  if (!evaluation->dae().invariant_vrs.empty()) {
    evaluation->residual(0).apply(t, session.y(), session.yp());
    refresh_invariants(t);
  }
  // The event may have moved the point (a re-initialization) to where the
  // dummy derivatives are singular, or off the constraints: re-select, or
  // project, before IDA sees it. Then restart IDA with consistent algebraic
  // variables and derivatives (reselect_at restarts itself when it switched).
  projection.after_event(*evaluation, t, session.y_to_move(), session.yp());
  if (!reselect_at(t, session.y(), session.yp(), true)) {
    // The FMU's point, built once: the indicators' check evaluates there and,
    // when they disagree, the restart starts from it.
    std::vector<double> fmu_y, fmu_yp;
    const bool agree = fmu_indicators_agree(t, fmu_algebraic, fmu_y, fmu_yp);
    if (!(keep_step && agree && continue_after_event(t, y_before)))
      restart_after_event(t, fmu_algebraic, keep_step, agree ? nullptr : &fmu_y, agree ? nullptr : &fmu_yp);
  }
  events.notify_after(t);
}

bool Simulation::Impl::fmu_point(double t, const std::vector<double>& fmu_algebraic, std::vector<double>& y,
                                 std::vector<double>& yp) const {
  simulation::DaePoint v = evaluation->point_at(t, session.y(), session.yp());
  bool differs = false;
  for (std::size_t k = 0; k < v.z.size() && k < fmu_algebraic.size(); ++k) {
    if (!std::isfinite(fmu_algebraic[k])) continue;
    differs = differs || v.z[k] != fmu_algebraic[k];
    v.z[k] = fmu_algebraic[k];
  }
  if (differs) evaluation->to_unknowns(v, y, yp);
  return differs;
}

bool Simulation::Impl::fmu_indicators_agree(double t, const std::vector<double>& fmu_algebraic,
                                            std::vector<double>& y, std::vector<double>& yp) {
  const std::size_t count = settings->indicators;
  if (fmu_algebraic.empty() || count == 0 || !session.has_integrator()) return true;
  if (!fmu_point(t, fmu_algebraic, y, yp)) return true;
  // The FMU's values as it reports them (not IDA's view of them,
  // indicator_domains.h, which this must not disturb): the FMU's point
  // first, the session's last, where the FMU is left.
  std::vector<double> there(count), here(count);
  if (evaluation->event_indicators(t, y, yp, there) != 0 ||
      evaluation->event_indicators(t, session.y(), session.yp(), here) != 0)
    return true;  // an evaluation that fails: the restart or continuation says so
  for (std::size_t j = 0; j < count; ++j)
    if ((here[j] > 0.0) != (there[j] > 0.0)) {
      log_info(evaluation->model().display_name() + ": event at t = " + format_number(t) + ": event indicator " +
               std::to_string(j + 1) + " is " + format_number(here[j]) + " at IDA's point and " +
               format_number(there[j]) + " at the FMU's post-event algebraic values; restarting from the FMU's");
      return false;
    }
  return true;
}

bool Simulation::Impl::continue_after_event(double t, const std::vector<double>& y_before) {
  if (event_after_pause || !session.has_integrator() || projection.active() || !evaluation->dae().invariant_vrs.empty())
    return false;
  session.set_stop_time(events.stop_time());
  if (!session.integrator().continue_after_event(y_before, session.y(), events.stop_time())) return false;
  // The check evaluated the FMU at IDA's point: back to the event's, which the observer reads.
  evaluation->residual(0).apply(t, session.y(), session.yp());
  return true;
}

void Simulation::Impl::restart_after_event(double t, const std::vector<double>& fmu_algebraic, bool keep_step,
                                           std::vector<double>* fmu_y, std::vector<double>* fmu_yp) {
  session.set_stop_time(events.stop_time());
  // After a state event that left the states alone, IDA's first step is the
  // last step it took (the one that passed the root) instead of its own tiny
  // estimate; IDA's error test cuts it when the new mode needs less (header).
  const double h_before =
      keep_step && session.has_integrator() ? std::fabs(session.integrator().last_step()) : 0.0;
  const auto first_step_as_before = [&] {
    if (h_before > 0.0 && std::isfinite(h_before)) session.integrator().set_next_initial_step(h_before);
  };
  first_step_as_before();
  if (fmu_algebraic.empty()) {
    session.restart(t, true);
    return;
  }
  std::vector<double> y, yp;
  if (fmu_y != nullptr && fmu_yp != nullptr) {
    // The FMU's point first (handle_event: the indicators' domains differ at
    // IDA's; fmu_indicators_agree built it from the session's point as it
    // still is); IDA's own when IDACalcIC fails from there.
    std::vector<double> y_own(session.y().begin(), session.y().end()), yp_own(session.yp().begin(), session.yp().end());
    session.set_point(std::move(*fmu_y), std::move(*fmu_yp));
    if (session.try_restart(t, true)) return;
    first_step_as_before();
    session.set_point(std::move(y_own), std::move(yp_own));
    session.restart(t, true);
    return;
  }
  if (session.try_restart(t, true)) return;
  first_step_as_before();
  if (fmu_point(t, fmu_algebraic, y, yp)) {
    log_info(evaluation->model().display_name() + ": consistent values after the event at t = " + format_number(t) +
             " not found from the pre-event point; trying from the FMU's post-event algebraic values");
    session.set_point(std::move(y), std::move(yp));
  }
  session.restart(t, true);  // the failure names the residuals left, and the event
}

bool Simulation::Impl::jump_within_tolerance(std::span<const double> before, std::span<const double> after) const {
  if (!session.has_integrator() || before.size() != after.size() || before.empty()) return false;
  std::vector<double> w(before.size());
  session.integrator().error_weights(w);
  double sum = 0.0;
  for (std::size_t k = 0; k < w.size(); ++k) {
    const double d = w[k] * (after[k] - before[k]);
    if (!std::isfinite(d)) return false;
    sum += d * d;
  }
  return sum <= static_cast<double>(w.size());  // the WRMS norm of the jump <= 1
}

void Simulation::Impl::refresh_invariants(double t) {
  if (evaluation->read_invariant_values(t)) projection.set_invariant_values(evaluation->invariant_values());
}

void Simulation::Impl::mark_faults() {
  evaluation->mark_faults(session.time());
  session.reset_faults();
}

}  // namespace lsdae
