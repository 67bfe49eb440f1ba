// runtime/fmu/fmi3/instance_clocks.cpp -- the FMI 3.0 clock calls of an FMU
// instance (FMI 3.0 2.2.9 "Clocks"; see fmi3/instance.h): fmi3SetClock,
// fmi3GetClock, fmi3GetIntervalDecimal/Fraction, fmi3GetShiftDecimal/Fraction,
// one clock per call. The state tables are FMI 3.0's for Model Exchange:
// Set/GetClock in Event Mode, the interval and shift getters in
// Initialization and Event Mode. A function the binary does not export is
// Error(binary) naming it (a model with clocks needs them all).
#include "fmu/fmi3/instance.h"

#include "lsdae/error.h"

namespace lsdae {

namespace {
using F = FmiFunction;

IntervalQualifier qualifier_of(fmi3IntervalQualifier q) {
  switch (q) {
    case fmi3IntervalNotYetKnown: return IntervalQualifier::not_yet_known;
    case fmi3IntervalUnchanged: return IntervalQualifier::unchanged;
    case fmi3IntervalChanged: return IntervalQualifier::changed;
  }
  return IntervalQualifier::not_yet_known;
}
}  // namespace

#define LSDAE_FMU_CALL(NAME, ...) call(F::fmi3##NAME, fn_->NAME, handle_, __VA_ARGS__)

void Fmi3Instance::activate_clock(ValueReference clock) {
  require(F::fmi3SetClock, {InstanceState::event});
  if (fn_->SetClock == nullptr) not_exported(F::fmi3SetClock, "its input clocks cannot be activated");
  const fmi3Clock active = fmi3ClockActive;
  check(LSDAE_FMU_CALL(SetClock, &clock, 1, &active), F::fmi3SetClock, true);
}

bool Fmi3Instance::clock_active(ValueReference clock) {
  require(F::fmi3GetClock, {InstanceState::event});
  if (fn_->GetClock == nullptr) not_exported(F::fmi3GetClock, "its output clocks cannot be read");
  fmi3Clock active = fmi3ClockInactive;
  check(LSDAE_FMU_CALL(GetClock, &clock, 1, &active), F::fmi3GetClock, true);
  return active;
}

ClockTime Fmi3Instance::clock_interval(ValueReference clock, bool fraction) {
  ClockTime out;
  fmi3IntervalQualifier q = fmi3IntervalNotYetKnown;
  if (fraction) {
    require(F::fmi3GetIntervalFraction, {InstanceState::initialization, InstanceState::event});
    if (fn_->GetIntervalFraction == nullptr) not_exported(F::fmi3GetIntervalFraction, "its clock intervals cannot be read");
    check(LSDAE_FMU_CALL(GetIntervalFraction, &clock, 1, &out.counter, &out.resolution, &q), F::fmi3GetIntervalFraction,
          true);
    out.seconds = out.resolution == 0 ? 0.0 : static_cast<double>(out.counter) / static_cast<double>(out.resolution);
  } else {
    require(F::fmi3GetIntervalDecimal, {InstanceState::initialization, InstanceState::event});
    if (fn_->GetIntervalDecimal == nullptr) not_exported(F::fmi3GetIntervalDecimal, "its clock intervals cannot be read");
    check(LSDAE_FMU_CALL(GetIntervalDecimal, &clock, 1, &out.seconds, &q), F::fmi3GetIntervalDecimal, true);
  }
  out.qualifier = qualifier_of(q);
  return out;
}

ClockTime Fmi3Instance::clock_shift(ValueReference clock, bool fraction) {
  ClockTime out;
  if (fraction) {
    require(F::fmi3GetShiftFraction, {InstanceState::initialization, InstanceState::event});
    if (fn_->GetShiftFraction == nullptr) not_exported(F::fmi3GetShiftFraction, "its clock shifts cannot be read");
    check(LSDAE_FMU_CALL(GetShiftFraction, &clock, 1, &out.counter, &out.resolution), F::fmi3GetShiftFraction, true);
    out.seconds = out.resolution == 0 ? 0.0 : static_cast<double>(out.counter) / static_cast<double>(out.resolution);
  } else {
    require(F::fmi3GetShiftDecimal, {InstanceState::initialization, InstanceState::event});
    if (fn_->GetShiftDecimal == nullptr) not_exported(F::fmi3GetShiftDecimal, "its clock shifts cannot be read");
    check(LSDAE_FMU_CALL(GetShiftDecimal, &clock, 1, &out.seconds), F::fmi3GetShiftDecimal, true);
  }
  return out;
}

}  // namespace lsdae

#undef LSDAE_FMU_CALL  // file-local (a unity build puts fmi2/instance.cpp, with its own, after it)
