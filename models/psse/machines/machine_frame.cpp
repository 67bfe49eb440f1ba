// models/psse/machines/machine_frame.cpp -- see machine_frame.h.
#include "psse/machines/machine_frame.h"

#include <cmath>

namespace lsdae::psse {

QuadraticSaturation::QuadraticSaturation(const Parameters& p, std::size_t i10, std::size_t i12) {
  const double s10 = p[i10], s12 = p[i12];
  p.require_nonnegative(i10);
  p.require_nonnegative(i12);
  if (s10 == 0.0) return;  // no saturation (machine_frame.h)
  p.require(1.2 * s12 > s10, i12, "must exceed S(1.0)/1.2 (no quadratic saturation passes through both points)");
  const double r = std::sqrt(s10 / (1.2 * s12));
  a_ = (1.2 * r - 1.0) / (r - 1.0);
  b_ = s10 / ((1.0 - a_) * (1.0 - a_));
  active_ = true;
}

}  // namespace lsdae::psse
