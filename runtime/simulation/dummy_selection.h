// runtime/simulation/dummy_selection.h -- the dummy-derivative selection of
// an FMU at a point, numerically, whatever the FMU provides; shared by the
// simulator (at the start and at every re-selection) and `lsdae info
// --structure`.
//
// Values (SelectionValues): ∂(constraint rows)/∂(columns) from
// fmi3GetDirectionalDerivative when the FMU provides it, otherwise from
// coloured central finite differences of the residual groups
// (model_jacobian_values.h). Finite-difference values carry a relative error
// of about 4e-11 of their row's scale, so a block counts as singular below a
// larger reciprocal condition number with them than with exact values:
//   rcond_floor() = 1e-12 (directional) or 1e-8 (finite differences),
// and the column selection's rank tolerance is raised to 1e-8 with finite
// differences (selection_options()). A selection whose rcond is below the
// floor is never used: at the start it is replaced, at run time it is
// re-selected, and where no selection clears the floor the run stops
// (docs/simulation/index-reduction.md, "Index reduction at run time").
//
// Constraints switched off by a mode (structure/dummy_derivatives.h): the
// selection options carry switched_off(), which the selection asks about a
// constraint whose Jacobian row is exactly zero at the point. It answers true
// only for a residual formulation of the FMU (not an invariant, not a
// synthesized derivative) whose value at the point is exactly 0 and whose
// dependencies are all declared with dependenciesKind constant, fixed,
// tunable or discrete: its partial derivatives then change only at events,
// so a zero row and a zero value hold for the whole mode (a clutch's slip
// constraint while the clutch slips). A zero row with `dependent` (or
// undeclared) kinds, or a non-zero value, is a singular constraint, and the
// selection fails on it as before.
//
// select_at_start(): the structural selection (create() could only choose
// from the structure) is CHECKED at the start point (check_dummy_selection:
// its rcond), then the numeric selection is made there; both results go into
// the selection (values_source, structural_check) for the report.
//
// Contract: the instance is initialized (Initialization Mode exited); the
// point written by set_point() is the one the values describe, and the
// instance is left at that point.
#ifndef LSDAE_RUNTIME_SIMULATION_DUMMY_SELECTION_H
#define LSDAE_RUNTIME_SIMULATION_DUMMY_SELECTION_H

#include <memory>
#include <string>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/model.h"
#include "simulation/constraint_synthesis.h"
#include "simulation/model_dae.h"
#include "simulation/model_jacobian_values.h"
#include "structure/pipeline.h"

namespace lsdae::simulation {

class SelectionValues {
 public:
  // References must outlive this object.
  SelectionValues(const Model& model, Instance& instance, const ModelDae& dae, const structure::DaeSystem& system);
  // Writes `point` into the instance; the next values describe it.
  void set_point(const DaePoint& point);
  structure::JacobianCallback callback();
  bool directional() const { return !fd_; }
  const char* source() const { return fd_ ? "finite differences" : "directional derivatives"; }
  double rcond_floor() const { return fd_ ? 1e-8 : 1e-12; }
  structure::SelectionOptions selection_options(structure::SelectionOptions options) const;
  // The switched-off test above, at the point last set (the instance holds it).
  bool switched_off(structure::EquationRef constraint) const;

 private:
  void write_point();  // point_ into the instance (also after the finite-difference class)
  bool is_two_level_row(const structure::EquationRef& row) const;
  void synthesized_entries(std::span<const structure::JacobianEntry> entries, std::span<double> values);
  Instance& instance_;
  const ModelDae& dae_;
  const structure::DaeSystem& system_;
  std::unique_ptr<FiniteDifferenceJacobianValues> fd_;  // null: directional
  DaePoint point_;
  std::vector<double> state_nominal_, derivative_nominal_;
  std::unique_ptr<ConstraintSynthesis> synthesis_;  // two-level synthesized rows; null: none
  std::vector<std::pair<std::size_t, std::size_t>> synthesized_rows_;  // (formulation, slot in synthesis_)
};

// The point the instance holds after initialization (read_point of
// model_dae.h: states, algebraic variables, and the derivatives); non-finite
// values are 0.
DaePoint initial_point(Instance& instance, const ModelDae& dae, double t);

// The numeric selection at the start with the structural one checked (see
// the file comment). `structural` is create()'s outcome (no values). The
// returned outcome's selection has success = false when no selection is
// nonsingular there (then index1 is the projection fallback of run_structure
// and the caller decides); its values_source and structural_check are set.
structure::StructureOutcome select_at_start(const ModelDae& dae, const structure::StructureOutcome& structural,
                                            SelectionValues& values, const structure::PipelineOptions& pipeline);

// "der(x), der(y)" for the dummy states (column names of their derivatives).
std::string dummy_names(const structure::DaeSystem& system, const std::vector<std::size_t>& states);
// The candidate states of every constraint component, as names.
std::string candidate_names(const structure::DaeSystem& system, const structure::DummyDerivativePlan& plan);
std::string constraint_names(const structure::DaeSystem& system, const structure::DummyDerivativePlan& plan);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_DUMMY_SELECTION_H
