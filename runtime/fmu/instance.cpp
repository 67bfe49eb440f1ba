// runtime/fmu/instance.cpp -- what every lsdae::Instance shares, FMU or
// composite: the mode machine, the DAE switch, the default answers of the
// calls an implementation does not offer, and the typed-value plumbing built
// on the virtual typed getters/setters. See lsdae/instance.h.
#include "lsdae/instance.h"

#include <cmath>
#include <limits>
#include <memory>
#include <type_traits>
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

// ---- values of any type ---------------------------------------------------------------

namespace {
// Narrow/widen between a Values vector and the FMI type's own array.
template <typename T, typename From>
std::vector<T> narrowed(const std::vector<From>& from) {
  return std::vector<T>(from.begin(), from.end());
}
std::string to_hex(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::uint8_t b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}
std::vector<std::uint8_t> from_hex(const std::string& text) {
  std::vector<std::uint8_t> out;
  for (std::size_t k = 0; k + 1 < text.size(); k += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoul(text.substr(k, 2), nullptr, 16)));
  return out;
}
}  // namespace

CallStatus Instance::get_values(std::span<const ValueReference> vrs, Values& values) {
  const std::size_t n = element_count(vrs);
  values.resize(n);
  auto via = [&](auto getter, auto& buffer, auto& into) {
    CallStatus s = (this->*getter)(vrs, std::span(buffer));
    for (std::size_t k = 0; k < n; ++k) into[k] = static_cast<std::remove_reference_t<decltype(into[0])>>(buffer[k]);
    return s;
  };
  switch (values.type) {
    case VariableType::float64: return get_float64(vrs, values.reals);
    case VariableType::float32: { std::vector<float> b(n); return via(&Instance::get_float32, b, values.reals); }
    case VariableType::int8: { std::vector<std::int8_t> b(n); return via(&Instance::get_int8, b, values.integers); }
    case VariableType::uint8: { std::vector<std::uint8_t> b(n); return via(&Instance::get_uint8, b, values.integers); }
    case VariableType::int16: { std::vector<std::int16_t> b(n); return via(&Instance::get_int16, b, values.integers); }
    case VariableType::uint16: { std::vector<std::uint16_t> b(n); return via(&Instance::get_uint16, b, values.integers); }
    case VariableType::int32: { std::vector<std::int32_t> b(n); return via(&Instance::get_int32, b, values.integers); }
    case VariableType::uint32: { std::vector<std::uint32_t> b(n); return via(&Instance::get_uint32, b, values.integers); }
    case VariableType::int64: return get_int64(vrs, values.integers);
    case VariableType::enumeration: return get_enumeration(vrs, values.integers);
    case VariableType::uint64: return get_uint64(vrs, values.unsigned_integers);
    case VariableType::boolean: {
      std::unique_ptr<bool[]> b(new bool[n]());
      CallStatus s = get_boolean(vrs, std::span<bool>(b.get(), n));
      for (std::size_t k = 0; k < n; ++k) values.integers[k] = b[k] ? 1 : 0;
      return s;
    }
    case VariableType::string: return get_string(vrs, values.texts);
    case VariableType::binary: {
      std::vector<std::vector<std::uint8_t>> b;
      CallStatus s = get_binary(vrs, b);
      for (std::size_t k = 0; k < n; ++k) values.texts[k] = to_hex(b[k]);
      return s;
    }
    case VariableType::clock: break;
  }
  throw Error(ErrorKind::usage, "instance \"" + name_ + "\": Clock variables have no value to get");
}

CallStatus Instance::set_values(std::span<const ValueReference> vrs, const Values& values) {
  switch (values.type) {
    case VariableType::float64: return set_float64(vrs, values.reals);
    case VariableType::float32: { auto b = narrowed<float>(values.reals); return set_float32(vrs, b); }
    case VariableType::int8: { auto b = narrowed<std::int8_t>(values.integers); return set_int8(vrs, b); }
    case VariableType::uint8: { auto b = narrowed<std::uint8_t>(values.integers); return set_uint8(vrs, b); }
    case VariableType::int16: { auto b = narrowed<std::int16_t>(values.integers); return set_int16(vrs, b); }
    case VariableType::uint16: { auto b = narrowed<std::uint16_t>(values.integers); return set_uint16(vrs, b); }
    case VariableType::int32: { auto b = narrowed<std::int32_t>(values.integers); return set_int32(vrs, b); }
    case VariableType::uint32: { auto b = narrowed<std::uint32_t>(values.integers); return set_uint32(vrs, b); }
    case VariableType::int64: return set_int64(vrs, values.integers);
    case VariableType::enumeration: return set_enumeration(vrs, values.integers);
    case VariableType::uint64: return set_uint64(vrs, values.unsigned_integers);
    case VariableType::boolean: {
      const std::size_t n = values.integers.size();
      std::unique_ptr<bool[]> b(new bool[n]());
      for (std::size_t k = 0; k < n; ++k) b[k] = values.integers[k] != 0;
      return set_boolean(vrs, std::span<const bool>(b.get(), n));
    }
    case VariableType::string: return set_string(vrs, values.texts);
    case VariableType::binary: {
      std::vector<std::vector<std::uint8_t>> b;
      for (const auto& t : values.texts) b.push_back(from_hex(t));
      return set_binary(vrs, b);
    }
    case VariableType::clock: break;
  }
  throw Error(ErrorKind::usage, "instance \"" + name_ + "\": Clock variables are not set by value");
}

void Instance::set_scalar(const Variable& variable, double value) {
  ValueReference vr = variable.value_reference;
  auto bad = [&](const std::string& why) {
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": cannot set \"" + variable.name + "\" to " +
                                      std::to_string(value) + ": " + why);
  };
  if (variable.is_array()) bad("it is an array variable → lsdae sets scalar variables only");
  switch (variable.type) {
    case VariableType::float64:
    case VariableType::float32: {
      if (variable.type == VariableType::float32) bad("Float32 variables are not supported yet → use a Float64 variable");
      set_float64({&vr, 1}, {&value, 1});
      return;
    }
    case VariableType::boolean: {
      if (value != 0.0 && value != 1.0) bad("it is Boolean → use 0/1 or true/false");
      bool b = value != 0.0;
      set_boolean({&vr, 1}, {&b, 1});
      return;
    }
    case VariableType::int32:
    case VariableType::int8:
    case VariableType::int16:
    case VariableType::enumeration: {
      if (variable.type != VariableType::int32 && variable.type != VariableType::enumeration)
        bad(std::string(to_string(variable.type)) + " variables are not supported yet");
      if (std::trunc(value) != value || value < std::numeric_limits<std::int32_t>::min() ||
          value > std::numeric_limits<std::int32_t>::max())
        bad("it is an integer of 32 bits → give a whole number in range");
      if (variable.type == VariableType::enumeration) {
        auto i = static_cast<std::int64_t>(value);
        set_enumeration({&vr, 1}, {&i, 1});
      } else {
        auto i = static_cast<std::int32_t>(value);
        set_int32({&vr, 1}, {&i, 1});
      }
      return;
    }
    case VariableType::int64: {
      if (std::trunc(value) != value || std::fabs(value) > 9.0e15) bad("it is Int64 → give a whole number");
      auto i = static_cast<std::int64_t>(value);
      set_int64({&vr, 1}, {&i, 1});
      return;
    }
    default:
      bad(std::string("variables of type ") + to_string(variable.type) + " cannot be set from a number");
  }
}

}  // namespace lsdae
