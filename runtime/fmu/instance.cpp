// runtime/fmu/instance.cpp -- what every lsdae::Instance shares, FMU or
// composite: the mode machine, the DAE switch, the default answers of the
// calls an implementation does not offer. See lsdae/instance.h. The
// typed-value plumbing built on the virtual typed getters/setters:
// instance_values.cpp.
#include "lsdae/instance.h"

#include <memory>
#include <vector>

#include "fmu/fmi_functions.h"
#include "lsdae/error.h"

namespace lsdae {

const char* to_string(InstanceState state) noexcept {
  switch (state) {
    case InstanceState::instantiated: return "Instantiated";
    case InstanceState::configuration: return "Configuration Mode";
    case InstanceState::initialization: return "Initialization Mode";
    case InstanceState::event: return "Event Mode";
    case InstanceState::continuous_time: return "Continuous-Time Mode";
    case InstanceState::terminated: return "Terminated";
    case InstanceState::failed: return "Failed (after a Fatal status)";
  }
  return "?";
}

Instance::Instance(std::string name, const ModelDescription& description, const Manifest& manifest,
                   std::string model_display_name)
    : name_(std::move(name)),
      description_(&description),
      manifest_(&manifest),
      model_display_name_(std::move(model_display_name)) {}

Instance::~Instance() = default;

// ---- the mode machine (lsdae/instance.h) ---------------------------------------

namespace {
using S = InstanceState;
constexpr InstanceState kInstantiated[] = {S::instantiated};
constexpr InstanceState kConfiguration[] = {S::configuration};
constexpr InstanceState kInitialization[] = {S::initialization};
constexpr InstanceState kEvent[] = {S::event};
constexpr InstanceState kContinuousTime[] = {S::continuous_time};
constexpr InstanceState kTerminable[] = {S::event, S::continuous_time, S::initialization};
constexpr InstanceState kLive[] = {S::instantiated, S::configuration,   S::initialization,
                                   S::event,        S::continuous_time, S::terminated};
struct Change {
  std::span<const InstanceState> from;
  InstanceState to;
};
// Indexed by Instance::ModeChange.
constexpr Change kChanges[] = {
    {kInstantiated, S::configuration},     // enter_configuration
    {kConfiguration, S::instantiated},     // exit_configuration
    {kInstantiated, S::initialization},    // enter_initialization
    {kInitialization, S::event},           // exit_initialization
    {kContinuousTime, S::event},           // enter_event
    {kEvent, S::continuous_time},          // enter_continuous_time
    {kTerminable, S::terminated},          // terminate
    {kLive, S::instantiated},              // reset
};
}  // namespace

void Instance::require(ModeChange change, const char* function) const {
  require_state(function, kChanges[static_cast<std::size_t>(change)].from);
}

void Instance::complete(ModeChange change) { state_ = kChanges[static_cast<std::size_t>(change)].to; }

void Instance::require_state(const char* function, std::span<const InstanceState> allowed) const {
  for (InstanceState s : allowed)
    if (s == state_) return;
  std::string list;
  for (InstanceState s : allowed) {
    if (s == S::configuration && fmi_version() == FmiVersion::fmi2) continue;  // FMI 2.0 has none
    list += (list.empty() ? "" : ", ") + std::string(to_string(s));
  }
  throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + function + " is not allowed in " +
                                    to_string(state_) + " → " + to_string(fmi_version()) + " allows it in: " + list);
}

void Instance::require_count(const char* function, std::span<const ValueReference> vrs, std::size_t values) const {
  const std::size_t expected = element_count(vrs);
  if (expected != values)
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + function + ": " + std::to_string(vrs.size()) +
                                      " value references stand for " + std::to_string(expected) + " values, but " +
                                      std::to_string(values) + " were passed → pass one value per scalar element");
}

std::size_t Instance::element_count(std::span<const ValueReference> vrs) const {
  const ModelDescription& md = *description_;
  if (!md.has_arrays()) return vrs.size();
  std::size_t n = 0;
  for (ValueReference vr : vrs) {
    const Variable* v = md.find(vr);
    n += v != nullptr ? v->element_count() : 1;
  }
  return n;
}

// ---- configuration and the DAE switch ------------------------------------------------

void Instance::lacks(const std::string& what) const { throw Error(ErrorKind::usage, absence_message(what)); }

void Instance::get_fmu_state(SavedState&) { lacks("the FMU state (canGetAndSetFMUState)"); }
void Instance::set_fmu_state(const SavedState&) { lacks("the FMU state (canGetAndSetFMUState)"); }
void Instance::free_fmu_state(SavedState&) { lacks("the FMU state (canGetAndSetFMUState)"); }

void Instance::enter_configuration_mode() { lacks("Configuration Mode"); }
void Instance::activate_clock(ValueReference) { lacks("Clocks"); }
bool Instance::clock_active(ValueReference) { lacks("Clocks"); }
ClockTime Instance::clock_interval(ValueReference, bool) { lacks("Clocks"); }
ClockTime Instance::clock_shift(ValueReference, bool) { lacks("Clocks"); }
void Instance::exit_configuration_mode() { lacks("Configuration Mode"); }

void Instance::enable_dae_mode() {
  const Manifest& manifest = *manifest_;
  if (!manifest.present())
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + model_display_name_ +
                                      " has no FMI-LS-DAE manifest, so it has no DAE mode → simulate it as an ODE");
  if (!manifest.enable_dae) {
    dae_mode_ = true;  // DAE-only FMU
    return;
  }
  require("enable_dae_mode", {InstanceState::instantiated});
  enter_configuration_mode();
  ValueReference vr = *manifest.enable_dae;
  bool on = true;
  if (set_boolean({&vr, 1}, {&on, 1}) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, "instance \"" + name_ + "\": the FMU discarded setting its DAE enable switch "
                                     "→ see the FMU's log messages above");
  exit_configuration_mode();
  dae_mode_ = true;
}

// ---- what an implementation does not offer -------------------------------------------

// The typed getters and setters of types an implementation lacks.
#define LSDAE_ABSENT(TYPE_NAME, CPP_T, LABEL)                                                               \
  CallStatus Instance::get_##TYPE_NAME(std::span<const ValueReference>, std::span<CPP_T>) {                \
    lacks(LABEL " variables");                                                                            \
  }                                                                                                       \
  CallStatus Instance::set_##TYPE_NAME(std::span<const ValueReference>, std::span<const CPP_T>) {          \
    lacks(LABEL " variables");                                                                            \
  }
LSDAE_ABSENT(float64, double, "Float64")
LSDAE_ABSENT(boolean, bool, "Boolean")
LSDAE_ABSENT(int32, std::int32_t, "Int32")
LSDAE_ABSENT(int64, std::int64_t, "Int64")
LSDAE_ABSENT(float32, float, "Float32")
LSDAE_ABSENT(int8, std::int8_t, "Int8")
LSDAE_ABSENT(uint8, std::uint8_t, "UInt8")
LSDAE_ABSENT(int16, std::int16_t, "Int16")
LSDAE_ABSENT(uint16, std::uint16_t, "UInt16")
LSDAE_ABSENT(uint32, std::uint32_t, "UInt32")
LSDAE_ABSENT(uint64, std::uint64_t, "UInt64")
#undef LSDAE_ABSENT
CallStatus Instance::get_string(std::span<const ValueReference>, std::vector<std::string>&) {
  lacks("String variables");
}
CallStatus Instance::set_string(std::span<const ValueReference>, std::span<const std::string>) {
  lacks("String variables");
}
CallStatus Instance::get_binary(std::span<const ValueReference>, std::vector<std::vector<std::uint8_t>>&) {
  lacks("Binary variables");
}
CallStatus Instance::set_binary(std::span<const ValueReference>, std::span<const std::vector<std::uint8_t>>) {
  lacks("Binary variables");
}

namespace {
[[noreturn]] void no_constraints(const Instance& instance, FmiFunction function) {
  throw Error(ErrorKind::usage, "instance \"" + instance.name() + "\": " + instance.model_display_name() +
                                    " does not provide " + fmi_function_name(function) +
                                    " (Najafi's constraint extension: declared in modelDescription.xml and "
                                    "exported by the binary) → check has_constraints() and friends first");
}
}  // namespace

std::size_t Instance::number_of_constraints() { no_constraints(*this, FmiFunction::fmi2GetNumberOfConstraints); }
CallStatus Instance::constraints(std::span<double>) { no_constraints(*this, FmiFunction::fmi2Constraint); }
CallStatus Instance::constraint_jacobian(std::span<double>) {
  no_constraints(*this, FmiFunction::fmi2ConstraintJacobian);
}
CallStatus Instance::projection_step(std::span<double>) { no_constraints(*this, FmiFunction::fmi2ProjectionStep); }
CallStatus Instance::projection(std::span<double>, double, std::size_t, bool) {
  no_constraints(*this, FmiFunction::fmi2Projection);
}

}  // namespace lsdae
