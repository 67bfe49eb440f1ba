// runtime/fmi3/instance.cpp -- the FMI 3.0 calls of lsdae::Instance; see
// fmi3/instance.h.
#include "fmi3/instance.h"

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

struct Fmi3LogAccess {
  static void log(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    if (env == nullptr) return;
    static_cast<Fmi3Instance*>(env)->receive_log(static_cast<int>(status), category, message);
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
#define LSDAE_FMU_CALL(NAME, ...) in_call(call_slot(), FmuFunction::NAME, fn_->NAME, handle_, __VA_ARGS__)
#define LSDAE_FMU_CALL0(NAME) in_call(call_slot(), FmuFunction::NAME, fn_->NAME, handle_)

}  // namespace

Fmi3Instance::Fmi3Instance(std::shared_ptr<const Fmu> fmu, std::string name, const Fmi3Functions& functions)
    : Instance(std::move(fmu), std::move(name)), fn_(&functions) {
  const ModelDescription& md = fmu_->model_description();
  std::string resources = (fmu_->unpacked_dir() / "resources").string() + "/";
  handle_ = in_call(call_slot(), FmuFunction::InstantiateModelExchange, fn_->InstantiateModelExchange, name_.c_str(),
                    md.instantiation_token.c_str(), resources.c_str(), /*visible=*/false, /*loggingOn=*/true,
                    static_cast<fmi3InstanceEnvironment>(this), &Fmi3LogAccess::log);
  if (handle_ == nullptr)
    throw Error(ErrorKind::fmu_call,
                fmu_->display_name() + ": fmi3InstantiateModelExchange(\"" + name_ + "\") returned NULL" +
                    (last_error_.empty() ? "" : " (the FMU said: " + last_error_ + ")") +
                    " → the FMU refused to instantiate; check that modelDescription.xml and the binary belong "
                    "together (instantiation token \"" + md.instantiation_token + "\")");
}

Fmi3Instance::~Fmi3Instance() {
  if (handle_ != nullptr && state_ != InstanceState::failed) LSDAE_FMU_CALL0(FreeInstance);
}

constexpr std::initializer_list<InstanceState> kAnyLive = {
    InstanceState::instantiated, InstanceState::configuration, InstanceState::initialization,
    InstanceState::event,        InstanceState::continuous_time, InstanceState::terminated};

void Fmi3Instance::enter_configuration_mode() {
  require("fmi3EnterConfigurationMode", {InstanceState::instantiated});
  if (fn_->EnterConfigurationMode == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ +
                                       "\": the binary does not export fmi3EnterConfigurationMode → the FMU's "
                                       "structural parameters (and its DAE switch) cannot be set");
  check(LSDAE_FMU_CALL0(EnterConfigurationMode), "fmi3EnterConfigurationMode", true);
  state_ = InstanceState::configuration;
}

void Fmi3Instance::exit_configuration_mode() {
  require("fmi3ExitConfigurationMode", {InstanceState::configuration});
  check(LSDAE_FMU_CALL0(ExitConfigurationMode), "fmi3ExitConfigurationMode", true);
  state_ = InstanceState::instantiated;
}


#define LSDAE_GETSET(TYPE_NAME, CPP_T, FMI_T, GETTER, SETTER)                                              \
  CallStatus Fmi3Instance::get_##TYPE_NAME(std::span<const ValueReference> vrs, std::span<CPP_T> values) {    \
    require("fmi3Get" #FMI_T, kAnyLive);                                                                  \
    require_count("fmi3Get" #FMI_T, vrs, values.size());                                          \
    if (fn_->GETTER == nullptr)                                                                           \
      throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3Get" #FMI_T); \
    return check(LSDAE_FMU_CALL(GETTER, vrs.data(), vrs.size(), values.data(), values.size()),             \
                 "fmi3Get" #FMI_T);                                                                       \
  }                                                                                                       \
  CallStatus Fmi3Instance::set_##TYPE_NAME(std::span<const ValueReference> vrs, std::span<const CPP_T> values) { \
    require("fmi3Set" #FMI_T, {InstanceState::instantiated, InstanceState::configuration,               \
                                InstanceState::initialization, InstanceState::event,                      \
                                InstanceState::continuous_time});                                         \
    require_count("fmi3Set" #FMI_T, vrs, values.size());                                          \
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

CallStatus Fmi3Instance::get_enumeration(std::span<const ValueReference> vrs, std::span<std::int64_t> values) {
  return get_int64(vrs, values);
}

CallStatus Fmi3Instance::set_enumeration(std::span<const ValueReference> vrs, std::span<const std::int64_t> values) {
  return set_int64(vrs, values);
}

CallStatus Fmi3Instance::get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) {
  require("fmi3GetString", kAnyLive);
  if (fn_->GetString == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3GetString");
  std::vector<fmi3String> raw(element_count(vrs), nullptr);
  CallStatus status = check(LSDAE_FMU_CALL(GetString, vrs.data(), vrs.size(), raw.data(), raw.size()), "fmi3GetString");
  values.resize(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) values[k] = raw[k] != nullptr ? raw[k] : "";
  return status;
}

CallStatus Fmi3Instance::set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) {
  require("fmi3SetString", {InstanceState::instantiated, InstanceState::configuration, InstanceState::initialization,
                            InstanceState::event, InstanceState::continuous_time});
  require_count("fmi3SetString", vrs, values.size());
  if (fn_->SetString == nullptr)
    throw Error(ErrorKind::binary, "instance \"" + name_ + "\": the binary does not export fmi3SetString");
  std::vector<fmi3String> raw(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) raw[k] = values[k].c_str();
  return check(LSDAE_FMU_CALL(SetString, vrs.data(), vrs.size(), raw.data(), raw.size()), "fmi3SetString");
}

CallStatus Fmi3Instance::get_binary(std::span<const ValueReference> vrs, std::vector<std::vector<std::uint8_t>>& values) {
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

CallStatus Fmi3Instance::set_binary(std::span<const ValueReference> vrs,
                                std::span<const std::vector<std::uint8_t>> values) {
  require("fmi3SetBinary", {InstanceState::instantiated, InstanceState::configuration, InstanceState::initialization,
                            InstanceState::event, InstanceState::continuous_time});
  require_count("fmi3SetBinary", vrs, values.size());
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

void Fmi3Instance::enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                         std::optional<double> stop_time) {
  require("fmi3EnterInitializationMode", {InstanceState::instantiated});
  note_time(start_time);
  check(LSDAE_FMU_CALL(EnterInitializationMode, tolerance.has_value(), tolerance.value_or(0.0), start_time,
                       stop_time.has_value(), stop_time.value_or(0.0)),
        "fmi3EnterInitializationMode", true);
  state_ = InstanceState::initialization;
}

void Fmi3Instance::exit_initialization_mode() {
  require("fmi3ExitInitializationMode", {InstanceState::initialization});
  check(LSDAE_FMU_CALL0(ExitInitializationMode), "fmi3ExitInitializationMode", true);
  state_ = InstanceState::event;
}

void Fmi3Instance::enter_event_mode() {
  require("fmi3EnterEventMode", {InstanceState::continuous_time});
  check(LSDAE_FMU_CALL0(EnterEventMode), "fmi3EnterEventMode", true);
  state_ = InstanceState::event;
}

DiscreteStatesUpdate Fmi3Instance::update_discrete_states() {
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

void Fmi3Instance::enter_continuous_time_mode() {
  require("fmi3EnterContinuousTimeMode", {InstanceState::event});
  check(LSDAE_FMU_CALL0(EnterContinuousTimeMode), "fmi3EnterContinuousTimeMode", true);
  state_ = InstanceState::continuous_time;
}

CallStatus Fmi3Instance::set_time(double time) {
  require("fmi3SetTime", {InstanceState::event, InstanceState::continuous_time});
  note_time(time);
  return check(LSDAE_FMU_CALL(SetTime, time), "fmi3SetTime");
}

CallStatus Fmi3Instance::set_continuous_states(std::span<const double> x) {
  require("fmi3SetContinuousStates", {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time});
  return check(LSDAE_FMU_CALL(SetContinuousStates, x.data(), x.size()), "fmi3SetContinuousStates");
}

CallStatus Fmi3Instance::get_continuous_states(std::span<double> x) {
  require("fmi3GetContinuousStates", kAnyLive);
  return check(LSDAE_FMU_CALL(GetContinuousStates, x.data(), x.size()), "fmi3GetContinuousStates");
}

CallStatus Fmi3Instance::get_continuous_state_derivatives(std::span<double> dx) {
  require("fmi3GetContinuousStateDerivatives", kAnyLive);
  return check(LSDAE_FMU_CALL(GetContinuousStateDerivatives, dx.data(), dx.size()),
               "fmi3GetContinuousStateDerivatives");
}

CallStatus Fmi3Instance::get_event_indicators(std::span<double> indicators) {
  require("fmi3GetEventIndicators", kAnyLive);
  return check(LSDAE_FMU_CALL(GetEventIndicators, indicators.data(), indicators.size()), "fmi3GetEventIndicators");
}

CallStatus Fmi3Instance::get_nominals_of_continuous_states(std::span<double> nominals) {
  require("fmi3GetNominalsOfContinuousStates", kAnyLive);
  return check(LSDAE_FMU_CALL(GetNominalsOfContinuousStates, nominals.data(), nominals.size()),
               "fmi3GetNominalsOfContinuousStates");
}

IntegratorStepResult Fmi3Instance::completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) {
  require("fmi3CompletedIntegratorStep", {InstanceState::continuous_time});
  fmi3Boolean enter = false, terminate_sim = false;
  check(LSDAE_FMU_CALL(CompletedIntegratorStep, no_set_fmu_state_prior_to_current_point, &enter, &terminate_sim),
        "fmi3CompletedIntegratorStep", true);
  return {enter, terminate_sim};
}

std::size_t Fmi3Instance::number_of_continuous_states() {
  require("fmi3GetNumberOfContinuousStates", kAnyLive);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfContinuousStates, &n), "fmi3GetNumberOfContinuousStates", true);
  return n;
}

std::size_t Fmi3Instance::number_of_event_indicators() {
  require("fmi3GetNumberOfEventIndicators", kAnyLive);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfEventIndicators, &n), "fmi3GetNumberOfEventIndicators", true);
  return n;
}


CallStatus Fmi3Instance::get_directional_derivative(std::span<const ValueReference> unknowns,
                                                std::span<const ValueReference> knowns, std::span<const double> seed,
                                                std::span<double> sensitivity) {
  require("fmi3GetDirectionalDerivative",
          {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time});
  if (!provides_directional_derivatives())
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + fmu_->display_name() +
                                      " does not provide directional derivatives → use finite differences");
  require_count("fmi3GetDirectionalDerivative (knowns/seed)", knowns, seed.size());
  require_count("fmi3GetDirectionalDerivative (unknowns/sensitivity)", unknowns, sensitivity.size());
  return check(LSDAE_FMU_CALL(GetDirectionalDerivative, unknowns.data(), unknowns.size(), knowns.data(), knowns.size(),
                              seed.data(), seed.size(), sensitivity.data(), sensitivity.size()),
               "fmi3GetDirectionalDerivative");
}

void Fmi3Instance::terminate() {
  require("fmi3Terminate", {InstanceState::event, InstanceState::continuous_time, InstanceState::initialization});
  check(LSDAE_FMU_CALL0(Terminate), "fmi3Terminate", true);
  state_ = InstanceState::terminated;
}

void Fmi3Instance::reset() {
  require("fmi3Reset", kAnyLive);
  check(LSDAE_FMU_CALL0(Reset), "fmi3Reset", true);
  state_ = InstanceState::instantiated;
  dae_mode_ = false;
}

#undef LSDAE_FMU_CALL
#undef LSDAE_FMU_CALL0

}  // namespace lsdae
