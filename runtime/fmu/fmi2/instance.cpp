// runtime/fmu/fmi2/instance.cpp -- the FMI 2.0 calls of an FMU instance; see
// fmi2/instance.h. The status policy is FmuInstance's, the mode machine
// lsdae::Instance's.
#include "fmu/fmi2/instance.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <vector>

#include "lsdae/error.h"

namespace lsdae {

namespace {
using F = FmiFunction;

// LSDAE_FMU_CALL(SetTime, time) is fn_->SetTime(handle_, time), marked in the
// call record as fmi2SetTime.
#define LSDAE_FMU_CALL(NAME, ...) call(F::fmi2##NAME, fn_->NAME, handle_, __VA_ARGS__)
#define LSDAE_FMU_CALL0(NAME) call(F::fmi2##NAME, fn_->NAME, handle_)

constexpr std::initializer_list<InstanceState> kGetStates = {InstanceState::initialization, InstanceState::event,
                                                             InstanceState::continuous_time, InstanceState::terminated};
// fmi2SetReal: before initialization (exact/approx variables), in
// initialization, and in event and continuous-time mode (inputs).
constexpr std::initializer_list<InstanceState> kSetRealStates = {
    InstanceState::instantiated, InstanceState::initialization, InstanceState::event, InstanceState::continuous_time};
// fmi2SetInteger/Boolean/String: discrete values change at events only.
constexpr std::initializer_list<InstanceState> kSetDiscreteStates = {
    InstanceState::instantiated, InstanceState::initialization, InstanceState::event};

// "file:///tmp/x/resources/" with the path percent-encoded (RFC 3986: all but
// unreserved characters and "/").
std::string file_uri(const std::filesystem::path& dir) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = "file://";
  for (char ch : std::filesystem::absolute(dir).string()) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (out.back() != '/') out += '/';
  return out;
}

void* allocate_memory(std::size_t count, std::size_t size) { return std::calloc(count, size); }
void free_memory(void* p) { std::free(p); }
}  // namespace

struct Fmi2LogAccess {
  // `message` is the FMU's printf format (FMI 2.0, 2.1.5): the attribute tells the
  // compiler so (clang's -Wformat-nonliteral refuses vsnprintf on it otherwise).
  __attribute__((format(printf, 5, 6)))
  static void log(fmi2ComponentEnvironment env, fmi2String /*instance*/, fmi2Status status, fmi2String category,
                  fmi2String message, ...) {
    if (env == nullptr) return;
    auto* self = static_cast<Fmi2Instance*>(env);
    std::string text;
    if (message != nullptr) {
      va_list args;
      va_start(args, message);
      va_list copy;
      va_copy(copy, args);
      const int n = std::vsnprintf(nullptr, 0, message, copy);
      va_end(copy);
      if (n >= 0) {
        text.resize(static_cast<std::size_t>(n) + 1);
        std::vsnprintf(text.data(), text.size(), message, args);
        text.resize(static_cast<std::size_t>(n));
      } else {
        text = message;  // not a valid format: the raw text
      }
      va_end(args);
    }
    text = Fmi2Instance::substitute_references(self->model_description(), text);
    self->receive_log(static_cast<int>(status), category, text.c_str());
  }
};

std::string Fmi2Instance::substitute_references(const ModelDescription& md, const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (std::size_t k = 0; k < message.size(); ++k) {
    if (message[k] != '#') {
      out += message[k];
      continue;
    }
    if (k + 1 < message.size() && message[k + 1] == '#') {  // "##" is "#"
      out += '#';
      ++k;
      continue;
    }
    // "#<r|i|b|s><digits>#"
    std::size_t end = message.find('#', k + 1);
    bool replaced = false;
    if (end != std::string::npos && end > k + 2) {
      const char kind = message[k + 1];
      const std::string digits = message.substr(k + 2, end - k - 2);
      const bool numeric = digits.size() <= 10 && digits.find_first_not_of("0123456789") == std::string::npos;
      if (numeric && (kind == 'r' || kind == 'i' || kind == 'b' || kind == 's')) {
        const unsigned long long vr = std::stoull(digits);
        auto matches = [&](const Variable& v) {
          switch (kind) {
            case 'r': return is_float(v.type);
            case 'i': return v.type == VariableType::int32 || v.type == VariableType::enumeration;
            case 'b': return v.type == VariableType::boolean;
            default: return v.type == VariableType::string;
          }
        };
        const Variable* found = md.find(static_cast<ValueReference>(vr));
        if (vr <= std::numeric_limits<ValueReference>::max() && found != nullptr && !matches(*found)) {
          found = nullptr;
          for (const auto& v : md.variables)
            if (v.value_reference == vr && matches(v)) {
              found = &v;
              break;
            }
        }
        if (vr <= std::numeric_limits<ValueReference>::max() && found != nullptr) {
          out += found->name;
          k = end;
          replaced = true;
        }
      }
    }
    if (!replaced) out += '#';
  }
  return out;
}

Fmi2Instance::Fmi2Instance(InstanceContext context, std::string name, std::shared_ptr<const Fmi2Library> library)
    : FmuInstance(std::move(context), std::move(name)), library_(std::move(library)), fn_(&library_->fn) {
  const ModelDescription& md = model_description();
  const std::string resources = file_uri(this->context().resources);
  // FMI 2.0.0 lets the FMU keep the pointer to the callbacks: they live as long as the instance.
  callbacks_ = std::make_unique<fmi2CallbackFunctions>();
  callbacks_->logger = &Fmi2LogAccess::log;
  callbacks_->allocateMemory = &allocate_memory;
  callbacks_->freeMemory = &free_memory;
  callbacks_->stepFinished = nullptr;
  callbacks_->componentEnvironment = static_cast<fmi2ComponentEnvironment>(this);
  handle_ = call(F::fmi2Instantiate, fn_->Instantiate, this->name().c_str(), fmi2ModelExchange,
                 md.instantiation_token.c_str(), resources.c_str(), callbacks_.get(), fmi2False, fmi2True);
  if (handle_ == nullptr)
    throw Error(ErrorKind::fmu_call,
                model_display_name() + ": fmi2Instantiate(\"" + this->name() + "\") returned NULL" + fmu_said() +
                    " → the FMU refused to instantiate; check that modelDescription.xml and the binary belong "
                    "together (guid \"" + md.instantiation_token + "\")");
}

Fmi2Instance::~Fmi2Instance() {
  if (handle_ != nullptr && state() != InstanceState::failed) LSDAE_FMU_CALL0(FreeInstance);
}

CallStatus Fmi2Instance::get_float64(std::span<const ValueReference> vrs, std::span<double> values) {
  require(F::fmi2GetReal, kGetStates);
  require_count("fmi2GetReal", vrs, values.size());
  return check(LSDAE_FMU_CALL(GetReal, vrs.data(), vrs.size(), values.data()), F::fmi2GetReal);
}

CallStatus Fmi2Instance::set_float64(std::span<const ValueReference> vrs, std::span<const double> values) {
  require(F::fmi2SetReal, kSetRealStates);
  require_count("fmi2SetReal", vrs, values.size());
  return check(LSDAE_FMU_CALL(SetReal, vrs.data(), vrs.size(), values.data()), F::fmi2SetReal);
}

CallStatus Fmi2Instance::get_int32(std::span<const ValueReference> vrs, std::span<std::int32_t> values) {
  require(F::fmi2GetInteger, kGetStates);
  require_count("fmi2GetInteger", vrs, values.size());
  if (fn_->GetInteger == nullptr) not_exported(F::fmi2GetInteger);
  return check(LSDAE_FMU_CALL(GetInteger, vrs.data(), vrs.size(), values.data()), F::fmi2GetInteger);
}

CallStatus Fmi2Instance::set_int32(std::span<const ValueReference> vrs, std::span<const std::int32_t> values) {
  require(F::fmi2SetInteger, kSetDiscreteStates);
  require_count("fmi2SetInteger", vrs, values.size());
  if (fn_->SetInteger == nullptr) not_exported(F::fmi2SetInteger);
  return check(LSDAE_FMU_CALL(SetInteger, vrs.data(), vrs.size(), values.data()), F::fmi2SetInteger);
}

CallStatus Fmi2Instance::get_enumeration(std::span<const ValueReference> vrs, std::span<std::int64_t> values) {
  std::vector<std::int32_t> wire(values.size());
  CallStatus status = get_int32(vrs, wire);
  for (std::size_t k = 0; k < wire.size(); ++k) values[k] = wire[k];
  return status;
}

CallStatus Fmi2Instance::set_enumeration(std::span<const ValueReference> vrs, std::span<const std::int64_t> values) {
  std::vector<std::int32_t> wire(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (values[k] < std::numeric_limits<std::int32_t>::min() || values[k] > std::numeric_limits<std::int32_t>::max())
      throw Error(ErrorKind::usage, "instance \"" + name() + "\": fmi2SetInteger: the Enumeration value " +
                                        std::to_string(values[k]) +
                                        " does not fit FMI 2.0's 32-bit Integer → use an item of the enumeration");
    wire[k] = static_cast<std::int32_t>(values[k]);
  }
  return set_int32(vrs, wire);
}

CallStatus Fmi2Instance::get_boolean(std::span<const ValueReference> vrs, std::span<bool> values) {
  require(F::fmi2GetBoolean, kGetStates);
  require_count("fmi2GetBoolean", vrs, values.size());
  if (fn_->GetBoolean == nullptr) not_exported(F::fmi2GetBoolean);
  std::vector<fmi2Boolean> wire(values.size(), fmi2False);
  CallStatus status = check(LSDAE_FMU_CALL(GetBoolean, vrs.data(), vrs.size(), wire.data()), F::fmi2GetBoolean);
  for (std::size_t k = 0; k < wire.size(); ++k) values[k] = wire[k] != fmi2False;
  return status;
}

CallStatus Fmi2Instance::set_boolean(std::span<const ValueReference> vrs, std::span<const bool> values) {
  require(F::fmi2SetBoolean, kSetDiscreteStates);
  require_count("fmi2SetBoolean", vrs, values.size());
  if (fn_->SetBoolean == nullptr) not_exported(F::fmi2SetBoolean);
  std::vector<fmi2Boolean> wire(values.begin(), values.end());
  return check(LSDAE_FMU_CALL(SetBoolean, vrs.data(), vrs.size(), wire.data()), F::fmi2SetBoolean);
}

CallStatus Fmi2Instance::get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) {
  require(F::fmi2GetString, kGetStates);
  if (fn_->GetString == nullptr) not_exported(F::fmi2GetString);
  std::vector<fmi2String> raw(vrs.size(), nullptr);
  CallStatus status = check(LSDAE_FMU_CALL(GetString, vrs.data(), vrs.size(), raw.data()), F::fmi2GetString);
  values.resize(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) values[k] = raw[k] != nullptr ? raw[k] : "";
  return status;
}

CallStatus Fmi2Instance::set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) {
  require(F::fmi2SetString, kSetDiscreteStates);
  require_count("fmi2SetString", vrs, values.size());
  if (fn_->SetString == nullptr) not_exported(F::fmi2SetString);
  std::vector<fmi2String> raw(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) raw[k] = values[k].c_str();
  return check(LSDAE_FMU_CALL(SetString, vrs.data(), vrs.size(), raw.data()), F::fmi2SetString);
}

void Fmi2Instance::enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                             std::optional<double> stop_time) {
  require(ModeChange::enter_initialization, F::fmi2SetupExperiment);
  note_time(start_time);
  check(LSDAE_FMU_CALL(SetupExperiment, tolerance.has_value() ? fmi2True : fmi2False, tolerance.value_or(0.0),
                       start_time, stop_time.has_value() ? fmi2True : fmi2False, stop_time.value_or(0.0)),
        F::fmi2SetupExperiment, true);
  check(LSDAE_FMU_CALL0(EnterInitializationMode), F::fmi2EnterInitializationMode, true);
  complete(ModeChange::enter_initialization);
}

void Fmi2Instance::exit_initialization_mode() {
  require(ModeChange::exit_initialization, F::fmi2ExitInitializationMode);
  check(LSDAE_FMU_CALL0(ExitInitializationMode), F::fmi2ExitInitializationMode, true);
  complete(ModeChange::exit_initialization);
}

void Fmi2Instance::enter_event_mode() {
  require(ModeChange::enter_event, F::fmi2EnterEventMode);
  check(LSDAE_FMU_CALL0(EnterEventMode), F::fmi2EnterEventMode, true);
  complete(ModeChange::enter_event);
}

DiscreteStatesUpdate Fmi2Instance::update_discrete_states() {
  require(F::fmi2NewDiscreteStates, {InstanceState::event});
  fmi2EventInfo info{};
  check(LSDAE_FMU_CALL(NewDiscreteStates, &info), F::fmi2NewDiscreteStates, true);
  DiscreteStatesUpdate u;
  u.discrete_states_need_update = info.newDiscreteStatesNeeded != fmi2False;
  u.terminate_simulation = info.terminateSimulation != fmi2False;
  u.nominals_of_continuous_states_changed = info.nominalsOfContinuousStatesChanged != fmi2False;
  u.values_of_continuous_states_changed = info.valuesOfContinuousStatesChanged != fmi2False;
  if (info.nextEventTimeDefined != fmi2False) u.next_event_time = info.nextEventTime;
  return u;
}

void Fmi2Instance::enter_continuous_time_mode() {
  require(ModeChange::enter_continuous_time, F::fmi2EnterContinuousTimeMode);
  check(LSDAE_FMU_CALL0(EnterContinuousTimeMode), F::fmi2EnterContinuousTimeMode, true);
  complete(ModeChange::enter_continuous_time);
}

CallStatus Fmi2Instance::set_time(double time) {
  require(F::fmi2SetTime, {InstanceState::event, InstanceState::continuous_time});
  note_time(time);
  return check(LSDAE_FMU_CALL(SetTime, time), F::fmi2SetTime);
}

CallStatus Fmi2Instance::set_continuous_states(std::span<const double> x) {
  require(F::fmi2SetContinuousStates, {InstanceState::continuous_time});
  return check(LSDAE_FMU_CALL(SetContinuousStates, x.data(), x.size()), F::fmi2SetContinuousStates);
}

CallStatus Fmi2Instance::get_continuous_states(std::span<double> x) {
  require(F::fmi2GetContinuousStates, kGetStates);
  return check(LSDAE_FMU_CALL(GetContinuousStates, x.data(), x.size()), F::fmi2GetContinuousStates);
}

CallStatus Fmi2Instance::get_continuous_state_derivatives(std::span<double> dx) {
  require(F::fmi2GetDerivatives, {InstanceState::event, InstanceState::continuous_time, InstanceState::terminated});
  return check(LSDAE_FMU_CALL(GetDerivatives, dx.data(), dx.size()), F::fmi2GetDerivatives);
}

CallStatus Fmi2Instance::get_event_indicators(std::span<double> indicators) {
  require(F::fmi2GetEventIndicators, kGetStates);
  return check(LSDAE_FMU_CALL(GetEventIndicators, indicators.data(), indicators.size()), F::fmi2GetEventIndicators);
}

CallStatus Fmi2Instance::get_nominals_of_continuous_states(std::span<double> nominals) {
  require(F::fmi2GetNominalsOfContinuousStates, {InstanceState::instantiated, InstanceState::event,
                                                InstanceState::continuous_time, InstanceState::terminated});
  return check(LSDAE_FMU_CALL(GetNominalsOfContinuousStates, nominals.data(), nominals.size()),
               F::fmi2GetNominalsOfContinuousStates);
}

IntegratorStepResult Fmi2Instance::completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) {
  require(F::fmi2CompletedIntegratorStep, {InstanceState::continuous_time});
  fmi2Boolean enter = fmi2False, terminate_sim = fmi2False;
  check(LSDAE_FMU_CALL(CompletedIntegratorStep, no_set_fmu_state_prior_to_current_point ? fmi2True : fmi2False,
                       &enter, &terminate_sim),
        F::fmi2CompletedIntegratorStep, true);
  return {enter != fmi2False, terminate_sim != fmi2False};
}

std::size_t Fmi2Instance::number_of_continuous_states() { return context().states; }
std::size_t Fmi2Instance::number_of_event_indicators() { return context().event_indicators; }

CallStatus Fmi2Instance::get_directional_derivative(std::span<const ValueReference> unknowns,
                                                    std::span<const ValueReference> knowns,
                                                    std::span<const double> seed, std::span<double> sensitivity) {
  require(F::fmi2GetDirectionalDerivative,
          {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time,
           InstanceState::terminated});
  require_directional_derivatives();
  require_count("fmi2GetDirectionalDerivative (knowns/seed)", knowns, seed.size());
  require_count("fmi2GetDirectionalDerivative (unknowns/sensitivity)", unknowns, sensitivity.size());
  return check(LSDAE_FMU_CALL(GetDirectionalDerivative, unknowns.data(), unknowns.size(), knowns.data(),
                              knowns.size(), seed.data(), sensitivity.data()),
               F::fmi2GetDirectionalDerivative);
}

// --- Najafi et al.'s constraint functions
namespace {
const ModelExchange& me_of(const Instance& instance) { return *instance.model_description().model_exchange; }
}  // namespace

bool Fmi2Instance::has_constraints() const {
  return me_of(*this).provides_constraints != ModelExchange::Constraints::none && fn_->GetNumberOfConstraints &&
         fn_->Constraint;
}
bool Fmi2Instance::has_constraint_jacobian() const {
  return has_constraints() && me_of(*this).provides_constraints == ModelExchange::Constraints::with_jacobian &&
         fn_->ConstraintJacobian;
}
bool Fmi2Instance::has_projection_step() const { return me_of(*this).provides_projection_step && fn_->ProjectionStep; }
bool Fmi2Instance::has_projection() const { return me_of(*this).provides_projection && fn_->Projection; }

std::size_t Fmi2Instance::max_constraints() const {
  return model_description().max_number_of_constraints.value_or(0);
}

std::size_t Fmi2Instance::number_of_constraints() {
  if (!has_constraints()) return FmuInstance::number_of_constraints();
  require(F::fmi2GetNumberOfConstraints, kGetStates);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfConstraints, &n), F::fmi2GetNumberOfConstraints, true);
  if (n > max_constraints())
    throw Error(ErrorKind::fmu_call, "instance \"" + name() + "\": fmi2GetNumberOfConstraints returned " +
                                         std::to_string(n) + ", more than maxNumberOfConstraints=" +
                                         std::to_string(max_constraints()) +
                                         " → the FMU breaks its own declaration; fix maxNumberOfConstraints");
  return n;
}

namespace {
void require_size(const std::string& instance, const char* function, std::size_t given, std::size_t needed,
                  const char* what) {
  if (given < needed)
    throw Error(ErrorKind::usage, "instance \"" + instance + "\": " + function + ": the buffer holds " +
                                      std::to_string(given) + " values, it needs " + std::to_string(needed) + " (" +
                                      what + ") → pass a larger buffer");
}
}  // namespace

CallStatus Fmi2Instance::constraints(std::span<double> c) {
  if (!has_constraints()) return FmuInstance::constraints(c);
  require(F::fmi2Constraint, kGetStates);
  require_size(name(), "fmi2Constraint", c.size(), max_constraints(), "maxNumberOfConstraints");
  return check(LSDAE_FMU_CALL(Constraint, c.data()), F::fmi2Constraint);
}

CallStatus Fmi2Instance::constraint_jacobian(std::span<double> jacobian) {
  if (!has_constraint_jacobian()) return FmuInstance::constraint_jacobian(jacobian);
  require(F::fmi2ConstraintJacobian, kGetStates);
  require_size(name(), "fmi2ConstraintJacobian", jacobian.size(), max_constraints() * context().states,
               "maxNumberOfConstraints x states");
  return check(LSDAE_FMU_CALL(ConstraintJacobian, jacobian.data()), F::fmi2ConstraintJacobian);
}

CallStatus Fmi2Instance::projection_step(std::span<double> step) {
  if (!has_projection_step()) return FmuInstance::projection_step(step);
  require(F::fmi2ProjectionStep, kGetStates);
  require_size(name(), "fmi2ProjectionStep", step.size(), context().states, "one per state");
  return check(LSDAE_FMU_CALL(ProjectionStep, step.data()), F::fmi2ProjectionStep);
}

CallStatus Fmi2Instance::projection(std::span<double> correction, double tolerance, std::size_t iteration_limit,
                                    bool apply) {
  if (!has_projection()) return FmuInstance::projection(correction, tolerance, iteration_limit, apply);
  require(F::fmi2Projection, kGetStates);
  require_size(name(), "fmi2Projection", correction.size(), context().states, "one per state");
  return check(LSDAE_FMU_CALL(Projection, correction.data(), tolerance, iteration_limit, apply ? fmi2True : fmi2False),
               F::fmi2Projection);
}

void Fmi2Instance::terminate() {
  require(ModeChange::terminate, F::fmi2Terminate);
  check(LSDAE_FMU_CALL0(Terminate), F::fmi2Terminate, true);
  complete(ModeChange::terminate);
}

// The FMU state: the FMU's own, with lsdae's mode machine beside it (kFmuStateStates: fmu_instance.h).

bool Fmi2Instance::can_get_and_set_fmu_state() const {
  return model_description().model_exchange && model_description().model_exchange->can_get_and_set_fmu_state &&
         fn_->GetFMUstate != nullptr && fn_->SetFMUstate != nullptr && fn_->FreeFMUstate != nullptr;
}

void Fmi2Instance::get_fmu_state(SavedState& saved) {
  if (!can_get_and_set_fmu_state()) Instance::get_fmu_state(saved);
  require(F::fmi2GetFMUstate, kFmuStateStates);
  fmi2FMUstate fmu = saved.fmu;
  check(LSDAE_FMU_CALL(GetFMUstate, &fmu), F::fmi2GetFMUstate, true);
  saved.fmu = fmu;
  saved.state = state();
  saved.dae_mode = dae_mode();
}

void Fmi2Instance::set_fmu_state(const SavedState& saved) {
  if (!can_get_and_set_fmu_state()) Instance::set_fmu_state(saved);
  require(F::fmi2SetFMUstate, kFmuStateStates);
  check(LSDAE_FMU_CALL(SetFMUstate, saved.fmu), F::fmi2SetFMUstate, true);
  restore_mode(saved.state, saved.dae_mode);
}

void Fmi2Instance::free_fmu_state(SavedState& saved) {
  if (saved.fmu == nullptr) return;
  if (!can_get_and_set_fmu_state()) Instance::free_fmu_state(saved);
  if (state() == InstanceState::failed) {  // no further calls after Fatal; the FMU's memory went with it
    saved.fmu = nullptr;
    return;
  }
  fmi2FMUstate fmu = saved.fmu;
  check(LSDAE_FMU_CALL(FreeFMUstate, &fmu), F::fmi2FreeFMUstate, true);
  saved.fmu = nullptr;
}

void Fmi2Instance::reset() {
  require(ModeChange::reset, F::fmi2Reset);
  check(LSDAE_FMU_CALL0(Reset), F::fmi2Reset, true);
  complete(ModeChange::reset);
  set_dae_mode(false);
}

#undef LSDAE_FMU_CALL
#undef LSDAE_FMU_CALL0

}  // namespace lsdae
