// tests/models/psse/exciter_simple_test.cpp -- SEXS and SCRX alone
// (component_harness.h): at rest at the power-flow point, exact partials,
// their limits engaging and releasing, the parameter messages.
#include <gtest/gtest.h>

#include "exciter_test_util.h"
#include "psse/core/registry.h"
#include "psse/exciters/scrx.h"
#include "psse/exciters/sexs.h"

namespace lsdae::psse::test {
namespace {

// The ladder's SEXS (ThreeBus_SEXS.dyr, TE = 1 and TE = 0) and WECC240's.
const std::vector<double> kSexsLadder = {0.4, 5.0, 20.0, 1.0, -50.0, 50.0};
const std::vector<double> kSexsNoTE = {0.4, 5.0, 20.0, 0.0, -50.0, 50.0};
const std::vector<double> kSexsWecc = {0.1, 10.0, 100.0, 0.1, 0.0, 4.0};
// Fast, with a reachable EMAX: for the limits.
const std::vector<double> kSexsFast = {1.0, 0.1, 100.0, 0.1, 0.0, 4.0};

TEST(Sexs, AtRestWithReference) {
  for (const auto& values : {kSexsLadder, kSexsNoTE, kSexsWecc}) {
    ComponentHarness h = at_rest(make_sexs, "SEXS", values);
    EXPECT_LT(h.largest_derivative(), 1e-12);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
    // Vref = |V| + Efd/K (VS = 0).
    EXPECT_NEAR(h.parameters()[0], std::abs(kV102) + 2.0 / values[2], 1e-14);
    EXPECT_EQ(h.signal(signal::efd), 2.0);
  }
}

TEST(Sexs, NonWindupLimitHoldsAndReleases) {
  ComponentHarness h = at_rest(make_sexs, "SEXS", kSexsFast);  // EMAX = 4, K = 100
  ComponentStepper s(h);
  double highest = 0;
  s.set_voltage(0.7 * kV102);  // a deep dip: the error asks for far more than EMAX
  s.run(1.0, 1e-4, [&](double) { highest = std::max(highest, s.x("EFD")); });
  EXPECT_EQ(s.mode("EFD"), kModeHigh);
  EXPECT_NEAR(s.x("EFD"), 4.0, 1e-12);
  EXPECT_LE(highest, 4.0 + 1e-12);  // the state never passes its limit: non-windup
  s.set_voltage(kV102 * 1.05);      // voltage back above the reference: released at once
  s.run(0.01, 1e-4);
  EXPECT_EQ(s.mode("EFD"), kModeFree);
  EXPECT_LT(s.x("EFD"), 4.0);
  s.set_voltage(kV102);
  s.run(3.0, 1e-4);
  EXPECT_NEAR(s.x("EFD"), 2.0, 1e-3);  // back to the operating point
  EXPECT_GE(s.limit_events(), 2);
}

TEST(Sexs, ZeroTEClampsTheOutput) {
  ComponentHarness h = at_rest(make_sexs, "SEXS", {1.0, 0.1, 100.0, 0.0, 0.0, 4.0});
  EXPECT_THROW(h.state("EFD"), std::out_of_range);  // no state: EFD = K VLL clamped
  ComponentStepper s(h);
  s.set_voltage(0.7 * kV102);
  s.run(0.1, 1e-4);
  EXPECT_EQ(s.mode("EFD"), kModeHigh);
  EXPECT_NEAR(s.z("Efd"), 4.0, 1e-12);
  s.set_voltage(kV102);
  s.run(5.0, 1e-4);
  EXPECT_EQ(s.mode("EFD"), kModeFree);
  EXPECT_NEAR(s.z("Efd"), 2.0, 1e-3);
}

TEST(Sexs, ParameterMessages) {
  EXPECT_EQ(error_of([] { make_sexs(record(102, "SEXS", "1", {0.4, 5.0, 20.0, 1.0, 50.0, -50.0}), unit_100()); }),
            "test.dyr:1: SEXS at bus 102 id '1': field 6 (EMAX) = -50 → must exceed EMIN → correct the record");
  EXPECT_EQ(error_of([] { make_sexs(record(102, "SEXS", "1", {0.4, 5.0, 20.0, 1.0, -50.0}), unit_100()); }),
            "test.dyr:1: SEXS at bus 102 id '1': 5 parameters, expected 6 (TA/TB, TB, K, TE, EMIN, EMAX) → correct "
            "the record, or substitute or skip the model");
  EXPECT_NE(find_model("sexs"), nullptr);
}

// ACTIVSg2000.dyr, bus 3105: bus fed, no crowbar.
const std::vector<double> kScrx = {0.1, 10.01, 100, 0, -4, 5, 0, 0};

TEST(Scrx, AtRestBusFedAndSolidFed) {
  ComponentHarness h = at_rest(make_scrx, "SCRX", kScrx);
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  // Bus fed: the bridge delivers Efd/|VT|, so Vref = |VT| + Efd/(|VT| K).
  EXPECT_NEAR(h.parameters()[0], std::abs(kV102) + 2.0 / std::abs(kV102) / 100.0, 1e-14);
  std::vector<double> v = kScrx;
  v[6] = 1, v[3] = 0.05, v[7] = 10;  // solid fed, with a lag and a crowbar
  ComponentHarness g = at_rest(make_scrx, "SCRX", v);
  EXPECT_LT(g.largest_derivative(), 1e-12);
  EXPECT_LT(g.jacobian_mismatch(), 1e-6);
  EXPECT_NEAR(g.parameters()[0], std::abs(kV102) + 2.0 / 100.0, 1e-14);
}

// Bus fed, the ceiling falls with the voltage: EFD = |VT|·EMAX at the limit.
TEST(Scrx, CeilingFollowsTheBusVoltage) {
  std::vector<double> v = kScrx;
  v[3] = 0.02;  // TE > 0: the EMAX limit is non-windup on the bridge state
  ComponentHarness h = at_rest(make_scrx, "SCRX", v);
  ComponentStepper s(h);
  s.set_voltage(0.6 * kV102);
  s.run(0.2, 1e-4);
  EXPECT_EQ(s.mode("VR"), kModeHigh);
  EXPECT_NEAR(s.z("Efd"), 0.6 * std::abs(kV102) * 5.0, 1e-12);
}

// With a crowbar, a negative field current is carried by it: EFD = −(rc/rfd)·IFD.
TEST(Scrx, CrowbarCarriesANegativeFieldCurrent) {
  std::vector<double> v = kScrx;
  v[7] = 10;
  ComponentHarness h = at_rest(make_scrx, "SCRX", v);
  ComponentStepper s(h);
  const auto u0 = static_cast<std::size_t>(h.slot().shape().states + h.slot().shape().algebraics);  // inputs: vs, ifd
  ASSERT_EQ(h.slot().inputs()[1].signal, signal::ifd);
  h.known()[u0 + 1] = -0.2;
  s.run(1e-3, 1e-4);
  EXPECT_EQ(s.mode("IFD_negative"), kModeBelow);
  EXPECT_NEAR(s.z("Efd"), 2.0, 1e-12);
  h.known()[u0 + 1] = 0.5;
  s.run(1e-3, 1e-4);
  EXPECT_EQ(s.mode("IFD_negative"), kModeFree);
  EXPECT_GT(s.limit_events(), 1);
}

TEST(Scrx, ParameterMessages) {
  std::vector<double> v = kScrx;
  v[6] = 2;
  EXPECT_EQ(error_of([&] { make_scrx(record(3105, "SCRX", "1", v), unit_100()); }),
            "test.dyr:1: SCRX at bus 3105 id '1': field 7 (CSWITCH) = 2 → must be 0 (bus fed) or 1 (solid fed) → "
            "correct the record");
}

}  // namespace
}  // namespace lsdae::psse::test
