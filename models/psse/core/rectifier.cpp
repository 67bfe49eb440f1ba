// models/psse/core/rectifier.cpp -- see rectifier.h.
#include "psse/core/rectifier.h"

#include <cmath>
#include <cstdio>

#include "psse/core/parameters.h"

namespace lsdae::psse {

void RectifierRegulation::declare(Layout& l, const std::string& name) {
  if (kc_ == 0.0) {
    for (int& s : switch_) s = -1;
    return;
  }
  switch_[0] = l.limiter(name + ".IN_below_0", LimiterKind::below);
  switch_[1] = l.limiter(name + ".IN_below_0433", LimiterKind::below);
  switch_[2] = l.limiter(name + ".IN_below_075", LimiterKind::below);
  switch_[3] = l.limiter(name + ".IN_below_1", LimiterKind::below);
}

double RectifierRegulation::fex(double in) {
  if (in <= 0.0) return 1.0;
  if (in <= 0.433) return 1.0 - 0.577 * in;
  if (in <= 0.75) return std::sqrt(std::fmax(0.0, 0.75 - in * in));
  if (in <= 1.0) return 1.732 * (1.0 - in);
  return 0.0;
}

double RectifierRegulation::source_for(double efd, double ifd, const std::string& where) const {
  const double c = kc_ * ifd;
  if (c <= 0.0) return efd;  // IN <= 0: FEX = 1
  if (!(efd > 0.0)) {
    char text[96];
    std::snprintf(text, sizeof text, "Efd = %.6g with KC·IFD = %.6g", efd, c);
    throw ModelError(where + ": the rectifier cannot deliver " + text +
                     " (FEX(IN) needs a positive Efd when the field current loads it) → check the machine's "
                     "operating point and the exciter's KC");
  }
  // Each segment's inverse, kept when its IN lies in the segment.
  double ve = efd + 0.577 * c;
  if (c / ve <= 0.433) return ve;
  ve = std::sqrt((efd * efd + c * c) / 0.75);
  if (c / ve <= 0.75) return ve;
  return efd / 1.732 + c;  // 0.75 < IN < 1
}

}  // namespace lsdae::psse
