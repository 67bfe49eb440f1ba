// tests/models/psse/regca1_test.cpp -- REGCA1 alone (component_harness.h):
// at rest at a WECC240 operating point, exact partials, and each block's
// response to a step against the hand-computed one (the lags, the ramp
// limit, the LVPL limit following a voltage dip and releasing, the LVACM
// gain, the HV management and Iolim, the Iq rate limits), and its messages.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "component_harness.h"
#include "psse/core/signals.h"
#include "psse/renewables/regca1.h"
#include "renewable_data.h"

namespace lsdae::psse::test {
namespace {

std::size_t out_index(const ComponentHarness& h) {
  return static_cast<std::size_t>(h.slot().shape().states + h.slot().shape().algebraics);
}

// Power injected at the bus, p.u. on the system base.
Complex injected(const ComponentHarness& h) {
  const auto out = h.outputs();
  const std::size_t k = out_index(h);
  const auto vr = static_cast<std::size_t>(h.slot().shape().vr_index());
  return Complex(h.known()[vr], h.known()[vr + 1]) * std::conj(Complex(out[k], out[k + 1]));
}

void set_voltage(ComponentHarness& h, Complex v) {
  const auto vr = static_cast<std::size_t>(h.slot().shape().vr_index());
  h.known()[vr] = v.real();
  h.known()[vr + 1] = v.imag();
}

ComponentHarness wind_converter(std::vector<double> values = kRegca1Wecc240) {
  ComponentHarness h(make_regca1(record(1034, "REGCA1", "W", std::move(values)), unit_1034()),
                     {signal::pe, signal::qe});
  h.initialize(kV1034, kS1034);
  return h;
}

TEST(Regca1, AtRestAtTheWecc240OperatingPoint) {
  ComponentHarness h = wind_converter();
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
  EXPECT_LT(std::abs(injected(h) - kS1034), 1e-12);  // the power-flow power, on the system base
  const double v = std::abs(kV1034), p = kS1034.real() / kRatio1034, q = kS1034.imag() / kRatio1034;
  EXPECT_NEAR(h.signal(signal::ipcmd), p / v, 1e-14);  // what the electrical control must deliver
  EXPECT_NEAR(h.signal(signal::iqcmd), q / v, 1e-14);
  EXPECT_NEAR(h.z("Pe"), p, 1e-14);
  EXPECT_NEAR(h.z("Qe"), q, 1e-14);
  for (int m : h.modes()) EXPECT_EQ(m, kModeFree);  // above every breakpoint, no limit engaged
}

// Ipcmd + 0.25: (Ipcmd − Ip)/Tg = 12.5 > Rrpwr = 10, so Ip ramps at 10 p.u./s
// until Ipcmd − Ip = Rrpwr Tg = 0.2 (t = 5 ms), then Ip = Ipcmd − 0.2 e^{−(t − 5 ms)/Tg}.
// Ipcmd = 1.5 then stops Ip at the LVPL limit Lvpl1 = 1.22 (V > Brkpt).
TEST(Regca1, RampLimitThenLagThenLvpl) {
  ComponentHarness h = wind_converter();
  const double ip0 = h.x("Ip"), cmd = ip0 + 0.25;
  h.known()[h.input(signal::ipcmd)] = cmd;
  h.advance(1e-5, 400);
  EXPECT_NEAR(h.x("Ip"), ip0 + 0.04, 1e-9);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Rrpwr"))], kModeHigh);
  h.advance(1e-5, 4100);  // t = 45 ms
  EXPECT_NEAR(h.x("Ip"), cmd - 0.2 * std::exp(-2.0), 3e-5);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Rrpwr"))], kModeFree);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
  h.known()[h.input(signal::ipcmd)] = 1.5;
  h.advance(1e-4, 1000);
  EXPECT_EQ(h.x("Ip"), 1.22);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("LVPL"))], kModeHigh);
  EXPECT_NEAR(h.z("Pe"), std::abs(kV1034) * 1.22, 1e-12);
}

// V drops to 0.6: Vf = 0.6 + (V0 − 0.6) e^{−t/Tfltr}; the LVPL limit
// 2.44 (Vf − 0.4) reaches Ip0 and Ip follows it down (held, no windup);
// LVACM scales the injected active current by (0.6 − 0.5)/(0.9 − 0.5). When
// V returns, the limit rises faster than Rrpwr: Ip is released and ramps.
TEST(Regca1, LvplFollowsAVoltageDipAndReleases) {
  ComponentHarness h = wind_converter();
  const double ip0 = h.x("Ip"), v0 = std::abs(kV1034);
  set_voltage(h, std::polar(0.6, std::arg(kV1034)));
  h.advance(1e-5, 5000);  // t = 50 ms
  const double vf = 0.6 + (v0 - 0.6) * std::exp(-2.5);
  EXPECT_NEAR(h.x("Vf"), vf, 1e-4);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("LVPL"))], kModeHigh);
  EXPECT_NEAR(h.x("Ip"), 2.44 * (h.x("Vf") - 0.4), 1e-12);  // on the moving limit
  EXPECT_NEAR(h.z("Pe"), 0.6 * 0.25 * h.x("Ip"), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
  const double low = h.x("Ip");
  set_voltage(h, kV1034);
  h.advance(1e-5, 1000);  // 10 ms: ramping at Rrpwr, below the rising limit
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("LVPL"))], kModeFree);
  EXPECT_NEAR(h.x("Ip"), low + 0.1, 1e-9);
  EXPECT_LT(h.x("Ip"), ip0);
}

// Khv = 0.7, Volim = 1: above Volim the reactive current is reduced by
// Khv (V − Volim), and never below Iolim = −1.3.
TEST(Regca1, HighVoltageManagementAndIolim) {
  std::vector<double> values = kRegca1Wecc240;
  values[6] = 1.0;   // Volim
  values[11] = 0.7;  // Khv
  ComponentHarness h = wind_converter(values);
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
  const double v0 = std::abs(kV1034), q0 = kS1034.imag() / kRatio1034;
  EXPECT_NEAR(h.x("Iq"), q0 / v0 + 0.7 * (v0 - 1.0), 1e-14);
  EXPECT_NEAR(h.z("Qe"), q0, 1e-14);
  set_voltage(h, std::polar(1.3, 0.1));
  h.advance(1e-5, 1);
  EXPECT_NEAR(h.z("Qe"), 1.3 * (h.x("Iq") - 0.7 * 0.3), 1e-12);
  h.known()[h.input(signal::iqcmd)] = -1.2;
  h.advance(1e-4, 5000);  // Iq → −1.2 (25 Tg), and −1.2 − 0.21 < Iolim
  EXPECT_NEAR(h.x("Iq"), -1.2, 1e-9);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Iolim"))], kModeLow);
  EXPECT_NEAR(h.z("Qe"), 1.3 * -1.3, 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
}

// Iqrmax = 1, Iqrmin = −1 p.u./s with Q0 > 0: only the upper one acts.
TEST(Regca1, ReactiveCurrentRateLimitsFollowTheInitialQ) {
  std::vector<double> values = kRegca1Wecc240;
  values[12] = 1.0;
  values[13] = -1.0;
  ComponentHarness h = wind_converter(values);
  const double iq0 = h.x("Iq");
  h.known()[h.input(signal::iqcmd)] = iq0 + 0.5;
  h.advance(1e-4, 1000);  // 0.1 s at 1 p.u./s
  EXPECT_NEAR(h.x("Iq"), iq0 + 0.1, 1e-9);
  h.known()[h.input(signal::iqcmd)] = iq0 - 0.5;
  h.advance(1e-5, 4000);  // 40 ms of the unlimited lag: (0.1 + 0.5) falls as e^{−t/Tg}
  EXPECT_NEAR(h.x("Iq"), iq0 - 0.5 + 0.6 * std::exp(-2.0), 5e-5);
}

TEST(Regca1, ParameterMessagesAndInitialization) {
  std::vector<double> values = kRegca1Wecc240;
  values.pop_back();
  try {
    make_regca1(record(1034, "REGCA1", "W", values), unit_1034());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(),
                 "test.dyr:1: REGCA1 at bus 1034 id 'W': 14 parameters, expected 15 (LVPLSW, Tg, Rrpwr, Brkpt, "
                 "Zerox, Lvpl1, Volim, Lvpnt1, Lvpnt0, Iolim, Tfltr, Khv, Iqrmax, Iqrmin, Accel) → correct the "
                 "record, or substitute or skip the model");
  }
  values = kRegca1Wecc240;
  values[10] = 0.0;
  try {
    make_regca1(record(1034, "REGCA1", "W", values), unit_1034());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(),
                 "test.dyr:1: REGCA1 at bus 1034 id 'W': field 11 (Tfltr) = 0 → must be > 0 with LVPLSW = 1 (the "
                 "LVPL limit moves with the filtered voltage) → correct the record");
  }
  values[0] = 0.0;  // without LVPL, Tfltr = 0 is fine
  EXPECT_NO_THROW(make_regca1(record(1034, "REGCA1", "W", values), unit_1034()));
  values = kRegca1Wecc240;
  values[0] = 2.0;
  EXPECT_THROW(make_regca1(record(1034, "REGCA1", "W", values), unit_1034()), ModelError);
  ComponentHarness low(make_regca1(record(1034, "REGCA1", "W", kRegca1Wecc240), unit_1034()));
  try {
    low.initialize(std::polar(0.45, 0.0), kS1034);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("below Lvpnt0"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lsdae::psse::test
