// runtime/fmu/fmi2/instance.h -- an FMU instance over the FMI 2.0 Model
// Exchange binary interface (fmi2_abi.h); the mode machine is
// lsdae::Instance's, the call discipline FmuInstance's (fmu/fmu_instance.h).
//
// fmi2Instantiate(fmi2ModelExchange, guid, file: URI of resources/) with a
// callback struct that lives as long as the instance: the logger formats the
// FMU's printf-style message with vsnprintf and replaces "#r17#"-style
// references (r Real, i Integer, b Boolean, s String) with the variable's
// name when the model description has it ("##" is "#"); allocateMemory is
// calloc and freeMemory free. enter_initialization_mode calls
// fmi2SetupExperiment and fmi2EnterInitializationMode; update_discrete_states
// is one fmi2NewDiscreteStates (the caller iterates);
// get_continuous_state_derivatives is fmi2GetDerivatives. The numbers of
// states and event indicators come from the model description (FMI 2.0 has
// no call for them). Enumerations travel as fmi2Integer, Booleans as int.
// The state table is FMI 2.0's (section 3.2.3): e.g. fmi2SetContinuousStates
// only in Continuous-Time Mode, fmi2GetDerivatives not in Initialization
// Mode, typed getters not before Initialization Mode.
// Najafi et al.'s constraint calls are available when declared on
// <ModelExchange> and exported.
#ifndef LSDAE_RUNTIME_FMU_FMI2_INSTANCE_H
#define LSDAE_RUNTIME_FMU_FMI2_INSTANCE_H

#include <memory>
#include <string>

#include "fmu/fmi2/library.h"
#include "fmu/fmu_instance.h"

namespace lsdae {

class Fmi2Instance final : public FmuInstance {
 public:
  // fmi2Instantiate; Error(fmu_call) when the FMU returns NULL (e.g. a guid
  // that does not match its binary). The instance keeps `library` loaded.
  Fmi2Instance(InstanceContext context, std::string name, std::shared_ptr<const Fmi2Library> library);
  ~Fmi2Instance() override;

  CallStatus get_float64(std::span<const ValueReference> vrs, std::span<double> values) override;
  CallStatus set_float64(std::span<const ValueReference> vrs, std::span<const double> values) override;
  CallStatus get_boolean(std::span<const ValueReference> vrs, std::span<bool> values) override;
  CallStatus set_boolean(std::span<const ValueReference> vrs, std::span<const bool> values) override;
  CallStatus get_int32(std::span<const ValueReference> vrs, std::span<std::int32_t> values) override;
  CallStatus set_int32(std::span<const ValueReference> vrs, std::span<const std::int32_t> values) override;
  CallStatus get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) override;
  CallStatus set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) override;
  CallStatus get_enumeration(std::span<const ValueReference> vrs, std::span<std::int64_t> values) override;
  CallStatus set_enumeration(std::span<const ValueReference> vrs, std::span<const std::int64_t> values) override;

  void enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                 std::optional<double> stop_time) override;
  void exit_initialization_mode() override;
  void enter_event_mode() override;
  DiscreteStatesUpdate update_discrete_states() override;
  void enter_continuous_time_mode() override;
  CallStatus set_time(double time) override;
  CallStatus set_continuous_states(std::span<const double> x) override;
  CallStatus get_continuous_states(std::span<double> x) override;
  CallStatus get_continuous_state_derivatives(std::span<double> dx) override;
  CallStatus get_event_indicators(std::span<double> indicators) override;
  CallStatus get_nominals_of_continuous_states(std::span<double> nominals) override;
  IntegratorStepResult completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) override;
  std::size_t number_of_continuous_states() override;
  std::size_t number_of_event_indicators() override;
  CallStatus get_directional_derivative(std::span<const ValueReference> unknowns,
                                        std::span<const ValueReference> knowns, std::span<const double> seed,
                                        std::span<double> sensitivity) override;

  bool has_constraints() const override;
  bool has_constraint_jacobian() const override;
  bool has_projection_step() const override;
  bool has_projection() const override;
  std::size_t number_of_constraints() override;
  CallStatus constraints(std::span<double> c) override;
  CallStatus constraint_jacobian(std::span<double> jacobian) override;
  CallStatus projection_step(std::span<double> step) override;
  CallStatus projection(std::span<double> correction, double tolerance, std::size_t iteration_limit,
                        bool apply) override;

  bool can_get_and_set_fmu_state() const override;
  void get_fmu_state(SavedState& state) override;
  void set_fmu_state(const SavedState& state) override;
  void free_fmu_state(SavedState& state) override;
  void terminate() override;
  void reset() override;

  // The logger's text with "#r17#"-style references replaced by names
  // (exposed for tests).
  static std::string substitute_references(const ModelDescription& md, const std::string& message);

 private:
  friend struct Fmi2LogAccess;
  std::size_t max_constraints() const;
  std::shared_ptr<const Fmi2Library> library_;
  const Fmi2Functions* fn_ = nullptr;
  void* handle_ = nullptr;  // fmi2Component
  std::unique_ptr<fmi2CallbackFunctions> callbacks_;
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_FMI2_INSTANCE_H
