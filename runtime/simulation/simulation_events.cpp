// runtime/simulation/simulation_events.cpp -- Simulation::Impl: the FMU's
// event iteration (simulation_impl.h).
//
// At the start (initialize_instances): every instance goes through
// Initialization Mode, fmi3UpdateDiscreteStates until the discrete states
// settle, and Continuous-Time Mode; instance 0's next time event is kept.
// At an event (handle_event, called by the run loop at t = the event time
// with y, yp the point there): the observer sees the values before; every
// instance is put at the point, enters Event Mode and iterates
// fmi3UpdateDiscreteStates; instance 0's answers decide termination, the next
// time event and whether the continuous states were re-initialized (then the
// states are read back from the FMU); IDA restarts with consistent algebraic
// variables and derivatives (the equations may have changed even when the
// states did not); the observer sees the values after.
// Errors: Error(solver) when no nonsingular selection exists at the
// post-event point, or the projection fails (simulation_reselection.cpp,
// constraint_projection.h); Error(fmu_call) when the iteration does not settle within
// kMaxEventsAtOneTime calls, when more than kMaxEventsAtOneTime events occur
// in a row each within kEventChatterSpacing·max(1, |t|) of the last
// (chattering), or when the FMU asks to terminate during initialization.
// After an event that re-initialized the states, a semi-explicit FMU's own
// derivatives there are IDA's starting guess (as at the start).
#include <cmath>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"

namespace lsdae {

using simulation::kEventChatterSpacing;
using simulation::kMaxEventsAtOneTime;

void Simulation::Impl::initialize_instances() {
  // Every instance goes through the same sequence so they stay interchangeable.
  for (std::size_t i = 0; i < instances.size(); ++i) {
    Instance& inst = *instances[i];
    for (const auto& [v, value] : pending_sets) {
      const ValueReference vr = v->value_reference;
      if (inst.set_values({&vr, 1}, value) == CallStatus::discard)
        throw Error(ErrorKind::fmu_call, "simulate: the FMU refused (" + inst.status_name(2) + ") the value set for \"" +
                                             v->name +
                                             "\" → check it against the variable's min/max");
    }
    inst.enter_initialization_mode(rtol, t_start, t_stop);
    if (inputs) {
      inputs->set_stretch_start(t_start);
      if (inputs->apply(inst, t_start, true) == CallStatus::discard)
        throw Error(ErrorKind::fmu_call, "simulate: the FMU refused (" + inst.status_name(2) + ") the inputs at t = " +
                                             format_number(t_start) + " from --input → check the table's values");
    }
    inst.exit_initialization_mode();
    for (int k = 0;; ++k) {
      DiscreteStatesUpdate u = inst.update_discrete_states();
      if (u.terminate_simulation)
        throw Error(ErrorKind::fmu_call, "simulate: the FMU asked to terminate during initialization");
      if (i == 0) next_time_event = u.next_event_time;
      if (!u.discrete_states_need_update) break;
      if (k > kMaxEventsAtOneTime)
        throw Error(ErrorKind::fmu_call, "simulate: event iteration at the start did not settle after " +
                                             std::to_string(kMaxEventsAtOneTime) +
                                             " " + inst.function_name(FmiCall::update_discrete_states) +
                                             " calls → the FMU keeps changing its discrete states");
    }
    inst.enter_continuous_time_mode();
  }
  merge_input_events(next_time_event, t_start);
}

void Simulation::Impl::handle_event(const char* kind) {
  // Chattering: events at one time, or each a hair after the last (a time
  // event announced 1e-14 s ahead again and again; a state that an event
  // puts where its indicator crosses at once): kMaxEventsAtOneTime of them in
  // a row end the run, instead of IDA's step limit after hours.
  const double hair = kEventChatterSpacing * std::max(1.0, std::fabs(t));
  if (std::fabs(t - last_event_time) <= hair) {
    if (++events_at_this_time > kMaxEventsAtOneTime)
      throw Error(ErrorKind::fmu_call, "simulate: more than " + std::to_string(kMaxEventsAtOneTime) +
                                           " events in a row at t = " + format_number(t) + ", each within " +
                                           format_number(hair) + " s of the last → the FMU's event indicators "
                                           "or time events chatter (a Zeno point, or an event that re-creates "
                                           "its own condition): check the model near that time");
  } else {
    events_at_this_time = 0;
  }
  last_event_time = t;
  if (observer) observer(t, EventPhase::before);
  bool values_changed = false;
  std::optional<double> next;
  for (std::size_t i = 0; i < instances.size(); ++i) {
    Instance& inst = *instances[i];
    residuals[i]->apply(t, y, yp);
    inst.enter_event_mode();
    if (inputs) {  // discrete inputs change in Event Mode only (FMI 3.0 §3.2.3)
      inputs->set_stretch_start(t);
      if (inputs->apply(inst, t, true) == CallStatus::discard)
        throw Error(ErrorKind::fmu_call, "simulate: the FMU refused (" + inst.status_name(2) + ") the inputs at t = " +
                                             format_number(t) + " from --input → check the table's values");
    }
    for (int k = 0;; ++k) {
      DiscreteStatesUpdate u = inst.update_discrete_states();
      if (i == 0) {
        values_changed = values_changed || u.values_of_continuous_states_changed;
        if (u.terminate_simulation) terminated = true;
        next = u.next_event_time;
      }
      if (!u.discrete_states_need_update) break;
      if (k > kMaxEventsAtOneTime)
        throw Error(ErrorKind::fmu_call, "simulate: the event iteration at t = " + format_number(t) +
                                             " did not settle → the FMU keeps changing its discrete states");
    }
    inst.enter_continuous_time_mode();
  }
  if (next && *next <= t) {
    log_warning(model->display_name() + ": the FMU announced a time event at t = " + format_number(*next) +
                ", not after the current time " + format_number(t) + "; ignored");
    next.reset();
  }
  merge_input_events(next, t);
  log_debug(std::string(kind) + " event at t = " + format_number(t) + (values_changed ? " (states re-initialized)" : ""));
  if (terminated) {
    stats.terminated_by_fmu = true;
    log_info(model->display_name() + ": the FMU asked to terminate at t = " + format_number(t));
    if (observer) observer(t, EventPhase::after);
    return;
  }
  if (values_changed) {
    // The re-initialized states, and (semi-explicit) the FMU's derivatives
    // there, as at the start: the pre-event derivatives are no guess for
    // them. IDACalcIC corrects a guess with a Newton step on a Jacobian taken
    // by differences, which a model whose right-hand side jumps at the new
    // point cannot give: BouncingBall put at rest (h = v = 0, where any
    // v != 0 means falling) kept the pre-event der(v) = -g, IDA's first step
    // predicted v < 0, the ball fell through the floor at once, and 100,000
    // events followed 1.5e-14 s apart (--set e=0.3 --rtol 1e-10).
    VariableValues v = values_by_variable();
    if (!v.x.empty()) {
      instances[0]->get_continuous_states(v.x);
      if (!dae.fully_implicit) {
        std::vector<double> xdot(v.xdot.size());
        if (instances[0]->get_continuous_state_derivatives(xdot) == CallStatus::ok)
          for (std::size_t i = 0; i < xdot.size(); ++i)
            if (std::isfinite(xdot[i])) v.xdot[i] = xdot[i];
      }
    }
    load_values(v);
  }
  // An event may change what an invariant is (a re-initialized state, a new
  // mode): from here on the invariants keep their post-event values.
  if (!dae.invariant_vrs.empty()) {
    residuals[0]->apply(t, y, yp);
    read_invariant_values();
  }
  // The event may have moved the point (a re-initialization) to where the
  // dummy derivatives are singular, or off the constraints: re-select, or
  // project, before IDA sees it -- a failure is named here (Error(solver))
  // instead of surfacing as IDA's. Then the equations may have changed even
  // when the states did not: restart IDA with consistent algebraic variables
  // and derivatives (reselect_at restarts itself when it switched).
  project_after_event();
  if (!reselect_at(t, y, yp, true)) restart(t);
  if (observer) observer(t, EventPhase::after);
}

}  // namespace lsdae
