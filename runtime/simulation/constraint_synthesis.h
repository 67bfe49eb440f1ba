// runtime/simulation/constraint_synthesis.h -- the values of the constraint
// derivatives lsdae synthesizes (ModelDae::synthesis, model_dae.h), from the
// FMU's residual variables alone, at a point (t, x, ẋ).
//
// One level (no kinematic block), "d/dt(g)" = ∂g/∂x·ẋ + ∂g/∂t: a central
// difference along the solution direction (1, ẋ) in (t, x),
//     [g(t + h, x + h·ẋ) − g(t − h, x − h·ẋ)] / (2h),
// truncation h²/6·|d³g/dt³|, rounding about ε·|g|/h; h = ε^(1/3)·T with
// T = min(1 s, min_i s_i/|ẋ_i|) over the states of every one-level row
// (s_i = max(|x_i|, nominal_i)), so no state moves by more than ε^(1/3) of
// its scale and the value has a relative error of about ε^(2/3) ≈ 4e-11.
// One pair of evaluations serves all one-level rows (the union of their
// states moves).
//
// Two levels (a kinematic block K determines ẋ_S, model_dae.h). Every
// difference below is a higher-order stencil (first_difference,
// second_difference below), since g₂ is an index-1 row whose noise goes
// straight into the algebraic unknowns it determines (the rod force):
//   φ(t, x): K(t, x, ẋ_S) = 0 solved for ẋ_S by Newton from the last φ
//       (the first time from the point's ẋ_S, which IDA's difference
//       Jacobian moves far from φ at small steps), J = ∂K/∂ẋ_S by 4-point
//       differences (step for the scale max(|ẋ_j|, nominal_j)), dense LU,
//       computed again after a step larger than 1e-4 of the scale; stops
//       when the step is below 1e-12 of the scale (one step is exact to
//       rounding for rows linear in ẋ_S, such as der(r) − u; the second only
//       confirms it).
//   "d/dt(g)" g₁(t, x) = d/dτ g(t + τ, x_S + τ·φ) at 0, 4-point, scale
//       T₁ = min(1 s, s_i/|φ_i|): a function of (t, x) only.
//   φ̇ = dφ/dt along (1, ẋ): differentiating K(t, x, φ(t, x)) = 0,
//       φ̇ = −J⁻¹·(∂K/∂t + ∂K/∂x·ẋ), the bracket by a 4-point difference of
//       K along (1, ẋ) in (t, x) at ẋ_S = φ (J again at φ when Newton moved
//       far from the start, i.e. for rows not linear in ẋ_S).
//   "d2/dt2(g)" g₂(t, x, ẋ) = d²/dτ² g(c(τ)) at τ = 0 along the curve
//       c(τ) = (t + τ, x_S + τ·φ + τ²/2·φ̇), which has the velocity and the
//       acceleration of the solution through the point, so g₂ = ∂²g[ċ, ċ] +
//       ∂g·c̈ = d²/dt² g on the solution. Not nested first differences
//       (whose error is ε^(1/3) at best) but one 7-point second difference,
//       scale T₂ = min(T₁, √(s_i/|φ̇_i|)): error about 1e-11·|g|/T₂², |g|
//       the size of g's terms (a 3-point second difference would give
//       ε^(1/2) ≈ 1.5e-8 at best, a 5-point one about ε^(2/3) ≈ 4e-11).
//       Where g along c is a polynomial of degree ≤ 7 in τ (the pendulum's
//       |r|² − l²: degree 4) the stencil has no truncation error at all.
//   Cost per evaluation: 2 + 4|S| for φ (rows linear in ẋ_S; 4|S| more when
//   J is computed again at φ), 4 for φ̇, 4 for g₁, 7 for g₂ (25 to 33 for
//   the pendulum, |S| = 2: 31 on average over a run); φ̇ and g₂ only when
//   asked. What this accuracy allows is measured on the pendulum
//   (docs/algorithms.md): IDA tolerances down to about 1e-8.
//   References: Gill, Murray & Wright, Practical Optimization (1981), 8.6 on
//   difference steps; Fornberg, Math. Comp. 51 (1988) for the stencils;
//   Campbell & Gear, Numer. Math. 72 (1995) on derivative arrays.
//
// Contract: evaluate() moves the instance's time, states and (fully
// implicit) the derivatives of S; the caller writes its point again before
// reading anything else. fmi3Discard gives `recoverable`, so does a
// kinematic block that is singular or whose Newton iteration does not
// converge (IDA then retries with a smaller step).
#ifndef LSDAE_RUNTIME_SIMULATION_CONSTRAINT_SYNTHESIS_H
#define LSDAE_RUNTIME_SIMULATION_CONSTRAINT_SYNTHESIS_H

#include <array>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "kernels/residual_function.h"
#include "lsdae/instance.h"
#include "lsdae/model.h"
#include "simulation/model_dae.h"
#include "simulation/input_table.h"

namespace lsdae::simulation {

// Finite-difference stencils (Fornberg 1988) for a function of one variable
// τ at τ = 0, and their steps for a scale T on which the function changes
// by its own size (Gill, Murray & Wright 8.6: the step balances truncation
// against rounding; with |f⁽ᵏ⁾| ≈ |f|/T^k the balance is at about
// 1.6·ε^(1/5)·T and 2.4·ε^(1/8)·T, but the higher derivatives of a
// composition such as sin(x + τv + τ²a/2) grow faster than that, so the
// steps below are smaller by those factors and trade a little rounding for
// a safe margin on truncation):
//   first_difference   [f(−2h) − 8f(−h) + 8f(h) − f(2h)] / (12h): truncation
//                      h⁴/30·|f⁽⁵⁾|, rounding 1.5·ε|f|/h; h = ε^(1/5)·T,
//                      rounding ≈ 4.5e-13·|f|/T;
//   second_difference  [2f(−3h) − 27f(−2h) + 270f(−h) − 490f(0) + 270f(h)
//                      − 27f(2h) + 2f(3h)] / (180h²): truncation
//                      h⁶/560·|f⁽⁸⁾|, rounding 6.04·ε|f|/h²;
//                      h = ε^(1/8)·T, rounding ≈ 1.1e-11·|f|/T².
// Measured (constraint_synthesis_test.cpp): 6e-11 of the second derivative (≈ 9) of
// exp(0.3t)·sin(x0) + x1³/3 along a curve, 1e-13 of the first.
// f holds the values at the offsets in the order written above.
double first_difference(const std::array<double, 4>& f, double h);
double second_difference(const std::array<double, 7>& f, double h);
double first_difference_step(double scale);
double second_difference_step(double scale);
// d/dτ g(t + τ, x + τ·v) and d²/dτ² g(t + τ, x + τ·v + τ²/2·a) at τ = 0 with
// the stencils above and step h; nullopt when g does (an FMU discard).
using CurveFunction = std::function<std::optional<double>(double t, std::span<const double> x)>;
std::optional<double> first_derivative_along(const CurveFunction& g, double t, std::span<const double> x,
                                             std::span<const double> v, double h);
std::optional<double> second_derivative_along(const CurveFunction& g, double t, std::span<const double> x,
                                              std::span<const double> v, std::span<const double> a, double h);

// Per state of `dae`: its nominal from the model description, 1 if none.
std::vector<double> state_nominals(const ModelDescription& md, const ModelDae& dae);

class ConstraintSynthesis {
 public:
  // `state_nominal`: per state, its nominal (1 if none). References must outlive this.
  ConstraintSynthesis(Instance& instance, const ModelDae& dae, std::vector<double> state_nominal);
  // Asks for the value of the synthesized formulation at `level` of group
  // `group` (DaeInput::residuals index); returns its slot in evaluate()'s output.
  std::size_t add_row(std::size_t group, std::size_t level);
  std::size_t rows() const { return rows_.size(); }
  bool empty() const { return rows_.empty(); }
  // The states the rows depend on (ascending), by their declared dependencies.
  std::vector<std::size_t> states() const;
  void set_inputs(const InputTable* inputs) { inputs_ = inputs; }
  // The rows' values at (t, x, ẋ) (full state vectors in Fmu::states() order).
  kernels::EvalStatus evaluate(double t, std::span<const double> x, std::span<const double> xdot,
                               std::span<double> out);
  std::size_t evaluations() const { return evaluations_; }
  // Whether evaluations are counted (false while lsdae checks the FMU's
  // claims: jacobian_claims.h; the run's counter stays what the run spent).
  void set_counting(bool on) { counting_ = on; }
  bool counting() const { return counting_; }

 private:
  struct Row {
    std::size_t entry;  // in dae.synthesis
    std::size_t order;  // 1 or 2
  };
  // FMU evaluation of `vrs` at (t, x) with ẋ_S = v (derivatives of `s_states`; empty: not written).
  bool read(double t, std::span<const double> x, std::span<const std::size_t> s_states, std::span<const double> v,
            std::span<const ValueReference> vrs, std::span<double> out);
  kernels::EvalStatus one_level(double t, std::span<const double> x, std::span<const double> xdot,
                                std::span<double> out);
  kernels::EvalStatus two_levels(const ModelDae::Synthesis& s, bool second, double t, std::span<const double> x,
                                 std::span<const double> xdot, double& g1, double& g2);
  double scale(std::span<const double> x, std::size_t i) const;

  Instance& instance_;
  const ModelDae& dae_;
  std::vector<double> nominal_;
  const InputTable* inputs_ = nullptr;
  std::vector<Row> rows_;
  std::vector<std::size_t> one_level_rows_, one_level_states_;
  std::vector<ValueReference> one_level_vrs_;
  std::vector<double> plus_, minus_, moved_, derivative_buffer_;
  std::vector<ValueReference> derivative_vrs_buffer_;
  std::vector<std::vector<double>> last_phi_;  // per dae.synthesis entry: the last φ (empty: none yet)
  std::size_t evaluations_ = 0;
  bool counting_ = true;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_CONSTRAINT_SYNTHESIS_H
