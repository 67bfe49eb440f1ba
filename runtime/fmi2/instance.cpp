// runtime/fmi2/instance.cpp -- the FMI 2.0 calls of lsdae::Instance; see
// fmi2/instance.h. The status policy and state checks are the base class's.
#include "fmi2/instance.h"

#include <cctype>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>
#include <vector>

#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "supervise/call_record.h"

namespace lsdae {

namespace {
using supervise::FmuFunction;

template <typename R, typename... P>
R in_call(supervise::CallSlot* slot, FmuFunction id, R (*function)(P...), std::type_identity_t<P>... args) {
  supervise::CallScope scope(slot, id);
  return function(args...);
}
// LSDAE_FMU_CALL(SetTime, time) is fn_->SetTime(handle_, time), marked as fmi2SetTime.
#define LSDAE_FMU_CALL(NAME, ...) in_call(call_slot(), FmuFunction::Fmi2##NAME, fn_->NAME, handle_, __VA_ARGS__)
#define LSDAE_FMU_CALL0(NAME) in_call(call_slot(), FmuFunction::Fmi2##NAME, fn_->NAME, handle_)

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
    text = Fmi2Instance::substitute_references(self->fmu().model_description(), text);
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

Fmi2Instance::Fmi2Instance(std::shared_ptr<const Fmu> fmu, std::string name, const Fmi2Functions& functions)
    : Instance(std::move(fmu), std::move(name)), fn_(&functions) {
  const ModelDescription& md = fmu_->model_description();
  const std::string resources = file_uri(fmu_->unpacked_dir() / "resources");
  // FMI 2.0.0 lets the FMU keep the pointer to the callbacks: they live as long as the instance.
  callbacks_ = std::make_unique<fmi2CallbackFunctions>();
  callbacks_->logger = &Fmi2LogAccess::log;
  callbacks_->allocateMemory = &allocate_memory;
  callbacks_->freeMemory = &free_memory;
  callbacks_->stepFinished = nullptr;
  callbacks_->componentEnvironment = static_cast<fmi2ComponentEnvironment>(this);
  handle_ = in_call(call_slot(), FmuFunction::Fmi2Instantiate, fn_->Instantiate, name_.c_str(), fmi2ModelExchange,
                    md.instantiation_token.c_str(), resources.c_str(), callbacks_.get(), fmi2False, fmi2True);
  if (handle_ == nullptr)
    throw Error(ErrorKind::fmu_call,
                fmu_->display_name() + ": fmi2Instantiate(\"" + name_ + "\") returned NULL" +
                    (last_error_.empty() ? "" : " (the FMU said: " + last_error_ + ")") +
                    " → the FMU refused to instantiate; check that modelDescription.xml and the binary belong "
                    "together (guid \"" + md.instantiation_token + "\")");
}

Fmi2Instance::~Fmi2Instance() {
  if (handle_ != nullptr && state_ != InstanceState::failed) LSDAE_FMU_CALL0(FreeInstance);
}

CallStatus Fmi2Instance::get_float64(std::span<const ValueReference> vrs, std::span<double> values) {
  require("fmi2GetReal", kGetStates);
  require_count("fmi2GetReal", vrs, values.size());
  return check(LSDAE_FMU_CALL(GetReal, vrs.data(), vrs.size(), values.data()), "fmi2GetReal");
}

CallStatus Fmi2Instance::set_float64(std::span<const ValueReference> vrs, std::span<const double> values) {
  require("fmi2SetReal", kSetRealStates);
  require_count("fmi2SetReal", vrs, values.size());
  return check(LSDAE_FMU_CALL(SetReal, vrs.data(), vrs.size(), values.data()), "fmi2SetReal");
}

CallStatus Fmi2Instance::get_int32(std::span<const ValueReference> vrs, std::span<std::int32_t> values) {
  require("fmi2GetInteger", kGetStates);
  require_count("fmi2GetInteger", vrs, values.size());
  if (fn_->GetInteger == nullptr) not_exported("fmi2GetInteger");
  return check(LSDAE_FMU_CALL(GetInteger, vrs.data(), vrs.size(), values.data()), "fmi2GetInteger");
}

CallStatus Fmi2Instance::set_int32(std::span<const ValueReference> vrs, std::span<const std::int32_t> values) {
  require("fmi2SetInteger", kSetDiscreteStates);
  require_count("fmi2SetInteger", vrs, values.size());
  if (fn_->SetInteger == nullptr) not_exported("fmi2SetInteger");
  return check(LSDAE_FMU_CALL(SetInteger, vrs.data(), vrs.size(), values.data()), "fmi2SetInteger");
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
      throw Error(ErrorKind::usage, "instance \"" + name_ + "\": fmi2SetInteger: the Enumeration value " +
                                        std::to_string(values[k]) +
                                        " does not fit FMI 2.0's 32-bit Integer → use an item of the enumeration");
    wire[k] = static_cast<std::int32_t>(values[k]);
  }
  return set_int32(vrs, wire);
}

CallStatus Fmi2Instance::get_boolean(std::span<const ValueReference> vrs, std::span<bool> values) {
  require("fmi2GetBoolean", kGetStates);
  require_count("fmi2GetBoolean", vrs, values.size());
  if (fn_->GetBoolean == nullptr) not_exported("fmi2GetBoolean");
  std::vector<fmi2Boolean> wire(values.size(), fmi2False);
  CallStatus status = check(LSDAE_FMU_CALL(GetBoolean, vrs.data(), vrs.size(), wire.data()), "fmi2GetBoolean");
  for (std::size_t k = 0; k < wire.size(); ++k) values[k] = wire[k] != fmi2False;
  return status;
}

CallStatus Fmi2Instance::set_boolean(std::span<const ValueReference> vrs, std::span<const bool> values) {
  require("fmi2SetBoolean", kSetDiscreteStates);
  require_count("fmi2SetBoolean", vrs, values.size());
  if (fn_->SetBoolean == nullptr) not_exported("fmi2SetBoolean");
  std::vector<fmi2Boolean> wire(values.begin(), values.end());
  return check(LSDAE_FMU_CALL(SetBoolean, vrs.data(), vrs.size(), wire.data()), "fmi2SetBoolean");
}

CallStatus Fmi2Instance::get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) {
  require("fmi2GetString", kGetStates);
  if (fn_->GetString == nullptr) not_exported("fmi2GetString");
  std::vector<fmi2String> raw(vrs.size(), nullptr);
  CallStatus status = check(LSDAE_FMU_CALL(GetString, vrs.data(), vrs.size(), raw.data()), "fmi2GetString");
  values.resize(raw.size());
  for (std::size_t k = 0; k < raw.size(); ++k) values[k] = raw[k] != nullptr ? raw[k] : "";
  return status;
}

CallStatus Fmi2Instance::set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) {
  require("fmi2SetString", kSetDiscreteStates);
  require_count("fmi2SetString", vrs, values.size());
  if (fn_->SetString == nullptr) not_exported("fmi2SetString");
  std::vector<fmi2String> raw(values.size());
  for (std::size_t k = 0; k < values.size(); ++k) raw[k] = values[k].c_str();
  return check(LSDAE_FMU_CALL(SetString, vrs.data(), vrs.size(), raw.data()), "fmi2SetString");
}

void Fmi2Instance::enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                             std::optional<double> stop_time) {
  require("fmi2SetupExperiment", {InstanceState::instantiated});
  note_time(start_time);
  check(LSDAE_FMU_CALL(SetupExperiment, tolerance.has_value() ? fmi2True : fmi2False, tolerance.value_or(0.0),
                       start_time, stop_time.has_value() ? fmi2True : fmi2False, stop_time.value_or(0.0)),
        "fmi2SetupExperiment", true);
  check(LSDAE_FMU_CALL0(EnterInitializationMode), "fmi2EnterInitializationMode", true);
  state_ = InstanceState::initialization;
}

void Fmi2Instance::exit_initialization_mode() {
  require("fmi2ExitInitializationMode", {InstanceState::initialization});
  check(LSDAE_FMU_CALL0(ExitInitializationMode), "fmi2ExitInitializationMode", true);
  state_ = InstanceState::event;
}

void Fmi2Instance::enter_event_mode() {
  require("fmi2EnterEventMode", {InstanceState::continuous_time});
  check(LSDAE_FMU_CALL0(EnterEventMode), "fmi2EnterEventMode", true);
  state_ = InstanceState::event;
}

DiscreteStatesUpdate Fmi2Instance::update_discrete_states() {
  require("fmi2NewDiscreteStates", {InstanceState::event});
  fmi2EventInfo info{};
  check(LSDAE_FMU_CALL(NewDiscreteStates, &info), "fmi2NewDiscreteStates", true);
  DiscreteStatesUpdate u;
  u.discrete_states_need_update = info.newDiscreteStatesNeeded != fmi2False;
  u.terminate_simulation = info.terminateSimulation != fmi2False;
  u.nominals_of_continuous_states_changed = info.nominalsOfContinuousStatesChanged != fmi2False;
  u.values_of_continuous_states_changed = info.valuesOfContinuousStatesChanged != fmi2False;
  if (info.nextEventTimeDefined != fmi2False) u.next_event_time = info.nextEventTime;
  return u;
}

void Fmi2Instance::enter_continuous_time_mode() {
  require("fmi2EnterContinuousTimeMode", {InstanceState::event});
  check(LSDAE_FMU_CALL0(EnterContinuousTimeMode), "fmi2EnterContinuousTimeMode", true);
  state_ = InstanceState::continuous_time;
}

CallStatus Fmi2Instance::set_time(double time) {
  require("fmi2SetTime", {InstanceState::event, InstanceState::continuous_time});
  note_time(time);
  return check(LSDAE_FMU_CALL(SetTime, time), "fmi2SetTime");
}

CallStatus Fmi2Instance::set_continuous_states(std::span<const double> x) {
  require("fmi2SetContinuousStates", {InstanceState::continuous_time});
  return check(LSDAE_FMU_CALL(SetContinuousStates, x.data(), x.size()), "fmi2SetContinuousStates");
}

CallStatus Fmi2Instance::get_continuous_states(std::span<double> x) {
  require("fmi2GetContinuousStates", kGetStates);
  return check(LSDAE_FMU_CALL(GetContinuousStates, x.data(), x.size()), "fmi2GetContinuousStates");
}

CallStatus Fmi2Instance::get_continuous_state_derivatives(std::span<double> dx) {
  require("fmi2GetDerivatives", {InstanceState::event, InstanceState::continuous_time, InstanceState::terminated});
  return check(LSDAE_FMU_CALL(GetDerivatives, dx.data(), dx.size()), "fmi2GetDerivatives");
}

CallStatus Fmi2Instance::get_event_indicators(std::span<double> indicators) {
  require("fmi2GetEventIndicators", kGetStates);
  return check(LSDAE_FMU_CALL(GetEventIndicators, indicators.data(), indicators.size()), "fmi2GetEventIndicators");
}

CallStatus Fmi2Instance::get_nominals_of_continuous_states(std::span<double> nominals) {
  require("fmi2GetNominalsOfContinuousStates", {InstanceState::instantiated, InstanceState::event,
                                                InstanceState::continuous_time, InstanceState::terminated});
  return check(LSDAE_FMU_CALL(GetNominalsOfContinuousStates, nominals.data(), nominals.size()),
               "fmi2GetNominalsOfContinuousStates");
}

IntegratorStepResult Fmi2Instance::completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) {
  require("fmi2CompletedIntegratorStep", {InstanceState::continuous_time});
  fmi2Boolean enter = fmi2False, terminate_sim = fmi2False;
  check(LSDAE_FMU_CALL(CompletedIntegratorStep, no_set_fmu_state_prior_to_current_point ? fmi2True : fmi2False,
                       &enter, &terminate_sim),
        "fmi2CompletedIntegratorStep", true);
  return {enter != fmi2False, terminate_sim != fmi2False};
}

std::size_t Fmi2Instance::number_of_continuous_states() { return fmu_->states().size(); }
std::size_t Fmi2Instance::number_of_event_indicators() { return fmu_->event_indicator_count(); }

CallStatus Fmi2Instance::get_directional_derivative(std::span<const ValueReference> unknowns,
                                                    std::span<const ValueReference> knowns,
                                                    std::span<const double> seed, std::span<double> sensitivity) {
  require("fmi2GetDirectionalDerivative",
          {InstanceState::initialization, InstanceState::event, InstanceState::continuous_time,
           InstanceState::terminated});
  if (!provides_directional_derivatives())
    throw Error(ErrorKind::usage, "instance \"" + name_ + "\": " + fmu_->display_name() +
                                      " does not provide directional derivatives → use finite differences");
  require_count("fmi2GetDirectionalDerivative (knowns/seed)", knowns, seed.size());
  require_count("fmi2GetDirectionalDerivative (unknowns/sensitivity)", unknowns, sensitivity.size());
  return check(LSDAE_FMU_CALL(GetDirectionalDerivative, unknowns.data(), unknowns.size(), knowns.data(),
                              knowns.size(), seed.data(), sensitivity.data()),
               "fmi2GetDirectionalDerivative");
}

// --- Najafi et al.'s constraint functions
namespace {
const ModelExchange& me_of(const Fmu& fmu) { return *fmu.model_description().model_exchange; }
}  // namespace

bool Fmi2Instance::has_constraints() const {
  return me_of(*fmu_).provides_constraints != ModelExchange::Constraints::none && fn_->GetNumberOfConstraints &&
         fn_->Constraint;
}
bool Fmi2Instance::has_constraint_jacobian() const {
  return has_constraints() && me_of(*fmu_).provides_constraints == ModelExchange::Constraints::with_jacobian &&
         fn_->ConstraintJacobian;
}
bool Fmi2Instance::has_projection_step() const { return me_of(*fmu_).provides_projection_step && fn_->ProjectionStep; }
bool Fmi2Instance::has_projection() const { return me_of(*fmu_).provides_projection && fn_->Projection; }

std::size_t Fmi2Instance::max_constraints() const {
  return fmu_->model_description().max_number_of_constraints.value_or(0);
}

std::size_t Fmi2Instance::number_of_constraints() {
  if (!has_constraints()) return Instance::number_of_constraints();
  require("fmi2GetNumberOfConstraints", kGetStates);
  std::size_t n = 0;
  check(LSDAE_FMU_CALL(GetNumberOfConstraints, &n), "fmi2GetNumberOfConstraints", true);
  if (n > max_constraints())
    throw Error(ErrorKind::fmu_call, "instance \"" + name_ + "\": fmi2GetNumberOfConstraints returned " +
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
  if (!has_constraints()) return Instance::constraints(c);
  require("fmi2Constraint", kGetStates);
  require_size(name_, "fmi2Constraint", c.size(), max_constraints(), "maxNumberOfConstraints");
  return check(LSDAE_FMU_CALL(Constraint, c.data()), "fmi2Constraint");
}

CallStatus Fmi2Instance::constraint_jacobian(std::span<double> jacobian) {
  if (!has_constraint_jacobian()) return Instance::constraint_jacobian(jacobian);
  require("fmi2ConstraintJacobian", kGetStates);
  require_size(name_, "fmi2ConstraintJacobian", jacobian.size(), max_constraints() * fmu_->states().size(),
               "maxNumberOfConstraints x states");
  return check(LSDAE_FMU_CALL(ConstraintJacobian, jacobian.data()), "fmi2ConstraintJacobian");
}

CallStatus Fmi2Instance::projection_step(std::span<double> step) {
  if (!has_projection_step()) return Instance::projection_step(step);
  require("fmi2ProjectionStep", kGetStates);
  require_size(name_, "fmi2ProjectionStep", step.size(), fmu_->states().size(), "one per state");
  return check(LSDAE_FMU_CALL(ProjectionStep, step.data()), "fmi2ProjectionStep");
}

CallStatus Fmi2Instance::projection(std::span<double> correction, double tolerance, std::size_t iteration_limit,
                                    bool apply) {
  if (!has_projection()) return Instance::projection(correction, tolerance, iteration_limit, apply);
  require("fmi2Projection", kGetStates);
  require_size(name_, "fmi2Projection", correction.size(), fmu_->states().size(), "one per state");
  return check(LSDAE_FMU_CALL(Projection, correction.data(), tolerance, iteration_limit, apply ? fmi2True : fmi2False),
               "fmi2Projection");
}

void Fmi2Instance::terminate() {
  require("fmi2Terminate", {InstanceState::event, InstanceState::continuous_time, InstanceState::initialization});
  check(LSDAE_FMU_CALL0(Terminate), "fmi2Terminate", true);
  state_ = InstanceState::terminated;
}

void Fmi2Instance::reset() {
  require("fmi2Reset", {InstanceState::instantiated, InstanceState::initialization, InstanceState::event,
                        InstanceState::continuous_time, InstanceState::terminated});
  check(LSDAE_FMU_CALL0(Reset), "fmi2Reset", true);
  state_ = InstanceState::instantiated;
  dae_mode_ = false;
}

#undef LSDAE_FMU_CALL
#undef LSDAE_FMU_CALL0

}  // namespace lsdae
