// runtime/simulation/indicator_domains.cpp -- see indicator_domains.h.
#include "simulation/indicator_domains.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lsdae::simulation {

void IndicatorDomains::map(std::span<double> z) {
  if (armed_ || parked_.size() != z.size()) {
    parked_.assign(z.size(), 0);
    for (std::size_t j = 0; j < z.size(); ++j) parked_[j] = std::fabs(z[j]) <= kIndicatorZeroBand ? 1 : 0;
    armed_ = false;
  }
  for (std::size_t j = 0; j < z.size(); ++j) {
    if (parked_[j] != 0) {
      if (std::fabs(z[j]) <= kIndicatorZeroBand) {
        z[j] = 0.0;  // no domain yet: IDA keeps the component inactive
        continue;
      }
      parked_[j] = 0;  // left the band: its domain is the side it went to
    }
    if (z[j] == 0.0) z[j] = -std::numeric_limits<double>::min();  // exactly 0 is in the domain z <= 0
  }
}

std::size_t IndicatorDomains::parked() const {
  return static_cast<std::size_t>(std::count(parked_.begin(), parked_.end(), char{1}));
}

}  // namespace lsdae::simulation
