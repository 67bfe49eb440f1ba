// runtime/simulation/event_loop.cpp -- see event_loop.h.
#include "simulation/event_loop.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/instance_count.h"

namespace lsdae::simulation {

namespace {

// The --input table's values at t onto one instance (Initialization or Event
// Mode: discrete inputs change there only, FMI 3.0 3.2.3); one refusal message
// for the start and every event.
// With `ticked`: the clocked inputs of those clocks (after fmi3SetClock).
void apply_inputs(InputTable* inputs, Instance& inst, double t, const std::vector<ValueReference>* ticked = nullptr) {
  if (inputs == nullptr) return;
  const CallStatus status = ticked == nullptr ? inputs->apply(inst, t, true) : inputs->apply_clocked(inst, t, *ticked);
  if (status == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, "simulate: the FMU refused (" + inst.status_name(2) + ") the " +
                                         (ticked == nullptr ? "" : "clocked ") + "inputs at t = " + format_number(t) +
                                         " from --input → check the table's values");
}

}  // namespace

void EventLoop::initialize_instances(ModelEvaluation& evaluation) {
  const double t_start = settings_.t_start;
  clocks_.reset();
  {
    const Instance& first = evaluation.instance(0);
    ModelClocks clocks(first.model_description(), first.model_display_name());
    if (!clocks.empty()) clocks_.emplace(std::move(clocks));
  }
  InputTable* inputs = evaluation.inputs();
  std::vector<ValueReference> ticked;
  std::optional<double> next;
  // Every instance goes through the same sequence so they stay
  // interchangeable; they are independent, so all at once (instance_count.h),
  // except with clocks: instance 0's answers make the schedule the others follow.
  if (inputs != nullptr) inputs->set_stretch_start(t_start);
  const auto initialize_one = [&](std::size_t i) {
    Instance& inst = evaluation.instance(i);
    evaluation.apply_set_values(inst);
    inst.enter_initialization_mode(settings_.rtol, t_start, settings_.t_stop);
    apply_inputs(inputs, inst, t_start);
    if (clocks_) clocks_->initialize(inst, t_start, i == 0);
    inst.exit_initialization_mode();
    // Clocks due at the start tick in the event iteration that follows (Event
    // Mode): instance 0's schedule, the same for every instance.
    if (clocks_ && i == 0) ticked = clocks_->due_at(t_start);
    if (clocks_) clocks_->activate(inst, ticked);
    if (clocks_) apply_inputs(inputs, inst, t_start, &ticked);  // clocked inputs: while their clock is active
    for (int k = 0;; ++k) {
      if (clocks_) clocks_->before_update(inst, ticked, k == 0, i == 0);
      DiscreteStatesUpdate u = inst.update_discrete_states();
      if (clocks_ && k == 0) clocks_->after_update(inst, t_start, ticked, i == 0);
      if (u.terminate_simulation)
        throw Error(ErrorKind::fmu_call, "simulate: the FMU asked to terminate during initialization");
      if (i == 0) next = u.next_event_time;
      if (!u.discrete_states_need_update) break;
      if (k > kMaxEventsAtOneTime)
        throw Error(ErrorKind::fmu_call, "simulate: event iteration at the start did not settle after " +
                                             std::to_string(kMaxEventsAtOneTime) + " " +
                                             inst.function_name(FmiCall::update_discrete_states) +
                                             " calls → the FMU keeps changing its discrete states");
    }
    inst.enter_continuous_time_mode();
  };
  each_instance(evaluation.instance_count(), initialize_one);
  next_time_event_ = next;
  merge_input_events(next_time_event_, t_start, inputs);
}

EventLoop::Iteration EventLoop::iterate(ModelEvaluation& evaluation, double t, std::span<const double> y,
                                        std::span<const double> yp, const char* kind) {
  // Chattering: events at one time, or each a hair after the last (a time
  // event announced 1e-14 s ahead again and again; a state that an event
  // puts where its indicator crosses at once): kMaxEventsAtOneTime of them in
  // a row end the run, instead of IDA's step limit after hours.
  const double hair = kEventChatterSpacing * std::max(1.0, std::fabs(t));
  if (std::fabs(t - last_event_time_) <= hair) {
    if (++events_at_this_time_ > kMaxEventsAtOneTime)
      throw Error(ErrorKind::fmu_call, "simulate: more than " + std::to_string(kMaxEventsAtOneTime) +
                                           " events in a row at t = " + format_number(t) + ", each within " +
                                           format_number(hair) + " s of the last → the FMU's event indicators "
                                           "or time events chatter (a Zeno point, or an event that re-creates "
                                           "its own condition): check the model near that time");
  } else {
    events_at_this_time_ = 0;
  }
  last_event_time_ = t;
  if (std::strcmp(kind, "state") == 0) check_zeno(t);
  if (observer_) observer_(t, EventPhase::before);
  Iteration result;
  std::optional<double> next;
  InputTable* inputs = evaluation.inputs();
  const std::vector<ValueReference> ticked = clocks_ ? clocks_->due_at(t) : std::vector<ValueReference>{};
  // Every instance through the same event iteration, all at once unless
  // clocks are driven; instance 0's answers are the run's.
  if (inputs != nullptr) inputs->set_stretch_start(t);
  const auto iterate_one = [&](std::size_t i) {
    Instance& inst = evaluation.instance(i);
    evaluation.residual(i).apply(t, y, yp);
    inst.enter_event_mode();
    if (sets_at_next_event_) evaluation.apply_set_values(inst);  // Simulation::set while paused at this event
    // discrete inputs change in Event Mode only (FMI 3.0 §3.2.3)
    apply_inputs(inputs, inst, t);
    if (clocks_) clocks_->activate(inst, ticked);  // after the inputs: FMI 3.0 3.2.3
    if (clocks_) apply_inputs(inputs, inst, t, &ticked);  // clocked inputs: while their clock is active
    for (int k = 0;; ++k) {
      if (clocks_) clocks_->before_update(inst, ticked, k == 0, i == 0);
      DiscreteStatesUpdate u = inst.update_discrete_states();
      if (clocks_ && k == 0) clocks_->after_update(inst, t, ticked, i == 0);
      if (i == 0) {
        result.states_changed = result.states_changed || u.values_of_continuous_states_changed;
        if (u.terminate_simulation) terminated_ = true;
        next = u.next_event_time;
      }
      if (!u.discrete_states_need_update) break;
      if (k > kMaxEventsAtOneTime)
        throw Error(ErrorKind::fmu_call, "simulate: the event iteration at t = " + format_number(t) +
                                             " did not settle → the FMU keeps changing its discrete states");
    }
    inst.enter_continuous_time_mode();
  };
  each_instance(evaluation.instance_count(), iterate_one);
  if (next && *next <= t) {
    log_warning(settings_.model->display_name() + ": the FMU announced a time event at t = " + format_number(*next) +
                ", not after the current time " + format_number(t) + "; ignored");
    next.reset();
  }
  sets_at_next_event_ = false;
  merge_input_events(next, t, inputs);
  log_debug(std::string(kind) + " event at t = " + format_number(t) +
            (result.states_changed ? " (states re-initialized)" : ""));
  result.terminate = terminated_;
  return result;
}

void EventLoop::each_instance(std::size_t n, const std::function<void(std::size_t)>& task) const {
  if (!clocks_) {
    for_each_instance(n, task);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) task(i);
}

bool EventLoop::completed_step(ModelEvaluation& evaluation, double t, std::span<const double> y,
                               std::span<const double> yp) {
  evaluation.residual(0).apply(t, y, yp);
  IntegratorStepResult r = evaluation.instance(0).completed_integrator_step(true);
  if (r.terminate_simulation) {
    terminated_ = true;
    return true;
  }
  if (r.enter_event_mode) pending_ = Pending::step;
  return false;
}

EventLoop::Pending EventLoop::take_pending() {
  const Pending kind = pending_;
  pending_ = Pending::none;
  if (kind == Pending::state) ++counts_.state_events;
  else if (kind == Pending::time) ++counts_.time_events;
  else if (kind == Pending::step) ++counts_.step_events;
  return kind;
}

const char* EventLoop::name(Pending kind) {
  switch (kind) {
    case Pending::state: return "state";
    case Pending::time: return "time";
    case Pending::step: return "step";
    case Pending::none: break;
  }
  return "no";
}

namespace {

// Ten digits: the accumulation time and the last event, which %g alone
// shows as the same 2.55863.
std::string ten_digits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

}  // namespace

void EventLoop::check_zeno(double t) {
  if (!last_state_event_) {
    last_state_event_ = t;
    return;
  }
  const double interval = t - *last_state_event_;
  const double previous = last_state_interval_;
  last_state_event_ = t;
  last_state_interval_ = interval;
  if (!(previous > 0.0) || !(interval > 0.0) || interval > kZenoShrink * previous) {
    shrinking_intervals_ = 0;
    return;
  }
  if (++shrinking_intervals_ < kZenoEvents) return;
  const double ratio = interval / previous;
  const double remaining = interval * ratio / (1.0 - ratio);
  if (remaining > kZenoSpan * std::max(1.0, std::fabs(t))) return;
  throw Error(ErrorKind::fmu_call,
              "simulate: state events accumulate at t = " + ten_digits(t + remaining) + " (a Zeno point): " +
                  std::to_string(shrinking_intervals_ + 1) + " in a row up to t = " + ten_digits(t) +
                  ", each interval shorter than the one before (the last " + format_number(interval) + " s, " +
                  format_number(ratio) + " times the one before) → lsdae cannot step past infinitely many events: give the model a "
                  "rule for the accumulation point (a bouncing ball that rests below a minimum rebound speed, as the "
                  "Reference-FMUs' BouncingBall does with v_min), or stop the run before that time (--stop)");
}

void EventLoop::merge_input_events(std::optional<double> fmu_next, double after, const InputTable* inputs) {
  next_time_event_ = fmu_next;
  if (clocks_)
    if (auto tick = clocks_->next_tick(); tick && (!next_time_event_ || *tick < *next_time_event_)) next_time_event_ = tick;
  if (inputs == nullptr) return;
  if (auto e = inputs->next_event_after(after); e && (!next_time_event_ || *e < *next_time_event_))
    next_time_event_ = e;
}

}  // namespace lsdae::simulation
