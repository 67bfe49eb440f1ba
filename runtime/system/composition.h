// runtime/system/composition.h -- the composition rules: components,
// connections and couplings (lsdae/system_description.h) → one model
// description and one fully implicit LS-DAE manifest (docs/systems.md).
//
// Value references. Every distinct value reference of every component
// becomes one value reference of the system, dense, component by component
// in the order of the description and, inside a component, in the order of
// its <ModelVariables>; `global_by_local[c]` and `globals` map both ways. Names are
// "component.variable". After them come the system's own variables, the
// rows lsdae computes ("virtual" variables, local, continuous).
//
// Unknowns of the system:
//   x   the components' continuous states, concatenated in component order
//       (the order of each component's fmi3GetContinuousStates);
//   ẋ   their derivatives (the components' der() variables);
//   z   the components' manifest algebraic variables, then every input fed
//       by a continuous connection, then every coupling flow (in the order
//       of the description).
// Residuals (one <Residual> group each, in this order):
//   1. per component: without a manifest, or with a semi-explicit one, one
//      row ẋ_i − f_i(x, u, t) per state ("c.residual(der(x))"; f from the
//      component's fmi3GetContinuousStateDerivatives), with the
//      dependencies of der(x_i) (the manifest's, else the core
//      ModelStructure's) plus ẋ_i itself; with a manifest, its residual
//      groups as they are (formulations, indices, dependencies and
//      dependenciesKind mapped to the system's references).
//   2. per continuous connection (Float64, continuous): to − factor·from −
//      offset ("connect(A.y,B.u)"); dependencies: `to` and what `from`
//      depends on (itself when it is an unknown, else its <Output>'s
//      dependencies in the mode the component runs in; all of its
//      component's unknowns when the FMU gives none). Outputs with direct
//      feedthrough thus give an algebraic loop's pattern, which IDA's
//      Newton iteration solves with the rest of the system.
//   3. per coupling with ports (p_k, f_k), k = 1..n: p_1 − p_k for k = 2..n
//      ("name.potential[k]"; dependencies as for `from` above) and Σ f_k
//      ("name.flows"). A potential row whose dependencies are states only
//      is the case runtime/simulation/model_dae.h differentiates itself
//      ("Synthesized derivatives"): two rigidly coupled masses give a
//      structural index 2, reduced by dummy derivatives or projection.
// The system's derivatives of states of components without a manifest or
// with a semi-explicit one are not the FMU's to take: lsdae writes ẋ there
// and the composite instance keeps it (composite_instance.h).
// A discrete connection (not Float64, or not continuous) adds no equation:
// its value is copied after every event iteration. A clock connection (an
// output clock to a triggered input clock) adds none either: the composite
// instance activates the input clock when the output clock ticks; the driven
// clock is an output clock of the system (it is asked, never activated).
//
// compose() makes every check of lsdae/system.h, in description order, and
// throws the first failure as Error(invalid).
#ifndef LSDAE_RUNTIME_SYSTEM_COMPOSITION_H
#define LSDAE_RUNTIME_SYSTEM_COMPOSITION_H

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "lsdae/fmu.h"
#include "lsdae/system_description.h"

namespace lsdae::system {

// What a system value reference stands for.
struct Global {
  enum class Kind : std::uint8_t {
    component,         // a component's variable: passed through (`component`, `local`)
    kept_derivative,   // ẋ of a component whose FMU computes ẋ itself: kept by the composite (`state`)
    state_row,         // ẋ_i − f_i (`component`, `state`: the system's state index)
    connection_row,    // to − factor·from − offset (`index`: the continuous connection)
    potential_row,     // p_1 − p_k (`index`: the coupling, `port`: k − 1, 0-based)
    flow_row,          // Σ f_k (`index`: the coupling)
  };
  Kind kind = Kind::component;
  std::uint32_t component = 0;
  ValueReference local = 0;  // Kind::component: the FMU's value reference
  std::size_t state = 0;     // kept_derivative, state_row
  std::size_t index = 0;     // connection_row, potential_row, flow_row
  std::size_t port = 0;      // potential_row
};

// One end of a resolved connection: component and FMU value reference.
struct Endpoint {
  std::uint32_t component = 0;
  ValueReference local = 0;
  ValueReference global = 0;
};

struct ResolvedConnection {
  Endpoint from, to;
  double factor = 1.0, offset = 0.0;
};

struct ResolvedCoupling {
  std::string name;
  std::vector<Endpoint> potentials, flows;
};

struct ComponentPart {
  std::string name;
  std::shared_ptr<Fmu> fmu;
  std::vector<std::pair<std::string, std::string>> parameters;  // applied at instantiation
  std::size_t first_state = 0, state_count = 0;
  std::size_t first_indicator = 0, indicator_count = 0;
  bool keeps_derivatives = false;  // no manifest or semi-explicit: ẋ kept by the composite
};

struct Composition {
  std::string name;
  std::vector<ComponentPart> components;
  std::vector<std::unordered_map<ValueReference, ValueReference>> global_by_local;  // [c]: FMU vr → system vr
  std::vector<Global> globals;  // by system value reference
  ModelDescription md;
  Manifest manifest;
  std::vector<ValueReference> states, derivatives;
  std::vector<std::string> state_names, derivative_names;
  std::size_t event_indicators = 0;
  std::vector<ResolvedConnection> continuous, discrete;
  std::vector<ResolvedConnection> clocks;  // output clock → triggered input clock
  std::vector<ResolvedCoupling> couplings;
};

// Opens the components (OpenOptions for each FMU), checks and composes.
std::unique_ptr<Composition> compose(const SystemDescription& description, const OpenOptions& options);

}  // namespace lsdae::system

#endif  // LSDAE_RUNTIME_SYSTEM_COMPOSITION_H
