// structure/dae_input.h -- what the runtime hands to the structural analysis:
// the DAE's variables, its residual groups and their dependencies, without
// anything FMI (no value references, no XML, no FMU calls).
//
// The DAE has n states x_i, each with a derivative variable ẋ_i, and m
// algebraic variables z_j. A dependency names one of them by block and index
// (VarRef). Time, parameters and every other known of Continuous-Time Mode are
// NOT dependencies here: the runtime drops them when it maps value references.
//
// Two forms (docs/fmi-ls-dae.md):
//   semi_explicit   the FMU computes ẋ = f(x, z, t); the system rows are
//                   ẋ_i − f_i(x, z) (one per state; `StateInput::derivative_dependencies`
//                   is the incidence of f_i over x and z) followed by the residual
//                   groups g(x, z, t) = 0 (dependencies over x and z).
//   fully_implicit  the residual groups are the whole system F(ẋ, x, z, t) = 0;
//                   their dependencies may include ẋ.
// Both become one system over the column blocks (ẋ, x, z): structure/dae_system.h.
//
// Residual groups: one <Residual> of the manifest. Its formulations are the
// same constraint differentiated to successive orders, ORIGINAL FIRST (highest
// DAE index first), each with its own dependencies as the FMU declares them
// (a derivative formulation may already have ẋ substituted by the model's own
// equations, e.g. the pendulum's c1 = x·vx + y·vy depends on states only).
// A shape-B <Residual> is a group of one formulation.
//
// Invariants (shape-B <Invariant>): quantities that must stay zero along the
// solution, lower-order versions of some residual. They are not rows of the
// DAE; the projection method projects onto them, and the dummy-derivative
// method may use them as constraints (AnalysisOptions::invariants_as_constraints).
// When the runtime knows which group an invariant belongs to and how many
// differentiations below the group's original formulation it is, it says so in
// `group` and `level`; both are optional.
//
// Absent dependencies (std::nullopt) mean "depends on everything" as in FMI:
// allowed, but the row becomes dense and the analysis says what that costs.
#ifndef LSDAE_STRUCTURE_DAE_INPUT_H
#define LSDAE_STRUCTURE_DAE_INPUT_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lsdae::structure {

enum class DaeForm : std::uint8_t { semi_explicit, fully_implicit };
const char* to_string(DaeForm form) noexcept;  // "semi-explicit", "fully implicit"

// The three column blocks: ẋ (derivative), x (state), z (algebraic).
enum class Block : std::uint8_t { derivative, state, algebraic };
const char* to_string(Block block) noexcept;  // "derivative", "state", "algebraic"

struct VarRef {
  Block block = Block::state;
  std::size_t index = 0;  // state index for derivative and state, algebraic index for algebraic
  friend bool operator==(const VarRef&, const VarRef&) = default;
};
inline VarRef derivative_of(std::size_t state) { return {Block::derivative, state}; }
inline VarRef state(std::size_t state) { return {Block::state, state}; }
inline VarRef algebraic(std::size_t index) { return {Block::algebraic, index}; }

// std::nullopt: the dependencies attribute is absent (dense row).
using Dependencies = std::optional<std::vector<VarRef>>;

// Soft preference of the dummy-derivative selection (after Modelica's
// StateSelect): `avoid` states become dummies first, `prefer` states last,
// as long as conditioning allows (SelectionOptions::preference_tolerance).
// A runtime maps initial="approx" to avoid and initial="exact" to normal.
enum class StateSelect : std::uint8_t { avoid, normal, prefer };
const char* to_string(StateSelect select) noexcept;

struct StateInput {
  std::string name;             // "x"; empty: "x[i]"
  std::string derivative_name;  // "der(x)"; empty: "der(" + name + ")"
  StateSelect select = StateSelect::normal;
  // Semi-explicit form only: the incidence of f_i over x and z (ẋ is not
  // allowed). Ignored in the fully implicit form.
  Dependencies derivative_dependencies;
};

struct FormulationInput {
  std::string name;                   // the residual variable's name, e.g. "c1"
  std::optional<int> declared_index;  // the manifest's `index` attribute
  Dependencies dependencies;
  // Computed by lsdae (the time derivative of the previous formulation, e.g.
  // "d/dt(r3)"), not a variable of the FMU: reports list it apart.
  bool synthesized = false;
  // Why its builder cannot differentiate it further (for the "missing
  // formulations" diagnostic); empty: nothing to add.
  std::string not_differentiable = {};
};

struct ResidualInput {
  std::vector<FormulationInput> formulations;  // original constraint first; at least one
};

struct InvariantInput {
  std::string name;
  Dependencies dependencies;
  std::optional<std::size_t> group;  // index into DaeInput::residuals, when known
  std::optional<std::size_t> level;  // differentiation order of this invariant (0 = original constraint)
};

struct DaeInput {
  DaeForm form = DaeForm::fully_implicit;
  std::vector<StateInput> states;
  std::vector<std::string> algebraic;  // names of z_j; empty name: "z[j]"
  std::vector<ResidualInput> residuals;
  std::vector<InvariantInput> invariants;
  // Remarks of whoever built the input (e.g. formulations the runtime
  // synthesizes because the FMU does not provide them), copied into
  // DaeSystem::notes and from there into the report.
  std::vector<std::string> notes;
};

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_DAE_INPUT_H
