// runtime/fmu/fmu_instance.h -- the base of the FMI bindings
// (fmi3/instance.h, fmi2/instance.h): the call discipline they share.
//
// An FmuInstance is an lsdae::Instance (lsdae/instance.h: the mode machine,
// the values plumbing) of one FMU, made from an InstanceContext
// (instance_context.h), never from the Fmu. What it adds, in one place for
// both FMI versions:
//   - call(): every call into the FMU is marked in the call record
//     (call_record.h) for its duration, by the function's id (fmi_functions.h);
//   - check(): the status policy of lsdae/instance.h (OK and Warning pass,
//     Discard is recorded and returned, or is an error in a mode change;
//     Error throws naming the instance, the function and the FMU's last error
//     message; Fatal also marks the instance failed);
//   - the discard record (discards()) and the time of the last SetTime;
//   - the log routing (receive_log): the FMU's messages to lsdae's Logger;
//   - require(function, states): the state check, naming the FMI function;
//   - its slot in the call record and its place in the FMU's count of live
//     instances, both held from construction to destruction.
// The derived classes make the calls (an FMI version's functions, argument
// conversions and state tables) and nothing else.
#ifndef LSDAE_RUNTIME_FMU_FMU_INSTANCE_H
#define LSDAE_RUNTIME_FMU_FMU_INSTANCE_H

#include <initializer_list>
#include <string>
#include <type_traits>

#include "fmu/call_record.h"
#include "fmu/fmi_functions.h"
#include "fmu/instance_context.h"
#include "lsdae/instance.h"

namespace lsdae {

// Where an FMU's state may be got and set, in FMI 2.0 and 3.0 alike: every
// state but Configuration Mode and after a Fatal status.
inline constexpr std::initializer_list<InstanceState> kFmuStateStates = {
    InstanceState::instantiated, InstanceState::initialization, InstanceState::event, InstanceState::continuous_time,
    InstanceState::terminated};

class FmuInstance : public Instance {
 public:
  ~FmuInstance() override;

  const DiscardRecord& discards() const override { return discards_; }
  bool provides_directional_derivatives() const override { return context_.directional_derivatives; }
  // The last message the FMU logged with status Error or Fatal.
  const std::string& last_error_message() const { return last_error_; }

 protected:
  FmuInstance(InstanceContext context, std::string name);

  const InstanceContext& context() const { return context_; }

  // One call into the FMU, marked in the call record as `function` for its
  // duration. The arguments convert to the function's parameter types at
  // the call, as in a direct call.
  template <typename R, typename... P>
  R call(FmiFunction function, R (*fmi_function)(P...), std::type_identity_t<P>... args) {
    call_record::CallScope scope(slot_, function);
    return fmi_function(args...);
  }
  // The status policy (lsdae/instance.h) for the status `function` returned.
  CallStatus check(int status, FmiFunction function, bool discard_is_error = false);
  using Instance::require;
  void require(FmiFunction function, std::initializer_list<InstanceState> allowed) const {
    Instance::require(fmi_function_name(function), allowed);
  }
  void require(ModeChange change, FmiFunction function) const { Instance::require(change, fmi_function_name(function)); }
  // The simulation time given to the FMU (SetTime, EnterInitializationMode):
  // kept for the discard record and the call record.
  void note_time(double time);
  // A message from the FMU's logger callback, already formatted.
  void receive_log(int status, const char* category, const char* message);
  // `what` does not exist in this FMU's FMI version.
  std::string absence_message(const std::string& what) const override;
  // Error(binary): the binary does not export `function`.
  [[noreturn]] void not_exported(FmiFunction function, const std::string& consequence = {}) const;
  // Error(usage) unless the FMU provides directional derivatives.
  void require_directional_derivatives() const;
  // The FMU's last Error/Fatal message, as " (the FMU said: ...)", or "".
  std::string fmu_said() const;

 private:
  InstanceContext context_;
  InstanceCounter::Counted counted_;
  call_record::CallSlot* slot_ = nullptr;  // "the call in progress" for a supervising process
  std::string last_error_;
  DiscardRecord discards_;
  double time_;  // the last time given to the FMU (NaN: none yet)
};

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_FMU_INSTANCE_H
