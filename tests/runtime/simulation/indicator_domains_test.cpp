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

// The values IDA sees for z; each call one evaluation later than the last
// unless `t` is given (the restart is at t = 0).
std::vector<double> mapped(IndicatorDomains& d, std::vector<double> z, double t = -1.0) {
  static double clock = 0.0;
  clock = t >= 0.0 ? t : clock + 0.125;
  d.map(clock, z);
  return z;
}

TEST(IndicatorDomains, NonzeroValuesPassBitwiseAndExactlyZeroIsInTheDomainBelow) {
  IndicatorDomains d;
  d.arm(0.0);
  EXPECT_EQ(mapped(d, {1.5, -0.25}, 0.0), (std::vector<double>{1.5, -0.25}));
  EXPECT_EQ(d.parked(), 0u);
  // Reaching exactly 0 from below is not a crossing (FMPy issue #730); from
  // above it is: IDA sees a negative number either way, never a 0.
  const auto z = mapped(d, {0.0, 0.0});
  EXPECT_LT(z[0], 0.0);
  EXPECT_EQ(z[0], -kIndicatorTiny);
  // A nonzero value below 2^-500 keeps its sign's domain at 2^-500, so that
  // no product of two values IDARootfind forms underflows (header); from
  // 2^-500 on the values pass bitwise.
  EXPECT_EQ(mapped(d, {1e-300, -1e-300}), (std::vector<double>{kIndicatorTiny, -kIndicatorTiny}));
  EXPECT_EQ(mapped(d, {1e-150, -0x1p-500}), (std::vector<double>{1e-150, -0x1p-500}));
  // The smallest product of two values IDA sees is a normal number.
  EXPECT_GE(kIndicatorTiny * kIndicatorTiny, std::numeric_limits<double>::min());
}

TEST(IndicatorDomains, AnIndicatorLeftAtExactlyZeroHasNoDomainUntilItLeavesTheBand) {
  IndicatorDomains d;
  d.arm(0.0);
  // At the restart: one indicator left at exactly 0 (the FMU broke z != 0), one not.
  EXPECT_EQ(mapped(d, {0.0, 0.5}, 0.0), (std::vector<double>{0.0, 0.5}));
  EXPECT_EQ(d.parked(), 1u);
  // Jitter inside the band: exactly 0 for IDA (inactive, no root).
  EXPECT_EQ(mapped(d, {-1e-16, 0.4})[0], 0.0);
  EXPECT_EQ(mapped(d, {1e-14, 0.3})[0], 0.0);
  // Leaving the band: the value itself, and the parking ends.
  EXPECT_EQ(mapped(d, {-1e-6, 0.2})[0], -1e-6);
  EXPECT_EQ(d.parked(), 0u);
  // Back in the band: now a domain like any other (0 is z <= 0).
  EXPECT_EQ(mapped(d, {0.0, 0.1})[0], -kIndicatorTiny);
  EXPECT_EQ(mapped(d, {1e-16, 0.1})[0], 1e-16);
}

TEST(IndicatorDomains, AnIndicatorLeftNearZeroKeepsTheDomainOfItsSign) {
  constexpr double tiny = kIndicatorTiny;
  IndicatorDomains d;
  d.arm(0.0);
  // Left within rounding of 0 but not at 0: FMI's domain is its sign, held
  // while it stays in the band (jitter is no change of domain) ...
  EXPECT_EQ(mapped(d, {1.2e-15, -2e-16}, 0.0), (std::vector<double>{tiny, -tiny}));
  EXPECT_EQ(d.parked(), 2u);
  EXPECT_EQ(mapped(d, {-1e-16, 1e-14}), (std::vector<double>{tiny, -tiny}));
  // ... and leaving the band to the other side is a change of domain (IDA
  // sees the sign change: a root), to its own side none.
  EXPECT_EQ(mapped(d, {-1e-9, -1e-9}), (std::vector<double>{-1e-9, -1e-9}));
  EXPECT_EQ(d.parked(), 0u);
  // The next restart decides again.
  d.arm(2.0);
  EXPECT_EQ(mapped(d, {0.0, 1e-13}, 2.0), (std::vector<double>{0.0, tiny}));
  EXPECT_EQ(d.parked(), 2u);
}

// IDA's look-ahead past an indicator at exactly 0 (IDARcheck1: g at t0 + h/10)
// leaves the band; the first step fails and is tried again from the same
// point (IDAReInit), and IDA evaluates at t0 once more: the restart's values
// decide again (no domain), not the look-ahead's. Before, the 0 there became
// -DBL_MIN and the first step's positive value a root that switched nothing
// (systems.controlled_motor: a third state event 2.7e-15 s after the second).
TEST(IndicatorDomains, AnEvaluationAtTheRestartPointAgainDecidesAsTheFirst) {
  IndicatorDomains d;
  d.arm(0.5);
  EXPECT_EQ(mapped(d, {0.0, 0.5}, 0.5)[0], 0.0);
  EXPECT_EQ(mapped(d, {0.004, 0.5}, 0.5 + 3e-5)[0], 0.004);  // the look-ahead: out of the band
  EXPECT_EQ(d.parked(), 0u);
  EXPECT_EQ(mapped(d, {0.0, 0.5}, 0.5), (std::vector<double>{0.0, 0.5}));  // the retry's first evaluation
  EXPECT_EQ(d.parked(), 1u);
  EXPECT_EQ(mapped(d, {1e-14, 0.5}, 0.5 + 1e-15)[0], 0.0);
  // Later evaluations at other times keep the rule: out of the band ends the parking.
  EXPECT_EQ(mapped(d, {3.6e-13, 0.5}, 0.5 + 3e-15)[0], 3.6e-13);
  EXPECT_EQ(mapped(d, {0.0, 0.5}, 0.5 + 4e-15)[0], -kIndicatorTiny);
}

}  // namespace
}  // namespace lsdae::simulation
