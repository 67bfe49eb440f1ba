// kernels/compressed_jacobian.h -- IDA's iteration matrix
//     J = ∂G/∂y + cj·∂G/∂y'
// evaluated column group by column group (Curtis–Powell–Reid): the columns of
// one colour share no row, so one evaluation per colour gives all of them.
//
// Reference: A. R. Curtis, M. J. D. Powell, J. K. Reid, "On the estimation of
// sparse Jacobian matrices", J. Inst. Math. Appl. 13 (1974) 117–119; the
// increment follows IDA's own difference-quotient Jacobian (Hindmarsh et al.,
// "SUNDIALS", ACM TOMS 31(3), 2005; idaLsDenseDQJac):
//     inc_j = sqrt(unit roundoff) · max(|y_j|, |h·y'_j|, 1/w_j, nominal_j),
//     sign of h·y'_j, and  y_j + inc_j, y'_j + cj·inc_j,
// where h is IDA's current step, w_j its error weight (1/w_j is the
// absolute accuracy asked for y_j) and nominal_j the variable's nominal value
// (FMI `nominal`, default 1): the nominal floor keeps the increment far above
// the rounding error of residuals that are large where y_j is still zero
// (e.g. a filter whose derivative is 1e13 at t = 0).
//
// Two ways to get a colour's columns:
//   finite differences    one residual() per colour at the perturbed point,
//                         minus the residual at the base point (given);
//   directional           one jacobian_columns() per colour (exact, e.g.
//                         fmi3GetDirectionalDerivative with one seed per colour).
// Colours are evaluated in parallel with OpenMP over a POOL of residual
// functions, one per thread (thread t uses pool[t]; the pool must have at
// least as many entries as threads requested). Each colour writes only its
// own columns of the output, so threads never write the same entry and the
// result is bitwise independent of the thread count.
//
// Constant entries (set_constant_entries; docs/algorithms-jacobian.md, "Constant
// Jacobian entries"). Entries the model declares constant (FMI 3.0
// dependenciesKind `constant`/`fixed`: for the whole run; `tunable`/
// `discrete`: until the next event) are split as J_p = a_p + cj·b_p with
// a = ∂G/∂y, b = ∂G/∂y' and evaluated once: one pass per colour of the FULL
// colouring restricted to the columns holding constant entries, with the
// y part seeded (a), and, for the entries with a y' part, one more with the
// y' part seeded (b) (finite differences: y moved alone, then y' by cj times
// the increment; the increment is 1e-3 of the unknown's scale instead of √ε:
// an affine dependency has no truncation error, so the larger increment
// only divides the rounding error, ε·|G|/Δ, by about 10⁵).
// Every Jacobian afterwards evaluates only the colours of the VARYING
// colouring (structure/coloring_varying.h) and writes a_p + cj·b_p for the
// constant entries. When that colouring lets a row of a colour see constant
// entries of other columns besides its varying one, their known
// contributions are subtracted (directional: a + cj·b; finite differences:
// (a + cj·b)·increment of their column), so the varying entry is recovered
// to rounding. invalidate_constants() (IDA restarted after an event) drops
// the per-segment values, which the next Jacobian takes again over the
// columns holding them only; with no constant entries nothing changes.
//
// Re-forming for a new cj (reform(); docs/algorithms-jacobian.md, "Re-forming the
// iteration matrix for a new cj"). CVODE keeps its saved Jacobian when only
// gamma changed and re-forms I − γJ (cvLsSetup: a fresh J only at nst = 0,
// after msbj steps or a convergence failure); IDA's matrix mixes the two
// parts, so it has no such reuse. Here: when ∂G/∂y' = B is known for every
// entry that has a y' part -- set_known_derivative_part(), the residual's
// known_derivative_part() (a semi-explicit state row: B = 1 at its own ẋ) --
// the matrix of the last evaluation at cj₀ (kept after each successful
// evaluate_*) gives the one at a new cj without a model call:
//     J(cj) = J(cj₀) + (cj − cj₀)·B,
// exact when ∂G/∂y has not changed since (a constant entry is written as
// a + cj·b, bitwise as a fresh evaluation writes it; any other entry with a
// B part as J(cj₀)_p + (cj − cj₀)·B_p, equal to a fresh one up to rounding);
// otherwise the varying part is that of the last evaluation, as CVODE's saved
// J is. Only an evaluation made entirely of directional derivatives is kept:
// a difference quotient re-used over many steps carries its truncation error
// with it (evaluate_finite_differences, and colours taken by finite
// differences in evaluate_directional, leave nothing to re-form). The caller
// decides when (runtime/simulation/ida/jacobian_reuse.h).
// Cost: O(nnz) copies, no model call. invalidate_constants() (an event) and
// every change of the entries or columns drop the saved matrix.
//
// Output: the values of J in the CSC order of `pattern` (col_ptr/row_idx),
// which is what SUNDIALS' CSC SUNSparseMatrix and KLU store.
// Cost: colours × (one evaluation + O(n)) work; O(threads · n) workspace,
// allocated once in the constructor. evaluate_* allocate nothing. A
// directional evaluation asks each colour for the rows its entries need only
// (jacobian_columns_at_rows; the rows per colour kept, O(nnz)): on a model
// whose directional derivative costs O(unknowns asked) that is O(nnz) for
// all colours together instead of O(colours · n).
#ifndef LSDAE_KERNELS_COMPRESSED_JACOBIAN_H
#define LSDAE_KERNELS_COMPRESSED_JACOBIAN_H

#include <atomic>
#include <cstddef>
#include <span>
#include <vector>

#include "kernels/residual_function.h"
#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae::kernels {

struct JacobianPoint {
  double t = 0.0;
  std::span<const double> y, yp;
  std::span<const double> residual;  // G(t, y, y') (finite differences only)
  double cj = 1.0;                   // IDA's coefficient
  double h = 0.0;                    // IDA's current step size (sign matters)
  std::span<const double> weights;   // IDA's error weights w_j (finite differences only; empty: 1)
  std::span<const double> nominal;   // nominal magnitude of y_j (finite differences only; empty: 1)
};

struct JacobianCounters {
  std::size_t evaluations = 0;        // Jacobians computed
  std::size_t residual_calls = 0;     // residual() calls made by finite differences (all passes)
  std::size_t directional_calls = 0;  // jacobian_columns() calls (all passes)
  std::size_t constant_evaluations = 0;  // times the constant entries were (re)computed
  std::size_t constant_calls = 0;        // calls of those passes (included in the two above)
  std::size_t reforms = 0;               // matrices re-formed for a new cj (reform()), not evaluations
};

// Per CSC entry of the pattern, what the model declares about it.
enum class EntryLifetime : unsigned char {
  varying,  // re-evaluated at every Jacobian
  run,      // constant for the whole run (constant, fixed)
  segment,  // constant between events (tunable, discrete)
};
struct ConstantEntries {
  std::vector<EntryLifetime> lifetime;   // per CSC entry
  std::vector<bool> derivative_part;     // per CSC entry: the value has a cj·∂G/∂y' part
  friend bool operator==(const ConstantEntries&, const ConstantEntries&) = default;
};

class CompressedJacobian {
 public:
  // `pattern`: the square iteration-matrix pattern; `coloring`: a valid
  // distance-2 colouring of it (structure::verify_coloring). Both are kept
  // by reference and must outlive this object. `threads` >= 1.
  CompressedJacobian(const structure::Pattern& pattern, const structure::Coloring& coloring, std::size_t threads);

  std::size_t threads() const { return threads_; }
  std::size_t colors() const { return coloring_.colors; }
  // Colours evaluated per Jacobian: colors() without constant entries,
  // else those of the varying colouring.
  std::size_t varying_colors() const { return varying_ ? varying_->colors : coloring_.colors; }
  std::size_t constant_entry_count() const { return constant_count_; }

  // Enables the constant entries (see above). `varying` colours the columns
  // with a varying entry (structure::verify_varying_coloring holds; no_index
  // for the others). Both arguments are kept by reference and must outlive
  // this object. Throws std::invalid_argument on a size mismatch.
  void set_constant_entries(const ConstantEntries& entries, const structure::Coloring& varying);
  // After an event: per-segment constants are recomputed at the next
  // Jacobian, and the saved matrix is dropped (no reform() before the next
  // evaluation).
  void invalidate_constants();
  // B = ∂G/∂y' for reform(): the complete list of its nonzeros (none
  // outside it). Entries outside the pattern, or duplicates, make re-forming
  // unavailable (returns false). Empty list: B = 0, re-forming available.
  bool set_known_derivative_part(std::span<const ResidualFunction::DerivativeEntry> entries);
  // Whether reform() may be called: B known and a matrix saved since the
  // last invalidation.
  bool can_reform() const { return derivative_known_ && saved_valid_; }
  // The saved matrix re-formed for `cj` into `values` (see above). Requires
  // can_reform(); counts counters().reforms. At the saved matrix's own cj it
  // is that matrix, bitwise.
  void reform(double cj, std::span<double> values);
  // Whether the saved matrix was evaluated at bitwise this t, y, y' and cj
  // (and nothing dropped it since): the matrix a fresh evaluation there would
  // give, which reform(point.cj) hands back without a model call (IDACalcIC
  // sets up twice at the same point, jacobian_reuse.h). O(n) comparisons.
  bool saved_at(const JacobianPoint& point) const;
  // Columns whose directional derivatives are wrong (the claims check,
  // runtime/simulation/jacobian_claims.h): evaluate_directional takes every
  // colour holding one of them by finite differences (as
  // evaluate_finite_differences does, counted in residual_calls) and the
  // others by directional derivatives. Per colour of the colouring each
  // Jacobian evaluates: the full one, or with constant entries the varying
  // one (constant entries of other columns in such a colour are corrected
  // for as evaluate_finite_differences does). The constant entries are taken
  // by directional derivatives: the caller declares none in these columns
  // (their entries varying; a constant entry of a wrong column would keep
  // the wrong value). Kept by value; set_constant_entries re-colours them.
  // Empty (or all false): every colour directional.
  void set_finite_difference_columns(const std::vector<bool>& columns);
  std::size_t finite_difference_colors() const { return finite_difference_colours_; }
  const structure::Pattern& pattern() const { return pattern_; }

  // Fill `values` (size pattern.nnz(), CSC order). `pool` has >= threads() entries.
  EvalStatus evaluate_finite_differences(std::span<ResidualFunction* const> pool, const JacobianPoint& point,
                                         std::span<double> values);
  EvalStatus evaluate_directional(std::span<ResidualFunction* const> pool, const JacobianPoint& point,
                                  std::span<double> values);

  const JacobianCounters& counters() const { return counters_; }

  // The constant entries' values (a, b per entry; kept for the entries of
  // lifetime `run` only, 0 elsewhere) and whether they were taken: what a
  // snapshot of the run keeps (runtime/simulation/session_learned.h).
  struct RunConstants {
    std::vector<double> a, b;
    bool taken = false;
    bool operator==(const RunConstants&) const = default;
  };
  RunConstants run_constants() const;
  // Takes `values` (run_constants() of a Jacobian with the same pattern and
  // constant entries) as if this Jacobian had computed them at its start:
  // the run-long entries are not taken again, the per-segment ones are at
  // the next Jacobian, as after an event (invalidate_constants). Ignored
  // when there are no constant entries, the sizes differ or nothing was taken.
  void adopt_run_constants(const RunConstants& values);

 private:
  struct Workspace {
    std::vector<double> y, yp, r;
    bool at_point = false;  // this thread's pool object holds the point of the running evaluation
  };
  // A constant entry `constant` of a colour's column, in the row of the
  // varying entry `varying` of another column of the same colour.
  struct Correction {
    std::size_t varying, constant, column, varying_column;
  };
  EvalStatus compute_constants(std::span<ResidualFunction* const> pool, const JacobianPoint& point, bool directional);
  EvalStatus pass(std::span<ResidualFunction* const> pool, const JacobianPoint& point, bool directional,
                  const structure::Coloring& groups, double y_seed, double yp_seed, std::vector<double>& out,
                  const std::vector<bool>& take);
  void fill_constants(double cj, std::span<double> values) const;
  // After an evaluation at `point`: keeps `values` for reform() when `keep`, else drops the saved matrix.
  void keep_for_reform(bool keep, const JacobianPoint& point, std::span<const double> values);
  // One colour's difference quotient into `values` (constant entries skipped
  // when `skip_constant`); IDA's increment (see the header).
  EvalStatus difference_quotient(ResidualFunction& f, Workspace& w, const JacobianPoint& point,
                                 std::span<const std::size_t> group, bool skip_constant,
                                 std::span<double> values) const;
  // With constant entries, after a difference quotient of varying colour
  // `color` in `w`: the known contributions of its constant entries taken out.
  void correct_quotient(std::size_t color, const Workspace& w, const JacobianPoint& point,
                        std::span<double> values) const;
  // finite_difference_colour_ from finite_difference_columns_ over the
  // colouring each Jacobian evaluates.
  void colour_finite_difference_columns();
  // colour_rows_ over the colouring each Jacobian evaluates.
  void colour_rows();
  const ConstantEntries* constants_ = nullptr;
  const structure::Coloring* varying_ = nullptr;
  std::vector<bool> finite_difference_columns_;  // per column (empty: none)
  std::vector<bool> finite_difference_colour_;   // per evaluated colour (empty: none)
  // Per evaluated colour, the rows of the entries it takes (constant ones
  // aside), CSR-like: all a directional evaluation reads of its column sum
  // (ResidualFunction::jacobian_columns_at_rows).
  std::vector<std::size_t> colour_rows_start_, colour_rows_;
  std::size_t finite_difference_colours_ = 0;
  std::size_t constant_count_ = 0;
  bool constants_valid_ = false, has_segment_ = false, run_valid_ = false;
  // The full colouring restricted to the columns with constant entries (with
  // a y' part), and to those with per-segment ones (recomputed after events).
  structure::Coloring constant_groups_, derivative_groups_, segment_groups_, segment_derivative_groups_;
  std::vector<bool> is_constant_, is_derivative_, is_segment_, is_segment_derivative_;  // per entry
  std::vector<double> a_, b_;                                 // per entry
  std::vector<std::vector<Correction>> corrections_;          // per varying colour
  // reform(): B's entries (CSC positions, values), the last matrix and its cj.
  bool derivative_known_ = false, saved_valid_ = false;
  std::vector<std::size_t> derivative_position_;
  std::vector<double> derivative_value_, saved_;
  double saved_cj_ = 0.0;
  // The point of the saved matrix (saved_at).
  double saved_t_ = 0.0;
  std::vector<double> saved_y_, saved_yp_;
  const structure::Pattern& pattern_;
  const structure::Coloring& coloring_;
  std::size_t threads_;
  std::vector<Workspace> work_;
  JacobianCounters counters_;
};

}  // namespace lsdae::kernels

#endif  // LSDAE_KERNELS_COMPRESSED_JACOBIAN_H
