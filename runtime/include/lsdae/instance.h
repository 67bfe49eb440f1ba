// lsdae/instance.h -- one FMI 3.0 Model Exchange instance, with the FMI state
// machine enforced on the lsdae side.
//
// Created by Fmu::instantiate (lsdae/fmu.h); freed by the destructor
// (fmi3FreeInstance), on every path. The FMU's log messages go to lsdae's
// Logger (lsdae/log.h) as "[<instance name>] <category>: <message>".
//
// Status policy (the SUNDIALS sign rule, mapped to FMI):
//   fmi3OK, fmi3Warning  -> CallStatus::ok (a warning is logged by the FMU)
//   fmi3Discard          -> CallStatus::discard: recoverable, e.g. "retry with
//                           a smaller step"; returned by the data functions.
//                           In a mode change, Discard is an error.
//   fmi3Error            -> throws lsdae::Error(ErrorKind::fmu_call) naming the
//                           instance, the function and the FMU's last error message;
//                           the instance can still be reset or freed.
//   fmi3Fatal            -> the same, and the instance is unusable afterwards
//                           (FMI forbids every further call, even Free).
//                           Every discard is counted (discards()), so a run
//                           that fails after many can name the function.
// Calling a function in a state where FMI 3.0 forbids it throws
// lsdae::Error(ErrorKind::usage) before the FMU is called.
//
// Every call into the FMU is marked in this process's call record
// (runtime/supervise/call_record.h: the function, the instance name and the
// last simulation time, written with plain stores), which a supervising
// parent reads when the FMU crashes or hangs (lsdae/supervise.h).
//
// An Instance is not thread-safe; use one instance per thread (the FMU must
// not declare canBeInstantiatedOnlyOncePerProcess for that).
#ifndef LSDAE_INSTANCE_H
#define LSDAE_INSTANCE_H

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "lsdae/model_description.h"
#include "lsdae/values.h"

namespace lsdae {

class Fmu;
struct Fmi3Functions;
namespace supervise {
struct CallSlot;
}

enum class CallStatus { ok, discard };

// FMI 3.0 Model Exchange states (section 3.2 state machine).
enum class InstanceState {
  instantiated,
  configuration,
  initialization,
  event,
  continuous_time,
  terminated,
  failed,  // an fmi3Fatal was returned: no further calls
};
const char* to_string(InstanceState state) noexcept;

struct DiscreteStatesUpdate {
  bool discrete_states_need_update = false;
  bool terminate_simulation = false;
  bool nominals_of_continuous_states_changed = false;
  bool values_of_continuous_states_changed = false;
  std::optional<double> next_event_time;
};

// The fmi3Discard returns of one instance's data functions (fmi3Get*,
// fmi3Set*, derivatives, event indicators): how many so far, the function
// of the last one and the simulation time then (NaN before any fmi3SetTime).
struct DiscardRecord {
  std::uint64_t count = 0;
  const char* function = nullptr;  // e.g. "fmi3GetFloat64"; nullptr while count == 0
  double time = 0.0;
};

struct IntegratorStepResult {
  bool enter_event_mode = false;
  bool terminate_simulation = false;
};

class Instance {
 public:
  ~Instance();
  Instance(const Instance&) = delete;
  Instance& operator=(const Instance&) = delete;

  const std::string& name() const { return name_; }
  InstanceState state() const { return state_; }
  const Fmu& fmu() const { return *fmu_; }
  // The last message the FMU logged with status fmi3Error or fmi3Fatal.
  const std::string& last_error_message() const { return last_error_; }
  const DiscardRecord& discards() const { return discards_; }

  // --- configuration (structural parameters, the DAE switch)
  void enter_configuration_mode();
  void exit_configuration_mode();
  // Switches the FMU into DAE mode through the manifest's enable switch
  // (configuration mode, set the Boolean, exit). No-op for a DAE-only FMU;
  // Error(usage) for an FMU without a manifest. Only in state `instantiated`.
  void enable_dae_mode();
  bool dae_mode() const { return dae_mode_; }

  // --- values. `values` holds one entry per scalar element: as many as
  // `vrs` for scalar variables, all elements (row-major) of an array
  // variable (Error(usage) when the count is wrong). A getter or setter the
  // binary does not export is Error(binary) naming it.
  CallStatus get_float64(std::span<const ValueReference> vrs, std::span<double> values);
  CallStatus set_float64(std::span<const ValueReference> vrs, std::span<const double> values);
  CallStatus get_boolean(std::span<const ValueReference> vrs, std::span<bool> values);
  CallStatus set_boolean(std::span<const ValueReference> vrs, std::span<const bool> values);
  CallStatus get_int32(std::span<const ValueReference> vrs, std::span<std::int32_t> values);
  CallStatus set_int32(std::span<const ValueReference> vrs, std::span<const std::int32_t> values);
  CallStatus get_int64(std::span<const ValueReference> vrs, std::span<std::int64_t> values);
  CallStatus set_int64(std::span<const ValueReference> vrs, std::span<const std::int64_t> values);
  CallStatus get_float32(std::span<const ValueReference> vrs, std::span<float> values);
  CallStatus set_float32(std::span<const ValueReference> vrs, std::span<const float> values);
  CallStatus get_int8(std::span<const ValueReference> vrs, std::span<std::int8_t> values);
  CallStatus set_int8(std::span<const ValueReference> vrs, std::span<const std::int8_t> values);
  CallStatus get_uint8(std::span<const ValueReference> vrs, std::span<std::uint8_t> values);
  CallStatus set_uint8(std::span<const ValueReference> vrs, std::span<const std::uint8_t> values);
  CallStatus get_int16(std::span<const ValueReference> vrs, std::span<std::int16_t> values);
  CallStatus set_int16(std::span<const ValueReference> vrs, std::span<const std::int16_t> values);
  CallStatus get_uint16(std::span<const ValueReference> vrs, std::span<std::uint16_t> values);
  CallStatus set_uint16(std::span<const ValueReference> vrs, std::span<const std::uint16_t> values);
  CallStatus get_uint32(std::span<const ValueReference> vrs, std::span<std::uint32_t> values);
  CallStatus set_uint32(std::span<const ValueReference> vrs, std::span<const std::uint32_t> values);
  CallStatus get_uint64(std::span<const ValueReference> vrs, std::span<std::uint64_t> values);
  CallStatus set_uint64(std::span<const ValueReference> vrs, std::span<const std::uint64_t> values);
  // Strings are copied out of the FMU's memory before the next call.
  CallStatus get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values);
  CallStatus set_string(std::span<const ValueReference> vrs, std::span<const std::string> values);
  // Binary values as bytes.
  CallStatus get_binary(std::span<const ValueReference> vrs, std::vector<std::vector<std::uint8_t>>& values);
  CallStatus set_binary(std::span<const ValueReference> vrs, std::span<const std::vector<std::uint8_t>> values);
  // Any type, through lsdae/values.h's buffer: `values.type` chooses the
  // fmi3Get/Set function (Enumeration is Int64, Binary travels as hex).
  // get_values resizes `values` to the element count of `vrs`.
  CallStatus get_values(std::span<const ValueReference> vrs, Values& values);
  CallStatus set_values(std::span<const ValueReference> vrs, const Values& values);
  // Sets one scalar variable of any numeric or Boolean type from a double
  // (range-checked for integers). Error(usage) names the variable on failure.
  void set_scalar(const Variable& variable, double value);
  // Scalar elements `vrs` stand for (a plain count when the FMU has no arrays).
  std::size_t element_count(std::span<const ValueReference> vrs) const;

  // --- initialization
  void enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                 std::optional<double> stop_time);
  void exit_initialization_mode();

  // --- events
  void enter_event_mode();
  DiscreteStatesUpdate update_discrete_states();
  void enter_continuous_time_mode();

  // --- continuous-time mode
  CallStatus set_time(double time);
  CallStatus set_continuous_states(std::span<const double> x);
  CallStatus get_continuous_states(std::span<double> x);
  CallStatus get_continuous_state_derivatives(std::span<double> dx);
  CallStatus get_event_indicators(std::span<double> indicators);
  CallStatus get_nominals_of_continuous_states(std::span<double> nominals);
  IntegratorStepResult completed_integrator_step(bool no_set_fmu_state_prior_to_current_point);
  std::size_t number_of_continuous_states();
  std::size_t number_of_event_indicators();

  // --- derivatives (only when the FMU provides them; Error(usage) otherwise)
  bool provides_directional_derivatives() const;
  CallStatus get_directional_derivative(std::span<const ValueReference> unknowns,
                                        std::span<const ValueReference> knowns,
                                        std::span<const double> seed, std::span<double> sensitivity);

  // --- end
  void terminate();
  void reset();

 private:
  friend class Fmu;
  Instance(std::shared_ptr<const Fmu> fmu, std::string name);
  void require(const char* function, std::initializer_list<InstanceState> allowed) const;
  CallStatus check(int status, const char* function, bool discard_is_error = false);
  friend struct InstanceAccess;
  void receive_log(int status, const char* category, const char* message);

  std::shared_ptr<const Fmu> fmu_;
  const Fmi3Functions* fn_ = nullptr;
  void* handle_ = nullptr;  // fmi3Instance
  std::string name_;
  InstanceState state_ = InstanceState::instantiated;
  bool dae_mode_ = false;
  std::string last_error_;
  DiscardRecord discards_;
  double time_;  // the last time given to the FMU (NaN: none yet)
  // "The call in progress" for a supervising process (runtime/supervise/call_record.h).
  supervise::CallSlot* call_slot_ = nullptr;
};

}  // namespace lsdae

#endif  // LSDAE_INSTANCE_H
