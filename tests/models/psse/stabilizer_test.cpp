// tests/models/psse/stabilizer_test.cpp -- IEEEST alone (component_harness.h):
// at rest for each input signal, exact partials, the frequency response of
// the linearized model against the transfer function the Model Library
// writes (filter, lead-lags, washout), the output limit and the voltage
// switch, the messages, and the IEEEST records of ACTIVSg2000 and WECC240.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "component_harness.h"
#include "control_test_tools.h"
#include "psse/core/frame.h"
#include "psse/core/signals.h"
#include "psse/stabilizers/ieeest.h"

namespace lsdae::psse::test {
namespace {

using Cx = std::complex<double>;

const Complex kV(1.02, -0.0168);
const Complex kS(0.8, 0.1);

// The ladder's two records (ThreeBus_IEEEST.dyr, ThreeBus_IEEEST_with_filter.dyr), also
// ACTIVSg2000's: M IB A1 A2 A3 A4 A5 A6 T1 T2 T3 T4 T5 T6 KS LSMAX LSMIN VCU VCL.
const std::vector<double> kNoFilter = {1, 0, 0, 0, 0, 0, 0, 0.0, 0, 0, 0, 0.02, 1.65, 1.65, 100, 0.1, -0.1, 0, 0};
const std::vector<double> kFilter = {1, 0, 1.013, 0.013, 0, 0, 1.013, 0.113, 0, 0.02, 0, 0, 1.65, 1.65, 3, 0.1, -0.1, 0, 0};

std::map<std::string, double> signals() { return {{signal::speed, 0.0}, {signal::pe, 0.8}, {signal::pm, 0.81}}; }

ComponentHarness make(const std::vector<double>& values) {
  ComponentHarness h(make_ieeest(record(102, "IEEEST", "1", values), UnitData{}));
  h.initialize(kV, kS, signals());
  return h;
}

// The transfer function as the Model Library writes it.
Cx expected(const std::vector<double>& p, double omega) {
  const Cx s(0.0, omega);
  const Cx filter = (1.0 + p[6] * s + p[7] * s * s) / ((1.0 + p[2] * s + p[3] * s * s) * (1.0 + p[4] * s + p[5] * s * s));
  const Cx ll = (1.0 + p[8] * s) / (1.0 + p[9] * s) * (1.0 + p[10] * s) / (1.0 + p[11] * s);
  return filter * ll * p[14] * s * p[12] / (1.0 + s * p[13]);
}

TEST(Ieeest, RestForEveryInput) {
  for (double m : {1.0, 3.0, 4.0, 5.0}) {
    for (const auto& base : {kNoFilter, kFilter}) {
      auto values = base;
      values[0] = m;
      ComponentHarness h = make(values);
      EXPECT_LT(h.largest_derivative(), 1e-12) << m;
      EXPECT_LT(h.jacobian_mismatch(), 1e-6) << m;
      EXPECT_EQ(h.signal(signal::vs), 0.0) << m;
      for (int mode : h.modes()) EXPECT_EQ(mode, kModeFree);
    }
  }
}

TEST(Ieeest, FrequencyResponseIsTheModelLibrarysTransferFunction) {
  std::vector<double> full = {1, 0, 0.4, 0.02, 0.1, 0.003, 0.3, 0.01, 0.25, 0.05, 0.15, 0.04, 2.0, 1.5, 7, 0.1, -0.1, 0, 0};
  for (const auto& values : {kNoFilter, kFilter, full}) {
    ComponentHarness h = make(values);
    for (double omega : {0.3, 2.0, 9.0, 40.0}) {
      const Cx got = frequency_response(h, signal::speed, "Vs", omega), want = expected(values, omega);
      EXPECT_LT(std::abs(got - want), 1e-9 * std::max(1.0, std::abs(want))) << omega << " " << got << " " << want;
    }
  }
}

TEST(Ieeest, OutputLimitIsOnTheOutput) {
  ComponentHarness h = make(kNoFilter);
  set_input(h, signal::speed, 0.01);  // KS 0.01 = 1 ≫ LSMAX once the lag has passed it
  simulate(h, 0.0, 0.2, 1e-4);
  const std::size_t limit = static_cast<std::size_t>(limiter_index(h, "VSS"));
  EXPECT_EQ(h.modes()[limit], kModeHigh);
  EXPECT_DOUBLE_EQ(algebraic_value(h, "Vs"), 0.1);
  // Windup limit: the washout runs on behind it and brings the output back by itself.
  simulate(h, 0.2, 8.0, 1e-3);
  EXPECT_EQ(h.modes()[limit], kModeFree);
  EXPECT_LT(std::fabs(algebraic_value(h, "Vs")), 0.1);
}

TEST(Ieeest, VoltageSwitch) {
  auto values = kNoFilter;
  values[17] = 1.1, values[18] = 0.9;  // VCU, VCL
  ComponentHarness h = make(values);
  set_input(h, signal::speed, 0.0005);
  simulate(h, 0.0, 0.1, 1e-4);
  const double on = algebraic_value(h, "Vs");
  EXPECT_GT(on, 0.0);
  const std::size_t vr = static_cast<std::size_t>(h.slot().shape().vr_index());
  h.known()[vr] = 1.15;  // above VCU
  settle(h);
  EXPECT_EQ(algebraic_value(h, "Vs"), 0.0);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  h.known()[vr] = 0.85;  // below VCL
  settle(h);
  EXPECT_EQ(algebraic_value(h, "Vs"), 0.0);
  h.known()[vr] = 1.0;
  settle(h);
  EXPECT_NEAR(algebraic_value(h, "Vs"), on, 1e-15);
}

std::string message_of(const std::vector<double>& values) {
  try {
    make_ieeest(record(102, "IEEEST", "1", values), UnitData{});
  } catch (const ModelError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Ieeest, ParameterMessages) {
  auto v = kFilter;
  v[0] = 2;
  EXPECT_EQ(message_of(v), "test.dyr:1: IEEEST at bus 102 id '1': field 1 (M) = 2 → input signals 1 (speed), 3 "
                           "(electrical power), 4 (accelerating power) and 5 (bus voltage) are supported; 2 (bus "
                           "frequency) and 6 (voltage derivative) are not → choose a supported input, or substitute "
                           "or skip the model");
  v = kFilter;
  v[1] = 205;
  EXPECT_EQ(message_of(v), "test.dyr:1: IEEEST at bus 102 id '1': field 2 (IB) = 205 → a remote input bus is not "
                           "supported → set IB to 0, or substitute or skip the model");
  v = kNoFilter;
  v[7] = 0.1;  // A6 without A2 or A4: improper
  EXPECT_EQ(message_of(v), "test.dyr:1: IEEEST at bus 102 id '1': field 8 (A6) = 0.1 → makes the filter improper (its "
                           "numerator of higher order than its denominator) → correct the record");
  v = kNoFilter;
  v[13] = 0;  // T6 = 0 with T5 > 0
  EXPECT_EQ(message_of(v), "test.dyr:1: IEEEST at bus 102 id '1': field 13 (T5) = 1.65 → must be 0 when T6 is 0 (a "
                           "washout without a lag) → correct the record");
}

TEST(Ieeest, LargeCaseRecords) {
  const auto dir = psse_data() / "no_reference";
  if (!std::filesystem::exists(dir)) GTEST_SKIP() << dir << " is missing";
  const std::pair<const char*, std::size_t> files[] = {{"ACTIVSg2000/ACTIVSg2000_dynamics.dyr", 434},
                                                       {"WECC240/240busWECC_2018_PSS.dyr", 10}};
  for (const auto& [file, count] : files) {
    const auto records = dyr_records(dir / file, "IEEEST");
    EXPECT_EQ(records.size(), count) << file;
    for (const DyrRecord& r : records) {
      ComponentHarness h(make_ieeest(r, UnitData{}));
      h.initialize(kV, kS, signals());
      EXPECT_LT(h.largest_derivative(), 1e-12) << r.where();
      EXPECT_LT(h.jacobian_mismatch(), 1e-6) << r.where();
    }
  }
}

}  // namespace
}  // namespace lsdae::psse::test
