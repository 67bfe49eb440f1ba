// models/kit/instance_clocks.cpp -- the clocks of an instance: activation,
// intervals and shifts, the tick schedule of time-based clocks and the rules
// of FMI 3.0 2.2.9 and 2.3.5 (instance.h has the summary).
//
// Schedule of a time-based input clock (t_start from fmi3EnterInitializationMode):
//   periodic   t_0 = t_start + shift, t_i = t_0 + i·interval (constant, fixed;
//              with a resolution: t_start + (shiftCounter + i·intervalCounter)/resolution),
//              tunable: t_i = t_{i-1} + interval (the interval may change);
//   changing   t_0 = t_start + T_0, t_i = t_{i-1} + T_i (T_i from the model
//              at tick i-1);
//   countdown  armed by the model with T (due at the arming event + T),
//              disarmed by its tick.
// Cost: O(clocks) per Event Mode, per fmi3SetTime of a clocked FMU and per
// fmi3UpdateDiscreteStates, plus O(clocked states) for the commit.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kit/instance.h"

namespace lsdae::kit {

namespace {

constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

const char* kind_name(IntervalVariability i) {
  switch (i) {
    case IntervalVariability::constant: return "constant";
    case IntervalVariability::fixed: return "fixed";
    case IntervalVariability::tunable: return "tunable";
    case IntervalVariability::changing: return "changing";
    case IntervalVariability::countdown: return "countdown";
    case IntervalVariability::triggered: return "triggered";
  }
  return "?";
}

bool periodic(IntervalVariability i) {
  return i == IntervalVariability::constant || i == IntervalVariability::fixed || i == IntervalVariability::tunable;
}
bool aperiodic(IntervalVariability i) {
  return i == IntervalVariability::changing || i == IntervalVariability::countdown;
}

std::string num(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  return buffer;
}

}  // namespace

double Instance::tick_tolerance(double due) const { return 1e-9 * std::max(1.0, std::fabs(due)); }

void Instance::reset_clocks() {
  clock_runs_.clear();
  clock_of_vr_.assign(desc_.variables.size(), kNone);
  for (ValueRef vr : desc_.clocks) {
    const ClockProperties& p = desc_.variables[vr].clock;
    ClockRun run;
    run.vr = vr;
    if (p.interval_decimal) {
      run.interval = *p.interval_decimal;
      run.shift = p.shift_decimal.value_or(0.0);
      run.timing_known = true;
      if (p.resolution) {
        run.fraction = true;
        run.counter = *p.interval_counter;
        run.resolution = *p.resolution;
        run.shift_counter = p.shift_counter.value_or(0);
      }
    }
    // Timing the importer must read in Initialization Mode.
    const IntervalVariability iv = p.interval_variability;
    run.must_read = aperiodic(iv) || ((iv == IntervalVariability::fixed || iv == IntervalVariability::tunable) &&
                                      !p.interval_decimal);
    clock_of_vr_[vr] = clock_runs_.size();
    clock_runs_.push_back(run);
    bool_[vr] = 0;
  }
}

Instance::ClockRun* Instance::clock_run(const char* function, fmi3ValueReference vr) {
  if (vr >= desc_.variables.size() || clock_of_vr_[vr] == kNone) {
    log(fmi3Error, "logStatusError",
        std::string(function) + ": " +
            (vr < desc_.variables.size() ? "variable \"" + desc_.variables[vr].name + "\" is not a Clock"
                                         : "value reference " + std::to_string(vr) + " does not exist"));
    return nullptr;
  }
  return &clock_runs_[clock_of_vr_[vr]];
}

// The timing that Model::clock_timing() gives, for the clocks whose timing
// the XML does not fix. Throws std::logic_error when the model answers
// something FMI 3.0 does not allow (a bug of the model).
void Instance::resolve_clock_timing(ClockRun& run) {
  const Variable& v = desc_.variables[run.vr];
  const IntervalVariability iv = v.clock.interval_variability;
  if (iv == IntervalVariability::triggered || v.clock.interval_decimal) return;
  ensure_computed();
  const ClockTiming t = model_->clock_timing(context(), run.vr);
  const std::string where = "clock_timing(\"" + v.name + "\", " + kind_name(iv) + ")";
  if (periodic(iv)) {
    if (!t.interval || !(*t.interval > 0.0) || !std::isfinite(*t.interval) || !(t.shift >= 0.0))
      throw std::logic_error(where + " must give an interval > 0 and a shift >= 0");
    if (run.timing_known && (*t.interval != run.interval || t.shift != run.shift)) run.fresh = true;
    run.interval = *t.interval;
    run.shift = t.shift;
    run.timing_known = true;
    return;
  }
  if (mode_ != Mode::initialization) return;  // aperiodic: only the first interval comes from here
  if (!t.interval) {
    if (iv == IntervalVariability::changing) throw std::logic_error(where + " must give the first interval");
    run.timing_known = false;
    return;
  }
  if (!(*t.interval >= 0.0) || !std::isfinite(*t.interval)) throw std::logic_error(where + " gave a negative interval");
  run.interval = *t.interval;
  run.timing_known = true;
}

void Instance::start_clock_schedule() {
  for (ClockRun& run : clock_runs_) {
    const Variable& v = desc_.variables[run.vr];
    const IntervalVariability iv = v.clock.interval_variability;
    if (v.causality != Causality::input || iv == IntervalVariability::triggered) continue;
    resolve_clock_timing(run);
    run.ticks = 0;
    run.last_tick.reset();
    if (periodic(iv))
      run.due = run.fraction ? start_time_ + static_cast<double>(run.shift_counter) / static_cast<double>(run.resolution)
                             : start_time_ + run.shift;
    else if (run.timing_known)
      run.due = start_time_ + run.interval;
    else
      run.due.reset();
  }
  // The values at initialization are the values "at the previous tick".
  for (ValueRef x : desc_.clocked_states) {
    const ValueRef prev = desc_.variables[x].previous;
    if (desc_.variables[x].type == VarType::boolean) bool_[prev] = bool_[x];
    else f64_[prev] = f64_[x];
  }
}

void Instance::begin_event_mode_clocks() {
  for (ClockRun& run : clock_runs_) {
    run.ticked_now = false;
    if (desc_.variables[run.vr].clock.interval_variability == IntervalVariability::countdown) run.must_read = true;
  }
}

fmi3Status Instance::check_missed_ticks(const char* function) {
  fmi3Status status = fmi3OK;
  for (ClockRun& run : clock_runs_) {
    if (!run.due || run.missed_warned || time_ <= *run.due + tick_tolerance(*run.due)) continue;
    const Variable& v = desc_.variables[run.vr];
    run.missed_warned = true;
    status = fmi3Warning;
    log(fmi3Warning, "logStatusWarning",
        std::string(function) + ": input clock \"" + v.name + "\" (" + kind_name(v.clock.interval_variability) +
            ") was due at t = " + num(*run.due) + " and was not activated (time is now " + num(time_) +
            "): its model partition has not run since " +
            (run.last_tick ? "t = " + num(*run.last_tick) : std::string("the start")) +
            "; activate it with fmi3SetClock in Event Mode at its due time (said once per clock)");
  }
  return status;
}

fmi3Status Instance::check_clock_duties(const char* function) {
  fmi3Status status = fmi3OK;
  for (ClockRun& run : clock_runs_) {
    if (!run.must_read || run.duty_warned) continue;
    const Variable& v = desc_.variables[run.vr];
    const IntervalVariability iv = v.clock.interval_variability;
    run.duty_warned = true;
    status = fmi3Warning;
    const std::string when = mode_ == Mode::initialization       ? "in Initialization Mode"
                             : iv == IntervalVariability::countdown ? "in every Event Mode"
                                                                    : "in the Event Mode of each of its ticks";
    log(fmi3Warning, "logStatusWarning",
        std::string(function) + ": the interval of " + kind_name(iv) + " clock \"" + v.name +
            "\" was not read; FMI 3.0 requires fmi3GetIntervalDecimal (or ...Fraction) " + when +
            " (said once per clock)");
  }
  return status;
}

fmi3Status Instance::set_clock(const fmi3ValueReference vrs[], size_t n, const bool values[]) {
  if (!check_mode("fmi3SetClock", {Mode::event})) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    ClockRun* run = clock_run("fmi3SetClock", vrs[i]);
    if (run == nullptr) return fmi3Error;
    const Variable& v = desc_.variables[run->vr];
    const IntervalVariability iv = v.clock.interval_variability;
    const std::string name = "clock \"" + v.name + "\" (" + kind_name(iv) + ")";
    auto refuse = [&](const std::string& why) {
      log(fmi3Error, "logStatusError", "fmi3SetClock: " + name + " " + why);
      return fmi3Error;
    };
    if (v.causality != Causality::input)
      return refuse("is an output clock: the FMU activates it; read it with fmi3GetClock");
    if (values[i]) {
      if (bool_[run->vr] != 0) continue;
      if (periodic(iv) && run->ticked_now)
        return refuse("was active in an fmi3UpdateDiscreteStates of this Event Mode already; FMI 3.0 allows a "
                      "periodic clock one activation per Event Mode");
      if (iv != IntervalVariability::triggered) {
        if (!run->due)
          return refuse("has no tick scheduled (fmi3GetIntervalDecimal answers fmi3IntervalNotYetKnown)");
        if (std::fabs(time_ - *run->due) > tick_tolerance(*run->due))
          return refuse("is due at t = " + num(*run->due) + ", not at t = " + num(time_) +
                        "; a time-based clock ticks when the FMU's timing says (fmi3GetIntervalDecimal, "
                        "fmi3GetShiftDecimal)");
      }
      bool_[run->vr] = 1;
      log(fmi3OK, "logEvents", "SetClock: " + name + " active at t = " + num(time_));
    } else {
      if (bool_[run->vr] == 0) continue;
      if (!v.clock.can_be_deactivated)
        return refuse("has canBeDeactivated=\"false\": once active it stays active until fmi3UpdateDiscreteStates");
      bool_[run->vr] = 0;
      // Its clocked states fall back to the values of the last tick.
      for (ValueRef x : desc_.clocked_states) {
        const auto& clocks = desc_.variables[x].clocks;
        if (std::find(clocks.begin(), clocks.end(), run->vr) == clocks.end()) continue;
        const ValueRef prev = desc_.variables[x].previous;
        if (desc_.variables[x].type == VarType::boolean) bool_[x] = bool_[prev];
        else f64_[x] = f64_[prev];
      }
    }
    touch();
  }
  return fmi3OK;
}

fmi3Status Instance::get_clock(const fmi3ValueReference vrs[], size_t n, bool values[]) {
  if (!check_mode("fmi3GetClock", {Mode::event})) return fmi3Error;
  for (size_t i = 0; i < n; ++i)
    if (clock_run("fmi3GetClock", vrs[i]) == nullptr) return fmi3Error;
  ensure_computed();  // output clocks are computed with the partitions
  for (size_t i = 0; i < n; ++i) values[i] = bool_[vrs[i]] != 0;
  return fmi3OK;
}

fmi3Status Instance::clocks_after_update(const DiscreteUpdate& update) {
  auto model_bug = [&](const std::string& why) {
    log(fmi3Error, "logStatusError", "fmi3UpdateDiscreteStates: the model's update_discrete() " + why);
    return fmi3Error;
  };
  for (const ClockInterval& ci : update.clock_intervals) {
    if (ci.clock >= desc_.variables.size() || clock_of_vr_[ci.clock] == kNone ||
        !aperiodic(desc_.variables[ci.clock].clock.interval_variability))
      return model_bug("gave an interval for " + std::to_string(ci.clock) + ", which is no changing or countdown clock");
    if (!(ci.interval >= 0.0) || !std::isfinite(ci.interval))
      return model_bug("gave the interval " + num(ci.interval) + " for \"" + desc_.variables[ci.clock].name + "\"");
    if (desc_.variables[ci.clock].clock.interval_variability == IntervalVariability::changing && bool_[ci.clock] == 0)
      return model_bug("changed the interval of changing clock \"" + desc_.variables[ci.clock].name +
                       "\" without a tick (its interval is fixed right after a tick)");
  }
  auto given = [&](ValueRef vr) -> const ClockInterval* {
    for (const ClockInterval& ci : update.clock_intervals)
      if (ci.clock == vr) return &ci;
    return nullptr;
  };
  for (ClockRun& run : clock_runs_) {
    const Variable& v = desc_.variables[run.vr];
    const IntervalVariability iv = v.clock.interval_variability;
    const ClockInterval* next = given(run.vr);
    if (bool_[run.vr] != 0 && v.causality == Causality::input && iv != IntervalVariability::triggered) {
      ++run.ticks;
      run.last_tick = time_;
      run.ticked_now = true;
      run.missed_warned = false;
      const double k = static_cast<double>(run.ticks);
      if (iv == IntervalVariability::tunable) {
        run.due = *run.due + run.interval;
      } else if (periodic(iv)) {
        run.due = run.fraction ? start_time_ + (static_cast<double>(run.shift_counter) +
                                                k * static_cast<double>(run.counter)) / static_cast<double>(run.resolution)
                               : start_time_ + run.shift + k * run.interval;
      } else if (iv == IntervalVariability::changing && next == nullptr) {
        return model_bug("gave no next interval for changing clock \"" + v.name +
                         "\", which ticked (DiscreteUpdate::clock_intervals)");
      } else if (iv == IntervalVariability::countdown) {
        run.due.reset();  // disarmed by its tick, unless armed again below
        run.fresh = true;
      }
    }
    if (next != nullptr) {
      run.interval = next->interval;
      run.due = time_ + next->interval;
      run.timing_known = true;
      run.fresh = true;
      run.must_read = true;
      run.missed_warned = false;
    }
  }
  // Commit the clocked states of the active clocks, then deactivate every clock.
  for (ValueRef x : desc_.clocked_states) {
    const Variable& v = desc_.variables[x];
    if (std::none_of(v.clocks.begin(), v.clocks.end(), [&](ValueRef c) { return bool_[c] != 0; })) continue;
    if (v.type == VarType::boolean) bool_[v.previous] = bool_[x];
    else f64_[v.previous] = f64_[x];
  }
  for (ValueRef c : desc_.clocks) bool_[c] = 0;
  return fmi3OK;
}

fmi3Status Instance::get_interval(const char* function, const fmi3ValueReference vrs[], size_t n, double intervals[],
                                  std::uint64_t counters[], std::uint64_t resolutions[],
                                  fmi3IntervalQualifier qualifiers[]) {
  if (!check_mode(function, {Mode::initialization, Mode::event})) return fmi3Error;
  const bool fraction = counters != nullptr;
  for (size_t i = 0; i < n; ++i) {
    ClockRun* run = clock_run(function, vrs[i]);
    if (run == nullptr) return fmi3Error;
    const Variable& v = desc_.variables[run->vr];
    const IntervalVariability iv = v.clock.interval_variability;
    auto refuse = [&](const std::string& why) {
      log(fmi3Error, "logStatusError",
          std::string(function) + ": clock \"" + v.name + "\" (" + kind_name(iv) + ") " + why);
      return fmi3Error;
    };
    if (iv == IntervalVariability::triggered) return refuse("is triggered: it has no interval");
    if (fraction && !v.clock.supports_fraction) return refuse("has supportsFraction=\"false\"");
    if (mode_ == Mode::initialization || iv == IntervalVariability::tunable) {
      const double before = run->interval;
      resolve_clock_timing(*run);
      if (mode_ == Mode::event && run->interval != before && run->last_tick) run->due = *run->last_tick + run->interval;
    }
    double value = run->interval;
    fmi3IntervalQualifier q = run->fresh ? fmi3IntervalChanged : fmi3IntervalUnchanged;
    if (aperiodic(iv) && mode_ == Mode::event) {
      if (run->due) value = *run->due - time_;
      else q = fmi3IntervalNotYetKnown;
    } else if (!run->timing_known) {
      q = fmi3IntervalNotYetKnown;  // a countdown clock not armed at initialization
    }
    if (q == fmi3IntervalNotYetKnown) value = 0.0;
    else run->fresh = false;
    run->must_read = false;
    qualifiers[i] = q;
    if (!fraction) {
      intervals[i] = value;
    } else {
      if (!run->fraction)
        return refuse("has its interval as a decimal (set with fmi3SetIntervalDecimal): read it with "
                      "fmi3GetIntervalDecimal");
      counters[i] = run->counter;
      resolutions[i] = run->resolution;
    }
  }
  return fmi3OK;
}

fmi3Status Instance::get_shift(const char* function, const fmi3ValueReference vrs[], size_t n, double shifts[],
                               std::uint64_t counters[], std::uint64_t resolutions[]) {
  if (!check_mode(function, {Mode::initialization})) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    ClockRun* run = clock_run(function, vrs[i]);
    if (run == nullptr) return fmi3Error;
    const Variable& v = desc_.variables[run->vr];
    const IntervalVariability iv = v.clock.interval_variability;
    auto refuse = [&](const std::string& why) {
      log(fmi3Error, "logStatusError",
          std::string(function) + ": clock \"" + v.name + "\" (" + kind_name(iv) + ") " + why);
      return fmi3Error;
    };
    if (!periodic(iv)) return refuse("is not periodic: only constant, fixed and tunable clocks have a shift");
    resolve_clock_timing(*run);
    if (counters == nullptr) {
      shifts[i] = run->shift;
    } else {
      if (!v.clock.supports_fraction) return refuse("has supportsFraction=\"false\"");
      if (!run->fraction) return refuse("has its timing as decimals: read it with fmi3GetShiftDecimal");
      counters[i] = run->shift_counter;
      resolutions[i] = run->resolution;
    }
  }
  return fmi3OK;
}

fmi3Status Instance::set_interval(const char* function, const fmi3ValueReference vrs[], size_t n,
                                  const double intervals[], const std::uint64_t counters[],
                                  const std::uint64_t resolutions[]) {
  if (!check_mode(function, {Mode::initialization, Mode::event})) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    ClockRun* run = clock_run(function, vrs[i]);
    if (run == nullptr) return fmi3Error;
    const Variable& v = desc_.variables[run->vr];
    const IntervalVariability iv = v.clock.interval_variability;
    auto refuse = [&](const std::string& why) {
      log(fmi3Error, "logStatusError",
          std::string(function) + ": clock \"" + v.name + "\" (" + kind_name(iv) + ") " + why);
      return fmi3Error;
    };
    if (iv != IntervalVariability::fixed && iv != IntervalVariability::tunable)
      return refuse("takes no interval from the importer (only fixed and tunable periodic clocks do)");
    if (!v.clock.interval_decimal)
      return refuse("declares no intervalDecimal: its interval comes from the FMU (fmi3GetIntervalDecimal)");
    if (iv == IntervalVariability::fixed && mode_ != Mode::initialization)
      return refuse("is fixed: set its interval in Initialization Mode");
    double value = 0.0;
    if (intervals != nullptr) {
      value = intervals[i];
    } else {
      if (!v.clock.supports_fraction) return refuse("has supportsFraction=\"false\"");
      if (counters[i] == 0 || resolutions[i] == 0) return refuse("needs a counter and a resolution > 0");
      value = static_cast<double>(counters[i]) / static_cast<double>(resolutions[i]);
    }
    if (!(value > 0.0) || !std::isfinite(value)) return refuse("needs an interval > 0, got " + num(value));
    run->interval = value;
    if (intervals != nullptr) {
      run->fraction = false;
    } else {
      // The shift stays exact when it is 0 or already in this resolution.
      const bool shift_exact = run->shift == 0.0 || (run->fraction && run->resolution == resolutions[i]);
      if (run->shift == 0.0) run->shift_counter = 0;
      run->fraction = shift_exact;
      run->counter = counters[i];
      run->resolution = resolutions[i];
    }
    run->fresh = true;
    if (mode_ == Mode::event && run->last_tick) run->due = *run->last_tick + value;
  }
  return fmi3OK;
}

fmi3Status Instance::set_shift(const char* function, const fmi3ValueReference vrs[], size_t n, const double shifts[],
                               const std::uint64_t counters[], const std::uint64_t resolutions[]) {
  if (!check_mode(function, {Mode::initialization})) return fmi3Error;
  for (size_t i = 0; i < n; ++i) {
    ClockRun* run = clock_run(function, vrs[i]);
    if (run == nullptr) return fmi3Error;
    const Variable& v = desc_.variables[run->vr];
    const IntervalVariability iv = v.clock.interval_variability;
    auto refuse = [&](const std::string& why) {
      log(fmi3Error, "logStatusError",
          std::string(function) + ": clock \"" + v.name + "\" (" + kind_name(iv) + ") " + why);
      return fmi3Error;
    };
    if ((iv != IntervalVariability::fixed && iv != IntervalVariability::tunable) || !v.clock.interval_decimal)
      return refuse("takes no shift from the importer (only fixed and tunable clocks with intervalDecimal do)");
    if (shifts != nullptr) {
      if (!(shifts[i] >= 0.0) || !std::isfinite(shifts[i])) return refuse("needs a shift >= 0, got " + num(shifts[i]));
      run->shift = shifts[i];
      run->fraction = false;
    } else {
      if (!v.clock.supports_fraction) return refuse("has supportsFraction=\"false\"");
      if (resolutions[i] == 0) return refuse("needs a resolution > 0");
      if (run->fraction && resolutions[i] != run->resolution)
        return refuse("has the resolution " + std::to_string(run->resolution) + "; give the shift in it");
      run->shift = static_cast<double>(counters[i]) / static_cast<double>(resolutions[i]);
      run->shift_counter = counters[i];
    }
  }
  return fmi3OK;
}

}  // namespace lsdae::kit
