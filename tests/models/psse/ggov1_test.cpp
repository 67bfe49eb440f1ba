// tests/models/psse/ggov1_test.cpp -- GGOV1 alone (component_harness.h): at
// rest on the turbine base, exact partials for every structural variant its
// flags select, the droop response with the machine's power following the
// mechanical power, the load (temperature) limiter taking over through the
// low-value select with the governor integral tracking fsr (no windup), the
// acceleration limiter in control at the rate Ka (Aset − a), the speed dead
// band, the messages, and the 367 GGOV1 records of ACTIVSg2000.
#include <gtest/gtest.h>

#include <cmath>

#include "component_harness.h"
#include "control_test_tools.h"
#include "psse/core/frame.h"
#include "psse/core/signals.h"
#include "psse/governors/ggov1.h"

namespace lsdae::psse::test {
namespace {

const Complex kV(1.02, -0.0168);
const Complex kS(0.8, 0.1);

// ACTIVSg2000 bus 1048: Rselect Flag R Tpelec maxerr minerr Kpgov Kigov Kdgov Tdgov Vmax Vmin Tact
// Kturb Wfnl Tb Tc Teng Tfload Kpload Kiload Ldref Dm Ropen Rclose Kimw Aset Ka Ta Trate db Tsa Tsb Rup Rdown.
const std::vector<double> kGgov1 = {1,    1,      0.04, 1,   0.05, -0.05, 10,  2,   0, 1,   1,   0.15,
                                    0.1289, 1.3041, 0.2, 0.5, 0,    0,     3,   1,   1, 1,   0,   0.1,
                                    -0.1, 0,      0.01, 10,  0.1,  390.24, 0,   4,   5, 99,  -99};
enum : std::size_t { kRselect, kFlag, kR, kTpelec, kKpgov = 6, kKigov, kKdgov, kTb = 15, kTc, kTeng, kKpload = 19,
                     kKiload, kDm = 22, kKimw = 25, kTrate = 29, kDb, kTsa, kTsb };

constexpr double kMbase = 433.6;
constexpr double kBase = 390.24 / kMbase;  // turbine base / MBASE

UnitData unit(double mbase = kMbase) {
  UnitData u;
  u.mbase = mbase;
  return u;
}

std::map<std::string, double> at(double pm, double pe) {
  return {{signal::pm, pm}, {signal::speed, 0.0}, {signal::pe, pe}};
}

ComponentHarness make(const std::vector<double>& values, double pm = 0.7, double pe = 0.69) {
  ComponentHarness h(make_ggov1(record(1048, "GGOV1", "1", values), unit()));
  h.initialize(kV, kS, at(pm, pe));
  return h;
}

// The machine's electrical power follows the mechanical power (a stiff machine).
void machine(double dw, ComponentHarness& h) {
  set_input(h, signal::speed, dw);
  set_input(h, signal::pe, algebraic_value(h, "Pm"));
}

std::size_t lim(const ComponentHarness& h, const char* name) { return static_cast<std::size_t>(limiter_index(h, name)); }

TEST(Ggov1, RestOnTheTurbineBase) {
  ComponentHarness h = make(kGgov1);
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  for (int m : h.modes()) EXPECT_EQ(m, kModeFree);
  const double fsr = 0.7 / kBase / 1.3041 + 0.2;  // Pm on Trate / Kturb + Wfnl
  EXPECT_NEAR(state_value(h, "stroke"), fsr, 1e-14);
  EXPECT_NEAR(state_value(h, "Pelec"), 0.69 / kBase, 1e-14);
  EXPECT_NEAR(h.parameters()[0], 0.04 * 0.69 / kBase, 1e-15);  // Pref = R Pelec
  EXPECT_NEAR(h.signal(signal::pm), 0.7, 1e-14);
  EXPECT_THROW(h.state("xD"), std::out_of_range);  // Kdgov = 0
  EXPECT_THROW(h.state("xMW"), std::out_of_range);  // Kimw = 0
}

TEST(Ggov1, EveryStructureRestsWithExactPartials) {
  struct Variant {
    const char* what;
    std::vector<std::pair<std::size_t, double>> set;
  };
  const Variant variants[] = {
      {"isochronous", {{kRselect, 0}}},
      {"requested stroke droop", {{kRselect, -1}}},
      {"valve stroke droop", {{kRselect, -2}}},
      {"speed-independent fuel", {{kFlag, 0}}},
      {"Tpelec = 0", {{kTpelec, 0}}},
      {"derivative", {{kKdgov, 0.5}}},
      {"plain integral (Kpgov = 0)", {{kKpgov, 0}}},
      {"plain load integral (Kpload = 0)", {{kKpload, 0}, {kKiload, 0}}},
      {"turbine lead-lag", {{kTc, 0.2}}},
      {"no turbine lag", {{kTb, 0}}},
      {"no temperature lead-lag", {{kTsa, 0}, {kTsb, 0}}},
      {"damping", {{kDm, 0.3}}},
      {"speed exponent", {{kDm, -0.5}}},
      {"supervisory control", {{kKimw, 0.05}}},
      {"dead band", {{kDb, 0.002}}},
      {"MBASE base", {{kTrate, 0}}},
  };
  for (const Variant& v : variants) {
    auto values = kGgov1;
    for (auto [i, x] : v.set) values[i] = x;
    ComponentHarness h = make(values);
    EXPECT_LT(h.largest_derivative(), 1e-12) << v.what;
    EXPECT_LT(h.jacobian_mismatch(), 1e-6) << v.what;
    for (int m : h.modes()) EXPECT_EQ(m, kModeFree) << v.what;
    set_input(h, signal::speed, 0.003);  // away from rest, the partials still exact
    settle(h);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6) << v.what;
  }
}

TEST(Ggov1, DroopWithTheMachineFollowing) {
  ComponentHarness h = make(kGgov1, 0.7, 0.7);
  simulate(h, 0.0, 200.0, 2e-3, [](double, ComponentHarness& g) { machine(-0.001, g); });
  // err → 0: Pelec = (Pref − Δω)/R, i.e. 0.001/R = 0.025 more on the turbine base.
  EXPECT_NEAR(algebraic_value(h, "Pm"), 0.7 + 0.025 * kBase, 1e-5);
  for (int m : h.modes()) EXPECT_EQ(m, kModeFree);
}

TEST(Ggov1, LoadLimiterTakesOverWithoutWindup) {
  ComponentHarness h = make(kGgov1, 0.7, 0.7);
  // 1 % underspeed asks for 0.25 more on the turbine base, above Ldref = 1.
  simulate(h, 0.0, 90.0, 1e-3, [](double, ComponentHarness& g) { machine(-0.01, g); });
  EXPECT_EQ(h.modes()[lim(h, "lvs_t")], kModeHigh);  // fsrt passed on
  EXPECT_NEAR(algebraic_value(h, "Pm"), 1.0 * kBase, 2e-4);  // the load limit: Ldref on Trate
  const double fsr = state_value(h, "stroke");
  EXPECT_NEAR(state_value(h, "xI"), fsr, 1e-3);   // the governor integral tracked fsr
  EXPECT_NEAR(state_value(h, "xLL"), fsr, 1e-3);  // and the load integral sits at it
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  // Back to nominal speed: the governor takes over at once (nothing wound up).
  simulate(h, 90.0, 1.0, 1e-3, [](double, ComponentHarness& g) { machine(0.0, g); });
  EXPECT_EQ(h.modes()[lim(h, "lvs_t")], kModeFree);
}

TEST(Ggov1, AccelerationLimiterInControl) {
  auto values = kGgov1;
  values[kKpgov] = 2.0, values[kKigov] = 0.4;
  ComponentHarness h = make(values, 0.7, 0.7);
  const double delt = h.parameters()[1];  // Pref, DELT
  EXPECT_DOUBLE_EQ(delt, 1.0 / 120.0);    // half a cycle at 60 Hz
  auto ramp = [](double t, ComponentHarness& g) { machine(0.2 * t, g); };
  simulate(h, 0.0, 0.4, 1e-5, ramp);
  ASSERT_EQ(h.modes()[lim(h, "lvs_a")], kModeHigh);
  // While it is in control, fsr falls at Ka (Aset − a), whatever DELT is.
  const double a = (0.2 * 0.4 - state_value(h, "xA")) / 0.1;
  EXPECT_NEAR(a, 0.2, 0.01);
  EXPECT_NEAR(h.outputs()[static_cast<std::size_t>(h.state("fsrp"))], 10.0 * (0.01 - a), 1e-9);
  EXPECT_GT(state_value(h, "fsrp"), 0.15);  // above Vmin: the rate is the limiter's
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  // The speed stops rising: with the acceleration below Aset the limiter still
  // holds the fuel, now raising it at Ka Aset = 0.1 p.u./s, until it meets the
  // governor's request (about 3.4 s later here), which then takes over.
  simulate(h, 0.4, 1.0, 1e-5, [](double, ComponentHarness& g) { machine(0.08, g); });
  EXPECT_EQ(h.modes()[lim(h, "lvs_a")], kModeHigh);
  EXPECT_NEAR(h.outputs()[static_cast<std::size_t>(h.state("fsrp"))], 10.0 * 0.01, 1e-3);
  simulate(h, 1.4, 4.0, 1e-4, [](double, ComponentHarness& g) { machine(0.08, g); });
  EXPECT_EQ(h.modes()[lim(h, "lvs_a")], kModeFree);
}

TEST(Ggov1, SpeedDeadBand) {
  auto values = kGgov1;
  values[kDb] = 0.002;
  ComponentHarness h = make(values, 0.7, 0.7);
  const std::size_t err = lim(h, "err");
  set_input(h, signal::speed, 0.0015);
  settle(h);
  EXPECT_NEAR(h.limiter_records()[err].u, 0.0, 1e-15);  // inside the band: no error
  set_input(h, signal::speed, 0.003);
  settle(h);
  EXPECT_EQ(h.modes()[lim(h, "db")], kModeHigh);
  EXPECT_NEAR(h.limiter_records()[err].u, -0.001, 1e-15);  // without step: Δω − db
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  set_input(h, signal::speed, -0.0025);
  settle(h);
  EXPECT_NEAR(h.limiter_records()[err].u, 0.0005, 1e-15);
}

TEST(Ggov1, LimitsAtTheOperatingPointAreNoted) {
  auto values = kGgov1;
  values[33] = 0.5;  // Rup
  ComponentHarness h = make(values, 0.92, 0.92);  // 1.022 on Trate: above Ldref = 1
  EXPECT_EQ(h.modes()[lim(h, "lvs_t")], kModeHigh);
  ASSERT_EQ(h.notes().size(), 2u);
  EXPECT_EQ(h.notes()[0], "Rup = 0.5, Rdown = -99: the rate limits of the load limit are not represented. ");
  EXPECT_EQ(h.notes()[1].substr(0, 54), "the load limit fsrt = 0.966812 is below the governor's");  // Ldref/Kturb + Wfnl
}

std::string message_of(const std::vector<double>& values) {
  try {
    make_ggov1(record(1048, "GGOV1", "1", values), unit());
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Ggov1, ParameterMessages) {
  auto v = kGgov1;
  v[kTeng] = 0.1;
  EXPECT_EQ(message_of(v), "test.dyr:1: GGOV1 at bus 1048 id '1': field 18 (Teng) = 0.1 → a transport delay is not "
                           "supported → set Teng to 0, or substitute or skip the model");
  v = kGgov1;
  v[kRselect] = 2;
  EXPECT_EQ(message_of(v), "test.dyr:1: GGOV1 at bus 1048 id '1': field 1 (Rselect) = 2 → must be 1, 0, -1 or -2 → "
                           "correct the record");
  v = kGgov1;
  v[kKpgov] = 0, v[kKigov] = 0;
  EXPECT_EQ(message_of(v), "test.dyr:1: GGOV1 at bus 1048 id '1': field 8 (Kigov) = 0 → Kpgov and Kigov are both 0: "
                           "nothing holds the valve → give one a positive value → correct the record");
  v = kGgov1;
  v[kKdgov] = 1, v[kKdgov + 1] = 0;
  EXPECT_EQ(message_of(v), "test.dyr:1: GGOV1 at bus 1048 id '1': field 10 (Tdgov) = 0 → must be > 0 when Kdgov > 0 "
                           "(a pure derivative) → correct the record");
}

// The 367 GGOV1 records of ACTIVSg2000 build and rest at 0.7 p.u. of a
// machine base 10 % above their turbine rating, with exact partials.
TEST(Ggov1, Activsg2000Records) {
  const auto file = psse_data() / "no_reference/ACTIVSg2000/ACTIVSg2000_dynamics.dyr";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is missing";
  const auto records = dyr_records(file, "GGOV1");
  ASSERT_EQ(records.size(), 367u);
  for (const DyrRecord& r : records) {
    ComponentHarness h(make_ggov1(r, unit(1.1 * r.values[kTrate])));
    h.initialize(kV, kS, at(0.7, 0.7));
    EXPECT_LT(h.largest_derivative(), 1e-12) << r.where();
    EXPECT_LT(h.jacobian_mismatch(), 1e-6) << r.where();
    for (const char* name : {"err", "lvs_t", "lvs_a", "fsr", "rate"})  // the governor in control
      EXPECT_EQ(h.modes()[lim(h, name)], kModeFree) << r.where() << " " << name;
    EXPECT_TRUE(h.notes().empty()) << r.where();
  }
}

}  // namespace
}  // namespace lsdae::psse::test
