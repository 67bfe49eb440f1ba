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
  std::vector<ValueReference> invariant_vrs;
  // dependenciesKind, parallel to every mapped dependency list of `input`
  // (empty when the list is absent; `dependent` where the FMU gives no kind):
  // residual_kinds[g][level], state_kinds[i] (semi-explicit f_i), invariant_kinds[k].
  std::vector<std::vector<std::vector<DependencyKind>>> residual_kinds;
  std::vector<std::vector<DependencyKind>> state_kinds, invariant_kinds;
};

FmuDae build_fmu_dae(const Fmu& fmu);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_FMU_DAE_H
