// runtime/simulation/fmu_dae.h -- the bridge between an FMU's value
// references and lsdae::structure's FMI-free DAE description.
//
// build_fmu_dae maps:
//   states x_i, derivatives ẋ_i      ContinuousStateDerivative order (Fmu::states())
//   algebraic z_j                     the manifest's AlgebraicVariables order
//   residual groups and formulations  the manifest's <Residual>s in document order
//   invariants                        shape-B <Invariant>s (group/level unknown)
//   dependencies                      value references of x, ẋ, z become VarRefs;
//                                     time, parameters, inputs and other knowns
//                                     are constant during a Jacobian and dropped
// The form: ODE FMUs (no manifest) become a semi-explicit DAE without algebraic
// variables or residuals, with the core ModelStructure's dependencies; a
// semi-explicit manifest takes the state derivatives' dependencies from the
// manifest's ContinuousStateDerivative list (absent: dense). Both fully
// implicit forms become structure::DaeForm::fully_implicit; in the OpenModelica
// form (runtime/import/dae_form.h) a state's value reference in a dependency
// list becomes two VarRefs, x_i and ẋ_i, since it stands for both.
// dependenciesKind goes along with every mapped dependency (a variable named
// twice keeps the more general kind of the two, in FMI's order constant <
// fixed < tunable < discrete < dependent).
// StateSelect: a state with initial="approx" is `avoid` (a guess the model
// does not insist on), otherwise `normal`.
//
// Synthesized derivatives (FMI-LS-DAE 1.0.0-alpha.1 has no <Formulation>
// grouping, so a higher-index FMU may carry only its original constraint):
// in the fully implicit form (not OpenModelica's, where x stands for ẋ too),
// a residual group whose last formulation r depends on states only (a
// non-empty dependency list of x_i, no ẋ, no z) gets one more formulation,
// named "d/dt(r)", that lsdae computes itself:
//     d/dt r(t, x) = ∂r/∂x · ẋ + ∂r/∂t
// Its dependencies are r's states and their derivatives. Such a row can never
// be matched in an index-1 system (it contains no unknown), so the addition
// changes nothing for a model that was index 1 and is exactly what
// Pantelides needs otherwise. One level only: d/dt(r) contains ẋ, whose
// derivative ẍ is no variable of the DAE; an index-3 constraint without
// derivative formulations still stops with "missing formulations".
// residual_vrs[g][level] of a synthesized formulation is r's variable and
// synthesized[g][level] is true (the value is computed, not read:
// fmu_residual.h).
// build_fmu_dae(fmu, false) leaves the groups as the FMU provides them.
#ifndef LSDAE_RUNTIME_SIMULATION_FMU_DAE_H
#define LSDAE_RUNTIME_SIMULATION_FMU_DAE_H

#include <vector>

#include "lsdae/fmu.h"
#include "structure/dae_input.h"

namespace lsdae::simulation {

struct FmuDae {
  structure::DaeInput input;
  bool fully_implicit = false;               // either fully implicit form: lsdae writes ẋ
  bool state_stands_for_derivative = false;  // the OpenModelica form: dependencies name x for ẋ too
  std::vector<ValueReference> state_vrs, derivative_vrs, algebraic_vrs;
  // residual_vrs[g][level]: the residual variable of DaeInput::residuals[g].formulations[level]
  std::vector<std::vector<ValueReference>> residual_vrs;
  // synthesized[g][level]: the formulation is d/dt of level − 1 (computed by lsdae)
  std::vector<std::vector<bool>> synthesized;
  std::vector<ValueReference> invariant_vrs;

  bool is_synthesized(std::size_t group, std::size_t level) const {
    return group < synthesized.size() && level < synthesized[group].size() && synthesized[group][level];
  }
  bool any_synthesized() const;
  // dependenciesKind, parallel to every mapped dependency list of `input`
  // (empty when the list is absent; `dependent` where the FMU gives no kind):
  // residual_kinds[g][level], state_kinds[i] (semi-explicit f_i), invariant_kinds[k].
  std::vector<std::vector<std::vector<DependencyKind>>> residual_kinds;
  std::vector<std::vector<DependencyKind>> state_kinds, invariant_kinds;
};

FmuDae build_fmu_dae(const Model& model, bool synthesize_derivatives = true);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_FMU_DAE_H
