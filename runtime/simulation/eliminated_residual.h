// runtime/simulation/eliminated_residual.h -- IDA's residual with the linear
// algebraic unknowns of structure/linear_elimination.h eliminated: the
// reduced system F(y_r) = h(y_r) − B·A⁻¹·g(y_r) evaluated through the full
// residual G of the FMU.
//
// Evaluation of F at (t, y_r, y'_r), the full unknowns in `plan` order:
//   1. y = (y_r, z_Z = 0), y' = (y'_r, 0): one evaluation of the full G gives
//      g = G_R and h = G_rest (G is affine in z_Z: the plan's contract);
//   2. z_Z = −A⁻¹·g (KLU, factored once; when every block of A is small,
//      16 unknowns at most, the explicit block inverse: one sparse product);
//   3. F = h + B·z_Z (a sparse product over the eliminated columns; with
//      the explicit inverse, F = h + D·g with D = −B·A⁻¹ formed once).
// One FMU evaluation, as without elimination, over fewer unknowns.
// Jacobian columns (directional): the full columns of the reduced seed give
// u = J_{·r}·v; then w = −A⁻¹·u_R and the reduced columns are u_rest + B·w
// (the Schur complement J_rr − B·A⁻¹·J_Rr applied to v: exact, whatever
// the colouring of the reduced pattern groups, since it is linear in v).
// Finite differences go through residual() unchanged.
//
// A and B (the entries of the eliminated columns: plan.z_columns) are taken
// at the first evaluation -- after the FMU's initialization, so `fixed`
// parameters have their values -- one directional derivative per colour of
// z_columns (finite differences with a step of max(1, nominal) when the FMU
// has none: an affine dependence has no truncation error), then A is
// factored. A singular A (rcond < 1e-13: the plan is structural, the values
// may still be singular) throws Error(solver) naming the block's unknowns
// and advising --eliminate off.
//
// expand() recovers the full point (z_Z from step 2, y'_Z = 0) for outputs,
// event indicators and everything else that reads the FMU's variables.
// One object per thread, like the full residual it wraps (the KLU solve has
// per-factorization workspace). Nothing is allocated after the first
// evaluation.
#ifndef LSDAE_RUNTIME_SIMULATION_ELIMINATED_RESIDUAL_H
#define LSDAE_RUNTIME_SIMULATION_ELIMINATED_RESIDUAL_H

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kernels/residual_function.h"
#include "structure/coloring.h"
#include "structure/linear_elimination.h"

namespace lsdae::simulation {

class EliminatedResidual final : public kernels::ResidualFunction {
 public:
  // `full`, `plan` and `z_coloring` (a colouring of plan.z_columns) must
  // outlive this object. `nominal`: per full unknown (empty: 1);
  // `unknown_name`: names for messages (may be empty).
  EliminatedResidual(kernels::ResidualFunction& full, const structure::LinearElimination& plan,
                     const structure::Coloring& z_coloring, std::vector<double> nominal,
                     std::function<std::string(std::size_t)> unknown_name);
  ~EliminatedResidual() override;
  EliminatedResidual(const EliminatedResidual&) = delete;
  EliminatedResidual& operator=(const EliminatedResidual&) = delete;

  std::size_t size() const override { return plan_.kept.size(); }
  std::size_t full_size() const { return plan_.reduced_unknown.size(); }
  kernels::EvalStatus residual(double t, std::span<const double> y, std::span<const double> yp,
                               std::span<double> r) override;
  bool has_jacobian_columns() const override { return full_.has_jacobian_columns(); }
  // F = h − B·A⁻¹·g: when the full ∂G/∂y' is known and has no entry in an
  // eliminated row (∂g/∂y' = 0) nor column, ∂F/∂y' is its kept part (in
  // reduced indices); otherwise not known (false).
  bool known_derivative_part(std::vector<DerivativeEntry>& out) const override;
  kernels::EvalStatus jacobian_columns(double t, std::span<const double> y, std::span<const double> yp, double cj,
                                       std::span<const std::size_t> columns, std::span<double> jv) override;
  kernels::EvalStatus jacobian_columns_split(double t, std::span<const double> y, std::span<const double> yp,
                                             double y_seed, double yp_seed, std::span<const std::size_t> columns,
                                             std::span<double> jv) override;

  // The full point at (t, y_r, y'_r): the kept unknowns copied, the
  // eliminated ones solved (their y' is 0). Spans of full_size().
  kernels::EvalStatus expand(double t, std::span<const double> y, std::span<const double> yp,
                             std::span<double> y_full, std::span<double> yp_full);
  // Reduced ↔ full index maps.
  const structure::LinearElimination& plan() const { return plan_; }
  // Take A and B from `main` (once it has them) instead of from this
  // object's own instance: the pool of a parallel Jacobian then works with
  // bitwise the same coefficients as the main residual, and they are taken
  // once. `main` must outlive this object.
  void share_coefficients_of(const EliminatedResidual* main) { main_ = main; }
  // Takes A and B now, at (t, y_r, y'_r) -- the point of the first
  // evaluation, so bitwise the coefficients the first evaluation would take --
  // instead of inside the first evaluation, where a failure could only end
  // the run. Returns why it failed (a singular A, an evaluation the FMU
  // refused), without the advice of the thrown message; nothing on success.
  std::optional<std::string> prepare_at(double t, std::span<const double> y, std::span<const double> yp);
  // The eliminated row (its position in plan().eliminated_rows) and value
  // when the last residual() returned recoverable because the FMU gave a
  // non-finite value there -- a row IDA does not see, so it must not pass
  // silently (the run would write the NaN its unknown takes); cleared by
  // the call.
  std::optional<std::pair<std::size_t, double>> take_nonfinite_eliminated_row() {
    return std::exchange(nonfinite_eliminated_, std::nullopt);
  }
  // Whether A and B have been taken (after the first evaluation), and the FMU calls that cost.
  bool prepared() const { return prepared_; }
  std::size_t preparation_calls() const { return preparation_calls_; }

 private:
  // y_full_, yp_full_ from the reduced point with z_Z = 0.
  void scatter(std::span<const double> y, std::span<const double> yp);
  // Takes A and B at the current y_full_, or copies main_'s (throws Error on failure).
  void prepare(double t);
  // Factors A (a_*) with KLU; throws Error when it is singular.
  void factor(double t);
  // rhs (size |Z|) ← −A⁻¹·rhs in place; then out_rest[i] += (B·rhs)[i].
  void solve(std::span<double> rhs);
  void add_b_times(std::span<const double> z, std::span<double> reduced_rows) const;
  // A⁻¹ explicitly (inv_*) when every block of A (the plan's eliminated_block)
  // has at most kExplicitBlockLimit unknowns: a sparse product then replaces KLU's solve,
  // whose per-block overhead dominates when the blocks are tiny (the
  // TransmissionLine's are 1 × 1 and 2 × 2).
  void make_explicit_inverse();
  // out = the kept rows of `full` (a residual or Jacobian columns of G) plus
  // −B·A⁻¹ times its eliminated rows: F's rows (D = −B·A⁻¹ when explicit).
  void reduce_rows(std::span<const double> full, std::span<double> out);
  static constexpr std::size_t kExplicitBlockLimit = 16;

  kernels::ResidualFunction& full_;
  const structure::LinearElimination& plan_;
  const structure::Coloring& z_coloring_;
  std::vector<double> nominal_;
  std::function<std::string(std::size_t)> unknown_name_;
  bool prepared_ = false;
  std::optional<std::pair<std::size_t, double>> nonfinite_eliminated_;
  std::size_t preparation_calls_ = 0;
  std::vector<double> y_full_, yp_full_, r_full_, rhs_, jv_full_;
  std::vector<std::size_t> full_columns_;
  // A in CSC (KLU's int arrays): rows = position in plan.eliminated_rows.
  std::vector<int> a_ptr_, a_idx_;
  std::vector<double> a_val_;
  // B per eliminated column: (reduced row, value).
  std::vector<std::size_t> b_ptr_, b_row_;
  std::vector<double> b_val_;
  const EliminatedResidual* main_ = nullptr;
  bool explicit_ = false;
  std::vector<std::size_t> inv_ptr_, inv_col_;  // A⁻¹ by rows
  std::vector<double> inv_val_, rhs_copy_;
  std::vector<std::size_t> d_ptr_, d_col_;  // D = −B·A⁻¹ by kept rows; columns are full row indices
  std::vector<double> d_val_;
  struct Klu;
  std::unique_ptr<Klu> klu_;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_ELIMINATED_RESIDUAL_H
