// kernels/residual_function.h -- the residual G(t, y, y') = 0 that IDA
// integrates, as the numeric kernels see it: no FMI, no SUNDIALS types.
//
// The runtime implements it over an FMU instance (runtime/simulation/
// model_residual.h); tests implement it with formulas. One object is used by one
// thread at a time; parallel kernels take one object per thread (a pool) and
// rely on every call being a pure function of its arguments: an
// implementation writes all of (t, y, y') into its model before evaluating.
//
// Status follows the SUNDIALS sign rule: ok (0), recoverable (> 0: IDA retries
// with a smaller step, e.g. an FMU returned fmi3Discard), fatal (< 0).
// Implementations must not allocate in residual() or jacobian_columns(): they
// run thousands of times per simulated second.
#ifndef LSDAE_KERNELS_RESIDUAL_FUNCTION_H
#define LSDAE_KERNELS_RESIDUAL_FUNCTION_H

#include <cstddef>
#include <span>
#include <vector>

namespace lsdae::kernels {

enum class EvalStatus : int { ok = 0, recoverable = 1, fatal = -1 };

// The worse of two statuses (fatal > recoverable > ok).
inline EvalStatus worse(EvalStatus a, EvalStatus b) {
  if (a == EvalStatus::fatal || b == EvalStatus::fatal) return EvalStatus::fatal;
  if (a == EvalStatus::recoverable || b == EvalStatus::recoverable) return EvalStatus::recoverable;
  return EvalStatus::ok;
}

class ResidualFunction {
 public:
  virtual ~ResidualFunction() = default;

  // Number of unknowns = number of residual rows.
  virtual std::size_t size() const = 0;

  // r = G(t, y, y'). All spans have size().
  virtual EvalStatus residual(double t, std::span<const double> y, std::span<const double> yp,
                              std::span<double> r) = 0;

  // Whether jacobian_columns is available (the model provides exact
  // directional derivatives).
  virtual bool has_jacobian_columns() const { return false; }

  // jv = (∂G/∂y + cj·∂G/∂y') · v where v is 1 on `columns` and 0 elsewhere:
  // the sum of those Jacobian columns (one colour of a colouring). `columns`
  // is ascending. Default: fatal (not available).
  virtual EvalStatus jacobian_columns(double /*t*/, std::span<const double> /*y*/, std::span<const double> /*yp*/,
                                      double /*cj*/, std::span<const std::size_t> /*columns*/,
                                      std::span<double> /*jv*/) {
    return EvalStatus::fatal;
  }

  // jv = (y_seed·∂G/∂y + yp_seed·∂G/∂y') · v, v as above: the two parts of
  // the iteration matrix apart (y_seed 1, yp_seed 0: ∂G/∂y; 0 and 1: ∂G/∂y'),
  // what the constant entries of kernels/compressed_jacobian.h are made of.
  // (1, cj) must equal jacobian_columns(cj). Default: jacobian_columns when
  // y_seed is 1, else fatal (not available).
  virtual EvalStatus jacobian_columns_split(double t, std::span<const double> y, std::span<const double> yp,
                                            double y_seed, double yp_seed, std::span<const std::size_t> columns,
                                            std::span<double> jv) {
    if (y_seed != 1.0) return EvalStatus::fatal;
    return jacobian_columns(t, y, yp, yp_seed, columns, jv);
  }
  // jacobian_columns_split for a caller that reads only `rows` of jv (no
  // duplicates; the rows the columns reach in its pattern): an
  // implementation may compute those alone, and the other entries of jv are
  // then unspecified. Empty `rows`: every row. `same_point`: the caller
  // vouches that this object's previous call was at bitwise this (t, y, y')
  // and returned ok, and that nothing else used the object since (a run of
  // colours at one point), so an implementation need not write the point
  // into its model again. Default: jacobian_columns_split (every row).
  virtual EvalStatus jacobian_columns_at_rows(double t, std::span<const double> y, std::span<const double> yp,
                                              double y_seed, double yp_seed, std::span<const std::size_t> columns,
                                              std::span<const std::size_t> /*rows*/, bool /*same_point*/,
                                              std::span<double> jv) {
    return jacobian_columns_split(t, y, yp, y_seed, yp_seed, columns, jv);
  }
  // One nonzero of ∂G/∂y' (row, column, value).
  struct DerivativeEntry {
    std::size_t row = 0, column = 0;
    double value = 0.0;
  };
  // ∂G/∂y' when it is a constant matrix known without evaluating the model
  // (a semi-explicit state row ẋ_i − f_i: 1 at its own ẋ_i, nothing else):
  // every nonzero appended to `out`, and true. Default: false (not known;
  // `out` untouched). What lets kernels/compressed_jacobian.h re-form the
  // iteration matrix for a new cj without calling the model.
  virtual bool known_derivative_part(std::vector<DerivativeEntry>& /*out*/) const { return false; }
};

}  // namespace lsdae::kernels

#endif  // LSDAE_KERNELS_RESIDUAL_FUNCTION_H
