// runtime/simulation/event_loop.h -- the FMU's event machinery for one run:
// the event iteration on every instance at the start and at each event, the
// events waiting to be handled, the next time event, the chattering guard,
// and who watches (observe_events, observe_steps). A collaborator of
// lsdae::Simulation (simulation_impl.h; docs/simulation/events.md, "Events").
//
// At the start (initialize_instances): every instance gets the values set
// before initialize(), goes through Initialization Mode (with the inputs at
// t_start), fmi3UpdateDiscreteStates until the discrete states settle, and
// Continuous-Time Mode; instance 0's next time event is kept.
// Clocks (model_clocks.h): their timing is read in Initialization Mode; the
// clocks due at an event (and at the start) are activated after the inputs
// are set, the output clocks asked and the clocked variables read before
// every fmi3UpdateDiscreteStates, the next ticks taken after the first one;
// the next tick is a time event like the FMU's own.
// At an event (iterate): the observer sees the values before; every instance
// is put at the point, enters Event Mode (discrete inputs are set there),
// iterates fmi3UpdateDiscreteStates and returns to Continuous-Time Mode;
// instance 0's answers decide termination, the next time event and whether
// the continuous states were re-initialized. What follows (new states,
// invariants, re-selection or projection, IDA's restart) is the simulation's
// (simulation_events.cpp). The instances go through each sequence at once,
// one thread each (for_each_instance, instance_count.h).
//
// Owns: the pending event (found at the end of a step that went past the
// caller's output time), the next time event (the earlier of the FMU's and
// the input table's), the chattering count, whether the FMU asked to
// terminate, the event counters, the observers.
// Invariants: next_time_event(), when set, is after the time of the last
// event (an announcement at or before it is ignored with a warning);
// terminated() never goes back to false.
// Errors: Error(fmu_call) when the iteration does not settle within
// kMaxEventsAtOneTime calls, when more than kMaxEventsAtOneTime events occur
// in a row each within kEventChatterSpacing·max(1, |t|) of the last
// (chattering), at a Zeno point (below), when the FMU asks to terminate
// during initialization, or when it refuses a value set or an input.
//
// Zeno points (a bouncing ball without a minimum rebound speed: its state
// events accumulate at a finite time t_inf). The spacing of the state events
// shrinks geometrically, far above the chattering spacing, until a flight is
// shorter than IDA's root finding can resolve; then a crossing is missed and
// the run went on with exit 0 and the ball below the floor. The guard: when
// kZenoEvents state events in a row each come after an interval at most
// kZenoShrink times the one before (interval_k <= kZenoShrink·interval_k-1)
// and the geometric series of the intervals still to come, by the last ratio
// r, sums to at most kZenoSpan·max(1, |t|) (remaining = interval·r/(1 − r)),
// the run stops with the Zeno message naming t_inf = t + remaining. A model
// that ends its own sequence (the Reference-FMUs' BouncingBall rests below
// v_min: there the last flights are still 1e-2 s long) never comes near it.
// Cost: a few comparisons per state event.
#ifndef LSDAE_RUNTIME_SIMULATION_EVENT_LOOP_H
#define LSDAE_RUNTIME_SIMULATION_EVENT_LOOP_H

#include <algorithm>
#include <functional>
#include <optional>
#include <span>

#include "lsdae/simulation.h"
#include "simulation/model_clocks.h"
#include "simulation/model_evaluation.h"
#include "simulation/run_settings.h"

namespace lsdae::simulation {

// Event iterations (fmi3UpdateDiscreteStates calls) and events at one time
// before lsdae calls the FMU chattering.
constexpr int kMaxEventsAtOneTime = 1000;
// Events closer than this (relative to max(1, |t|)) count as one time for the
// chattering limit above.
constexpr double kEventChatterSpacing = 1e-12;
// Zeno points: this many state events in a row, each interval at most
// kZenoShrink of the one before, whose geometric remainder is below
// kZenoSpan·max(1, |t|) seconds.
constexpr int kZenoEvents = 10;
constexpr double kZenoShrink = 0.99;
constexpr double kZenoSpan = 1e-6;

class EventLoop {
 public:
  enum class Pending { none, step, state, time };
  // What the event iteration at an event found (instance 0's answers).
  struct Iteration {
    bool terminate = false;       // the FMU asked to terminate
    bool states_changed = false;  // valuesOfContinuousStatesChanged
  };
  struct Counts {
    long state_events = 0, time_events = 0, step_events = 0;
  };

  explicit EventLoop(const RunSettings& settings) : settings_(settings) {}

  // ---- a snapshot (run_snapshot.h): everything but the settings and the observers
  struct Saved {
    Pending pending = Pending::none;
    std::optional<double> next_time_event;
    int events_at_this_time = 0;
    double last_event_time = -1e300;
    bool terminated = false;
    Counts counts;
  };
  Saved save() const {
    return {pending_, next_time_event_, events_at_this_time_, last_event_time_, terminated_, counts_};
  }
  void restore(const Saved& s) {
    pending_ = s.pending;
    next_time_event_ = s.next_time_event;
    events_at_this_time_ = s.events_at_this_time;
    last_event_time_ = s.last_event_time;
    terminated_ = s.terminated;
    counts_ = s.counts;
  }
  // The values set with ModelEvaluation::set_value since are set on every
  // instance in Event Mode at the next event (Simulation::set while paused).
  void apply_sets_at_next_event() { sets_at_next_event_ = true; }

  // Initialization Mode, the event iteration at the start and Continuous-Time
  // Mode, for every instance; sets the next time event.
  void initialize_instances(ModelEvaluation& evaluation);
  // An event of `kind` ("state", "time" or "step") at (t, y, y'): the
  // chattering guard, observer(before), the iteration on every instance, the
  // next time event. Sets terminated() when the FMU asked for it.
  Iteration iterate(ModelEvaluation& evaluation, double t, std::span<const double> y, std::span<const double> yp,
                    const char* kind);
  // After an accepted step at (t, y, y') when the FMU needs
  // fmi3CompletedIntegratorStep: calls it on instance 0; a step event becomes
  // pending, or the run terminates (true).
  bool completed_step(ModelEvaluation& evaluation, double t, std::span<const double> y, std::span<const double> yp);

  // ---- the pending event
  Pending pending() const { return pending_; }
  void set_pending(Pending kind) { pending_ = kind; }
  // The pending event, now handled (counted by kind); none afterwards.
  Pending take_pending();
  static const char* name(Pending kind);

  // ---- time events and stop time
  const std::optional<double>& next_time_event() const { return next_time_event_; }
  // IDA's stop time: the earlier of the next time event and the stop time.
  double stop_time() const {
    return next_time_event_ ? std::min(*next_time_event_, settings_.t_stop) : settings_.t_stop;
  }

  bool terminated() const { return terminated_; }
  // The model's clocks (model_clocks.h): null for a model without clocks,
  // and before initialize_instances().
  const ModelClocks* clocks() const { return clocks_ ? &*clocks_ : nullptr; }
  const Counts& counts() const { return counts_; }

  // ---- observers
  void observe_events(std::function<void(double, EventPhase)> observer) { observer_ = std::move(observer); }
  void observe_steps(std::function<void(double)> observer) { step_observer_ = std::move(observer); }
  void notify_after(double t) const {
    if (observer_) observer_(t, EventPhase::after);
  }
  bool steps_observed() const { return static_cast<bool>(step_observer_); }
  void notify_step(double t) const { step_observer_(t); }

 private:
  // next_time_event_ from the FMU's announcement and the input table, after `after`.
  void merge_input_events(std::optional<double> fmu_next, double after, const InputTable* inputs);
  // task(i) for every instance: in parallel (for_each_instance), one after
  // another when clocks are driven (instance 0's answers make their schedule).
  void each_instance(std::size_t n, const std::function<void(std::size_t)>& task) const;
  // The Zeno guard (above): called at each state event before its iteration.
  void check_zeno(double t);

  const RunSettings& settings_;
  Pending pending_ = Pending::none;
  std::optional<double> next_time_event_;
  std::optional<ModelClocks> clocks_;
  int events_at_this_time_ = 0;
  double last_event_time_ = -1e300;
  // The Zeno guard: the last state event, the interval before it, and how
  // many intervals in a row shrank by kZenoShrink or more.
  std::optional<double> last_state_event_;
  double last_state_interval_ = 0.0;
  int shrinking_intervals_ = 0;
  bool terminated_ = false;
  bool sets_at_next_event_ = false;
  Counts counts_;
  std::function<void(double, EventPhase)> observer_;
  std::function<void(double)> step_observer_;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_EVENT_LOOP_H
