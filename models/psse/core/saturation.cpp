// models/psse/core/saturation.cpp -- see saturation.h.
#include "psse/core/saturation.h"

#include <cmath>

namespace lsdae::psse {

QuadraticSaturation::QuadraticSaturation(double x1, double s1, double x2, double s2) {
  const double r = std::sqrt((s1 * x1) / (s2 * x2));
  a_ = (x1 - r * x2) / (1.0 - r);
  b_ = s1 * x1 / ((x1 - a_) * (x1 - a_));
  active_ = true;
}

QuadraticSaturation::QuadraticSaturation(const Parameters& p, std::size_t i10, std::size_t i12) {
  p.require_nonnegative(i10);
  p.require_nonnegative(i12);
  if (p[i10] == 0.0) return;  // no saturation (saturation.h)
  p.require(1.2 * p[i12] > p[i10], i12, "must exceed S(1.0)/1.2 (no quadratic saturation passes through both points)");
  *this = QuadraticSaturation(1.0, p[i10], 1.2, p[i12]);
}

QuadraticSaturation QuadraticSaturation::through(const Parameters& p, std::size_t ie1, std::size_t ise1,
                                                 std::size_t ie2, std::size_t ise2) {
  p.require_nonnegative(ise1);
  p.require_nonnegative(ise2);
  QuadraticSaturation none;
  if (p[ise1] == 0.0) {
    if (p[ise2] != 0.0)
      none.note_ = p.field(ise1) + ": no saturation (as PSS/E does when the first point is zero), " + p.field(ise2) +
                   " is not used";
    return none;
  }
  p.require(p[ie1] > 0.0, ie1, "must be > 0 when SE(E1) > 0");
  p.require(p[ie2] > p[ie1], ie2, "must exceed E1");
  p.require(p[ise2] * p[ie2] > p[ise1] * p[ie1], ise2,
            "must exceed SE(E1)·E1/E2 (no increasing quadratic saturation passes through both points)");
  return QuadraticSaturation(p[ie1], p[ise1], p[ie2], p[ise2]);
}

}  // namespace lsdae::psse
