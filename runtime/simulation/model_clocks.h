// runtime/simulation/model_clocks.h -- the importer's side of FMI 3.0 Model
// Exchange clocks for one run: the tick schedule of the time-based input
// clocks, their activation in Event Mode, the output clocks, and the values
// of the clocked variables between their ticks. A collaborator of the event
// loop (event_loop.h); docs/simulation/events.md, "Clocks".
//
// Reference: FMI 3.0.2, 2.2.9 "Clocks" (table "Overview of Clock types"),
// 2.2.9.4 (intervals and shifts, fmi3IntervalQualifier), 2.2.6.2 (clocked
// variables are accessed only while one of their clocks is active), 3.2.3
// (Event Mode in Model Exchange).
//
// Algorithm. In Initialization Mode every time-based input clock's interval
// is read (fmi3GetIntervalDecimal, or fmi3GetIntervalFraction when the clock
// declares supportsFraction) and, for a periodic one (constant, fixed,
// tunable), its shift (fmi3GetShift*); the clocked variables are read once
// (their start values, allowed there). Ticks:
//   constant, fixed   t_start + shift + k·interval (k-th tick, k = 0, 1, ...;
//                     exact in counter/resolution for a fraction)
//   tunable           the first at t_start + shift, then t_prev + interval
//                     with the interval read again after each tick
//   changing          t + interval, the interval read after each tick
//                     (Changed: scheduled; NotYetKnown: none)
//   countdown         the interval read in every Event Mode: Changed arms
//                     a tick at t + interval, NotYetKnown disarms it
//   triggered         never by time; a system activates it when the output
//                     clock connected to it ticks (runtime/system)
// Ticks are time events (the earliest is next_tick(), IDA's stop time). In
// Event Mode at t the clocks due at t are activated (fmi3SetClock), the
// output clocks are asked (fmi3GetClock) before every
// fmi3UpdateDiscreteStates of the iteration, and the clocked variables of
// every active clock are read then and held: a result row between ticks
// shows the last tick's value without asking the FMU (which FMI forbids).
// Cost: per Event Mode one SetClock per due clock, one GetClock per output
// clock and iteration, one Get per clocked variable of an active clock.
//
// Refused at construction (Error(invalid), exit code 1, naming the clock and
// the rule): a Clock without a valid intervalVariability, a local Clock
// (lsdae cannot know when it ticks), a Clock array, a time-based input clock
// that is itself clocked (attribute clocks on the Clock), a clocked variable
// whose clock is not a declared Clock. In a run: a time-based interval that is not
// a positive finite number (Error(fmu_call)).
// Contract: every call is made on the instance given; only the instance that
// is `kept` (instance 0) updates the schedule and the held values, the others
// receive the same calls so that all instances stay interchangeable.
#ifndef LSDAE_RUNTIME_SIMULATION_MODEL_CLOCKS_H
#define LSDAE_RUNTIME_SIMULATION_MODEL_CLOCKS_H

#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/values.h"

namespace lsdae::simulation {

// One clock declaration lsdae does not drive (the list above, "Refused at
// construction"): the variable, what is wrong and what to do.
struct ClockRefusal {
  const Variable* variable = nullptr;
  std::string what, todo;
  // "Clock "c" (line 12): what" (statement), "... → todo" (text), with the
  // model's name in front (message: the run's error).
  std::string statement() const;
  std::string text() const;
  std::string message(const std::string& model_name) const;
};
// Every clock declaration of `md` that a run refuses, in declaration order:
// the one copy of the rule, for ModelClocks and for `lsdae validate`.
std::vector<ClockRefusal> clock_refusals(const ModelDescription& md);

class ModelClocks {
 public:
  // The clocks of `md`; refuses what lsdae does not support (see above).
  ModelClocks(const ModelDescription& md, const std::string& model_name);
  bool empty() const { return clocks_.empty(); }

  // Initialization Mode at t_start: the timing of every time-based input
  // clock and the start values of the clocked variables.
  void initialize(Instance& inst, double t_start, bool kept);
  // The earliest scheduled tick of a time-based input clock.
  std::optional<double> next_tick() const;
  // Event Mode at t: the input clocks due at t (same list for every instance).
  std::vector<ValueReference> due_at(double t) const;
  // Event Mode: activates `clocks` on `inst` (fmi3SetClock).
  void activate(Instance& inst, std::span<const ValueReference> clocks);
  // Event Mode, before an fmi3UpdateDiscreteStates: asks the output clocks;
  // with the input clocks `ticked` (active until the first update:
  // `first_pass`), reads the clocked variables of every active clock into the
  // held values (kept instance). Returns the active output clocks.
  std::vector<ValueReference> before_update(Instance& inst, std::span<const ValueReference> ticked, bool first_pass,
                                            bool kept);
  // Event Mode at t, after the first fmi3UpdateDiscreteStates: the next
  // ticks of the clocks that ticked and of the aperiodic ones.
  void after_update(Instance& inst, double t, std::span<const ValueReference> ticked, bool kept);

  // ---- the held values of clocked variables
  bool holds(ValueReference vr) const { return held_.count(vr) != 0; }
  bool holds_any(std::span<const ValueReference> vrs) const;
  const Values& held(ValueReference vr) const { return held_.at(vr); }

  // Ticks so far (time-based input clocks activated, output clocks seen active).
  long ticks() const { return ticks_; }

 private:
  struct Clock {
    const Variable* variable = nullptr;
    ClockKind kind = ClockKind::triggered;
    bool input = true;
    bool fraction = false;                 // timing read as counter / resolution
    ClockTime interval, shift;             // as last read
    double start = 0.0;                    // t_start
    std::optional<double> due;             // the next tick (time-based input clocks)
    unsigned long long count = 0;          // ticks so far (periodic: k)
  };
  Clock* find(ValueReference vr);
  double periodic_tick(const Clock& c) const;
  void read_interval(Instance& inst, Clock& c, bool kept);
  void schedule_after(Clock& c, double t, const ClockTime& interval);
  void read_clocked(Instance& inst, std::span<const ValueReference> active);

  const ModelDescription& md_;
  std::string model_name_;
  std::vector<Clock> clocks_;
  // Each clocked variable and its clocks; its held value.
  std::vector<const Variable*> clocked_;
  std::unordered_map<ValueReference, Values> held_;
  long ticks_ = 0;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_MODEL_CLOCKS_H
