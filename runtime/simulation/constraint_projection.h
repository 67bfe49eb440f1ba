// runtime/simulation/constraint_projection.h -- drift correction for the
// projection method: moves IDA's solution back onto the constraints that the
// index-1 integration does not enforce (the lower-order Formulations of each
// residual group and the shape-B Invariants; Index1System::projection_constraints).
//
// Problem (seed 000, section 2.3, with IDA's weighted norm): given the point
// ỹ after a step, find
//     y = argmin ‖y − ỹ‖_W   subject to   C(t, y, y') = 0,   ‖v‖_W² = Σ_k (w_k v_k)²,
// with w_k IDA's error weights 1/(rtol·|y_k| + atol_k) (IDAGetErrWeights), so
// a unit of change costs what a unit of local error costs. To first order
// the answer is the orthogonal projection in the W-norm
//     Δ = −D⁻¹Jᵀ (J D⁻¹ Jᵀ)⁻¹ C,   D = diag(w_k²),  J = ∂C/∂y (moved columns).
//
// Algorithm: the standard projection method of Hairer, Lubich, Wanner,
// "Geometric Numerical Integration", 2nd ed., Springer 2006, section IV.4
// (Algorithm 4.2), with the W-metric: simplified Newton iterations
//     y ← y − D⁻¹Jᵀ A⁻¹ C(y),   A = J D⁻¹ Jᵀ (m × m, one row per constraint),
// keeping J and the factorization of A from ỹ, so that the total correction
// lies in range(D⁻¹J(ỹ)ᵀ) -- the exact orthogonal projection for linear
// constraints, within O(‖Δ‖²) of it otherwise. When an iteration reduces
// max|C| by less than a factor `refresh_ratio`, J is evaluated again at the
// current point (Gauss–Newton from there). Stops when max|C| ≤ target ·
// tolerance; failing that after `max_iterations`, throws.
//   J: one fmi3GetDirectionalDerivative per colour of a distance-2 colouring
//      of the constraint pattern over the moved columns (structure/coloring.h;
//      Curtis–Powell–Reid), or, when the FMU provides none, one constraint
//      evaluation per colour with forward differences, increment as IDA's
//      (kernels/compressed_jacobian.h): sqrt(ε)·max(|y_k|, 1/w_k, nominal_k).
//   A: assembled into a pattern fixed at construction (J's structural
//      pattern, explicit zeros kept) and factorized with Eigen's
//      SimplicialLDLT (AMD ordering, symbolic analysis once, numeric per
//      Jacobian). A pivot d_i ≤ 1e-12·A_ii (or A_ii = 0) marks constraint i
//      as dependent on the others at this point: singular, see Errors.
//
// WHICH VALUES MOVE. Only y, and in y only the DIFFERENTIAL unknowns of IDA
// (Index1System: UnknownKind::differential, id = 1) that some constraint
// depends on through a state column x_i (DaeSystem::incidence mapped with
// column_to_unknown). Everything else is held at its given value while C is
// solved: y' (the ẋ_i of the fully implicit form), the algebraic unknowns z_j,
// and the dummy states/derivatives of a dummy-derivative system -- exactly the
// values that IDACalcIC(IDA_YA_YDP_INIT) recomputes afterwards from the
// index-1 rows with the differential y fixed. For the pendulum, {c0} moves
// x, y; {c0, c1} moves x, y, vx, vy; lambda and y' never move.
// Consequence: when a constraint also depends on a held value (z, ẋ, a dummy),
// C = 0 holds at (y, y'_given, z_given) but IDACalcIC changes the held values,
// which can leave a violation of first order in the correction; then
// exact_through_reinitialization() is false and the caller should check
// violation() after IDACalcIC (and project again if needed). All constraints
// of the corpus models depend on states only.
//
// VIOLATION is max_i |C_i|, absolute, in each constraint's own units (no
// scaling: the caller picks `tolerance`, e.g. the integrator's atol).
// An INVARIANT keeps its value, it need not be zero: C_i = I_i − I_i(x0)
// with the value set by set_invariant_values (the energy of an oscillator
// is 0.5 at its start and must stay 0.5, not be projected onto 0).
//
// Contract (inputs, outputs, sizes; N = IDA unknowns = residual.size()):
//   t                 in      time of the point
//   y                 in/out  size N; only moved_unknowns() entries change
//   yp                in      size N; never changed
//   weights           in      size N; IDA's error weights, > 0 and finite on
//                             the moved unknowns (checked)
//   tolerance         in      > 0, finite (checked)
// Validation: the constructor and project() check their arguments and throw
// lsdae::Error(usage) naming the value; the FMU is trusted to honour the
// declared dependencies (an undeclared dependency spoils the colouring).
// The instance (residual.instance()) must be in Continuous-Time Mode; on
// return from a successful project() it holds the projected point
// (t, y, y'); after a failure or Discard it holds some trial point (every
// ModelResidual evaluation writes its whole point first, so IDA is unaffected).
//
// Errors (all lsdae::Error(ErrorKind::solver), y restored to its input):
//   singular A (constraints dependent at this point, or a zero gradient);
//   nearly singular (no convergence within max_iterations while A's
//   equilibrated condition estimate, or the first correction relative to the
//   states, is at least 1e6: a degenerate point, where tighter tolerances do
//   not help); and plain no convergence (the point is too far from the
//   constraints). Each names the constraints, the time, the violation and the
//   condition estimate (ConditionReport), and says what to do. A non-finite constraint value
//   is reported the same way. fmi3Discard from the FMU is NOT an error:
//   project() returns projected = false, discarded = true, y unchanged, and
//   the caller decides (e.g. keep the unprojected step, or retry smaller).
//
// KEPT JACOBIAN (options.keep_jacobian, the in-step projection): J from an
// earlier call is reused while the iterations contract; a call then costs
// one constraint evaluation when the first increment is already below
// correction_tolerance (the usual case when every step is projected: the
// drift of one step is of the order of its local error).
// Cost per project(): 1 + iterations constraint evaluations (one
// fmi3GetFloat64 of m variables after ModelResidual::apply), plus per
// Jacobian: colours directional-derivative calls (or colours evaluations),
// O(Σ_k nnz_k²) to assemble A (nnz_k = constraints touching column k) and
// one sparse LDLᵀ of A. Workspaces are allocated in the constructor; on
// success project() and violation() allocate nothing of their own (Eigen's
// numeric factorization keeps its own workspace).
// Files: constraint_projection.cpp (project, A), constraint_projection_setup.cpp
// (the constructor), constraint_projection_jacobian.cpp (C and J),
// constraint_projection_messages.{h,cpp} (thresholds and messages).
#ifndef LSDAE_RUNTIME_SIMULATION_CONSTRAINT_PROJECTION_H
#define LSDAE_RUNTIME_SIMULATION_CONSTRAINT_PROJECTION_H

#include <Eigen/SparseCholesky>
#include <Eigen/SparseCore>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "lsdae/instance.h"
#include "simulation/constraint_synthesis.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "structure/coloring.h"
#include "structure/dae_system.h"
#include "structure/index1_system.h"
#include "structure/pattern.h"

namespace lsdae::simulation {

struct ProjectionOptions {
  enum class Jacobian : std::uint8_t { automatic, directional, finite_differences };
  // automatic: directional derivatives when the FMU provides them.
  Jacobian jacobian = Jacobian::automatic;
  int max_iterations = 10;      // Newton iterations per project(), >= 1
  double target = 0.1;          // converged when max|C| <= target * tolerance; in (0, 1]
  double refresh_ratio = 0.25;  // new J when max|C| shrinks by less than this factor; in (0, 1)
  // Nominal magnitude per IDA unknown, for finite-difference increments
  // (empty: 1 for all). Size N when given.
  std::vector<double> nominal;
  // Keep J from one project() to the next (simplified Newton across calls,
  // as IDA keeps its iteration matrix): a call evaluates J only when it has
  // none, after a failure, or when an iteration contracts by less than
  // refresh_ratio. A is factorized again with every call's weights (it is
  // m × m and cheap); only J costs FMU calls. For the in-step projection,
  // where consecutive points are one step apart.
  bool keep_jacobian = false;
  // > 0: also converged when the last Newton increment δ is at most this in
  // IDA's WRMS norm, sqrt(Σ_k (w_k δ_k)² / N) -- what is left is then a
  // small fraction of the local error IDA tolerates (CVODE's projection
  // tolerance eps_proj, default 0.1, plays the same role). The increment is
  // applied and C is not evaluated again. 0: only max|C| <= target · tolerance.
  double correction_tolerance = 0;
};

// How close to singular the linearized projection was (constraint_projection.cpp):
//   condition   the condition estimate of A = J D⁻¹ Jᵀ equilibrated to unit
//               diagonal (1 / the smallest relative pivot d_q / A_ii of its
//               LDLᵀ; a lower bound of κ₂ of the equilibrated A): large when
//               constraints are nearly dependent; +infinity when singular
//   weakest     the constraint of that smallest pivot
//   step_ratio  the first Newton correction per moved state, divided by
//               max(|y_k|, 1/w_k): large when a gradient nearly vanishes
//   steepest    the constraint with the largest share of that correction
struct ConditionReport {
  double condition = 0;
  std::size_t weakest = 0;
  double step_ratio = 0;
  std::size_t steepest = 0;
};

struct ProjectionResult {
  bool projected = false;         // a correction was applied to y
  bool discarded = false;         // the FMU returned fmi3Discard: nothing applied
  double violation_before = 0;    // max_i |C_i| at the given point (absolute)
  double violation_after = 0;     // max_i |C_i| at the returned point
  double correction = 0;          // ‖Δy‖ in IDA's WRMS norm: sqrt(Σ_k (w_k Δy_k)² / N)
  int iterations = 0;             // corrections applied (Newton iterations)
  int jacobians = 0;              // constraint Jacobians evaluated
  double condition = 0;           // ConditionReport::condition, worst over this call's Jacobians (0: none)
};

class ConstraintProjector {
 public:
  // `constraints`: the equations to enforce (Index1System::projection_constraints),
  // formulations of residual groups or invariants. The FMU instance is
  // residual.instance(). residual, dae and index1 must outlive this object;
  // system is read only here (names are copied).
  // Throws Error(usage) for bad options or a state-equation formulation, and
  // Error(solver) for a constraint that depends on no differential unknown
  // (a projection of the differential states cannot reach it).
  ConstraintProjector(ModelResidual& residual, const ModelDae& dae, const structure::DaeSystem& system,
                      const structure::Index1System& index1, std::vector<structure::EquationRef> constraints,
                      ProjectionOptions options = {});

  // Projects y onto C(t, y, y') = 0 when max|C| > tolerance (otherwise
  // returns projected = false with y unchanged). See the file comment.
  ProjectionResult project(double t, std::span<double> y, std::span<const double> yp,
                           std::span<const double> weights, double tolerance);

  // max_i |C_i| at (t, y, y'), absolute. +infinity when the FMU discards the
  // evaluation, NaN when a constraint value is NaN. 0 without constraints.
  double violation(double t, std::span<const double> y, std::span<const double> yp);

  std::size_t constraint_count() const { return vrs_.size(); }
  const std::string& constraint_name(std::size_t i) const { return names_[i]; }
  // IDA unknowns project() may change, ascending.
  std::span<const std::size_t> moved_unknowns() const { return moved_; }
  // True when every constraint depends on moved unknowns only, so the
  // projected point stays on the constraints through IDACalcIC.
  bool exact_through_reinitialization() const { return exact_; }
  // Directional-derivative calls (or constraint evaluations) per Jacobian.
  std::size_t jacobian_colors() const { return coloring_.colors; }
  bool uses_directional_derivatives() const { return directional_; }
  // The values the invariants keep (per DaeInput invariant, e.g. I(x0) read
  // after initialization): an invariant constraint is C_i = I_i − value_i.
  // Formulations are C_i = r_i (their value is zero on the solution).
  void set_invariant_values(std::span<const double> per_invariant);
  // The constraint values of the last evaluation, per constraint.
  std::span<const double> values() const { return c_; }
  // FMU evaluations spent on synthesized constraints (constraint_synthesis.h); 0 without.
  std::size_t synthesis_evaluations() const { return synthesis_ ? synthesis_->evaluations() : 0; }
  // Forget a kept J (keep_jacobian): the next project() evaluates it afresh.
  void invalidate_jacobian() { have_jacobian_ = false; }

 private:
  enum class Eval : std::uint8_t { ok, discard };
  // C at (t, y, y') into `out` (size m).
  Eval read(double t, std::span<const double> y, std::span<const double> yp, std::span<double> out);
  // jac_ at (t, y, y'); finite differences take c_ as C at that point.
  Eval evaluate_jacobian(double t, std::span<const double> y, std::span<const double> yp,
                         std::span<const double> weights);
  // A = J D⁻¹ Jᵀ from jac_ and d_inv_, factorized; returns the constraints
  // found dependent (empty: A is safely nonsingular).
  std::vector<std::size_t> factorize();
  double max_abs() const;                                // max |c_|; NaN if any is NaN
  std::vector<std::size_t> largest(double above) const;  // constraints with |c_i| > above, largest first
  void restore(std::span<double> y) const;               // moved entries of y ← y_start_

  ModelResidual& residual_;
  Instance& instance_;
  ConditionReport condition_;  // of the last factorize()
  ProjectionOptions options_;
  bool directional_ = false;
  bool exact_ = true;
  bool have_jacobian_ = false;  // jac_ holds a J (keep_jacobian)
  std::size_t n_ = 0;                     // N, IDA unknowns
  std::vector<std::string> names_;        // per constraint
  std::vector<ValueReference> vrs_;       // per constraint: the variable C_i is read from
  // Synthesized constraints (d/dt(g) in state form, model_dae.h): computed by
  // synthesis_ instead (pairs of constraint index and synthesis slot).
  std::unique_ptr<ConstraintSynthesis> synthesis_;  // null: none
  std::vector<std::pair<std::size_t, std::size_t>> synthesized_;
  std::vector<double> x_work_, xdot_work_, synth_values_;
  std::vector<std::size_t> invariant_of_;  // per constraint: its invariant index, or no_index
  std::vector<double> offset_;            // per constraint: subtracted from the value read (empty: none)
  std::vector<std::size_t> moved_;        // moved IDA unknowns (local column k → unknown)
  std::vector<ValueReference> moved_vrs_;  // per local column: the state's value reference

  // J over the moved columns: constraints × moved, CSC of `pattern_`.
  structure::Pattern pattern_;
  structure::Coloring coloring_;
  std::vector<double> jac_;                 // values in pattern_ CSC order
  // A = J D⁻¹ Jᵀ, lower triangle, pattern fixed at construction. Column k of
  // J contributes J_rk·J_sk/w_k² to A_rs for each pair of its rows r ≥ s:
  // pairs_[pair_ptr_[k] … pair_ptr_[k+1]) hold the two positions in jac_ and
  // the position of A_rs in a_.valuePtr().
  struct Pair {
    std::size_t j_r, j_s, slot;
  };
  std::vector<Pair> pairs_;
  std::vector<std::size_t> pair_ptr_;
  std::vector<std::size_t> diagonal_slot_;  // per constraint: position of A_ii
  Eigen::SparseMatrix<double> a_;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>, Eigen::Lower> ldlt_;

  // Workspaces.
  std::vector<double> c_;        // constraint values at the current point
  std::vector<double> scratch_;  // sensitivities, or C at a perturbed point
  Eigen::VectorXd mu_;           // A⁻¹ C
  std::vector<double> d_inv_;    // 1/w_k² per moved column
  std::vector<double> increment_;  // finite-difference increment per moved column
  std::vector<double> y_start_;  // moved entries of the input y (restored on failure)
  std::vector<double> y_work_;   // finite differences: perturbed y (size N)
  std::vector<ValueReference> known_vrs_;
  std::vector<double> seeds_;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_CONSTRAINT_PROJECTION_H
