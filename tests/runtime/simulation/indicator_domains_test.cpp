// tests/runtime/simulation/indicator_domains_test.cpp -- the event indicators
// as IDA's root finding sees them (simulation/indicator_domains.h): FMI 3.0's
// domains (exactly 0 is z <= 0), and an indicator an event leaves within
// rounding of 0 parked in its domain (none at exactly 0) until it leaves the band.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "simulation/indicator_domains.h"

namespace lsdae::simulation {
namespace {

std::vector<double> mapped(IndicatorDomains& d, std::vector<double> z) {
  d.map(z);
  return z;
}

TEST(IndicatorDomains, NonzeroValuesPassBitwiseAndExactlyZeroIsInTheDomainBelow) {
  IndicatorDomains d;
  d.arm();
  EXPECT_EQ(mapped(d, {1.5, -0.25}), (std::vector<double>{1.5, -0.25}));
  EXPECT_EQ(d.parked(), 0u);
  // Reaching exactly 0 from below is not a crossing (FMPy issue #730); from
  // above it is: IDA sees a negative number either way, never a 0.
  const auto z = mapped(d, {0.0, 0.0});
  EXPECT_LT(z[0], 0.0);
  EXPECT_EQ(z[0], -std::numeric_limits<double>::min());
  EXPECT_EQ(mapped(d, {1e-300, -1e-300}), (std::vector<double>{1e-300, -1e-300}));
}

TEST(IndicatorDomains, AnIndicatorLeftAtExactlyZeroHasNoDomainUntilItLeavesTheBand) {
  IndicatorDomains d;
  d.arm();
  // At the restart: one indicator left at exactly 0 (the FMU broke z != 0), one not.
  EXPECT_EQ(mapped(d, {0.0, 0.5}), (std::vector<double>{0.0, 0.5}));
  EXPECT_EQ(d.parked(), 1u);
  // Jitter inside the band: exactly 0 for IDA (inactive, no root).
  EXPECT_EQ(mapped(d, {-1e-16, 0.4})[0], 0.0);
  EXPECT_EQ(mapped(d, {1e-14, 0.3})[0], 0.0);
  // Leaving the band: the value itself, and the parking ends.
  EXPECT_EQ(mapped(d, {-1e-6, 0.2})[0], -1e-6);
  EXPECT_EQ(d.parked(), 0u);
  // Back in the band: now a domain like any other (0 is z <= 0).
  EXPECT_EQ(mapped(d, {0.0, 0.1})[0], -std::numeric_limits<double>::min());
  EXPECT_EQ(mapped(d, {1e-16, 0.1})[0], 1e-16);
}

TEST(IndicatorDomains, AnIndicatorLeftNearZeroKeepsTheDomainOfItsSign) {
  constexpr double tiny = std::numeric_limits<double>::min();
  IndicatorDomains d;
  d.arm();
  // Left within rounding of 0 but not at 0: FMI's domain is its sign, held
  // while it stays in the band (jitter is no change of domain) ...
  EXPECT_EQ(mapped(d, {1.2e-15, -2e-16}), (std::vector<double>{tiny, -tiny}));
  EXPECT_EQ(d.parked(), 2u);
  EXPECT_EQ(mapped(d, {-1e-16, 1e-14}), (std::vector<double>{tiny, -tiny}));
  // ... and leaving the band to the other side is a change of domain (IDA
  // sees the sign change: a root), to its own side none.
  EXPECT_EQ(mapped(d, {-1e-9, -1e-9}), (std::vector<double>{-1e-9, -1e-9}));
  EXPECT_EQ(d.parked(), 0u);
  // The next restart decides again.
  d.arm();
  EXPECT_EQ(mapped(d, {0.0, 1e-13}), (std::vector<double>{0.0, tiny}));
  EXPECT_EQ(d.parked(), 2u);
}

}  // namespace
}  // namespace lsdae::simulation
