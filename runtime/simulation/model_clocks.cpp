// runtime/simulation/model_clocks.cpp -- see model_clocks.h.
#include "simulation/model_clocks.h"

#include <algorithm>
#include <cmath>

#include "common/format.h"
#include "lsdae/error.h"

namespace lsdae::simulation {

namespace {

bool periodic(ClockKind kind) {
  return kind == ClockKind::constant || kind == ClockKind::fixed || kind == ClockKind::tunable;
}

// A tick "at t": IDA stops exactly at the scheduled time; the tolerance only
// absorbs the rounding of t_start + shift + k·interval.
bool same_time(double a, double b) { return std::fabs(a - b) <= 1e-12 * std::max(1.0, std::fabs(b)); }

}  // namespace

std::string ClockRefusal::message(const std::string& model_name) const {
  return model_name + ": " + text();
}

std::string ClockRefusal::statement() const {
  return std::string(variable->type == VariableType::clock ? "Clock" : "variable") + " \"" + variable->name +
         "\" (line " + std::to_string(variable->line) + "): " + what;
}

std::string ClockRefusal::text() const { return statement() + " → " + todo; }

// The one copy of the rule: what lsdae does not drive (ModelClocks refuses
// the first at the start of a run, `lsdae validate` reports them all).
std::vector<ClockRefusal> clock_refusals(const ModelDescription& md) {
  std::vector<ClockRefusal> out;
  for (const Variable& v : md.variables) {
    if (v.type != VariableType::clock) continue;
    auto refuse = [&](std::string what, std::string todo) { out.push_back({&v, std::move(what), std::move(todo)}); };
    if (!v.clock || !v.clock->interval_variability) {
      refuse("intervalVariability=\"" + (v.clock ? v.clock->interval_variability_text : std::string()) +
                 "\" is not one of constant, fixed, tunable, changing, countdown, triggered (FMI 3.0 2.4.7.5)",
             "the FMU is invalid; re-export it");
      continue;
    }
    if (v.is_array())
      refuse("an array of clocks; lsdae drives scalar clocks only", "re-export the model with scalar clocks");
    else if (v.causality != Causality::input && v.causality != Causality::output)
      refuse(std::string("causality \"") + to_string(v.causality) +
                 "\": lsdae drives input clocks and reads output clocks (FMI 3.0 2.2.9); it cannot know when a "
                 "local clock ticks, so the variables it clocks could be neither read nor recorded",
             "re-export the model with the clock as an input or output clock");
    else if (v.causality == Causality::input && *v.clock->interval_variability != ClockKind::triggered &&
             !v.clocks.empty())
      refuse(std::string("a ") + v.clock->interval_variability_text +
                 " input clock that is itself clocked (attribute clocks): it may tick only with the clocks it "
                 "names, a schedule lsdae does not derive (it ticks time-based clocks by their own timing)",
             "re-export the model without clocks on the Clock");
  }
  for (const Variable& v : md.variables) {
    if (v.type == VariableType::clock) continue;
    for (ValueReference cr : v.clocks) {
      const Variable* clock = md.find(cr);
      if (clock == nullptr || clock->type != VariableType::clock) {
        out.push_back({&v, "clocks=\"" + std::to_string(cr) + "\" is not the value reference of a Clock (FMI 3.0 2.4.7.4)",
                       "the FMU is invalid; re-export it"});
        break;
      }
    }
  }
  return out;
}

ModelClocks::ModelClocks(const ModelDescription& md, const std::string& model_name) : md_(md), model_name_(model_name) {
  if (const auto refused = clock_refusals(md); !refused.empty())
    throw Error(ErrorKind::invalid, refused.front().message(model_name_));
  for (const Variable& v : md.variables) {
    if (v.type != VariableType::clock) continue;
    Clock c;
    c.variable = &v;
    c.kind = *v.clock->interval_variability;
    c.input = v.causality == Causality::input;
    c.fraction = v.clock->supports_fraction;
    clocks_.push_back(c);
  }
  for (const Variable& v : md.variables) {
    if (v.clocks.empty() || v.type == VariableType::clock) continue;
    clocked_.push_back(&v);
    held_.emplace(v.value_reference, Values(v.type));
  }
}

bool ModelClocks::holds_any(std::span<const ValueReference> vrs) const {
  if (held_.empty()) return false;
  return std::any_of(vrs.begin(), vrs.end(), [&](ValueReference vr) { return held_.count(vr) != 0; });
}

ModelClocks::Clock* ModelClocks::find(ValueReference vr) {
  for (Clock& c : clocks_)
    if (c.variable->value_reference == vr) return &c;
  return nullptr;
}

double ModelClocks::periodic_tick(const Clock& c) const {
  if (c.fraction && c.interval.resolution != 0 && c.shift.resolution != 0) {
    // counter/resolution exactly: k·counter/resolution without the rounding of k additions.
    const double k = static_cast<double>(c.count);
    return c.start + static_cast<double>(c.shift.counter) / static_cast<double>(c.shift.resolution) +
           k * static_cast<double>(c.interval.counter) / static_cast<double>(c.interval.resolution);
  }
  return c.start + c.shift.seconds + static_cast<double>(c.count) * c.interval.seconds;
}

void ModelClocks::read_interval(Instance& inst, Clock& c, bool kept) {
  const ClockTime t = inst.clock_interval(c.variable->value_reference, c.fraction);
  if (!kept) return;
  if (t.qualifier != IntervalQualifier::not_yet_known && !(std::isfinite(t.seconds) && t.seconds > 0.0))
    throw Error(ErrorKind::fmu_call,
                model_name_ + ": the interval of Clock \"" + c.variable->name + "\" (" + to_string(c.kind) +
                    ") is " + format_number(t.seconds) + " → an interval must be a positive number (FMI 3.0 2.2.9.4); "
                    "check the parameters that set it");
  if (periodic(c.kind)) {
    c.interval = t;
    return;
  }
  if (t.qualifier == IntervalQualifier::changed) c.interval = t;
  c.interval.qualifier = t.qualifier;
}

void ModelClocks::initialize(Instance& inst, double t_start, bool kept) {
  for (Clock& c : clocks_) {
    if (!c.input || c.kind == ClockKind::triggered) continue;
    c.start = t_start;
    c.count = 0;
    c.due.reset();
    read_interval(inst, c, kept);
    if (periodic(c.kind)) {
      const ClockTime shift = inst.clock_shift(c.variable->value_reference, c.fraction);
      if (!kept) continue;
      if (!(std::isfinite(shift.seconds) && shift.seconds >= 0.0))
        throw Error(ErrorKind::fmu_call, model_name_ + ": the shift of Clock \"" + c.variable->name + "\" is " +
                                             format_number(shift.seconds) +
                                             " → a shift must be zero or positive (FMI 3.0 2.2.9.4)");
      c.shift = shift;
      c.due = periodic_tick(c);
    } else if (kept && c.interval.qualifier == IntervalQualifier::changed) {
      c.due = t_start + c.interval.seconds;
    }
  }
  if (!kept) return;
  ticks_ = 0;
  for (auto& [vr, values] : held_) {
    ValueReference one = vr;
    values.resize(inst.element_count({&one, 1}));
    if (inst.get_values({&one, 1}, values) == CallStatus::discard)
      throw Error(ErrorKind::fmu_call, model_name_ + ": the FMU discarded the start value of clocked variable \"" +
                                           md_.find(vr)->name + "\" in Initialization Mode");
  }
}

std::optional<double> ModelClocks::next_tick() const {
  std::optional<double> next;
  for (const Clock& c : clocks_)
    if (c.due && (!next || *c.due < *next)) next = c.due;
  return next;
}

std::vector<ValueReference> ModelClocks::due_at(double t) const {
  std::vector<ValueReference> out;
  for (const Clock& c : clocks_)
    if (c.due && same_time(t, *c.due)) out.push_back(c.variable->value_reference);
  return out;
}

void ModelClocks::activate(Instance& inst, std::span<const ValueReference> clocks) {
  for (ValueReference c : clocks) inst.activate_clock(c);
}

std::vector<ValueReference> ModelClocks::before_update(Instance& inst, std::span<const ValueReference> ticked,
                                                       bool first_pass, bool kept) {
  std::vector<ValueReference> outputs;
  for (const Clock& c : clocks_)
    if (!c.input && inst.clock_active(c.variable->value_reference)) outputs.push_back(c.variable->value_reference);
  if (kept) {
    std::vector<ValueReference> active;
    if (first_pass) active.assign(ticked.begin(), ticked.end());
    active.insert(active.end(), outputs.begin(), outputs.end());
    ticks_ += static_cast<long>(outputs.size());
    if (!active.empty()) read_clocked(inst, active);
  }
  return outputs;
}

void ModelClocks::read_clocked(Instance& inst, std::span<const ValueReference> active) {
  for (const Variable* v : clocked_) {
    const bool on = std::any_of(v->clocks.begin(), v->clocks.end(), [&](ValueReference c) {
      return std::find(active.begin(), active.end(), c) != active.end();
    });
    if (!on) continue;
    ValueReference vr = v->value_reference;
    Values& values = held_.at(vr);
    if (inst.get_values({&vr, 1}, values) == CallStatus::discard)
      throw Error(ErrorKind::fmu_call, model_name_ + ": the FMU discarded clocked variable \"" + v->name +
                                           "\" while its clock was active → check the model at that tick");
  }
}

void ModelClocks::schedule_after(Clock& c, double t, const ClockTime& interval) {
  if (interval.qualifier == IntervalQualifier::changed) c.due = t + interval.seconds;
  else if (interval.qualifier == IntervalQualifier::not_yet_known) c.due.reset();
}

void ModelClocks::after_update(Instance& inst, double t, std::span<const ValueReference> ticked, bool kept) {
  for (Clock& c : clocks_) {
    if (!c.input || c.kind == ClockKind::triggered) continue;
    const bool did_tick = std::find(ticked.begin(), ticked.end(), c.variable->value_reference) != ticked.end();
    if (kept && did_tick) {
      ++c.count;
      ++ticks_;
    }
    switch (c.kind) {
      case ClockKind::constant:
      case ClockKind::fixed:
        if (kept && did_tick) c.due = periodic_tick(c);
        break;
      case ClockKind::tunable:  // the interval may have changed: t_i = t_(i-1) + interval
        if (!did_tick) break;
        read_interval(inst, c, kept);
        if (kept) c.due = t + c.interval.seconds;
        break;
      case ClockKind::changing:
        if (!did_tick) break;
        read_interval(inst, c, kept);
        if (kept) {
          c.due.reset();
          schedule_after(c, t, c.interval);
        }
        break;
      case ClockKind::countdown:  // a duty in every Event Mode
        read_interval(inst, c, kept);
        if (kept) {
          if (did_tick) c.due.reset();
          schedule_after(c, t, c.interval);
        }
        break;
      case ClockKind::triggered: break;
    }
  }
}

}  // namespace lsdae::simulation
