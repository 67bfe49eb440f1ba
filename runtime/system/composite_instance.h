// runtime/system/composite_instance.h -- the Instance of a System: one
// instance per component behind the one interface the simulation drives
// (lsdae/instance.h), in the system's value references (composition.h).
//
// Calls fan out to the components:
//   - set/get of values: the value references are split by component (the
//     split of a list is prepared on its first use and kept: FmuResidual
//     passes the same lists at every evaluation; a handful of plans are
//     kept, most recent first), one bulk call per component;
//   - continuous states, derivatives, nominals, event indicators:
//     contiguous slices of the caller's span (no copy);
//   - the rows lsdae computes (composition.h, residuals 1-3) are evaluated
//     from the components' values read in the same bulk calls (and
//     fmi3GetContinuousStateDerivatives for the state rows); the ẋ lsdae
//     writes for components that compute ẋ themselves is kept here (the
//     rows ẋ − f read it), and reading such a derivative gives the
//     component's own f (what the FMU alone would report);
//   - mode changes, set_time, completed_integrator_step, terminate, reset:
//     every component, in component order. A reset component gets again what
//     it got when it was made (prepare_component: the DAE switch, the
//     system's parameter values), so a run after reset() is a run of the
//     system as described, not of the components' defaults.
// Event iteration across components: update_discrete_states calls every
// component once, then copies each discrete connection's value from its
// output to its input; when a copied value changed, the result asks for
// another iteration (discrete_states_need_update), so the simulation's own
// loop repeats until no component changes. Flags are or-ed; the next time
// event is the earliest; terminate_simulation when any component asks.
// A Discard of any component is the call's Discard; an Error throws (the
// component instance's message names the component).
// Directional derivatives (composite_directional.cpp; System offers them
// when every component provides them): the seeded knowns are split by
// component (a known of component c with its local value reference; a kept
// ẋ of a component computing ẋ itself is no known of that FMU: its seed goes
// straight into its state row), and each component that has a seeded known
// and an unknown the call needs is asked once, fmi3GetDirectionalDerivative
// of its own unknowns. The values of the system's own unknowns (x, ẋ, z:
// states, manifest algebraic variables, fed inputs, flows) are knowns, so
// their derivative is their seed (0 when not seeded), never the FMU's: an
// output that *is* a state is taken from the seed. The rows lsdae computes:
//   state row ẋ_i − f_i:          seed(ẋ_i) − ∂f_i   (∂f_i: unknown der(x_i) of the component)
//   connection to − factor·from:  ∂to − factor·∂from
//   potential p_1 − p_k:          ∂p_1 − ∂p_k
//   flows Σ f_k:                   Σ ∂f_k
// with ∂v of a component's output from that component's directional
// derivative at the same seeds. Inputs fed by connections or couplings are
// knowns of their components and seeded into them. The split of an unknowns
// list is prepared on first use and kept like the value plans.
#ifndef LSDAE_RUNTIME_SYSTEM_COMPOSITE_INSTANCE_H
#define LSDAE_RUNTIME_SYSTEM_COMPOSITE_INSTANCE_H

#include <memory>
#include <string>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/model.h"
#include "system/composition.h"

namespace lsdae::system {

// What a component's instance gets right after it is made and after every
// reset (state `instantiated`): the DAE switch when the component has a
// manifest, then the component's parameter values of the description.
void prepare_component(const ComponentPart& part, Instance& instance);

class CompositeInstance final : public Instance {
 public:
  // `parts` are the components' instances, in component order, in state `instantiated`.
  CompositeInstance(std::shared_ptr<const Model> model, const Composition& composition, std::string name,
                    std::vector<std::unique_ptr<Instance>> parts);
  ~CompositeInstance() override;

  Instance& part(std::size_t c) { return *parts_[c]; }

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
  void terminate() override;
  void reset() override;

 private:
  struct Plan;
  // One list of unknowns of get_directional_derivative, split by component:
  // every unknown is a sum of terms factor·(a component's directional
  // derivative, or a seed of the call).
  struct DerivativePlan {
    std::vector<ValueReference> key;
    struct Part {
      std::vector<ValueReference> local;  // the component's unknowns
      std::size_t first_slot = 0;         // its derivatives at slots[first_slot, first_slot + local.size())
    };
    std::vector<Part> parts;            // per component
    std::vector<std::uint32_t> called;  // components with unknowns
    std::vector<double> slots;
    struct Term {
      bool seed;          // true: seed_of_[index] (a system vr); false: slots[index]
      std::size_t index;
      double factor;
    };
    std::vector<Term> terms;
    std::vector<std::size_t> first_term;  // per unknown, and one past the last: its terms
  };
  DerivativePlan& derivative_plan_for(std::span<const ValueReference> unknowns);
  // The split of `vrs` (made on first use, kept); `for_set`: refuses computed rows.
  Plan& plan_for(std::span<const ValueReference> vrs, bool for_set);
  // Copies the discrete connections' values; true when one changed.
  bool copy_discrete_connections();
  template <typename T, typename Get>
  CallStatus get_passthrough(std::span<const ValueReference> vrs, std::span<T> values, Get get);
  template <typename T, typename Set>
  CallStatus set_passthrough(std::span<const ValueReference> vrs, std::span<const T> values, Set set);
  [[noreturn]] void not_a_component_variable(ValueReference vr, const char* what) const;

  const Composition& composition_;
  std::vector<std::unique_ptr<Instance>> parts_;
  std::vector<std::unique_ptr<Plan>> plans_;  // most recent first
  std::vector<double> kept_xdot_;             // per system state (components that compute ẋ themselves)
  std::vector<double> f_;                     // per system state: the components' ẋ = f
  std::vector<std::uint8_t> need_f_;          // per component, scratch
  // Directional derivatives (composite_directional.cpp).
  std::vector<std::unique_ptr<DerivativePlan>> derivative_plans_;  // most recent first
  std::vector<std::uint8_t> system_unknown_;  // per system vr: x, ẋ or z of the system (a known of the rows)
  std::vector<double> seed_of_;               // per system vr: this call's seed (0 when not seeded)
  std::vector<ValueReference> seeded_;        // the system vrs seeded in this call (to clear seed_of_)
  std::vector<std::vector<ValueReference>> known_local_;  // per component: this call's seeded knowns
  std::vector<std::vector<double>> known_seed_;           // … and their seeds
};

}  // namespace lsdae::system

#endif  // LSDAE_RUNTIME_SYSTEM_COMPOSITE_INSTANCE_H
