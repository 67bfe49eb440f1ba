// runtime/system/composite_instance.h -- the Instance of a System: one
// instance per component behind the one interface the simulation drives
// (lsdae/instance.h), in the system's value references (composition.h).
//
// It implements that interface directly, not as an FMU: it keeps the
// interface's mode machine (its mode changes are checked and made like an
// FMU instance's, then passed to every component), and has no FMI version,
// call-record slot or discard record of its own -- its components' FMU
// instances make the FMI calls under their own call discipline
// (runtime/fmu/fmu_instance.h). Its messages name the FMI functions of the
// System's composed model description (FMI 3.0).
//
// Calls fan out to the components:
//   - set/get of values (composite_values.cpp): the value references are
//     split by component (the
//     split of a list is prepared on its first use and kept: ModelResidual
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
// Components in parallel (composite_parallel.cpp; set_threads(n), n > 1;
// lsdae::Simulation passes
// --threads to the composite instances it makes) -- when it pays: the
// calls whose cost is the components' evaluations --
// get_float64 (with the components' f for the state rows),
// get_continuous_state_derivatives, get_event_indicators,
// get_directional_derivative -- run the components' instances concurrently
// with OpenMP, up to n threads, each instance by one thread at a time (FMU
// instances are not thread-safe; distinct instances are, as FMI requires
// unless canBeInstantiatedOnlyOncePerProcess, which makes the simulation use
// one thread). Every component writes only its own slots, and the rows
// lsdae computes are summed afterwards on the calling thread in a fixed
// order, so the values are bitwise those of one thread. Statuses are
// combined as above; an exception of a component is caught on its thread
// and the first one in component order is rethrown on the caller's. Not
// nested: a call made inside an active OpenMP region (the Jacobian's
// colours in parallel, one composite per thread: kernels/
// compressed_jacobian.h) runs its components one after the other, so the
// machine is never asked for threads × n. Setters, mode changes and
// set_time stay sequential (cheap, and FMUs evaluate lazily on the next get).
// When it pays: a parallel region costs a fork and a join (microseconds on
// an idle machine; on a machine with more runnable threads than cores, a
// wait for the scheduler to run every thread: milliseconds), so each kind
// of call (a get_float64 list, a list of directional unknowns, the
// derivatives, the indicators) keeps its components' summed time over its
// last four calls (each task timed; the least of the four is the estimate,
// so that a preempted thread does not make a light call look heavy) and
// runs in parallel only when that reaches kParallelWorkSeconds (100 µs): a call of
// 8 components of 5 µs each (the transmission line split in 8 sections of
// 160 segments) stays on the calling thread, where 2 threads measured 30
// times slower on a loaded machine (docs/performance/systems-and-threads.md). Which path a call
// takes never changes a value (see above).
// Event iteration across components: update_discrete_states activates the
// input clocks driven by active output clocks (composite_clocks.cpp), calls every
// component once, then copies each discrete connection's value from its
// output to its input; when a copied value changed, the result asks for
// another iteration (discrete_states_need_update), so the simulation's own
// loop repeats until no component changes. Flags are or-ed; the next time
// event is the earliest; terminate_simulation when any component asks.
// A Discard of any component is the call's Discard; an Error throws (the
// component instance's message names the component).
// Directional derivatives (composite_directional.cpp; System offers them
// when at least one component provides them; the others: "Mixed systems"
// below): the seeded knowns are split by
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
// derivative at the same seeds.
// Mixed systems (System offers directional derivatives when at least one
// component provides them): a component without them gets its "directional
// derivative" J_c·s_c of the same unknowns by central differences along the
// seed direction -- its seeded knowns moved to v ± h·s (states through
// set_continuous_states, fed inputs, ẋ and algebraic variables of an LS-DAE
// FMU through set_float64), its unknowns read at both points, the knowns
// restored --, with h = ε^(1/3)·max_k max(|v_k|, nominal_k) / max_k |s_k|
// over the seeded knowns (the step of central differences; relative error
// about ε^(2/3) of the component's scale when the knowns of one direction
// are of one scale). Two evaluations of that component per call; the rows
// lsdae computes stay exact. A coloured Jacobian thus takes the columns of
// such components by coloured central differences and the others exactly. Inputs fed by connections or couplings are
// knowns of their components and seeded into them. The split of an unknowns
// list is prepared on first use and kept like the value plans.
#ifndef LSDAE_RUNTIME_SYSTEM_COMPOSITE_INSTANCE_H
#define LSDAE_RUNTIME_SYSTEM_COMPOSITE_INSTANCE_H

#include <algorithm>
#include <array>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/model.h"
#include "system/composition.h"

namespace lsdae::system {

// The status of a call made on several components: discard if any part
// discarded, else the last part's (the composite's .cpp files combine with it).
inline CallStatus worst_of(CallStatus a, CallStatus b) { return a == CallStatus::discard ? a : b; }

// What a component's instance gets right after it is made and after every
// reset (state `instantiated`): the DAE switch when the component has a
// manifest, then the component's parameter values of the description.
void prepare_component(const ComponentPart& part, Instance& instance);

class CompositeInstance final : public Instance {
 public:
  static constexpr double kParallelWorkSeconds = 100e-6;
  // `parts` are the components' instances, in component order, in state `instantiated`.
  CompositeInstance(std::shared_ptr<const Model> model, const Composition& composition, std::string name,
                    std::vector<std::unique_ptr<Instance>> parts);
  ~CompositeInstance() override;

  Instance& part(std::size_t c) { return *parts_[c]; }

  // Its own FMU calls: none (each component's instance counts its discards).
  const DiscardRecord& discards() const override { return no_discards_; }
  // When the System offers them (lsdae/system.h): at least one component's.
  bool provides_directional_derivatives() const override;

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
  // Clocks (composite_clocks.cpp): passed to the component that declares
  // the clock. A clock connection's input clock is the system's output clock:
  // clock_active() answers for it whether the composite activated it in this
  // Event Mode (propagate_clocks).
  void activate_clock(ValueReference clock) override;
  bool clock_active(ValueReference clock) override;
  ClockTime clock_interval(ValueReference clock, bool fraction) override;
  ClockTime clock_shift(ValueReference clock, bool fraction) override;
  // The threads one call may use for the components (>= 1; 1: one after
  // the other), from kParallelWorkSeconds of work on.
  void set_threads(std::size_t threads) override { configure_threads(threads, kParallelWorkSeconds); }
  // The same with the work from which a call runs the components in
  // parallel (0: always, as the tests of the parallel path do).
  void configure_threads(std::size_t threads, double parallel_work_seconds) {
    threads_ = threads == 0 ? 1 : threads;
    parallel_work_ = parallel_work_seconds;
  }
  std::size_t threads() const { return threads_; }

 private:
  // Runs task(c) for every component c of `components` (ascending), on up to
  // threads_ threads when there are two or more and the caller is not in an
  // active parallel region; returns the worst status, rethrows the first
  // exception in component order.
  // `work`: this kind of call's estimate, updated here; the components run
  // in parallel only when it reaches parallel_work_ (kParallelWorkSeconds).
  // The components' summed time of one kind of call, over its last four
  // calls; the least of them is the estimate (a thread preempted by the
  // machine's other work makes a call look long once, not four times).
  struct WorkEstimate {
    std::array<double, 4> recent{};
    std::size_t calls = 0;
    void add(double seconds) { recent[calls++ % recent.size()] = seconds; }
    double least() const {
      return calls < recent.size() ? 0.0 : *std::min_element(recent.begin(), recent.end());
    }
  };
  template <typename Task>
  CallStatus for_components(std::span<const std::uint32_t> components, WorkEstimate& work, Task&& task) {
    using T = std::remove_reference_t<Task>;
    return run_components(components, work, [](void* t, std::uint32_t c) { return (*static_cast<T*>(t))(c); },
                          static_cast<void*>(&task));
  }
  CallStatus run_components(std::span<const std::uint32_t> components, WorkEstimate& work,
                            CallStatus (*call)(void*, std::uint32_t), void* task);
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
    WorkEstimate work;                    // the components' time per call
  };
  DerivativePlan& derivative_plan_for(std::span<const ValueReference> unknowns);
  // The split of `vrs` (made on first use, kept); `for_set`: refuses computed rows.
  Plan& plan_for(std::span<const ValueReference> vrs, bool for_set);
  // Copies the discrete connections' values; true when one changed.
  bool copy_discrete_connections();
  // Event Mode: activates the input clock of every clock connection whose
  // output clock is active (repeated until none changes: chains), once per
  // fmi3UpdateDiscreteStates of the components.
  void propagate_clocks();
  std::vector<std::uint8_t> clock_driven_;  // per clock connection: activated since the last update
  // The component and its value reference of a system clock; Error(usage) when not a component's Clock.
  std::pair<std::uint32_t, ValueReference> clock_of(ValueReference clock, const char* function) const;
  template <typename T, typename Get>
  CallStatus get_passthrough(std::span<const ValueReference> vrs, std::span<T> values, Get get);
  template <typename T, typename Set>
  CallStatus set_passthrough(std::span<const ValueReference> vrs, std::span<const T> values, Set set);
  [[noreturn]] void not_a_component_variable(ValueReference vr, const char* what) const;
  // The component variable a pass-through call names (not_a_component_variable otherwise).
  const Global& component_global(ValueReference vr) const;
  // Binary variables and Configuration Mode: not passed on to the components.
  std::string absence_message(const std::string& what) const override;

  std::shared_ptr<const Model> model_;  // the System: keeps the composition and the description alive
  const Composition& composition_;
  std::vector<std::unique_ptr<Instance>> parts_;
  std::vector<std::unique_ptr<Plan>> plans_;  // most recent first
  std::vector<double> kept_xdot_;             // per system state (components that compute ẋ themselves)
  std::vector<double> f_;                     // per system state: the components' ẋ = f
  std::size_t threads_ = 1;
  double parallel_work_ = kParallelWorkSeconds;
  std::vector<std::exception_ptr> errors_;    // per component, for_components' scratch
  std::vector<double> task_seconds_;          // per component, for_components' scratch
  WorkEstimate derivatives_work_, indicators_work_;  // for_components
  std::vector<std::uint32_t> with_states_, with_indicators_;
  DiscardRecord no_discards_;
  // Directional derivatives (composite_directional.cpp).
  std::vector<std::unique_ptr<DerivativePlan>> derivative_plans_;  // most recent first
  std::vector<std::uint8_t> system_unknown_;  // per system vr: x, ẋ or z of the system (a known of the rows)
  std::vector<double> seed_of_;               // per system vr: this call's seed (0 when not seeded)
  std::vector<ValueReference> seeded_;        // the system vrs seeded in this call (to clear seed_of_)
  std::vector<std::vector<ValueReference>> known_local_;  // per component: this call's seeded knowns
  std::vector<std::vector<double>> known_seed_;           // … and their seeds
  // Components without directional derivatives (mixed systems): central
  // differences along the seed (composite_directional.cpp).
  CallStatus difference_along_seed(std::uint32_t c, std::span<const ValueReference> unknowns, std::span<double> out);
  struct DifferenceScratch {
    std::vector<double> x0, x, v0, v, up;
    std::vector<ValueReference> vrs;  // seeded knowns that are no states
    std::vector<double> seeds;
    std::vector<std::size_t> state_of;  // per seeded known: its state index, or npos
  };
  std::vector<std::uint8_t> by_differences_;       // per component: no usable directional derivatives
  std::vector<DifferenceScratch> difference_;       // per component
  std::vector<std::unordered_map<ValueReference, std::size_t>> state_index_;  // per component: local state vr → index
  std::vector<std::unordered_map<ValueReference, double>> nominal_;          // per component: local vr → nominal
};

}  // namespace lsdae::system

#endif  // LSDAE_RUNTIME_SYSTEM_COMPOSITE_INSTANCE_H
