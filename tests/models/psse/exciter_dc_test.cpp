// tests/models/psse/exciter_dc_test.cpp -- the DC exciters IEEET1, ESDC1A
// and ESDC2A alone (component_harness.h): at rest, exact partials, PSS/E's
// rule for KE = 0, the non-windup regulator and exciter limits, messages.
#include <gtest/gtest.h>

#include "exciter_test_util.h"
#include "psse/exciters/esdc1a.h"
#include "psse/exciters/esdc2a.h"
#include "psse/exciters/ieeet1.h"

namespace lsdae::psse::test {
namespace {

// ACTIVSg2000.dyr, bus 4045 (KE = 0) and bus 4090; ESDC1A bus 3106 (KE = 0)
// and ESDC2A bus 6216 as written there.
const std::vector<double> kIeeet1Ke0 = {0, 25, 0.2, 1, -1, 0, 0.646, 0.103, 1, 0, 2.9479, 0.0822, 3.9306, 0.3766};
const std::vector<double> kIeeet1 = {0.06, 25, 0.2, 1, -1, 0, 0.9707, 0.1053, 0.35, 0, 4.046, 0.1619, 5.3946, 0.4297};
const std::vector<double> kEsdc1a = {0.06, 40, 0.05, 0, 0, 10, -10, 0, 0.9, 0.0378, 1, 0, 2.3636, 0.127, 3.1515, 0.381};
const std::vector<double> kEsdc2a = {0.025, 9.3, 0.05, 0.11, 0.75, 1.17, -1.17, 1, 1, 0, 1, 0, 0.2246, 2.36, 2.36, 3.1467};

TEST(DcExciters, AtRest) {
  for (const auto& v : {kIeeet1Ke0, kIeeet1}) {
    ComponentHarness h = at_rest(make_ieeet1, "IEEET1", v);
    EXPECT_LT(h.largest_derivative(), 1e-12);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
  for (const auto& v : {kEsdc1a, std::vector<double>{0.0, 400, 0.02, 1.0, 2.0, 9, -5.43, 1, 0.8, 0.03, 1, 0, 5.25,
                                                    0.03, 7, 0.1}}) {
    ComponentHarness h = at_rest(make_esdc1a, "ESDC1A", v);
    EXPECT_LT(h.largest_derivative(), 1e-12);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
  // Its saturation is steep (E1 = 0.2246, SE(E1) = 2.36 as ACTIVSg2000 writes
  // it): VFE(Efd) fits within VT·VRMAX only for Efd below about 0.4.
  ComponentHarness h = at_rest(make_esdc2a, "ESDC2A", kEsdc2a, 0.3);
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
}

// PSS/E's rule (exciter_common.h): KE = 0 gives KE = VRMAX/(10 Efd0) − SE(Efd0),
// so the regulator starts at VRMAX/10 and Vref = VC + VRMAX/(10 KA).
TEST(DcExciters, KeZeroStartsTheRegulatorAtATenthOfVrmax) {
  ComponentHarness h = at_rest(make_ieeet1, "IEEET1", kIeeet1Ke0);
  EXPECT_NEAR(h.known()[static_cast<std::size_t>(h.state("VR"))], 0.1, 1e-14);
  EXPECT_NEAR(h.parameters()[0], std::abs(kV102) + 0.1 / 25.0, 1e-14);
  ASSERT_EQ(h.notes().size(), 1u);
  EXPECT_NE(h.notes()[0].find("KE = 0 in the record: KE = "), std::string::npos) << h.notes()[0];
  // With KE given, VR = (KE + SE(Efd)) Efd: no note.
  std::vector<double> v = kIeeet1Ke0;
  v[5] = 1.0;
  ComponentHarness g = at_rest(make_ieeet1, "IEEET1", v);
  EXPECT_TRUE(g.notes().empty());
  EXPECT_GE(g.known()[static_cast<std::size_t>(g.state("VR"))], 2.0);  // (1 + SE(2)) 2
}

TEST(DcExciters, RegulatorHeldAtItsLimitThenReleased) {
  ComponentHarness h = at_rest(make_ieeet1, "IEEET1", kIeeet1Ke0);
  ComponentStepper s(h);
  double highest = -1e9;
  s.set_voltage(0.8 * kV102);
  s.run(1.0, 1e-4, [&](double) { highest = std::max(highest, s.x("VR")); });
  EXPECT_EQ(s.mode("VR"), kModeHigh);
  EXPECT_LE(highest, 1.0 + 1e-12);  // non-windup: the state stops at VRMAX
  EXPECT_GT(s.x("EFD"), 2.0);       // the exciter is forced
  s.set_voltage(kV102 * 1.2);
  s.run(0.5, 1e-4);
  EXPECT_EQ(s.mode("VR"), kModeLow);  // a strong overvoltage: released, and down to VRMIN
  EXPECT_NEAR(s.x("VR"), -1.0, 1e-12);
  s.set_voltage(kV102);
  s.run(10.0, 1e-3);
  EXPECT_EQ(s.mode("VR"), kModeFree);
  // Open loop (no machine): VR returns near KA·(Vref − VC) = VRMAX/10 (less
  // the rate feedback), EFD to 2 with the exciter's own time constant TE/KE = 26 s.
  EXPECT_NEAR(s.x("VR"), 0.1, 0.02);
}

// ESDC1A: EFD >= 0, held there by a long overvoltage; IEEET1 goes negative.
TEST(DcExciters, FieldVoltageHeldAtZero) {
  ComponentHarness h = at_rest(make_esdc1a, "ESDC1A", kEsdc1a);
  ComponentStepper s(h);
  double lowest = 1e9;
  s.set_voltage(kV102 * 1.3);
  s.run(8.0, 1e-3, [&](double) { lowest = std::min(lowest, s.x("EFD")); });
  EXPECT_EQ(s.mode("EFD"), kModeLow);
  EXPECT_GE(lowest, 0.0);
  EXPECT_EQ(s.x("EFD"), 0.0);
  s.set_voltage(kV102);
  s.run(0.5, 1e-3);
  EXPECT_EQ(s.mode("EFD"), kModeFree);
  EXPECT_GT(s.x("EFD"), 0.0);

  ComponentHarness g = at_rest(make_ieeet1, "IEEET1", kIeeet1Ke0);
  ComponentStepper t(g);
  t.set_voltage(kV102 * 1.3);
  t.run(8.0, 1e-3);
  EXPECT_LT(t.x("EFD"), 0.0);  // IEEET1 has no lower limit on EFD
}

// ESDC2A: the regulator's limits scale with the terminal voltage.
TEST(DcExciters, Dc2aLimitsFollowTheTerminalVoltage) {
  ComponentHarness h = at_rest(make_esdc2a, "ESDC2A", kEsdc2a, 0.3);
  EXPECT_EQ(h.modes()[0], kModeFree);
  ComponentStepper s(h);
  s.set_voltage(0.5 * kV102);
  s.run(0.5, 1e-4);
  EXPECT_EQ(s.mode("VR"), kModeHigh);
  EXPECT_NEAR(s.x("VR"), 0.5 * std::abs(kV102) * 1.17, 1e-12);
}

TEST(DcExciters, ParameterMessages) {
  std::vector<double> v = kIeeet1Ke0;
  v[9] = 1;
  EXPECT_EQ(error_of([&] { make_ieeet1(record(4045, "IEEET1", "1", v), unit_100()); }),
            "test.dyr:1: IEEET1 at bus 4045 id '1': field 10 (SWITCH) = 1 → SWITCH other than 0 is not modeled → set "
            "it to 0, or substitute or skip the model");
  v = kEsdc1a;
  v[13] = 0.5, v[15] = 0.1;  // SE(E2)·E2 below SE(E1)·E1: no increasing quadratic
  EXPECT_NE(error_of([&] { make_esdc1a(record(3106, "ESDC1A", "1", v), unit_100()); })
                .find("field 16 (SE(E2)) = 0.1 → must exceed SE(E1)·E1/E2"),
            std::string::npos);
  v = kEsdc2a;
  v[8] = 0;
  EXPECT_EQ(error_of([&] { make_esdc2a(record(6216, "ESDC2A", "1", v), unit_100()); }),
            "test.dyr:1: ESDC2A at bus 6216 id '1': field 9 (TE) = 0 → must be > 0 → correct the record");
}

}  // namespace
}  // namespace lsdae::psse::test
