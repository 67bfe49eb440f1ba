// tests/models/psse/repca1_test.cpp -- REPCA1 alone (component_harness.h),
// initialized from the references its electrical control (REECB1) set at
// WECC240's wind plant 1034 'W': at rest for every flag combination, exact
// partials, and each loop's response to a step against the hand-computed one
// (the dead band, the error and output limits without windup, the lead-lag,
// the reactive droop, the voltage freeze, the active power PI and its limit,
// the frequency droop of a rotating bus), and its messages.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "component_harness.h"
#include "psse/core/signals.h"
#include "psse/renewables/repca1.h"
#include "renewable_data.h"

namespace lsdae::psse::test {
namespace {

const double kV0 = std::abs(kV1034), kP0 = kS1034.real() / kRatio1034, kQ0 = kS1034.imag() / kRatio1034;

std::vector<std::string> with(std::vector<std::pair<std::size_t, std::string>> changes) {
  std::vector<std::string> t = kRepca1Wecc240;
  for (const auto& [field, value] : changes) t[field - 1] = value;  // 1-based, as the .dyr fields
  return t;
}

ComponentHarness plant(const std::vector<std::string>& tokens = kRepca1Wecc240) {
  ComponentHarness h(make_repca1(token_record(1034, "REPCA1", "W", tokens, 3), unit_1034()));
  h.initialize(kV1034, kS1034, unit_1034_signals());
  return h;
}

void check_rest(ComponentHarness& h) {
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
  EXPECT_NEAR(h.z("Qext"), kQ0, 1e-14);  // delivers the electrical control's references
  if (h.slot().algebraics().size() > 1) {
    EXPECT_NEAR(h.z("Pref"), kP0, 1e-14);
  }
}

void set_voltage(ComponentHarness& h, Complex v) {
  const auto vr = static_cast<std::size_t>(h.slot().shape().vr_index());
  h.known()[vr] = v.real();
  h.known()[vr + 1] = v.imag();
}

TEST(Repca1, AtRestForEveryFlagCombination) {
  ComponentHarness h = plant();  // WECC240: VCFlag 0, RefFlag 0, Fflag 1 (no droop: Ddn = Dup = 0)
  check_rest(h);
  EXPECT_THROW(h.state("Vr_f"), std::out_of_range);
  for (const char* vc : {"0", "1"})
    for (const char* ref : {"0", "1"})
      for (const char* ff : {"0", "1"})
        for (const char* fdb : {"0.0", "0.001"}) {
          SCOPED_TRACE(testing::Message() << "VCFlag " << vc << " RefFlag " << ref << " Fflag " << ff << " fdbd "
                                          << fdb);
          ComponentHarness c = plant(with({{5, vc}, {6, ref}, {7, ff}, {11, "0.02"}, {13, "0.5"}, {14, "0.01"},
                                           {15, "0.05"}, {19, "-0.01"}, {20, "0.01"}, {26, std::string("-") + fdb},
                                           {27, fdb}, {33, "20"}, {34, "10"}}));
          check_rest(c);
        }
}

// Tfltr = 0, dead band ±0.01, Tfv = 0.05: Qe + 0.2 makes the error −0.2, past
// the band and emin = −0.1, so the sum Kp (−0.1) + xQ is below Qmin at once:
// clamped, integrator held (no windup), and Qext follows the lag to Qmin.
// Inside the WECC240 dead band (±1) the same step does nothing.
TEST(Repca1, ReactiveLoopDeadBandAndLimits) {
  ComponentHarness wecc = plant();
  wecc.known()[wecc.input(signal::qe)] = kQ0 + 0.2;
  wecc.advance(1e-3, 200);
  EXPECT_EQ(wecc.z("Qext"), kQ0);
  ComponentHarness h = plant(with({{8, "0.0"}, {19, "-0.01"}, {20, "0.01"}}));
  check_rest(h);
  h.known()[h.input(signal::qe)] = kQ0 + 0.2;
  h.advance(1e-4, 1000);  // 0.1 s = 2 Tfv
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("elim"))], kModeLow);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Qpi"))], kModeLow);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Qpi_int"))], kModeLow);
  EXPECT_EQ(h.x("xQ"), kQ0);
  EXPECT_NEAR(h.z("Qext"), -0.43 + (kQ0 + 0.43) * std::exp(-2.0), 2e-4);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
  h.known()[h.input(signal::qe)] = kQ0;  // back: the sum leaves the limit where it was
  h.advance(1e-3, 2000);
  EXPECT_NEAR(h.z("Qext"), kQ0, 1e-9);
}

// RefFlag = 1, VCFlag = 0 (reactive droop), Tfltr = Tfv = 0, no dead band:
// Qe + 0.1 raises V + Kc Q by 0.002: Qext = Q0 − Kp 0.002 − Ki 0.002 t.
TEST(Repca1, VoltageLoopWithReactiveDroop) {
  ComponentHarness h = plant(with({{6, "1"}, {8, "0.0"}, {12, "0.0"}, {19, "0.0"}, {20, "0.0"}}));
  check_rest(h);
  EXPECT_NEAR(h.parameters()[0], kV0 + 0.02 * kQ0, 1e-14);  // Vref
  h.known()[h.input(signal::qe)] = kQ0 + 0.1;
  h.advance(1e-3, 1000);
  EXPECT_NEAR(h.z("Qext"), kQ0 - 18 * 0.002 - 5 * 0.002 * 1.0, 1e-9);
}

// Vfrz = 0.9: below it the regulator's integrator stops, the proportional
// path still acts.
TEST(Repca1, VoltageFreeze) {
  ComponentHarness h = plant(with({{6, "1"}, {8, "0.0"}, {12, "0.0"}, {13, "0.9"}, {19, "0.0"}, {20, "0.0"}}));
  check_rest(h);
  set_voltage(h, std::polar(kV0 - 0.004, std::arg(kV1034)));  // error +0.004, above Vfrz
  h.advance(1e-3, 1000);
  EXPECT_NEAR(h.x("xQ"), kQ0 + 5 * 0.004, 1e-9);
  set_voltage(h, std::polar(0.5, std::arg(kV1034)));
  h.advance(1e-3, 1000);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Vfrz"))], kModeBelow);
  EXPECT_NEAR(h.x("xQ"), kQ0 + 5 * 0.004, 1e-9);
  EXPECT_NEAR(h.z("Qext"), std::min(0.43, h.x("xQ") + 18 * 0.1), 1e-9);  // e = emax = 0.1
}

// Tp = Tlag = 0: Pe − 0.03 gives Pref = P0 + Kpg 0.03 + Kig 0.03 t until Pmax = 1
// (t = (1 − P0 − 0.03)/0.0015 ≈ 13.3 s), then held: xP stops at 1 − 0.03.
TEST(Repca1, ActivePowerLoopAndLimit) {
  ComponentHarness h = plant(with({{25, "0.0"}, {32, "0.0"}}));
  check_rest(h);
  h.known()[h.input(signal::pe)] = kP0 - 0.03;
  h.advance(1e-2, 500);
  EXPECT_NEAR(h.z("Pref"), kP0 + 0.03 + 0.0015 * 5.0, 1e-9);
  h.advance(1e-2, 1500);
  EXPECT_EQ(h.z("Pref"), 1.0);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Ppi_int"))], kModeHigh);
  EXPECT_NEAR(h.x("xP"), 0.97, 2e-5);  // within a step of the engagement
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
}

// Ddn = 20, Dup = 10, frequency dead band ±0.0005, Tp = Tlag = 0, Kig = 0: the
// bus rotating at +0.001 p.u. (over-frequency) lowers Pref by
// Kpg Ddn 0.0005; at −0.001 it raises it by Kpg Dup 0.0005.
TEST(Repca1, FrequencyDroop) {
  for (double df : {0.001, -0.001}) {
    ComponentHarness h = plant(
        with({{24, "0.0"}, {25, "0.0"}, {26, "-0.0005"}, {27, "0.0005"}, {32, "0.0"}, {33, "20"}, {34, "10"}}));
    check_rest(h);
    const double omega = df * 2 * std::numbers::pi * 60.0, dt = 1e-5;
    for (int k = 1; k <= 30000; ++k) {
      set_voltage(h, std::polar(kV0, std::arg(kV1034) + omega * k * dt));
      h.advance(dt, 1);
    }
    EXPECT_NEAR(h.z("Pref"), kP0 - (df > 0 ? 20.0 : -10.0) * 0.0005, 1e-7) << df;
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
}

TEST(Repca1, ParameterMessages) {
  auto message = [](const std::vector<std::string>& tokens) {
    try {
      make_repca1(token_record(1034, "REPCA1", "W", tokens, 3), unit_1034());
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(with({{2, "1034"}, {3, "1035"}, {4, "1 "}})),
            "test.dyr:1: REPCA1 at bus 1034 id 'W': field 2 (FROM) = 1034 → names a monitored branch; lsdae's "
            "REPCA1 measures the generator's own output only (set FROM and TO to 0) → correct the record");
  EXPECT_EQ(message(with({{1, "1035"}})),
            "test.dyr:1: REPCA1 at bus 1034 id 'W': field 1 (BUS) = 1035 → names a remote bus; lsdae's REPCA1 "
            "regulates its own terminal voltage only (set it to 0) → correct the record");
  EXPECT_EQ(message(with({{11, "0.1"}, {12, "0"}})),
            "test.dyr:1: REPCA1 at bus 1034 id 'W': field 12 (Tfv) = 0 → must be > 0 when Tft > 0 (a lead without "
            "a lag) → correct the record");
  EXPECT_EQ(message(with({{6, "2"}})),
            "test.dyr:1: REPCA1 at bus 1034 id 'W': field 6 (RefFlag) = 2 → must be 0 or 1 → correct the record");
  EXPECT_EQ(message(with({{1, "1034"}})), "no error");
}

}  // namespace
}  // namespace lsdae::psse::test
