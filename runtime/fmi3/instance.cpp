// runtime/fmi3/instance.cpp -- see lsdae/instance.h.
#include "lsdae/instance.h"

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "fmi3/library.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/log.h"
#include "supervise/call_record.h"

namespace lsdae {

const char* to_string(InstanceState state) noexcept {
  switch (state) {
    case InstanceState::instantiated: return "Instantiated";
    case InstanceState::configuration: return "Configuration Mode";
    case InstanceState::initialization: return "Initialization Mode";
    case InstanceState::event: return "Event Mode";
    case InstanceState::continuous_time: return "Continuous-Time Mode";
    case InstanceState::terminated: return "Terminated";
    case InstanceState::failed: return "Failed (after fmi3Fatal)";
  }
  return "?";
}

struct InstanceAccess {
  static void log(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    if (env == nullptr) return;
    static_cast<Instance*>(env)->receive_log(static_cast<int>(status), category, message);
  }
};

namespace {
using supervise::FmuFunction;

// One call into the FMU, marked in the call record for its duration.
// The arguments convert to the function's parameter types at the call, as in a direct call.
template <typename R, typename... P>
R in_call(supervise::CallSlot* slot, FmuFunction id, R (*function)(P...), std::type_identity_t<P>... args) {
  supervise::CallScope scope(slot, id);
  return function(args...);
}
// LSDAE_FMU_CALL(SetTime, time) is fn_->SetTime(handle_, time), marked as above.
#define LSDAE_FMU_CALL(NAME, ...) in_call(call_slot_, FmuFunction::NAME, fn_->NAME, handle_, __VA_ARGS__)
#define LSDAE_FMU_CALL0(NAME) in_call(call_slot_, FmuFunction::NAME, fn_->NAME, handle_)

const char* status_name(int status) {
  switch (status) {
    case fmi3OK: return "fmi3OK";
    case fmi3Warning: return "fmi3Warning";
    case fmi3Discard: return "fmi3Discard";
    case fmi3Error: return "fmi3Error";
    case fmi3Fatal: return "fmi3Fatal";
  }
  return "an invalid fmi3Status";
}
}  // namespace

Instance::Instance(std::shared_ptr<const Fmu> fmu, std::string name)
    : fmu_(std::move(fmu)), name_(std::move(name)), time_(std::nan("")) {
  fn_ = &fmu_->functions();
  const ModelDescription& md = fmu_->model_description();
  std::string resources = (fmu_->unpacked_dir() / "resources").string() + "/";
  call_slot_ = supervise::claim_slot(name_);
  handle_ = in_call(call_slot_, FmuFunction::InstantiateModelExchange, fn_->InstantiateModelExchange, name_.c_str(),
                    md.instantiation_token.c_str(), resources.c_str(), /*visible=*/false, /*loggingOn=*/true,
                    static_cast<fmi3InstanceEnvironment>(this), &InstanceAccess::log);
  if (handle_ == nullptr) {
    supervise::release_slot(call_slot_);
    throw Error(ErrorKind::fmu_call,
                fmu_->display_name() + ": fmi3InstantiateModelExchange(\"" + name_ + "\") returned NULL" +
                    (last_error_.empty() ? "" : " (the FMU said: " + last_error_ + ")") +
                    " → the FMU refused to instantiate; check that modelDescription.xml and the binary belong "
                    "together (instantiation token \"" + md.instantiation_token + "\")");
  }
  ++fmu_->live_instances_;
}

Instance::~Instance() {
  if (handle_ != nullptr && state_ != InstanceState::failed) LSDAE_FMU_CALL0(FreeInstance);
  supervise::release_slot(call_slot_);
  --fmu_->live_instances_;
}

void Instance::receive_log(int status, const char* category, const char* message) {
  std::string text = "[" + name_ + "] " + (category ? category : "") + ": " + (message ? message : "");
  LogLevel level = LogLevel::info;
  if (status == fmi3Warning || status == fmi3Discard) level = LogLevel::warning;
  if (status == fmi3Error || status == fmi3Fatal) {
    level = LogLevel::error;
    last_error_ = message ? message : "";
  }
  Logger::instance().log(level, text);
}

void Instance::require(const char* function, std::initializer_list<InstanceState> allowed) const {
  for (InstanceState s : allowed)
    if (s == state_) return;
  std::string list;
  for (InstanceState s : allowed) list += (list.empty() ? "" : ", ") + std::string(to_string(s));
  throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + function + " is not allowed in " +
                                    to_string(state_) + " → FMI 3.0 allows it in: " + list);
}

CallStatus Instance::check(int status, const char* function, bool discard_is_error) {
  if (status == fmi3OK || status == fmi3Warning) return CallStatus::ok;
  if (status == fmi3Discard && !discard_is_error) {
    ++discards_.count;
    discards_.function = function;
    discards_.time = time_;
    return CallStatus::discard;
  }
  if (status == fmi3Fatal) state_ = InstanceState::failed;
  std::string said = last_error_.empty() ? "" : " (the FMU said: " + last_error_ + ")";
  std::string todo = status == fmi3Fatal ? "the instance is unusable; see the FMU's log messages above"
                                         : "see the FMU's log messages above";
  throw Error(ErrorKind::fmu_call, "instance \"" + name_ + "\": " + function + " returned " + status_name(status) +
                                       said + " → " + todo);
}

std::size_t Instance::element_count(std::span<const ValueReference> vrs) const {
  const ModelDescription& md = fmu_->model_description();
  if (!md.has_arrays()) return vrs.size();
  std::size_t n = 0;
  for (ValueReference vr : vrs) {
    const Variable* v = md.find(vr);
    n += v != nullptr ? v->element_count() : 1;
  }
  return n;
}

namespace {
void require_count(const Instance& instance, const char* function, std::span<const ValueReference> vrs,
                   std::size_t values) {
  const std::size_t expected = instance.element_count(vrs);
  if (expected != values)
    throw Error(ErrorKind::usage, "instance \"" + instance.name() + "\": " + function + ": " +
                                      std::to_string(vrs.size()) + " value references stand for " +
                                      std::to_string(expected) + " values, but " + std::to_string(values) +
                                      " were passed → pass one value per scalar element");
}
}  // namespace

constexpr std::initializer_list<InstanceState> kAnyLive = {
    InstanceState::instantiated, InstanceState::configuration, InstanceState::initialization,
    InstanceState::event,        InstanceState::continuous_time, InstanceState::terminated};

void Instance::enter_configuration_mode() {
  require("fmi3EnterConfigurationMode", {InstanceState::instantiated});
  if (fn_->EnterConfigurationMode == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ +
                                       "\": the binary does not export fmi3EnterConfigurationMode → the FMU's "
                                       "structural parameters (and its DAE switch) cannot be set");
  check(LSDAE_FMU_CALL0(EnterConfigurationMode), "fmi3EnterConfigurationMode", true);
  state_ = InstanceState::configuration;
}

void Instance::exit_configuration_mode() {
  require("fmi3ExitConfigurationMode", {InstanceState::configuration});
  check(LSDAE_FMU_CALL0(ExitConfigurationMode), "fmi3ExitConfigurationMode", true);
  state_ = InstanceState::instantiated;
}

void Instance::enable_dae_mode() {
  const Manifest& manifest = fmu_->manifest();
  if (!manifest.present())
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + fmu_->display_name() +
                                      " has no FMI-LS-DAE manifest, so it has no DAE mode → simulate it as an ODE");
  if (!manifest.enable_dae) {
    dae_mode_ = true;  // DAE-only FMU
    return;
  }
  require("enable_dae_mode", {InstanceState::instantiated});
  if (fn_->SetBoolean == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3SetBoolean → "
                                                           "the DAE switch cannot be set");
  enter_configuration_mode();
  ValueReference vr = *manifest.enable_dae;
  bool on = true;
  check(LSDAE_FMU_CALL(SetBoolean, &vr, 1, &on, 1), "fmi3SetBoolean (DAE enable switch)", true);
  exit_configuration_mode();
  dae_mode_ = true;
}

#define LSDAE_GETSET(TYPE_NAME, CPP_T, FMI_T, GETTER, SETTER)                                              \
  CallStatus Instance::get_##TYPE_NAME(std::span<const ValueReference> vrs, std::span<CPP_T> values) {    \
    require("fmi3Get" #FMI_T, kAnyLive);                                                                  \
    require_count(*this, "fmi3Get" #FMI_T, vrs, values.size());                                          \
    if (fn_->GETTER == nullptr)                                                                           \
      throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3Get" #FMI_T); \
    return check(LSDAE_FMU_CALL(GETTER, vrs.data(), vrs.size(), values.data(), values.size()),             \
                 "fmi3Get" #FMI_T);                                                                       \
  }                                                                                                       \
  CallStatus Instance::set_##TYPE_NAME(std::span<const ValueReference> vrs, std::span<const CPP_T> values) { \
    require("fmi3Set" #FMI_T, {InstanceState::instantiated, InstanceState::configuration,               \
                                InstanceState::initialization, InstanceState::event,                      \
                                InstanceState::continuous_time});                                         \
    require_count(*this, "fmi3Set" #FMI_T, vrs, values.size());                                          \
    if (fn_->SETTER == nullptr)                                                                           \
      throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3Set" #FMI_T); \
    return check(LSDAE_FMU_CALL(SETTER, vrs.data(), vrs.size(), values.data(), values.size()),             \
                 "fmi3Set" #FMI_T);                                                                       \
  }
LSDAE_GETSET(float64, double, Float64, GetFloat64, SetFloat64)
LSDAE_GETSET(boolean, bool, Boolean, GetBoolean, SetBoolean)
LSDAE_GETSET(int32, std::int32_t, Int32, GetInt32, SetInt32)
LSDAE_GETSET(int64, std::int64_t, Int64, GetInt64, SetInt64)
LSDAE_GETSET(float32, float, Float32, GetFloat32, SetFloat32)
LSDAE_GETSET(int8, std::int8_t, Int8, GetInt8, SetInt8)
LSDAE_GETSET(uint8, std::uint8_t, UInt8, GetUInt8, SetUInt8)
LSDAE_GETSET(int16, std::int16_t, Int16, GetInt16, SetInt16)
LSDAE_GETSET(uint16, std::uint16_t, UInt16, GetUInt16, SetUInt16)
LSDAE_GETSET(uint32, std::uint32_t, UInt32, GetUInt32, SetUInt32)
LSDAE_GETSET(uint64, std::uint64_t, UInt64, GetUInt64, SetUInt64)
#undef LSDAE_GETSET

CallStatus Instance::get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) {
  require("fmi3GetString", kAnyLive);
  if (fn_->GetString == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3GetString");
  std::vector<fmi3String> raw(element_count(vrs), nullptr);
  CallStatus status = check(LSDAE_FMU_CALL(GetString, vrs.data(), vrs.size(), raw.data(), raw.size()), "fmi3GetString");
  values.resize(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) values[k] = raw[k] != nullptr ? raw[k] : "";
  return status;
}

CallStatus Instance::set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) {
  require("fmi3SetString", {InstanceState::instantiated, InstanceState::configuration, InstanceState::initialization,
                            InstanceState::event, InstanceState::continuous_time});
  require_count(*this, "fmi3SetString", vrs, values.size());
  if (fn_->SetString == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3SetString");
  std::vector<fmi3String> raw(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) raw[k] = values[k].c_str();
  return check(LSDAE_FMU_CALL(SetString, vrs.data(), vrs.size(), raw.data(), raw.size()), "fmi3SetString");
}

CallStatus Instance::get_binary(std::span<const ValueReference> vrs, std::vector<std::vector<std::uint8_t>>& values) {
  require("fmi3GetBinary", kAnyLive);
  if (fn_->GetBinary == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3GetBinary");
  const std::size_t n = element_count(vrs);
  std::vector<fmi3Binary> raw(n, nullptr);
  std::vector<std::size_t> sizes(n, 0);
  CallStatus status =
      check(LSDAE_FMU_CALL(GetBinary, vrs.data(), vrs.size(), sizes.data(), raw.data(), n), "fmi3GetBinary");
  values.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    values[k].assign(raw[k], raw[k] == nullptr ? raw[k] : raw[k] + sizes[k]);
  return status;
}

CallStatus Instance::set_binary(std::span<const ValueReference> vrs,
                                std::span<const std::vector<std::uint8_t>> values) {
  require("fmi3SetBinary", {InstanceState::instantiated, InstanceState::configuration, InstanceState::initialization,
                            InstanceState::event, InstanceState::continuous_time});
  require_count(*this, "fmi3SetBinary", vrs, values.size());
  if (fn_->SetBinary == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3SetBinary");
  std::vector<fmi3Binary> raw(values.size());
  std::vector<std::size_t> sizes(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    raw[k] = values[k].data();
    sizes[k] = values[k].size();
  }
  return check(LSDAE_FMU_CALL(SetBinary, vrs.data(), vrs.size(), sizes.data(), raw.data(), raw.size()), "fmi3SetBinary");
}

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
    case VariableType::int64:
    case VariableType::enumeration: return get_int64(vrs, values.integers);
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
    case VariableType::int64:
    case VariableType::enumeration: return set_int64(vrs, values.integers);
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
        set_int64({&vr, 1}, {&i, 1});
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

void Instance::enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                         std::optional<double> stop_time) {
  require("fmi3EnterInitializationMode", {InstanceState::instantiated});
  time_ = start_time;
  supervise::note_time(call_slot_, start_time);
  check(LSDAE_FMU_CALL(EnterInitializationMode, tolerance.has_value(), tolerance.value_or(0.0), start_time,
                       stop_time.has_value(), stop_time.value_or(0.0)),
        "fmi3EnterInitializationMode", true);
  state_ = InstanceState::initialization;
}

void Instance::exit_initialization_mode() {
  require("fmi3ExitInitializationMode", {InstanceState::initialization});
  check(LSDAE_FMU_CALL0(ExitInitializationMode), "fmi3ExitInitializationMode", true);
  state_ = InstanceState::event;
}

void Instance::enter_event_mode() {
  require("fmi3EnterEventMode", {InstanceState::continuous_time});
  check(LSDAE_FMU_CALL0(EnterEventMode), "fmi3EnterEventMode", true);
  state_ = InstanceState::event;
}

DiscreteStatesUpdate Instance::update_discrete_states() {
  require("fmi3UpdateDiscreteStates", {InstanceState::event});
  fmi3Boolean need = false, terminate_sim = false, nominals = false, values = false, next_defined = false;
  fmi3Float64 next = 0;
  check(LSDAE_FMU_CALL(UpdateDiscreteStates, &need, &terminate_sim, &nominals, &values, &next_defined, &next),
        "fmi3UpdateDiscreteStates", true);
  DiscreteStatesUpdate u;
  u.discrete_states_need_update = need;
  u.terminate_simulation = terminate_sim;
  u.nominals_of_continuous_states_changed = nominals;
  u.values_of_continuous_states_changed = values;
  if (next_defined) u.next_event_time = next;
  return u;
}

void Instance::enter_continuous_time_mode() {
  require("fmi3EnterContinuousTimeMode", {InstanceState::event});
  check(LSDAE_FMU_CALL0(EnterContinuousTimeMode), "fmi3EnterContinuousTimeMode", true);
  state_ = InstanceState::continuous_time;
}

CallStatus Instance::set_time(double time) {
  require("fmi3SetTime", {InstanceState::event, InstanceState::continuous_time});
  time_ = time;
  supervise::note_time(call_slot_, time);
  return check(LSDAE_FMU_CALL(SetTime, time), "fmi3SetTime");
}

CallStatus Instance::set_continuous_states(std::span<const double> x) {
  require("fmi3SetContinuousStates", {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time});
  return check(LSDAE_FMU_CALL(SetContinuousStates, x.data(), x.size()), "fmi3SetContinuousStates");
}

CallStatus Instance::get_continuous_states(std::span<double> x) {
  require("fmi3GetContinuousStates", kAnyLive);
  return check(LSDAE_FMU_CALL(GetContinuousStates, x.data(), x.size()), "fmi3GetContinuousStates");
}

CallStatus Instance::get_continuous_state_derivatives(std::span<double> dx) {
  require("fmi3GetContinuousStateDerivatives", kAnyLive);
  return check(LSDAE_FMU_CALL(GetContinuousStateDerivatives, dx.data(), dx.size()),
               "fmi3GetContinuousStateDerivatives");
}

CallStatus Instance::get_event_indicators(std::span<double> indicators) {
  require("fmi3GetEventIndicators", kAnyLive);
  return check(LSDAE_FMU_CALL(GetEventIndicators, indicators.data(), indicators.size()), "fmi3GetEventIndicators");
}

CallStatus Instance::get_nominals_of_continuous_states(std::span<double> nominals) {
  require("fmi3GetNominalsOfContinuousStates", kAnyLive);
  return check(LSDAE_FMU_CALL(GetNominalsOfContinuousStates, nominals.data(), nominals.size()),
               "fmi3GetNominalsOfContinuousStates");
}

IntegratorStepResult Instance::completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) {
  require("fmi3CompletedIntegratorStep", {InstanceState::continuous_time});
  fmi3Boolean enter = false, terminate_sim = false;
  check(LSDAE_FMU_CALL(CompletedIntegratorStep, no_set_fmu_state_prior_to_current_point, &enter, &terminate_sim),
        "fmi3CompletedIntegratorStep", true);
  return {enter, terminate_sim};
}

std::size_t Instance::number_of_continuous_states() {
  require("fmi3GetNumberOfContinuousStates", kAnyLive);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfContinuousStates, &n), "fmi3GetNumberOfContinuousStates", true);
  return n;
}

std::size_t Instance::number_of_event_indicators() {
  require("fmi3GetNumberOfEventIndicators", kAnyLive);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfEventIndicators, &n), "fmi3GetNumberOfEventIndicators", true);
  return n;
}

bool Instance::provides_directional_derivatives() const { return fmu_->directional_derivatives_available(); }

CallStatus Instance::get_directional_derivative(std::span<const ValueReference> unknowns,
                                                std::span<const ValueReference> knowns, std::span<const double> seed,
                                                std::span<double> sensitivity) {
  require("fmi3GetDirectionalDerivative",
          {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time});
  if (!provides_directional_derivatives())
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + fmu_->display_name() +
                                      " does not provide directional derivatives → use finite differences");
  require_count(*this, "fmi3GetDirectionalDerivative (knowns/seed)", knowns, seed.size());
  require_count(*this, "fmi3GetDirectionalDerivative (unknowns/sensitivity)", unknowns, sensitivity.size());
  return check(LSDAE_FMU_CALL(GetDirectionalDerivative, unknowns.data(), unknowns.size(), knowns.data(), knowns.size(),
                              seed.data(), seed.size(), sensitivity.data(), sensitivity.size()),
               "fmi3GetDirectionalDerivative");
}

void Instance::terminate() {
  require("fmi3Terminate", {InstanceState::event, InstanceState::continuous_time, InstanceState::initialization});
  check(LSDAE_FMU_CALL0(Terminate), "fmi3Terminate", true);
  state_ = InstanceState::terminated;
}

void Instance::reset() {
  require("fmi3Reset", kAnyLive);
  check(LSDAE_FMU_CALL0(Reset), "fmi3Reset", true);
  state_ = InstanceState::instantiated;
  dae_mode_ = false;
}

#undef LSDAE_FMU_CALL
#undef LSDAE_FMU_CALL0

}  // namespace lsdae
