// runtime/fmu/fmi3/instance.cpp -- the FMI 3.0 calls of an FMU instance;
// see fmi3/instance.h.
#include "fmu/fmi3/instance.h"

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "lsdae/error.h"

namespace lsdae {

struct Fmi3LogAccess {
  static void log(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
    if (env == nullptr) return;
    static_cast<Fmi3Instance*>(env)->receive_log(static_cast<int>(status), category, message);
  }
};

namespace {
using F = FmiFunction;
}  // namespace

// LSDAE_FMU_CALL(SetTime, time) is fn_->SetTime(handle_, time), marked in the
// call record as fmi3SetTime.
#define LSDAE_FMU_CALL(NAME, ...) call(F::fmi3##NAME, fn_->NAME, handle_, __VA_ARGS__)
#define LSDAE_FMU_CALL0(NAME) call(F::fmi3##NAME, fn_->NAME, handle_)

Fmi3Instance::Fmi3Instance(InstanceContext context, std::string name, std::shared_ptr<const Fmi3Library> library)
    : FmuInstance(std::move(context), std::move(name)), library_(std::move(library)), fn_(&library_->fn) {
  const ModelDescription& md = model_description();
  std::string resources = this->context().resources.string() + "/";
  handle_ = call(F::fmi3InstantiateModelExchange, fn_->InstantiateModelExchange, this->name().c_str(),
                 md.instantiation_token.c_str(), resources.c_str(), /*visible=*/false, /*loggingOn=*/true,
                 static_cast<fmi3InstanceEnvironment>(this), &Fmi3LogAccess::log);
  if (handle_ == nullptr)
    throw Error(ErrorKind::fmu_call,
                model_display_name() + ": fmi3InstantiateModelExchange(\"" + this->name() + "\") returned NULL" +
                    fmu_said() +
                    " → the FMU refused to instantiate; check that modelDescription.xml and the binary belong "
                    "together (instantiation token \"" + md.instantiation_token + "\")");
}

Fmi3Instance::~Fmi3Instance() {
  if (handle_ != nullptr && state() != InstanceState::failed) LSDAE_FMU_CALL0(FreeInstance);
}

constexpr std::initializer_list<InstanceState> kAnyLive = {
    InstanceState::instantiated, InstanceState::configuration, InstanceState::initialization,
    InstanceState::event,        InstanceState::continuous_time, InstanceState::terminated};
constexpr std::initializer_list<InstanceState> kSetStates = {InstanceState::instantiated, InstanceState::configuration,
                                                             InstanceState::initialization, InstanceState::event,
                                                             InstanceState::continuous_time};

void Fmi3Instance::enter_configuration_mode() {
  require(ModeChange::enter_configuration, F::fmi3EnterConfigurationMode);
  if (fn_->EnterConfigurationMode == nullptr)
    not_exported(F::fmi3EnterConfigurationMode,
                 "the FMU's structural parameters (and its DAE switch) cannot be set");
  check(LSDAE_FMU_CALL0(EnterConfigurationMode), F::fmi3EnterConfigurationMode, true);
  complete(ModeChange::enter_configuration);
}

void Fmi3Instance::exit_configuration_mode() {
  require(ModeChange::exit_configuration, F::fmi3ExitConfigurationMode);
  check(LSDAE_FMU_CALL0(ExitConfigurationMode), F::fmi3ExitConfigurationMode, true);
  complete(ModeChange::exit_configuration);
}

#define LSDAE_GETSET(TYPE_NAME, CPP_T, FMI_T)                                                                  \
  CallStatus Fmi3Instance::get_##TYPE_NAME(std::span<const ValueReference> vrs, std::span<CPP_T> values) {    \
    require(F::fmi3Get##FMI_T, kAnyLive);                                                                     \
    require_count("fmi3Get" #FMI_T, vrs, values.size());                                                     \
    if (fn_->Get##FMI_T == nullptr) not_exported(F::fmi3Get##FMI_T);                                         \
    return check(LSDAE_FMU_CALL(Get##FMI_T, vrs.data(), vrs.size(), values.data(), values.size()),            \
                 F::fmi3Get##FMI_T);                                                                          \
  }                                                                                                           \
  CallStatus Fmi3Instance::set_##TYPE_NAME(std::span<const ValueReference> vrs, std::span<const CPP_T> values) { \
    require(F::fmi3Set##FMI_T, kSetStates);                                                                   \
    require_count("fmi3Set" #FMI_T, vrs, values.size());                                                     \
    if (fn_->Set##FMI_T == nullptr) not_exported(F::fmi3Set##FMI_T);                                         \
    return check(LSDAE_FMU_CALL(Set##FMI_T, vrs.data(), vrs.size(), values.data(), values.size()),            \
                 F::fmi3Set##FMI_T);                                                                          \
  }
LSDAE_GETSET(float64, double, Float64)
LSDAE_GETSET(boolean, bool, Boolean)
LSDAE_GETSET(int32, std::int32_t, Int32)
LSDAE_GETSET(int64, std::int64_t, Int64)
LSDAE_GETSET(float32, float, Float32)
LSDAE_GETSET(int8, std::int8_t, Int8)
LSDAE_GETSET(uint8, std::uint8_t, UInt8)
LSDAE_GETSET(int16, std::int16_t, Int16)
LSDAE_GETSET(uint16, std::uint16_t, UInt16)
LSDAE_GETSET(uint32, std::uint32_t, UInt32)
LSDAE_GETSET(uint64, std::uint64_t, UInt64)
#undef LSDAE_GETSET

CallStatus Fmi3Instance::get_enumeration(std::span<const ValueReference> vrs, std::span<std::int64_t> values) {
  return get_int64(vrs, values);
}

CallStatus Fmi3Instance::set_enumeration(std::span<const ValueReference> vrs, std::span<const std::int64_t> values) {
  return set_int64(vrs, values);
}

CallStatus Fmi3Instance::get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) {
  require(F::fmi3GetString, kAnyLive);
  if (fn_->GetString == nullptr) not_exported(F::fmi3GetString);
  std::vector<fmi3String> raw(element_count(vrs), nullptr);
  CallStatus status =
      check(LSDAE_FMU_CALL(GetString, vrs.data(), vrs.size(), raw.data(), raw.size()), F::fmi3GetString);
  values.resize(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) values[k] = raw[k] != nullptr ? raw[k] : "";
  return status;
}

CallStatus Fmi3Instance::set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) {
  require(F::fmi3SetString, kSetStates);
  require_count("fmi3SetString", vrs, values.size());
  if (fn_->SetString == nullptr) not_exported(F::fmi3SetString);
  std::vector<fmi3String> raw(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) raw[k] = values[k].c_str();
  return check(LSDAE_FMU_CALL(SetString, vrs.data(), vrs.size(), raw.data(), raw.size()), F::fmi3SetString);
}

CallStatus Fmi3Instance::get_binary(std::span<const ValueReference> vrs, std::vector<std::vector<std::uint8_t>>& values) {
  require(F::fmi3GetBinary, kAnyLive);
  if (fn_->GetBinary == nullptr) not_exported(F::fmi3GetBinary);
  const std::size_t n = element_count(vrs);
  std::vector<fmi3Binary> raw(n, nullptr);
  std::vector<std::size_t> sizes(n, 0);
  CallStatus status =
      check(LSDAE_FMU_CALL(GetBinary, vrs.data(), vrs.size(), sizes.data(), raw.data(), n), F::fmi3GetBinary);
  values.resize(n);
  for (std::size_t k = 0; k < n; ++k)
    values[k].assign(raw[k], raw[k] == nullptr ? raw[k] : raw[k] + sizes[k]);
  return status;
}

CallStatus Fmi3Instance::set_binary(std::span<const ValueReference> vrs,
                                    std::span<const std::vector<std::uint8_t>> values) {
  require(F::fmi3SetBinary, kSetStates);
  require_count("fmi3SetBinary", vrs, values.size());
  if (fn_->SetBinary == nullptr) not_exported(F::fmi3SetBinary);
  std::vector<fmi3Binary> raw(values.size());
  std::vector<std::size_t> sizes(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    raw[k] = values[k].data();
    sizes[k] = values[k].size();
  }
  return check(LSDAE_FMU_CALL(SetBinary, vrs.data(), vrs.size(), sizes.data(), raw.data(), raw.size()),
               F::fmi3SetBinary);
}

void Fmi3Instance::enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                             std::optional<double> stop_time) {
  require(ModeChange::enter_initialization, F::fmi3EnterInitializationMode);
  note_time(start_time);
  check(LSDAE_FMU_CALL(EnterInitializationMode, tolerance.has_value(), tolerance.value_or(0.0), start_time,
                       stop_time.has_value(), stop_time.value_or(0.0)),
        F::fmi3EnterInitializationMode, true);
  complete(ModeChange::enter_initialization);
}

void Fmi3Instance::exit_initialization_mode() {
  require(ModeChange::exit_initialization, F::fmi3ExitInitializationMode);
  check(LSDAE_FMU_CALL0(ExitInitializationMode), F::fmi3ExitInitializationMode, true);
  complete(ModeChange::exit_initialization);
}

void Fmi3Instance::enter_event_mode() {
  require(ModeChange::enter_event, F::fmi3EnterEventMode);
  check(LSDAE_FMU_CALL0(EnterEventMode), F::fmi3EnterEventMode, true);
  complete(ModeChange::enter_event);
}

DiscreteStatesUpdate Fmi3Instance::update_discrete_states() {
  require(F::fmi3UpdateDiscreteStates, {InstanceState::event});
  fmi3Boolean need = false, terminate_sim = false, nominals = false, values = false, next_defined = false;
  fmi3Float64 next = 0;
  check(LSDAE_FMU_CALL(UpdateDiscreteStates, &need, &terminate_sim, &nominals, &values, &next_defined, &next),
        F::fmi3UpdateDiscreteStates, true);
  DiscreteStatesUpdate u;
  u.discrete_states_need_update = need;
  u.terminate_simulation = terminate_sim;
  u.nominals_of_continuous_states_changed = nominals;
  u.values_of_continuous_states_changed = values;
  if (next_defined) u.next_event_time = next;
  return u;
}

void Fmi3Instance::enter_continuous_time_mode() {
  require(ModeChange::enter_continuous_time, F::fmi3EnterContinuousTimeMode);
  check(LSDAE_FMU_CALL0(EnterContinuousTimeMode), F::fmi3EnterContinuousTimeMode, true);
  complete(ModeChange::enter_continuous_time);
}

CallStatus Fmi3Instance::set_time(double time) {
  require(F::fmi3SetTime, {InstanceState::event, InstanceState::continuous_time});
  note_time(time);
  return check(LSDAE_FMU_CALL(SetTime, time), F::fmi3SetTime);
}

CallStatus Fmi3Instance::set_continuous_states(std::span<const double> x) {
  require(F::fmi3SetContinuousStates,
          {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time});
  return check(LSDAE_FMU_CALL(SetContinuousStates, x.data(), x.size()), F::fmi3SetContinuousStates);
}

CallStatus Fmi3Instance::get_continuous_states(std::span<double> x) {
  require(F::fmi3GetContinuousStates, kAnyLive);
  return check(LSDAE_FMU_CALL(GetContinuousStates, x.data(), x.size()), F::fmi3GetContinuousStates);
}

CallStatus Fmi3Instance::get_continuous_state_derivatives(std::span<double> dx) {
  require(F::fmi3GetContinuousStateDerivatives, kAnyLive);
  return check(LSDAE_FMU_CALL(GetContinuousStateDerivatives, dx.data(), dx.size()),
               F::fmi3GetContinuousStateDerivatives);
}

CallStatus Fmi3Instance::get_event_indicators(std::span<double> indicators) {
  require(F::fmi3GetEventIndicators, kAnyLive);
  return check(LSDAE_FMU_CALL(GetEventIndicators, indicators.data(), indicators.size()), F::fmi3GetEventIndicators);
}

CallStatus Fmi3Instance::get_nominals_of_continuous_states(std::span<double> nominals) {
  require(F::fmi3GetNominalsOfContinuousStates, kAnyLive);
  return check(LSDAE_FMU_CALL(GetNominalsOfContinuousStates, nominals.data(), nominals.size()),
               F::fmi3GetNominalsOfContinuousStates);
}

IntegratorStepResult Fmi3Instance::completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) {
  require(F::fmi3CompletedIntegratorStep, {InstanceState::continuous_time});
  fmi3Boolean enter = false, terminate_sim = false;
  check(LSDAE_FMU_CALL(CompletedIntegratorStep, no_set_fmu_state_prior_to_current_point, &enter, &terminate_sim),
        F::fmi3CompletedIntegratorStep, true);
  return {enter, terminate_sim};
}

std::size_t Fmi3Instance::number_of_continuous_states() {
  require(F::fmi3GetNumberOfContinuousStates, kAnyLive);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfContinuousStates, &n), F::fmi3GetNumberOfContinuousStates, true);
  return n;
}

std::size_t Fmi3Instance::number_of_event_indicators() {
  require(F::fmi3GetNumberOfEventIndicators, kAnyLive);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfEventIndicators, &n), F::fmi3GetNumberOfEventIndicators, true);
  return n;
}

CallStatus Fmi3Instance::get_directional_derivative(std::span<const ValueReference> unknowns,
                                                    std::span<const ValueReference> knowns,
                                                    std::span<const double> seed, std::span<double> sensitivity) {
  require(F::fmi3GetDirectionalDerivative,
          {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time});
  require_directional_derivatives();
  require_count("fmi3GetDirectionalDerivative (knowns/seed)", knowns, seed.size());
  require_count("fmi3GetDirectionalDerivative (unknowns/sensitivity)", unknowns, sensitivity.size());
  return check(LSDAE_FMU_CALL(GetDirectionalDerivative, unknowns.data(), unknowns.size(), knowns.data(), knowns.size(),
                              seed.data(), seed.size(), sensitivity.data(), sensitivity.size()),
               F::fmi3GetDirectionalDerivative);
}

void Fmi3Instance::terminate() {
  require(ModeChange::terminate, F::fmi3Terminate);
  check(LSDAE_FMU_CALL0(Terminate), F::fmi3Terminate, true);
  complete(ModeChange::terminate);
}

// The FMU state: the FMU's own, with lsdae's mode machine beside it (kFmuStateStates: fmu_instance.h).

bool Fmi3Instance::can_get_and_set_fmu_state() const {
  return model_description().model_exchange && model_description().model_exchange->can_get_and_set_fmu_state &&
         fn_->GetFMUState != nullptr && fn_->SetFMUState != nullptr && fn_->FreeFMUState != nullptr;
}

void Fmi3Instance::get_fmu_state(SavedState& saved) {
  if (!can_get_and_set_fmu_state()) Instance::get_fmu_state(saved);
  require(F::fmi3GetFMUState, kFmuStateStates);
  fmi3FMUState fmu = saved.fmu;
  check(LSDAE_FMU_CALL(GetFMUState, &fmu), F::fmi3GetFMUState, true);
  saved.fmu = fmu;
  saved.state = state();
  saved.dae_mode = dae_mode();
}

void Fmi3Instance::set_fmu_state(const SavedState& saved) {
  if (!can_get_and_set_fmu_state()) Instance::set_fmu_state(saved);
  require(F::fmi3SetFMUState, kFmuStateStates);
  check(LSDAE_FMU_CALL(SetFMUState, saved.fmu), F::fmi3SetFMUState, true);
  restore_mode(saved.state, saved.dae_mode);
}

void Fmi3Instance::free_fmu_state(SavedState& saved) {
  if (saved.fmu == nullptr) return;
  if (!can_get_and_set_fmu_state()) Instance::free_fmu_state(saved);
  if (state() == InstanceState::failed) {  // no further calls after Fatal; the FMU's memory went with it
    saved.fmu = nullptr;
    return;
  }
  fmi3FMUState fmu = saved.fmu;
  check(LSDAE_FMU_CALL(FreeFMUState, &fmu), F::fmi3FreeFMUState, true);
  saved.fmu = nullptr;
}

void Fmi3Instance::reset() {
  require(ModeChange::reset, F::fmi3Reset);
  check(LSDAE_FMU_CALL0(Reset), F::fmi3Reset, true);
  complete(ModeChange::reset);
  set_dae_mode(false);
}

#undef LSDAE_FMU_CALL
#undef LSDAE_FMU_CALL0

}  // namespace lsdae
