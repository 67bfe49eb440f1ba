// kernels/claim_scale.h -- the scale of a finite-difference probe shared by the
// claims checks (constant_claims.cpp, derivative_claims.cpp): a value's
// magnitude, at least its nominal (1 without nominals), and the unit roundoff
// their noise estimates use. Cost O(1); k must index v (and nominal, when given).
#ifndef LSDAE_KERNELS_CLAIM_SCALE_H
#define LSDAE_KERNELS_CLAIM_SCALE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <span>

namespace lsdae::kernels {

inline constexpr double kClaimRoundoff = std::numeric_limits<double>::epsilon();

inline double claim_scale(std::span<const double> v, std::span<const double> nominal, std::size_t k) {
  return std::max(std::fabs(v[k]), nominal.empty() ? 1.0 : std::fabs(nominal[k]));
}

}  // namespace lsdae::kernels

#endif  // LSDAE_KERNELS_CLAIM_SCALE_H
