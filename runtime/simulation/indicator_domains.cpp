// runtime/simulation/indicator_domains.cpp -- see indicator_domains.h.
#include "simulation/indicator_domains.h"

#include <algorithm>
#include <cmath>

namespace lsdae::simulation {

void IndicatorDomains::map(double t, std::span<double> z) {
  constexpr double kTiny = kIndicatorTiny;
  // At the restart point (again): its values decide (header).
  if (armed_ || t == t_restart_ || parked_.size() != z.size()) {
    parked_.assign(z.size(), kFree);
    for (std::size_t j = 0; j < z.size(); ++j)
      if (std::fabs(z[j]) <= kIndicatorZeroBand) parked_[j] = z[j] > 0.0 ? kAbove : (z[j] < 0.0 ? kBelow : kAtZero);
    armed_ = false;
  }
  for (std::size_t j = 0; j < z.size(); ++j) {
    if (parked_[j] != kFree) {
      if (std::fabs(z[j]) <= kIndicatorZeroBand) {
        // Inside the band: the domain the restart gave it (IDA sees no sign
        // change); exactly 0 at the restart: none (IDA keeps it inactive).
        z[j] = parked_[j] == kAbove ? kTiny : (parked_[j] == kBelow ? -kTiny : 0.0);
        continue;
      }
      parked_[j] = kFree;  // left the band: z itself (a root where it left to the other side)
    }
    if (z[j] == 0.0) {
      z[j] = -kTiny;  // exactly 0 is in the domain z <= 0
    } else if (std::fabs(z[j]) < kTiny) {
      z[j] = std::copysign(kTiny, z[j]);  // the same domain, a magnitude IDA's products survive (header)
    }
  }
}

std::size_t IndicatorDomains::parked() const {
  return parked_.size() - static_cast<std::size_t>(std::count(parked_.begin(), parked_.end(), char{kFree}));
}

}  // namespace lsdae::simulation
