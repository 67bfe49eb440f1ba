// runtime/fmu/fmi3/instance.h -- an FMU instance over the FMI 3.0 Model
// Exchange binary interface (fmi3_abi.h): fmi3InstantiateModelExchange with a
// logger callback, Configuration Mode, every FMI 3.0 type,
// fmi3UpdateDiscreteStates. The mode machine is lsdae::Instance's
// (lsdae/instance.h), the call discipline (statuses, discards, log, call
// record) FmuInstance's (fmu/fmu_instance.h); this class only makes the calls.
#ifndef LSDAE_RUNTIME_FMU_FMI3_INSTANCE_H
#define LSDAE_RUNTIME_FMU_FMI3_INSTANCE_H

#include <memory>
#include <string>

#include "fmu/fmi3/library.h"
#include "fmu/fmu_instance.h"

namespace lsdae {

class Fmi3Instance final : public FmuInstance {
 public:
  // fmi3InstantiateModelExchange; Error(fmu_call) when the FMU returns NULL.
  // The instance keeps `library` loaded.
  Fmi3Instance(InstanceContext context, std::string name, std::shared_ptr<const Fmi3Library> library);
  ~Fmi3Instance() override;

  void enter_configuration_mode() override;
  void exit_configuration_mode() override;

  CallStatus get_float64(std::span<const ValueReference> vrs, std::span<double> values) override;
  CallStatus set_float64(std::span<const ValueReference> vrs, std::span<const double> values) override;
  CallStatus get_boolean(std::span<const ValueReference> vrs, std::span<bool> values) override;
  CallStatus set_boolean(std::span<const ValueReference> vrs, std::span<const bool> values) override;
  CallStatus get_int32(std::span<const ValueReference> vrs, std::span<std::int32_t> values) override;
  CallStatus set_int32(std::span<const ValueReference> vrs, std::span<const std::int32_t> values) override;
  CallStatus get_int64(std::span<const ValueReference> vrs, std::span<std::int64_t> values) override;
  CallStatus set_int64(std::span<const ValueReference> vrs, std::span<const std::int64_t> values) override;
  CallStatus get_float32(std::span<const ValueReference> vrs, std::span<float> values) override;
  CallStatus set_float32(std::span<const ValueReference> vrs, std::span<const float> values) override;
  CallStatus get_int8(std::span<const ValueReference> vrs, std::span<std::int8_t> values) override;
  CallStatus set_int8(std::span<const ValueReference> vrs, std::span<const std::int8_t> values) override;
  CallStatus get_uint8(std::span<const ValueReference> vrs, std::span<std::uint8_t> values) override;
  CallStatus set_uint8(std::span<const ValueReference> vrs, std::span<const std::uint8_t> values) override;
  CallStatus get_int16(std::span<const ValueReference> vrs, std::span<std::int16_t> values) override;
  CallStatus set_int16(std::span<const ValueReference> vrs, std::span<const std::int16_t> values) override;
  CallStatus get_uint16(std::span<const ValueReference> vrs, std::span<std::uint16_t> values) override;
  CallStatus set_uint16(std::span<const ValueReference> vrs, std::span<const std::uint16_t> values) override;
  CallStatus get_uint32(std::span<const ValueReference> vrs, std::span<std::uint32_t> values) override;
  CallStatus set_uint32(std::span<const ValueReference> vrs, std::span<const std::uint32_t> values) override;
  CallStatus get_uint64(std::span<const ValueReference> vrs, std::span<std::uint64_t> values) override;
  CallStatus set_uint64(std::span<const ValueReference> vrs, std::span<const std::uint64_t> values) override;
  CallStatus get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) override;
  CallStatus set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) override;
  CallStatus get_binary(std::span<const ValueReference> vrs, std::vector<std::vector<std::uint8_t>>& values) override;
  CallStatus set_binary(std::span<const ValueReference> vrs,
                        std::span<const std::vector<std::uint8_t>> values) override;
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
  bool can_get_and_set_fmu_state() const override;
  void get_fmu_state(SavedState& state) override;
  void set_fmu_state(const SavedState& state) override;
  void free_fmu_state(SavedState& state) override;
  void terminate() override;
  void reset() override;

  // Clocks (fmi3/instance_clocks.cpp).
  void activate_clock(ValueReference clock) override;
  bool clock_active(ValueReference clock) override;
  ClockTime clock_interval(ValueReference clock, bool fraction) override;
  ClockTime clock_shift(ValueReference clock, bool fraction) override;

 private:
  friend struct Fmi3LogAccess;
  std::shared_ptr<const Fmi3Library> library_;
  const Fmi3Functions* fn_ = nullptr;
  void* handle_ = nullptr;  // fmi3Instance
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_FMI3_INSTANCE_H
