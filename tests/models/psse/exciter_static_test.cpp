// tests/models/psse/exciter_static_test.cpp -- the static exciters EXST1,
// ESST1A and ESST4B alone (component_harness.h): at rest, exact partials,
// their windup and non-windup limits, the field current limiter, the PI
// regulators, the power source, the messages.
#include <gtest/gtest.h>

#include "exciter_test_util.h"
#include "psse/exciters/esst1a.h"
#include "psse/exciters/esst4b.h"
#include "psse/exciters/exst1.h"

namespace lsdae::psse::test {
namespace {

// The ladder's EXST1 (TVC_System.dyr), with KC and KF for the tests of those paths.
const std::vector<double> kExst1 = {0.01, 5.0, -5.0, 10, 20, 200.0, 0.1, 6.0, 0.0, 0.0, 0.0, 0.1};
const std::vector<double> kExst1Kc = {0.01, 0.2, -0.2, 1, 2, 200.0, 0.05, 6.0, -5.0, 0.1, 0.05, 1.0};
// IEEE Std 421.5-2005's ST1A sample data (KA = 210, TA = 0.001 would be
// stiff; a PSS/E-like set): UEL 1, VOS 1 / 2.
const std::vector<double> kEsst1a = {1, 1,  0.02, 0.1, -0.1, 1, 10, 0, 0, 210, 0.02, 6.5, -6.5, 6.43, -6,
                                     0.038, 0.01, 1, 4.54, 3};
// ACTIVSg2000.dyr, bus 1048.
const std::vector<double> kEsst4b = {0, 3.9436, 3.9436, 1, -1, 0, 1, 0, 1, -1, 0, 6.8885, 0, 8.7286, 0.08, 0, 0};

TEST(Exst1, AtRest) {
  for (const auto& v : {kExst1, kExst1Kc}) {
    ComponentHarness h = at_rest(make_exst1, "EXST1", v);
    EXPECT_LT(h.largest_derivative(), 1e-12);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
  ComponentHarness h = at_rest(make_exst1, "EXST1", kExst1);
  EXPECT_NEAR(h.parameters()[0], std::abs(kV102) + 2.0 / 200.0, 1e-14);
}

// The output limit is windup: EFD stops at VT·VRMAX − KC·IFD while VR runs on.
TEST(Exst1, OutputClampLetsTheRegulatorRunOn) {
  ComponentHarness h = at_rest(make_exst1, "EXST1", kExst1Kc);
  ComponentStepper s(h);
  s.set_voltage(0.5 * kV102);
  s.run(1.0, 1e-4);
  EXPECT_EQ(s.mode("EFD"), kModeHigh);
  EXPECT_NEAR(s.z("Efd"), 0.5 * std::abs(kV102) * 6.0 - 0.1 * 2.0, 1e-12);
  EXPECT_GT(s.x("VR"), 10.0);           // the TA state winds up beyond the output limit
  EXPECT_EQ(s.mode("VI"), kModeHigh);  // and the input limit holds the error at VIMAX
  s.set_voltage(kV102);
  s.run(3.0, 1e-4);
  EXPECT_EQ(s.mode("EFD"), kModeFree);
  EXPECT_EQ(s.mode("VI"), kModeFree);
}

TEST(Esst1a, AtRestBothStabilizerInputs) {
  for (double vos : {1.0, 2.0}) {
    std::vector<double> v = kEsst1a;
    v[1] = vos;
    ComponentHarness h(make_esst1a(record(102, "ESST1A", "1", v), unit_100()));
    auto signals = machine_signals(2.0, 2.0);
    signals[signal::vs] = 0.01;  // a stabilizer's output at rest
    h.initialize(kV102, kS102, signals);
    EXPECT_LT(h.largest_derivative(), 1e-12);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
}

// The field current limiter: while IFD > ILR it takes KLR·(IFD − ILR) off VA.
TEST(Esst1a, FieldCurrentLimiterIsASwitch) {
  ComponentHarness h = at_rest(make_esst1a, "ESST1A", kEsst1a);
  EXPECT_TRUE(h.outside().empty());
  EXPECT_EQ(h.modes()[2], kModeLow);  // "ILR": KLR (IFD − ILR) below 0, the gate passes 0
  ComponentStepper s(h);
  const auto u0 = static_cast<std::size_t>(h.slot().shape().states + h.slot().shape().algebraics);
  ASSERT_EQ(h.slot().inputs()[1].signal, signal::ifd);
  h.known()[u0 + 1] = 3.5;  // IFD above ILR = 3
  s.run(1e-3, 1e-4);
  EXPECT_EQ(s.mode("ILR"), kModeFree);  // above 0: the gate passes KLR (IFD − ILR)
  EXPECT_LT(s.z("Efd"), 2.0 - 0.5 * 4.54 + 0.1);
  h.known()[u0 + 1] = 2.0;
  s.run(1e-3, 1e-4);
  EXPECT_EQ(s.mode("ILR"), kModeLow);
}

TEST(Esst4b, AtRestAndSource) {
  ComponentHarness h = at_rest(make_esst4b, "ESST4B", kEsst4b);
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  // KIR != 0: zero error at rest, Vref = VC.
  EXPECT_NEAR(h.parameters()[0], std::abs(kV102), 1e-15);
  // KIM = 0, KG = 0: VM = KPM·VA; VB = KP |VT| FEX(KC IFD / VE).
  const double ve = 6.8885 * std::abs(kV102), in = 0.08 * 2.0 / ve;
  const double vm = 2.0 / (ve * (1.0 - 0.577 * in));
  EXPECT_NEAR(h.known()[static_cast<std::size_t>(h.state("VR"))], vm, 1e-14);  // TA = 0: VA = VR
  // With the current terms (KI, XL, THETAP) and both integrators.
  std::vector<double> v = kEsst4b;
  v[7] = 0.5, v[10] = 0.2, v[12] = 0.3, v[15] = 0.1, v[16] = 5;
  ComponentHarness g = at_rest(make_esst4b, "ESST4B", v);
  EXPECT_LT(g.largest_derivative(), 1e-12);
  EXPECT_LT(g.jacobian_mismatch(), 1e-6);
}

// The PI's non-windup limit: the integrator is set to VRMAX and held while
// the error pushes, and released when it turns.
TEST(Esst4b, PiRegulatorHeldAtItsLimit) {
  ComponentHarness h = at_rest(make_esst4b, "ESST4B", kEsst4b);
  ComponentStepper s(h);
  const double vm0 = s.x("VR");
  double highest = -1e9;
  s.set_voltage(0.8 * kV102);
  s.run(0.5, 1e-4, [&](double) { highest = std::max(highest, s.x("VR")); });
  EXPECT_EQ(s.mode("VR"), kModeHigh);
  EXPECT_LE(highest, 1.0 + 1e-12);
  EXPECT_NEAR(s.x("VR"), 1.0, 1e-12);
  s.set_voltage(kV102 * 1.01);
  s.run(0.01, 1e-4);
  EXPECT_EQ(s.mode("VR"), kModeFree);
  EXPECT_LT(s.x("VR"), 1.0);
  s.set_voltage(kV102);  // no error: the integrator keeps what it holds (open loop, no machine)
  const double held = s.x("VR");
  s.run(1.0, 1e-3);
  EXPECT_NEAR(s.x("VR"), held, 1e-12);
  EXPECT_NEAR(s.z("Efd"), 2.0 * held / vm0, 1e-12);  // EFD = VB·KPM·VR, VB as at the start
}

TEST(StaticExciters, ParameterMessages) {
  std::vector<double> v = kEsst1a;
  v[1] = 3;
  EXPECT_EQ(error_of([&] { make_esst1a(record(102, "ESST1A", "1", v), unit_100()); }),
            "test.dyr:1: ESST1A at bus 102 id '1': field 2 (VOS) = 3 → must be 1 or 2 → correct the record");
  v = kEsst4b;
  v[11] = 0;
  EXPECT_EQ(error_of([&] { make_esst4b(record(1048, "ESST4B", "1", v), unit_100()); }),
            "test.dyr:1: ESST4B at bus 1048 id '1': field 12 (KP) = 0 → KP and KI cannot both be 0 (no power "
            "source) → correct the record");
  v = kExst1;
  v[4] = 0;
  EXPECT_EQ(error_of([&] { make_exst1(record(2, "EXST1", "1", v), unit_100()); }),
            "test.dyr:1: EXST1 at bus 2 id '1': field 4 (TC) = 10 → must be 0 when TB is 0 (a lead without a lag) "
            "→ correct the record");
}

}  // namespace
}  // namespace lsdae::psse::test
