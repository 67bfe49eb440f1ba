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
// Output: the values of J in the CSC order of `pattern` (col_ptr/row_idx),
// which is what SUNDIALS' CSC SUNSparseMatrix and KLU store.
// Cost: colours × (one evaluation + O(n)) work; O(threads · n) workspace,
// allocated once in the constructor. evaluate_* allocate nothing.
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
  std::size_t residual_calls = 0;     // residual() calls made by finite differences
  std::size_t directional_calls = 0;  // jacobian_columns() calls
};

class CompressedJacobian {
 public:
  // `pattern`: the square iteration-matrix pattern; `coloring`: a valid
  // distance-2 colouring of it (structure::verify_coloring). Both are kept
  // by reference and must outlive this object. `threads` >= 1.
  CompressedJacobian(const structure::Pattern& pattern, const structure::Coloring& coloring, std::size_t threads);

  std::size_t threads() const { return threads_; }
  std::size_t colors() const { return coloring_.colors; }
  const structure::Pattern& pattern() const { return pattern_; }

  // Fill `values` (size pattern.nnz(), CSC order). `pool` has >= threads() entries.
  EvalStatus evaluate_finite_differences(std::span<ResidualFunction* const> pool, const JacobianPoint& point,
                                         std::span<double> values);
  EvalStatus evaluate_directional(std::span<ResidualFunction* const> pool, const JacobianPoint& point,
                                  std::span<double> values);

  const JacobianCounters& counters() const { return counters_; }

 private:
  struct Workspace {
    std::vector<double> y, yp, r;
  };
  const structure::Pattern& pattern_;
  const structure::Coloring& coloring_;
  std::size_t threads_;
  std::vector<Workspace> work_;
  JacobianCounters counters_;
};

}  // namespace lsdae::kernels

#endif  // LSDAE_KERNELS_COMPRESSED_JACOBIAN_H
