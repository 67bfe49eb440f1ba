// tests/models/psse/governor_test.cpp -- TGOV1, GAST, HYGOV and IEEEG1 alone
// (component_harness.h): at rest at the operating point with the reference
// they back-compute, exact partials, the steady droop response, each limiter
// engaging and releasing (a non-windup state stops at its limit and leaves it
// as soon as its rate turns back), the parameter messages, and every record
// of these models in ACTIVSg2000 and WECC240.
#include <gtest/gtest.h>

#include <cmath>

#include "component_harness.h"
#include "control_test_tools.h"
#include "psse/core/frame.h"
#include "psse/core/signals.h"
#include "psse/governors/gast.h"
#include "psse/governors/hygov.h"
#include "psse/governors/ieeeg1.h"
#include "psse/governors/tgov1.h"

namespace lsdae::psse::test {
namespace {

const Complex kV(1.02, -0.0168);
const Complex kS(0.8, 0.1);

UnitData unit(double mbase = 100.0) {
  UnitData u;
  u.mbase = mbase;
  return u;
}

std::map<std::string, double> at(double pm) { return {{signal::pm, pm}, {signal::speed, 0.0}, {signal::pe, pm}}; }

void expect_at_rest(ComponentHarness& h, double pm) {
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  EXPECT_NEAR(h.signal(signal::pm), pm, 1e-12);  // the output delivers what the machine needs
  for (int m : h.modes()) EXPECT_EQ(m, kModeFree);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(no error)";
}

// ThreeBus_TGOV1.dyr of the ladder: R T1 VMAX VMIN T2 T3 Dt.
const std::vector<double> kTgov1 = {0.05, 0.2, 1.2, 0.1, 0.3, 0.8, 0.0};

TEST(Tgov1, RestDroopAndValveLimit) {
  ComponentHarness h(make_tgov1(record(102, "TGOV1", "1", kTgov1), unit()));
  h.initialize(kV, kS, at(0.8));
  expect_at_rest(h, 0.8);
  EXPECT_NEAR(h.parameters()[0], 0.05 * 0.8, 1e-15);  // Pref = R Pm
  // A speed drop of 0.2 %: steady Pm rises by Δω/R = 0.04.
  simulate(h, 0.0, 12.0, 1e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, -0.002); });
  EXPECT_NEAR(algebraic_value(h, "Pm"), 0.84, 1e-6);
  // A speed drop of 4 %: the valve stops at VMAX = 1.2, with its rate still positive
  // (held, no windup), and the mechanical power settles at VMAX.
  const int valve = limiter_index(h, "Pv");
  simulate(h, 12.0, 12.0, 1e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, -0.04); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(valve)], kModeHigh);
  EXPECT_DOUBLE_EQ(state_value(h, "Pv"), 1.2);
  EXPECT_NEAR(algebraic_value(h, "Pm"), 1.2, 1e-6);
  EXPECT_GT(h.limiter_records()[static_cast<std::size_t>(valve)].rate, 0.0);
  EXPECT_EQ(h.outputs()[static_cast<std::size_t>(h.state("Pv"))], 0.0);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  // Back to 0.2 %: the valve leaves the limit at once (no wound-up integral to unwind).
  set_input(h, signal::speed, -0.002);
  settle(h);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(valve)], kModeFree);
  simulate(h, 24.0, 12.0, 1e-3);
  EXPECT_NEAR(algebraic_value(h, "Pm"), 0.84, 1e-6);
}

TEST(Tgov1, DampingAndMachineBase) {
  auto values = kTgov1;
  values[6] = 0.5;  // Dt
  ComponentHarness h(make_tgov1(record(102, "TGOV1", "1", values), unit(250.0)));
  h.initialize(kV, kS, at(0.32));  // 80 MW on 250 MVA
  expect_at_rest(h, 0.32);
  set_input(h, signal::speed, 0.01);
  settle(h);
  EXPECT_NEAR(algebraic_value(h, "Pm"), 0.32 - 0.5 * 0.01, 1e-12);  // Dt Δω acts at once
}

TEST(Tgov1, ValveOutsideItsLimitsAtTheOperatingPoint) {
  ComponentHarness h(make_tgov1(record(102, "TGOV1", "1", kTgov1), unit()));
  h.initialize(kV, kS, at(1.3));  // above VMAX = 1.2: the harness sets the mode, the framework reports it
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(limiter_index(h, "Pv"))], kModeHigh);
}

// ThreeBus_GAST.dyr: R T1 T2 T3 AT KT VMAX VMIN Dturb.
const std::vector<double> kGast = {0.05, 0.2, 0.2, 2.0, 1.0, 2.5, 1.1, 0.01, 0.0};

TEST(Gast, RestDroopAndLoadLimitGate) {
  ComponentHarness h(make_gast(record(102, "GAST", "1", kGast), unit()));
  h.initialize(kV, kS, at(0.8));
  expect_at_rest(h, 0.8);
  simulate(h, 0.0, 30.0, 1e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, -0.002); });
  EXPECT_NEAR(algebraic_value(h, "Pm"), 0.84, 1e-6);
  // A speed drop of 3 % asks for 1.4: the load limit AT + KT (AT − Tx) takes over
  // through the gate, and the power settles where the limit equals the output: AT = 1.
  const int gate = limiter_index(h, "gate");
  simulate(h, 30.0, 60.0, 1e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, -0.03); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(gate)], kModeHigh);
  EXPECT_NEAR(algebraic_value(h, "Pm"), 1.0, 1e-4);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  set_input(h, signal::speed, -0.002);
  settle(h);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(gate)], kModeFree);
  // The valve limit: VMIN = 0.01 on a large overspeed, released when it ends.
  const int valve = limiter_index(h, "Pv");
  simulate(h, 90.0, 10.0, 1e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.1); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(valve)], kModeLow);
  EXPECT_DOUBLE_EQ(state_value(h, "Pv"), 0.01);
  set_input(h, signal::speed, 0.0);
  settle(h);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(valve)], kModeFree);
}

TEST(Gast, LoadLimitBelowTheReferenceIsNoted) {
  ComponentHarness h(make_gast(record(102, "GAST", "1", kGast), unit()));
  h.initialize(kV, kS, at(1.05));  // AT = 1 < Pm: the gate passes the load limit 1 + 2.5 (1 − 1.05)
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(limiter_index(h, "gate"))], kModeHigh);
  ASSERT_EQ(h.notes().size(), 1u);
  EXPECT_EQ(h.notes()[0], "the load limit AT + KT (AT − Pm) = 0.875 is below the power reference 1.05 at the "
                          "operating point: the gate passes the load limit and the unit is not at rest");
}

// ThreeBus_HYGOV.dyr: R r Tr Tf Tg VELM GMAX GMIN TW At Dturb qNL.
const std::vector<double> kHygov = {0.05, 0.3, 5.0, 0.05, 0.5, 0.2, 1.0, 0.0, 1.25, 1.2, 0.2, 0.08};

TEST(Hygov, RestDroopVelocityAndGateLimits) {
  ComponentHarness h(make_hygov(record(102, "HYGOV", "1", kHygov), unit()));
  h.initialize(kV, kS, at(0.6));
  expect_at_rest(h, 0.6);
  const double q0 = 0.6 / 1.2 + 0.08;
  EXPECT_NEAR(state_value(h, "g"), q0, 1e-15);
  EXPECT_NEAR(h.parameters()[0], 0.05 * q0, 1e-15);  // nref = R c
  // Steady droop: the gate opens by −Δω/R, the flow follows at head 1.
  simulate(h, 0.0, 500.0, 5e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, -0.001); });
  EXPECT_NEAR(state_value(h, "c"), q0 + 0.02, 1e-5);
  EXPECT_NEAR(algebraic_value(h, "Pm"), 1.2 * (q0 + 0.02 - 0.08) - 0.2 * (q0 + 0.02) * (-0.001), 1e-5);
  // A speed step of 5 %: while the filter passes it on, the gate moves at the
  // velocity limit VELM = 0.2 p.u./s; then at the PI's own pace, within it.
  const int velocity = limiter_index(h, "VELM");
  simulate(h, 500.0, 0.02, 1e-4, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.05); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(velocity)], kModeLow);
  EXPECT_NEAR(h.outputs()[static_cast<std::size_t>(h.state("c"))], -0.2, 1e-12);
  simulate(h, 500.02, 0.3, 1e-4, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.05); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(velocity)], kModeFree);
  // The droop asks for c0 − 1 < 0: the gate stops at GMIN = 0, held while its rate points down.
  const int gate = limiter_index(h, "c");
  simulate(h, 500.32, 100.0, 5e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.05); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(gate)], kModeLow);
  EXPECT_DOUBLE_EQ(state_value(h, "c"), 0.0);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  simulate(h, 600.32, 0.5, 1e-4, [](double, ComponentHarness& g) { set_input(g, signal::speed, -0.05); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(gate)], kModeFree);
  EXPECT_GT(state_value(h, "c"), 0.0);
}

// ACTIVSg2000 bus 2056: JBUS M K T1 T2 T3 Uo Uc PMAX PMIN T4 K1 K2 T5 K3 K4 T6 K5 K6 T7 K7 K8.
const std::vector<double> kIeeeg1 = {0, 0, 20, 0.2511, 0, 0.2, 2, -2, 1.1911, 0, 0.4242, 1, 0, 8.5669, 0.3471, 0, 0.5,
                                     0.3093, 0, 0, 0, 0};

TEST(Ieeeg1, RestDroopRateAndPositionLimits) {
  ComponentHarness h(make_ieeeg1(record(2056, "IEEEG1", "1", kIeeeg1), unit()));
  h.initialize(kV, kS, at(0.8));
  expect_at_rest(h, 0.8);
  const double gv0 = 0.8 / 1.6564;  // Pm / ΣK
  EXPECT_NEAR(state_value(h, "GV"), gv0, 1e-15);
  EXPECT_THROW(h.state("x4"), std::out_of_range);  // T7 = 0: the fourth stage passes through
  simulate(h, 0.0, 80.0, 1e-3, [](double, ComponentHarness& g) { set_input(g, signal::speed, -0.001); });
  EXPECT_NEAR(state_value(h, "GV"), gv0 + 20 * 0.001, 1e-6);
  EXPECT_NEAR(algebraic_value(h, "Pm"), 1.6564 * (gv0 + 0.02), 1e-5);
  // Uc = −2 p.u./s limits the closing on a 20 % overspeed; PMIN = 0 then holds it.
  const int rate = limiter_index(h, "U"), valve = limiter_index(h, "GV");
  simulate(h, 80.0, 0.05, 1e-4, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.2); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(rate)], kModeLow);
  EXPECT_NEAR(h.outputs()[static_cast<std::size_t>(h.state("GV"))], -2.0, 1e-12);
  simulate(h, 80.05, 1.0, 1e-4, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.2); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(valve)], kModeLow);
  EXPECT_DOUBLE_EQ(state_value(h, "GV"), 0.0);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  // Back at nominal speed, the valve opens as soon as the speed lead-lag's
  // output K xLL has fallen below P0 (0.53 s with T1 = 0.25 s), not later.
  simulate(h, 81.05, 0.5, 1e-4, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.0); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(valve)], kModeLow);
  simulate(h, 81.55, 0.1, 1e-4, [](double, ComponentHarness& g) { set_input(g, signal::speed, 0.0); });
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(valve)], kModeFree);
}

TEST(Governors, ParameterMessages) {
  auto t = kTgov1;
  t.pop_back();
  EXPECT_EQ(message_of([&] { make_tgov1(record(102, "TGOV1", "1", t), unit()); }),
            "test.dyr:1: TGOV1 at bus 102 id '1': 6 parameters, expected 7 (R, T1, VMAX, VMIN, T2, T3, Dt) → correct "
            "the record, or substitute or skip the model");
  t = kTgov1;
  t[5] = 0.0;
  EXPECT_EQ(message_of([&] { make_tgov1(record(102, "TGOV1", "1", t), unit()); }),
            "test.dyr:1: TGOV1 at bus 102 id '1': field 6 (T3) = 0 → must be > 0 → correct the record");
  auto g = kGast;
  g[6] = 0.0;
  EXPECT_EQ(message_of([&] { make_gast(record(102, "GAST", "1", g), unit()); }),
            "test.dyr:1: GAST at bus 102 id '1': field 7 (VMAX) = 0 → must be at least VMIN → correct the record");
  auto y = kHygov;
  y[5] = 0.0;
  EXPECT_EQ(message_of([&] { make_hygov(record(102, "HYGOV", "1", y), unit()); }),
            "test.dyr:1: HYGOV at bus 102 id '1': field 6 (VELM) = 0 → must be > 0 → correct the record");
  auto i = kIeeeg1;
  i[0] = 2057;
  EXPECT_EQ(message_of([&] { make_ieeeg1(record(2056, "IEEEG1", "1", i), unit()); }),
            "test.dyr:1: IEEEG1 at bus 2056 id '1': field 1 (JBUS) = 2057 → cross-compound units (a second machine) "
            "are not supported → set JBUS to 0, or substitute or skip the model");
  i = kIeeeg1;
  i[3] = 0.0, i[4] = 0.1;  // T1 = 0 with T2 > 0
  EXPECT_EQ(message_of([&] { make_ieeeg1(record(2056, "IEEEG1", "1", i), unit()); }),
            "test.dyr:1: IEEEG1 at bus 2056 id '1': field 5 (T2) = 0.1 → must be 0 when T1 is 0 (a lead without a "
            "lag has no state form) → correct the record");
}

// Every record of these models in the two large cases builds and rests at a
// typical operating point (0.7 p.u. on MBASE) with exact partials.
TEST(Governors, LargeCaseRecords) {
  const auto dir = psse_data() / "no_reference";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " is missing";
  struct Source {
    const char* file;
    const char* model;
    Factory make;
    std::size_t count;
  };
  const Source sources[] = {
      {"ACTIVSg2000/ACTIVSg2000_dynamics.dyr", "IEEEG1", &make_ieeeg1, 43},
      {"ACTIVSg2000/ACTIVSg2000_dynamics.dyr", "HYGOV", &make_hygov, 25},
      {"WECC240/240busWECC_2018_PSS.dyr", "TGOV1", &make_tgov1, 37},
      {"WECC240/240busWECC_2018_PSS.dyr", "GAST", &make_gast, 47},
      {"WECC240/240busWECC_2018_PSS.dyr", "HYGOV", &make_hygov, 25},
  };
  for (const Source& s : sources) {
    const auto records = dyr_records(dir / s.file, s.model);
    EXPECT_EQ(records.size(), s.count) << s.model;
    for (const DyrRecord& r : records) {
      ComponentHarness h(s.make(r, unit()));
      h.initialize(kV, kS, at(0.7));
      EXPECT_LT(h.largest_derivative(), 1e-12) << r.where();
      EXPECT_LT(h.jacobian_mismatch(), 1e-6) << r.where();
      EXPECT_NEAR(h.signal(signal::pm), 0.7, 1e-12) << r.where();
    }
  }
}

}  // namespace
}  // namespace lsdae::psse::test
