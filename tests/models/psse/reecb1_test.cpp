// tests/models/psse/reecb1_test.cpp -- REECB1 alone (component_harness.h),
// initialized from the commands its converter (REGCA1) needs at WECC240's
// wind plant 1034 'W': at rest for every flag combination, exact partials,
// and each path's response to a step against the hand-computed one (the Q
// reference lag, the power order lag, ramp and limit, the current limit with
// Q and with P priority, the voltage dip freezing the regulators while the
// injection acts, the two regulators of QFLAG = 1), and its messages.
#include <gtest/gtest.h>

#include <cmath>

#include "component_harness.h"
#include "psse/core/signals.h"
#include "psse/renewables/reecb1.h"
#include "psse/renewables/regca1.h"
#include "renewable_data.h"

namespace lsdae::psse::test {
namespace {

const double kV0 = std::abs(kV1034), kP0 = kS1034.real() / kRatio1034, kQ0 = kS1034.imag() / kRatio1034;

// The signals of the unit once its converter has initialized (ipcmd,
// iqcmd, pe, qe), as the framework hands them to the electrical control.
std::map<std::string, double> converter_signals() {
  ComponentHarness g(make_regca1(record(1034, "REGCA1", "W", kRegca1Wecc240), unit_1034()), {signal::pe, signal::qe});
  g.initialize(kV1034, kS1034);
  return g.signals();
}

ComponentHarness control(std::vector<double> values = kReecb1Wecc240) {
  ComponentHarness h(make_reecb1(record(1034, "REECB1", "W", std::move(values)), unit_1034()));
  h.initialize(kV1034, kS1034, converter_signals());
  return h;
}

std::vector<double> with(std::vector<std::pair<std::size_t, double>> changes) {
  std::vector<double> v = kReecb1Wecc240;
  for (auto [field, value] : changes) v[field - 1] = value;  // 1-based, as the .dyr fields
  return v;
}

void check_rest(ComponentHarness& h) {
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
  EXPECT_NEAR(h.z("Ipcmd"), kP0 / kV0, 1e-14);  // delivers what the converter needs
  EXPECT_NEAR(h.z("Iqcmd"), kQ0 / kV0, 1e-14);
}

TEST(Reecb1, AtRestForEveryFlagCombination) {
  ComponentHarness h = control();  // WECC240: PFFLAG 0, VFLAG 1, QFLAG 0, PQFLAG 0
  check_rest(h);
  EXPECT_NEAR(h.signal(signal::pref), kP0, 1e-14);
  EXPECT_NEAR(h.signal(signal::qext), kQ0, 1e-14);
  for (double pf : {0.0, 1.0})
    for (double vflag : {0.0, 1.0})
      for (double qflag : {0.0, 1.0})
        for (double pq : {0.0, 1.0}) {
          // with the injection on (Kqv = 2, dead band ±0.01) and both filters
          ComponentHarness c = control(with({{2, pf}, {3, vflag}, {4, qflag}, {5, pq}, {9, -0.01}, {10, 0.01},
                                             {11, 2.0}, {15, 0.05}, {20, 0.5}}));
          SCOPED_TRACE(testing::Message() << "PFFLAG " << pf << " VFLAG " << vflag << " QFLAG " << qflag
                                          << " PQFLAG " << pq);
          check_rest(c);
          if (pf == 1.0) {  // the power factor of the Q reference (a voltage where QFLAG 1, VFLAG 0)
            EXPECT_NEAR(std::tan(c.parameters()[0]), (qflag == 1.0 && vflag == 0.0 ? kV0 : kQ0) / kP0, 1e-12);
          }
          if (qflag == 1.0 && vflag == 0.0 && pf == 0.0) {
            EXPECT_NEAR(c.signal(signal::qext), kV0, 1e-14);  // a voltage reference
          }
        }
}

// QFLAG = 0: Qext + 0.1 moves Iqcmd along Tiq = 0.02 s to (Q0 + 0.1)/V;
// Pref + 0.05 moves Pord along Tpord = 0.02 s (2.5 p.u./s < dPmax).
TEST(Reecb1, ReferenceLags) {
  ComponentHarness h = control();
  h.known()[h.input(signal::qext)] = kQ0 + 0.1;
  h.known()[h.input(signal::pref)] = kP0 + 0.05;
  h.advance(1e-5, 2000);  // 20 ms = one time constant
  const double e = std::exp(-1.0);
  EXPECT_NEAR(h.z("Iqcmd"), (kQ0 + 0.1 * (1 - e)) / kV0, 1e-5);
  EXPECT_NEAR(h.x("Pord"), kP0 + 0.05 * (1 - e), 1e-5);
  EXPECT_NEAR(h.z("Ipcmd"), h.x("Pord") / kV0, 1e-14);
  EXPECT_LT(h.jacobian_mismatch(), 1e-7);
}

// dPmax = 0.5 p.u./s: Pref + 0.05 ramps Pord at 0.5 p.u./s (the lag would ask
// 2.5) until Pref − Pord = dPmax Tpord = 0.01; Pref = 1.5 stops it at Pmax = 1.
TEST(Reecb1, PowerOrderRampAndLimit) {
  ComponentHarness h = control(with({{25, 0.5}}));
  h.known()[h.input(signal::pref)] = kP0 + 0.05;
  h.advance(1e-4, 500);  // 50 ms at 0.5 p.u./s
  EXPECT_NEAR(h.x("Pord"), kP0 + 0.025, 1e-9);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("dP"))], kModeHigh);
  h.known()[h.input(signal::pref)] = 1.5;
  h.advance(1e-3, 1000);
  EXPECT_EQ(h.x("Pord"), 1.0);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Plim"))], kModeHigh);
  h.known()[h.input(signal::pref)] = 0.9;  // the rate turns back: released at once, the lag runs
  h.advance(1e-4, 100);                     // (−5 p.u./s, inside dPmin = −99)
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Plim"))], kModeFree);
  EXPECT_NEAR(h.x("Pord"), 0.9 + 0.1 * std::exp(-0.5), 1e-4);
}

// Qmax = 2 and Qext = 1: Iq → 1/V. Q priority keeps Iqcmd and cuts Ipcmd to
// √(Imax² − Iqcmd²); P priority keeps Ipcmd = P0/V and cuts Iqcmd.
TEST(Reecb1, CurrentLimitWithQAndWithPPriority) {
  for (double pq : {0.0, 1.0}) {
    ComponentHarness h = control(with({{5, pq}, {16, 2.0}}));
    h.known()[h.input(signal::qext)] = 1.0;
    h.advance(1e-3, 1000);
    const double imax = 1.11, iq = 1.0 / kV0, ip = kP0 / kV0;
    if (pq == 0.0) {
      EXPECT_NEAR(h.z("Iqcmd"), iq, 1e-10);
      EXPECT_NEAR(h.z("Ipcmd"), std::sqrt(imax * imax - iq * iq), 1e-10);
      EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Ipcmd"))], kModeHigh);
    } else {
      EXPECT_NEAR(h.z("Ipcmd"), ip, 1e-10);
      EXPECT_NEAR(h.z("Iqcmd"), std::sqrt(imax * imax - ip * ip), 1e-10);
      EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Iqcmd"))], kModeHigh);
    }
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
}

// Vdip = 0.9, Kqv = 2, dead band ±0.05: at V = 0.5 the regulators freeze
// (steps of Pref and Qext do nothing) and, once Vf = 0.5, Iqinj =
// 2 (V0 − 0.5 − 0.05) is added; Q priority then cuts Ipcmd. Back above
// Vdip the frozen states resume.
TEST(Reecb1, VoltageDipFreezesAndInjects) {
  ComponentHarness h = control(with({{6, 0.9}, {9, -0.05}, {10, 0.05}, {11, 2.0}}));
  check_rest(h);
  const double iq0 = h.x("Iq"), pord0 = h.x("Pord");
  const auto vr = static_cast<std::size_t>(h.slot().shape().vr_index());
  h.known()[vr] = 0.5;
  h.known()[vr + 1] = 0.0;
  h.known()[h.input(signal::pref)] = 0.2;
  h.known()[h.input(signal::qext)] = -0.3;
  h.advance(1e-3, 500);  // 25 Trv
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Vdip"))], kModeBelow);
  EXPECT_EQ(h.x("Iq"), iq0);
  EXPECT_EQ(h.x("Pord"), pord0);
  const double iqinj = 2.0 * (kV0 - 0.5 - 0.05), iqcmd = iq0 + iqinj;
  EXPECT_NEAR(h.z("Iqcmd"), iqcmd, 1e-9);
  EXPECT_NEAR(h.z("Ipcmd"), std::sqrt(1.11 * 1.11 - iqcmd * iqcmd), 1e-9);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  h.known()[vr] = kV1034.real();
  h.known()[vr + 1] = kV1034.imag();
  h.advance(1e-3, 500);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Vdip"))], kModeFree);
  EXPECT_NEAR(h.x("Pord"), 0.2, 1e-9);
  EXPECT_NEAR(h.x("Iq"), -0.3 / kV0, 1e-9);
}

// QFLAG = 1, VFLAG = 1 (PSD's RENA Q_FLAG flags), Kqp = 0, Kqi = 0.01,
// Kvp = 10, Kvi = 60, Qe held: Qext + 0.3 makes xQ = V0 + 0.003 t, and the
// V regulator's input 0.003 t gives Iqc = Iq0 + 0.03 t + 0.09 t². xQ stops at
// Vmax = 1.05 at t = (1.05 − V0)/0.003 (non-windup); Iqcmd stops at Imax.
TEST(Reecb1, QAndVRegulators) {
  ComponentHarness h = control(with({{4, 1.0}}));
  check_rest(h);
  const double iq0 = h.z("Iqcmd");
  h.known()[h.input(signal::qext)] = kQ0 + 0.3;
  h.advance(1e-4, 5000);  // 0.5 s
  EXPECT_NEAR(h.x("xQ"), kV0 + 0.0015, 1e-9);
  EXPECT_NEAR(h.z("Iqcmd"), iq0 + 0.03 * 0.5 + 0.09 * 0.25, 2e-5);
  h.advance(1e-3, 6000);  // t = 6.5 s
  EXPECT_NEAR(h.x("xQ"), 1.05, 1e-3);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Qpi_int"))], kModeHigh);
  EXPECT_NEAR(h.z("Iqcmd"), 1.11, 1e-9);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("Vpi_int"))], kModeHigh);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
}

// PFFLAG = 1: the power factor is held: a Pe step moves Qsel = Pf Q0/P0 (Tp).
TEST(Reecb1, PowerFactorControl) {
  ComponentHarness h = control(with({{2, 1.0}, {15, 0.05}}));
  h.known()[h.input(signal::pe)] = 0.5;
  h.advance(1e-3, 1000);
  EXPECT_NEAR(h.z("Iqcmd"), 0.5 * kQ0 / kP0 / kV0, 1e-9);
}

TEST(Reecb1, ParameterMessages) {
  try {
    make_reecb1(record(1034, "REECB1", "W", with({{1, 1032}})), unit_1034());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(),
                 "test.dyr:1: REECB1 at bus 1034 id 'W': field 1 (REMOTE) = 1032 → names a remote bus; lsdae's "
                 "REECB1 controls its own terminal voltage only (set it to 0) → correct the record");
  }
  EXPECT_NO_THROW(make_reecb1(record(1034, "REECB1", "W", with({{1, 1034}})), unit_1034()));
  EXPECT_THROW(make_reecb1(record(1034, "REECB1", "W", with({{4, 2}})), unit_1034()), ModelError);
  try {
    make_reecb1(record(1034, "REECB1", "W", with({{24, 0.0}})), unit_1034());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(),
                 "test.dyr:1: REECB1 at bus 1034 id 'W': field 24 (Tiq) = 0 → must be > 0 → correct the record");
  }
  EXPECT_NO_THROW(make_reecb1(record(1034, "REECB1", "W", with({{4, 1.0}, {24, 0.0}})), unit_1034()));
  ComponentHarness h(make_reecb1(record(1034, "REECB1", "W", kReecb1Wecc240), unit_1034()));
  try {
    h.initialize(kV1034, kS1034);  // no converter: nobody set the commands
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("ipcmd"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lsdae::psse::test
