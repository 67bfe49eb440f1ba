// runtime/simulation/model_dae.h -- the bridge between a model's value
// references (an lsdae::Model: one FMU, or a System of FMUs composed into one
// DAE) and lsdae::structure's FMI-free DAE description.
//
// build_model_dae maps:
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
// a residual group whose last formulation g depends on states only (a
// non-empty dependency list of x_i, no ẋ, no z; S = those states) gets
// formulations that lsdae computes itself (constraint_synthesis.h), one or
// two levels:
//   * KINEMATIC BLOCK found: |S| other residual groups of one formulation
//     each, whose dependencies hold derivatives of states of S only (at
//     least one), states, and no algebraic variable, and whose ẋ_S incidence
//     has a perfect matching (pendulum: der(r) − u = 0). They give
//     ẋ_S = φ(t, x) at any (t, x). Two formulations:
//       "d/dt(g)"   g₁(t, x) = ∂g/∂t + ∂g/∂x·φ(t, x), a function of the states
//                   (pattern: x of S and of the block's states), so it can be
//                   a constraint of the dummy-derivative scheme;
//       "d2/dt2(g)" g₂(t, x, ẋ) = d/dt g₁ along (1, ẋ) on the solution, with
//                   φ̇ = dφ/dt along (1, ẋ) (pattern: g₁'s states and the
//                   derivatives of the block's states).
//     This is the substitution the shape-A exporter makes by hand (its
//     velocity formulation r·u has no ẋ): Pantelides then differentiates the
//     constraint group only (structure/pantelides.h).
//   * NO KINEMATIC BLOCK: one formulation "d/dt(g)" = ∂g/∂x·ẋ + ∂g/∂t, whose
//     dependencies are g's states and their derivatives. It contains ẋ, so it
//     cannot be differentiated again (ẍ is no variable of the DAE): an
//     index-3 constraint without a kinematic block stops with "missing
//     formulations" (exit code 8), and FormulationInput::not_differentiable
//     says why.
// Such rows can never be matched in an index-1 system when they contain no
// unknown, so the additions change nothing for a model that was index 1 and
// are exactly the differentiations Pantelides asks for otherwise (a
// kinematic block for the states of g makes the structural index at least 3:
// g₁ has no unknown). residual_vrs[g][level] of a synthesized formulation is
// g's variable, synthesized[g][level] is true and synthesis[k] (group g)
// describes how to compute it (the values are computed, not read).
// build_model_dae(model, false) leaves the groups as the FMU provides them.
#ifndef LSDAE_RUNTIME_SIMULATION_MODEL_DAE_H
#define LSDAE_RUNTIME_SIMULATION_MODEL_DAE_H

#include <string>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/model.h"
#include "structure/dae_input.h"

namespace lsdae::simulation {

struct ModelDae {
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
  // How the synthesized formulations of a group are computed (one entry per
  // group with synthesized formulations, ascending group).
  struct Synthesis {
    std::size_t group = 0;                 // DaeInput::residuals index
    std::size_t first_level = 0;           // level of d/dt(g) in the group (g is first_level − 1)
    ValueReference residual = 0;           // g, the FMU's constraint variable
    std::string name;                      // g's name
    std::vector<std::size_t> states;       // S: the states g depends on (ascending)
    // The kinematic block (two levels); empty: one level along (1, ẋ).
    std::vector<ValueReference> kinematic_vrs;   // per matched state of S (same order as `states`)
    std::vector<std::string> kinematic_names;
    std::vector<std::size_t> kinematic_states;   // the states the block depends on (ascending)
    bool two_levels() const { return !kinematic_vrs.empty(); }
    std::size_t levels() const { return two_levels() ? 2 : 1; }
  };
  std::vector<Synthesis> synthesis;
  // The synthesis entry of a group and the order (1 or 2) of its formulation
  // at `level`; nullptr when that formulation is the FMU's.
  const Synthesis* synthesis_of(std::size_t group, std::size_t level, std::size_t* order = nullptr) const;
  // dependenciesKind, parallel to every mapped dependency list of `input`
  // (empty when the list is absent; `dependent` where the FMU gives no kind):
  // residual_kinds[g][level], state_kinds[i] (semi-explicit f_i), invariant_kinds[k].
  std::vector<std::vector<std::vector<DependencyKind>>> residual_kinds;
  std::vector<std::vector<DependencyKind>> state_kinds, invariant_kinds;
};

ModelDae build_model_dae(const Model& model, bool synthesize_derivatives = true);

// A point of the DAE by variable: states, their derivatives, algebraic variables
// (x, ẋ in Model::states() order, z in the manifest's order).
struct DaePoint {
  double t = 0.0;
  std::vector<double> x, xdot, z;
};

// A point at t sized for `dae`, every value 0.
DaePoint empty_point(const ModelDae& dae, double t);

// What an instance holds, read into a point of `dae` (initialize(), after an
// event, the dummy-derivative selection at the start):
//   x   fmi3GetContinuousStates, as returned;
//   z   the algebraic variables (PointRead::everything only);
//   ẋ   semi-explicit: the FMU's derivatives at that point
//       (fmi3GetContinuousStateDerivatives); fully implicit: the derivative
//       variables, lsdae's own inputs, read with PointRead::everything only;
//       each ẋ_i only where it is finite, and none when the call is
//       discarded -- the others keep what p held (0 in an empty_point(); the
//       pre-event values after an event, where a jump makes the old
//       derivatives no guess but an FMU that cannot evaluate them leaves
//       nothing better).
// Precondition: p has the sizes of empty_point(dae, t). Allocates one
// vector of the states' size.
enum class PointRead { everything, states };
void read_point(Instance& instance, const ModelDae& dae, PointRead what, DaePoint& p);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_MODEL_DAE_H
