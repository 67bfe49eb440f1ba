// structure/dummy_derivatives.h -- which states become DUMMY states (their
// derivative variable a dummy derivative, an algebraic unknown) so that the
// active formulations plus the lower-order formulations they were
// differentiated from form one index-1 system.
//
// Reference: S. E. Mattsson, G. Söderlind, "Index reduction in differential-
// algebraic equations using dummy derivatives", SIAM J. Sci. Comput. 14(3),
// 1993. In the FMU setting the method reads:
//   After Pantelides (structure/pantelides.h) group g is active at level c_g.
//   Its lower formulations F_g^0 … F_g^{c_g−1} are CONSTRAINTS C(ẋ, x, z) = 0
//   that hold on the solution but that the active system alone lets drift.
//   Add all of them as rows (d rows in total) and make d states dummies:
//   x_s and ẋ_s both become algebraic unknowns, so rows and unknowns stay
//   balanced. The result is index 1 iff, with u = (ẋ, z) and F the active
//   system, the matrix [[F_u, F_{x_s}], [C_u, C_{x_s}]] is nonsingular, i.e.
//   iff the Schur complement S_s of  S = C_x − C_u F_u^{-1} F_x  (d × n)
//   restricted to the chosen columns s is nonsingular.
// This is Mattsson–Söderlind's selection written on the constraint Jacobian:
// for formulations that are plain time derivatives, ∂F_g^{k+1}/∂ẋ = ∂F_g^k/∂x,
// so their matrices G_i are exactly these rows; unlike G_i it stays valid when
// the exporter substituted derivatives (pendulum c1 = x·vx + y·vy). MS's
// hierarchy (highest derivatives first) becomes the row HEIGHT h = c_g − k
// (how many differentiations below the active formulation): rows of greater
// height are pivoted first, and a state that appears in a row of greater
// height is not taken for a lower one unless nothing else is nonsingular
// (column_selection.h). For the pendulum that yields the natural pairs
// {x, vx} or {y, vy}: position picked by c0, velocity by c1.
//
// Plan (structural, once): constraints = lower formulations of every
// differentiated group (+ the invariants when asked), split into independent
// COMPONENTS (constraints sharing a state or an unknown of their closure); the
// CLOSURE of a constraint is every unknown u it contains plus, transitively,
// the unknowns of the active rows matched to them (what F_u^{-1} couples it
// to). Candidates are the states of the constraints and of their closure rows.
// The plan lists the Jacobian entries the numeric step needs, sorted by
// column then row: one directional derivative per column serves them.
//
// Selection (numeric, at every re-selection): ask the callback for those
// values, form S per component (a dense LU of the closure block when a
// constraint contains unknowns; nothing when it does not -- the usual case),
// choose columns with select_columns (column_selection.h), or for a large
// component without closure with select_columns_sparse (threshold sparse
// elimination, linear for chains and trees of constraints). Re-selecting at a
// new point costs one callback plus O(Σ_K (d_K² k_K + p_K³)) for the dense
// components; the plan is reused as is.
//
// Constraints switched off by a mode (a clutch's w1 − w2 = 0 while it slips):
// the FMU evaluates such a constraint to 0 with a zero Jacobian row in the
// modes where it does not apply. It is singular for the selection, but it is
// no constraint there: it takes no row and no dummy derivative in that mode
// (per-mode selection). A constraint counts as switched off at a point only
// when (1) its Jacobian row over EVERY column it depends on (states and, for a
// constraint with unknowns, those too) is exactly zero in the values, and (2)
// the caller's SelectionOptions::switched_off says so for it -- the runtime
// checks that its value is exactly 0 and that the model declares all its
// dependencies constant between events (dependenciesKind constant, fixed,
// tunable or discrete), so that the zero row and value hold for the whole
// mode, not just at this point. A constraint whose row vanishes at the point
// but that the caller does not declare switched off (a pendulum's rod at
// x = 0: ∂g/∂x = 2x, dependenciesKind dependent) stays a constraint, and the
// selection fails on it as before. The selection lists the switched-off
// constraints (DummySelection::switched_off); the index-1 system leaves their
// rows out (index1_system.h); the simulator re-selects when the set changes
// at an event.
//
// Cost of the plan: O(nnz of the constraints and closures + E log E) for the
// E entries. Memory O(E + n + m).
#ifndef LSDAE_STRUCTURE_DUMMY_DERIVATIVES_H
#define LSDAE_STRUCTURE_DUMMY_DERIVATIVES_H

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "structure/column_selection_options.h"
#include "structure/dae_system.h"
#include "structure/pantelides.h"

namespace lsdae::structure {

struct JacobianEntry {
  EquationRef row;
  VarRef column;
};

// Fills values[k] = ∂(entries[k].row)/∂(entries[k].column) at the current
// point. Entries arrive sorted by column (ẋ block, x block, z block, index
// ascending), then by row. For a semi-explicit state equation ẋ_i − f_i the
// value is 1 for column ẋ_i and −∂f_i/∂column otherwise. The callback may
// throw; the exception propagates.
using JacobianCallback = std::function<void(std::span<const JacobianEntry> entries, std::span<double> values)>;

struct DummyConstraint {
  EquationRef equation;
  std::size_t height = 1;  // differentiations between it and the active formulation
};

struct DummyComponent {
  std::vector<DummyConstraint> constraints;     // d rows, in plan order
  std::vector<std::size_t> candidates;          // k states, ascending
  std::vector<std::size_t> candidate_height;    // per candidate: greatest height of a row containing it
  std::vector<std::size_t> closure_groups;      // p groups, ascending
  std::vector<std::size_t> closure_unknowns;    // p unknowns; closure_unknowns[i] is matched to closure_groups[i]
  std::vector<std::size_t> closure_formulations;  // p active formulations of closure_groups
  Pattern structure;                            // d × k: which constraint reaches which candidate
};

struct DummyDerivativePlan {
  std::vector<DummyComponent> components;
  std::vector<JacobianEntry> entries;           // sorted by column, then row
  std::vector<std::size_t> entry_component;     // per entry
  std::vector<std::size_t> entry_row;           // local row: constraint t, or d + closure index
  std::vector<std::size_t> entry_column;        // local column: candidate j, or k + closure index
  std::size_t constraints = 0;                  // d in total
  std::vector<std::string> notes;               // constraints that contain unknowns (Schur complement used)
  std::string error;                            // non-empty: no selection can exist (structural reason)

  bool needed() const { return constraints > 0; }
};

DummyDerivativePlan plan_dummy_derivatives(const DaeSystem& system, const PantelidesResult& pantelides,
                                           bool invariants_as_constraints);

struct SelectionOptions {
  ColumnSelectionOptions columns;
  // Components with d·k above this (d constraints, k candidate states) and no
  // closure use the sparse elimination (select_columns_sparse) instead of the
  // dense O(d²k) selection. 0: always sparse where possible.
  std::size_t dense_limit = 40000;
  // Called for a constraint whose Jacobian row is exactly zero at the point:
  // true when the constraint is switched off in the current mode (see the
  // file comment; the caller checks its value and its dependency kinds).
  // Empty: no constraint is ever switched off.
  std::function<bool(EquationRef)> switched_off;
};

// A structure-alone choice of dummy derivatives checked numerically at a point (see
// DummySelection::structural_check). At namespace scope, not nested: a nested class with
// default member initializers is not default-constructible inside its enclosing class
// (clang applies this rule, so std::optional<nested>::emplace() would not compile).
struct StructuralSelectionCheck {
  std::vector<std::size_t> dummy_states;
  double rcond = 0.0;
  bool kept = false;  // the numeric selection is the structural one
};

struct DummySelection {
  bool success = false;
  bool numeric = true;                      // false: chosen from the structure alone
  std::vector<std::size_t> dummy_states;    // ascending state indices
  // Constraints switched off at the point (no row, no dummy), in plan order.
  std::vector<EquationRef> switched_off;
  std::vector<double> component_rcond;      // per component (NaN when not numeric; 1 when all its constraints are off)
  double rcond = 1.0;                       // smallest over the components; NaN when not numeric
  std::string error;
  // Set by the caller that supplied the values (the structure does not know
  // where they came from): how they were computed, e.g. "directional
  // derivatives" or "finite differences"; empty when not numeric.
  std::string values_source;
  // The structure-alone choice checked at the same point (check_dummy_selection),
  // when the caller did so: its dummy states and rcond (0: singular).
  using StructuralCheck = StructuralSelectionCheck;
  std::optional<StructuralCheck> structural_check;
};

// Numeric selection at the point where `values` evaluates. Call again with new
// values to re-select (the plan is not modified).
DummySelection select_dummy_derivatives(const DaeSystem& system, const DummyDerivativePlan& plan,
                                        const JacobianCallback& values, const SelectionOptions& options = {});

// The conditioning of a GIVEN choice of dummy states at the point where
// `values` evaluates (a structural choice checked before use, or the current
// choice under a monitor): per component, the d × d block of S on the chosen
// candidates and its rcond (PartialPivLU, or the sparse estimate for a large
// component); `rcond` is the smallest, 0 for an exactly singular block.
// Constraints switched off at the point (options.switched_off) need no
// dummy: `switched_off` is set first, so a caller can compare it with the
// selection's before judging the fit.
// success = false (with `error`) only when the states do not give each
// component exactly d candidates (d less its switched-off constraints), a value is not finite or a closure is
// singular; judging the rcond is the caller's. Cost: one callback plus
// O(d³) per dense component.
DummySelection check_dummy_selection(const DaeSystem& system, const DummyDerivativePlan& plan,
                                     const JacobianCallback& values, std::span<const std::size_t> dummy_states,
                                     const SelectionOptions& options = {});

// Without values (e.g. `lsdae info --structure` without instantiating the
// FMU): a structurally nonsingular choice by the same hierarchy and state
// preferences, via an augmenting-path matching. It can be numerically
// singular at a given point; the simulator re-selects numerically.
DummySelection select_dummy_derivatives_structurally(const DaeSystem& system, const DummyDerivativePlan& plan);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_DUMMY_DERIVATIVES_H
