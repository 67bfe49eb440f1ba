// tests/models/psse/exciter_ac_test.cpp -- the alternator-rectifier exciters
// ESAC1A, EXAC1, EXAC2, ESAC6A and the PI exciter EXPIC1 alone
// (component_harness.h): at rest, exact partials, the rectifier's segments
// as switches, the limits, the low-value gate, the messages.
#include <gtest/gtest.h>

#include "exciter_test_util.h"
#include "psse/core/rectifier.h"
#include "psse/exciters/esac1a.h"
#include "psse/exciters/esac6a.h"
#include "psse/exciters/exac1.h"
#include "psse/exciters/exac2.h"
#include "psse/exciters/expic1.h"

namespace lsdae::psse::test {
namespace {

// The ladder's ESAC1A (ThreeBus_ESAC1A.dyr and _SAT.dyr) and ACTIVSg2000's (bus 4026).
const std::vector<double> kEsac1a = {0.01, 0.1, 0, 200, 0.05, 7, -7, 1.333, 0.02, 0.8, 0, 0, 1, 0, 0, 0, 0, 10, -10};
const std::vector<double> kEsac1aSat = {0.01, 0.1, 0, 200, 0.05, 7, -7, 1.333, 0.02, 0.8, 0, 0, 1, 4, 0.4, 5, 0.5,
                                        10, -10};
const std::vector<double> kEsac1aG = {0, 0, 0, 325.988, 0.1, 15.2173, -15.2173, 0.9361, 0.0243, 1, 0.2, 1, 1,
                                      4.181, 0.0615, 5.5747, 0.5533, 9, -9};
// ACTIVSg2000.dyr: EXAC1 bus 2057, EXAC2 bus 1049, ESAC6A buses 2056 and 4030, EXPIC1 bus 1051.
const std::vector<double> kExac1 = {0, 0, 0, 400, 0.05, 5.2477, -5.2477, 1.1, 0.035, 1, 0.2469, 0.5, 1, 2.7077,
                                    0.0366, 3.6102, 0.1831};
const std::vector<double> kExac2 = {0, 1, 1, 1000, 0.05, 100, -100, 1, 27.2628, -27.2628, 1.3, 4, 0, 0.49, 1, 0.1,
                                    1.6, 1, 14, 3.6225, 0.0004, 4.83, 0.0106};
const std::vector<double> kEsac6a = {0, 575.606, 17.4788, 3, 0.1399, 0.9, 9.08, -9.08, 9.08, -9.08, 1, 100,
                                     0, 10, 0, 0, 0, 0, 1, 5.0009, 0.1209, 6.6679, 0.806};
const std::vector<double> kEsac6aB = {0.05, 447.905, 23.7312, 3, 0.2092, 0.9, 9.08, -9.08, 9.08, -9.08, 0.5, 0,
                                      0, 1, 1, 0.25, 0.225, 22.5, 1, 5.678, 0.0277, 7.5707, 0.1846};
const std::vector<double> kExpic1 = {0, 3, 1, 1, -0.87, 0, 0, 0, 1, -0.87, 0, 1, 0, 7.4304, 0, 0, 0, 1, 0, 1.2, 0,
                                     6.4388, 0, 0.08};

template <class Make>
void expect_at_rest(Make make, const std::string& model, const std::vector<double>& v, double efd = 2.0,
                    double ifd = 2.0) {
  ComponentHarness h = at_rest(make, model, v, efd, ifd);
  EXPECT_LT(h.largest_derivative(), 1e-12) << model;
  EXPECT_LT(h.jacobian_mismatch(), 1e-6) << model;
  EXPECT_TRUE(h.outside().empty()) << model << ": " << (h.outside().empty() ? "" : h.outside()[0]);
}

TEST(AcExciters, AtRest) {
  for (const auto& v : {kEsac1a, kEsac1aSat, kEsac1aG}) expect_at_rest(make_esac1a, "ESAC1A", v);
  expect_at_rest(make_exac1, "EXAC1", kExac1);
  expect_at_rest(make_exac2, "EXAC2", kExac2);
  expect_at_rest(make_esac6a, "ESAC6A", kEsac6a);
  // KD = 22.5 as ACTIVSg2000 writes it: VFE fits under VT·VRMAX only with a small field current.
  expect_at_rest(make_esac6a, "ESAC6A", kEsac6aB, 2.0, 0.3);
  expect_at_rest(make_expic1, "EXPIC1", kExpic1);
  // EXPIC1 with every path: the lags, the rate feedback, a rotating exciter, the current source.
  expect_at_rest(make_expic1, "EXPIC1", {0.02, 3, 1, 5, -5, 0.05, 0.1, 0.2, 5, -5, 0.05, 1, 0.1, 7, 0, 1, 0.5, 3,
                                         0.05, 4, 0.2, 6, 0.5, 0.08});
  // ESAC6A with the field current limiter in the loop (VFE above VFELIM).
  std::vector<double> v = kEsac6aB;
  v[11] = 1.0, v[12] = 0.5, v[13] = 5, v[14] = 0.1, v[15] = 0.05, v[17] = 0.5;
  expect_at_rest(make_esac6a, "ESAC6A", v);
}

// ESAC1A at the ladder's point with saturation: VE from inverting the
// rectifier (KC = 0: VE = Efd), VR = VFE = KE VE + B (VE − A)², and PSS/E's
// quadratic through (4, 0.4), (5, 0.5) is A = 0, B = 0.1.
TEST(AcExciters, Esac1aInitialization) {
  ComponentHarness h = at_rest(make_esac1a, "ESAC1A", kEsac1aSat, 2.5);
  EXPECT_NEAR(h.known()[static_cast<std::size_t>(h.state("VE"))], 2.5, 1e-15);
  EXPECT_NEAR(h.known()[static_cast<std::size_t>(h.state("VA"))], 2.5 + 0.1 * 2.5 * 2.5, 1e-14);
  EXPECT_NEAR(h.parameters()[0], std::abs(kV102) + (2.5 + 0.625) / 200.0, 1e-14);
}

// The rectifier: VE inverted so that VE·FEX(KC IFD / VE) is the Efd the
// machine needs, on each segment; the segment is a switch.
TEST(AcExciters, RectifierSegmentsAreSwitches) {
  for (double ifd : {2.0, 8.0, 12.0}) {  // IN = KC IFD / VE on the three segments below 1 (KC = 0.2469 … 0.5)
    std::vector<double> v = kExac1;
    v[10] = 0.5;
    ComponentHarness h = at_rest(make_exac1, "EXAC1", v, 2.0, ifd);
    const double ve = h.known()[static_cast<std::size_t>(h.state("VE"))];
    EXPECT_NEAR(ve * RectifierRegulation::fex(0.5 * ifd / ve), 2.0, 1e-12) << ifd;
    EXPECT_LT(h.largest_derivative(), 1e-12);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
  ComponentHarness h = at_rest(make_exac1, "EXAC1", kExac1);
  ComponentStepper s(h);
  EXPECT_EQ(s.mode("FEX.IN_below_0433"), kModeBelow);
  const auto u0 = static_cast<std::size_t>(h.slot().shape().states + h.slot().shape().algebraics);
  ASSERT_EQ(h.slot().inputs()[1].signal, signal::ifd);
  h.known()[u0 + 1] = 8.0;  // a field current surge: IN past 0.433 then 0.75
  s.run(1e-3, 1e-4);
  EXPECT_EQ(s.mode("FEX.IN_below_0433"), kModeFree);
  EXPECT_GE(s.limit_events(), 1);
}

// VE >= 0: an overvoltage drives the alternator down to zero, where it stays.
TEST(AcExciters, AlternatorVoltageHeldAtZero) {
  ComponentHarness h = at_rest(make_esac1a, "ESAC1A", kEsac1a);
  ComponentStepper s(h);
  double lowest = 1e9;
  s.set_voltage(1.3 * kV102);
  s.run(5.0, 1e-4, [&](double) { lowest = std::min(lowest, s.x("VE")); });
  EXPECT_EQ(s.mode("VE"), kModeLow);
  EXPECT_GE(lowest, 0.0);
  EXPECT_EQ(s.mode("VA"), kModeLow);  // VA at VAMIN, non-windup
  EXPECT_NEAR(s.x("VA"), -7.0, 1e-12);
  EXPECT_EQ(s.z("Efd"), 0.0);
  s.set_voltage(kV102);
  s.run(5.0, 1e-4);
  EXPECT_EQ(s.mode("VE"), kModeFree);
  EXPECT_EQ(s.mode("VA"), kModeFree);
  EXPECT_GT(s.z("Efd"), 1.0);  // on its way back (slowly: the rate feedback, open loop)
}

// EXAC2's field current limiter: raising VFE past VLR moves the gate to VL.
TEST(AcExciters, Exac2LowValueGate) {
  std::vector<double> v = kExac2;
  v[18] = 7.0;  // VL = KL (VLR − VFE) = 6.8 above the regulator path VFE/KB = 5.3 at rest
  ComponentHarness h = at_rest(make_exac2, "EXAC2", v);
  EXPECT_EQ(h.modes()[1], kModeFree);  // "LV": VA − KH VFE below VL, the regulator path passes
  ComponentStepper s(h);
  const double ve0 = s.x("VE");
  s.set_voltage(0.8 * kV102);  // the regulator asks for more: VL takes over and caps VFE
  s.run(3.0, 1e-4);
  EXPECT_EQ(s.mode("LV"), kModeHigh);  // VL passes
  EXPECT_EQ(s.mode("VA"), kModeHigh);
  EXPECT_GT(s.x("VE"), ve0);
  EXPECT_LT(s.x("VE"), 1.2 * ve0);  // VFE held near 5.6, where KB·VL = VFE
  v[18] = 1.0;  // VLR below VFE at rest: the gate starts on VL, and the report says so
  ComponentHarness g = at_rest(make_exac2, "EXAC2", v);
  ASSERT_EQ(g.notes().size(), 1u);
  EXPECT_NE(g.notes()[0].find("the low-value gate starts on VL"), std::string::npos);
}

// ESAC6A's regulator is fed from the terminals: VR's ceiling is VT·VRMAX.
TEST(AcExciters, Esac6aCeilingFollowsTheTerminalVoltage) {
  ComponentHarness h = at_rest(make_esac6a, "ESAC6A", kEsac6a);
  ComponentStepper s(h);
  s.set_voltage(0.5 * kV102);
  s.run(0.5, 1e-4);
  EXPECT_EQ(s.mode("VR"), kModeHigh);
  EXPECT_EQ(s.mode("VA"), kModeHigh);  // the first stage too (windup: its output asks for more)
  EXPECT_GT(h.limiter_records()[0].u, 9.08);
}

// EXPIC1's PI: non-windup at VR1, the integrator held there.
TEST(AcExciters, Expic1PiHeldAtVr1) {
  ComponentHarness h = at_rest(make_expic1, "EXPIC1", kExpic1);
  EXPECT_NEAR(h.parameters()[0], std::abs(kV102), 1e-15);  // integral action: no error at rest
  ComponentStepper s(h);
  double highest = -1e9;
  s.set_voltage(0.7 * kV102);
  s.run(1.0, 1e-4, [&](double) { highest = std::max(highest, s.x("VA")); });
  EXPECT_EQ(s.mode("VA"), kModeHigh);
  EXPECT_LE(highest, 1.0 + 1e-12);
  s.set_voltage(1.1 * kV102);
  s.run(0.01, 1e-4);
  EXPECT_EQ(s.mode("VA"), kModeFree);
}

TEST(AcExciters, ParameterMessages) {
  std::vector<double> v = kEsac1a;
  v[7] = 0;
  EXPECT_EQ(error_of([&] { make_esac1a(record(102, "ESAC1A", "1", v), unit_100()); }),
            "test.dyr:1: ESAC1A at bus 102 id '1': field 8 (TE) = 0 → must be > 0 → correct the record");
  v = kExac2;
  v[7] = 0;
  EXPECT_EQ(error_of([&] { make_exac2(record(1049, "EXAC2", "1", v), unit_100()); }),
            "test.dyr:1: EXAC2 at bus 1049 id '1': field 8 (KB) = 0 → must be > 0 → correct the record");
  v = kExpic1;
  v[10] = 0.1, v[11] = 0, v[12] = 0;
  EXPECT_EQ(error_of([&] { make_expic1(record(1051, "EXPIC1", "1", v), unit_100()); }),
            "test.dyr:1: EXPIC1 at bus 1051 id '1': field 11 (KF) = 0.1 → needs TF1 or TF2 > 0 (a pure "
            "derivative) → correct the record");
  // The rectifier cannot deliver a negative Efd while the field current loads it.
  EXPECT_NE(error_of([&] { at_rest(make_exac1, "EXAC1", kExac1, -0.5, 2.0); }).find("the rectifier cannot deliver"),
            std::string::npos);
}

}  // namespace
}  // namespace lsdae::psse::test
