// runtime/system/composite_clocks.cpp -- the clocks of a System's instance
// (composite_instance.h): each clock call goes to the component that
// declares the clock; clock connections (composition.h) are made here.
//
// Rule (FMI 3.0 2.2.9, SSP 2.0 connectors of type Clock): when the output
// clock of a clock connection is active in an Event Mode, its triggered
// input clock is activated in the same Event Mode, before any component's
// fmi3UpdateDiscreteStates, so that the driven component's clocked
// partition runs at the tick (its clocked variables are read after the
// activation). propagate_clocks() runs at the first clock_active() or
// update_discrete_states() of an Event Mode pass, repeats over the
// connections until no new clock is activated (a chain A → B → C), and is
// reset by update_discrete_states (which deactivates every clock).
// Cost: one fmi3GetClock per clock connection and pass.
#include <algorithm>

#include "lsdae/error.h"
#include "system/composite_instance.h"

namespace lsdae::system {

std::pair<std::uint32_t, ValueReference> CompositeInstance::clock_of(ValueReference clock, const char* function) const {
  const Variable* v = composition_.md.find(clock);
  if (v == nullptr || v->type != VariableType::clock || clock >= composition_.globals.size() ||
      composition_.globals[clock].kind != Global::Kind::component)
    throw Error(ErrorKind::usage, "instance \"" + name() + "\": " + function + ": value reference " +
                                      std::to_string(clock) + " is no Clock of a component");
  const Global& g = composition_.globals[clock];
  return {g.component, g.local};
}

void CompositeInstance::propagate_clocks() {
  clock_driven_.resize(composition_.clocks.size(), 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::size_t k = 0; k < composition_.clocks.size(); ++k) {
      if (clock_driven_[k] != 0) continue;
      const ResolvedConnection& c = composition_.clocks[k];
      if (!parts_[c.from.component]->clock_active(c.from.local)) continue;
      parts_[c.to.component]->activate_clock(c.to.local);
      clock_driven_[k] = 1;
      changed = true;
    }
  }
}

void CompositeInstance::activate_clock(ValueReference clock) {
  require("activate_clock", {InstanceState::event});
  auto [c, local] = clock_of(clock, "activate_clock");
  parts_[c]->activate_clock(local);
}

bool CompositeInstance::clock_active(ValueReference clock) {
  require("clock_active", {InstanceState::event});
  auto [c, local] = clock_of(clock, "clock_active");
  propagate_clocks();
  for (std::size_t k = 0; k < composition_.clocks.size(); ++k)
    if (composition_.clocks[k].to.global == clock) return clock_driven_[k] != 0;
  return parts_[c]->clock_active(local);
}

ClockTime CompositeInstance::clock_interval(ValueReference clock, bool fraction) {
  auto [c, local] = clock_of(clock, "clock_interval");
  return parts_[c]->clock_interval(local, fraction);
}

ClockTime CompositeInstance::clock_shift(ValueReference clock, bool fraction) {
  auto [c, local] = clock_of(clock, "clock_shift");
  return parts_[c]->clock_shift(local, fraction);
}

}  // namespace lsdae::system
