// tests/models/psse/machine_test.cpp -- the machine models alone
// (component_harness.h): at rest at the power-flow point, exact partials,
// the initial rotor angles PSS/E computed, and the parameter messages.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

#include "component_harness.h"
#include "psse/core/signals.h"
#include "psse/machines/genrou.h"
#include "psse/machines/gensal.h"

namespace lsdae::psse::test {
namespace {

constexpr double kDeg = std::numbers::pi / 180.0;

// ThreeBusMulti.raw solved: bus 102 at 1.02 p.u., -0.94395179°, the machine
// injecting 100 MW and -3.2468 Mvar (SBASE = MBASE = 100 MVA).
const Complex kV102 = std::polar(1.02, -0.94395179 * kDeg);
const Complex kS102(1.0, -0.03246834);

std::vector<double> genrou_values(double s10, double s12) {
  return {8.0, 0.03, 0.4, 0.05, 6.175, 0.05, 1.8, 1.7, 0.3, 0.55, 0.25, 0.2, s10, s12};
}

UnitData three_bus_unit() {
  UnitData u;
  u.mbase = 100.0;
  u.zsource = {0.0, 0.25};
  return u;
}

// The initial rotor angles in PSS/E's own trajectories (first row of
// TEST_GENROU*.csv, degrees to 6 digits) follow from PSS/E's saturation
// function; machine_frame.h says which.
TEST(Genrou, InitialAngleMatchesPsse) {
  struct Case {
    double s10, s12, delta_deg;
  };
  for (const Case c : {Case{0.1, 0.8, 55.0949}, Case{0.0, 1.0, 58.9624}, Case{0.5, 1.3, 48.0636}}) {
    ComponentHarness h(make_genrou(record(102, "GENROU", "1", genrou_values(c.s10, c.s12)), three_bus_unit()));
    h.initialize(kV102, kS102);
    EXPECT_NEAR(h.known()[static_cast<std::size_t>(h.state("delta"))] / kDeg, c.delta_deg, 6e-5) << c.s10;
    EXPECT_NEAR(h.signal(signal::pm), 1.0, 1e-12);  // lossless stator: Pm = P
    EXPECT_LT(h.largest_derivative(), 1e-12);
    EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  }
}

TEST(Genrou, OutputsAndMachineBase) {
  UnitData u = three_bus_unit();
  u.mbase = 250.0;  // the same machine on another base: its power is 0.4 p.u. on MBASE
  u.zsource = {0.003, 0.25};
  ComponentHarness h(make_genrou(record(102, "GENROU", "1", genrou_values(0.1, 0.8)), u),
                     {signal::pe, signal::ifd, signal::itr});
  h.initialize(kV102, kS102);
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  const double pe = h.known()[static_cast<std::size_t>(h.slot().shape().states + h.algebraic("Pe"))];
  EXPECT_NEAR(pe, 0.4, 1e-12);
  EXPECT_NEAR(h.signal(signal::ifd), h.signal(signal::efd), 1e-12);  // steady state: LadIfd = Efd
  const auto out = h.outputs();
  const auto inj = static_cast<std::size_t>(h.slot().shape().states + h.slot().shape().algebraics);
  const Complex s = kV102 * std::conj(Complex(out[inj], out[inj + 1]));
  EXPECT_NEAR(std::abs(s - kS102), 0.0, 1e-12);  // injects the power-flow power, on the system base
  EXPECT_GT(h.signal(signal::pm), 0.4);           // plus the stator loss
  const Complex it(h.signal(signal::itr), h.signal(signal::iti));  // MBASE
  EXPECT_NEAR(std::abs(it * (250.0 / 100.0) - std::conj(kS102 / kV102)), 0.0, 1e-12);
}

// GENSAL (ThreeBus_GENSAL.dyr) publishes the terminal current when an exciter reads it.
TEST(Gensal, TerminalCurrentOutput) {
  UnitData u = three_bus_unit();
  ComponentHarness h(make_gensal(record(102, "GENSAL", "1", {5.0, 0.05, 0.2, 5.0, 0.0, 1.0, 0.75, 0.4, 0.25, 0.1, 0.11, 0.62}), u),
                     {signal::itr, signal::ifd});
  h.initialize(kV102, kS102);
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  const Complex it(h.signal(signal::itr), h.signal(signal::iti));
  EXPECT_NEAR(std::abs(it - std::conj(kS102 / kV102)), 0.0, 1e-12);
}

TEST(Genrou, ParameterMessages) {
  auto values = genrou_values(0.1, 0.8);
  values.pop_back();
  try {
    make_genrou(record(102, "GENROU", "1", values), three_bus_unit());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(),
                 "test.dyr:1: GENROU at bus 102 id '1': 13 parameters, expected 14 (T'do, T''do, T'qo, T''qo, H, D, "
                 "Xd, Xq, X'd, X'q, X''d, Xl, S(1.0), S(1.2)) → correct the record, or substitute or skip the model");
  }
  values = genrou_values(0.1, 0.8);
  values[4] = -1.0;
  try {
    make_genrou(record(102, "GENROU", "1", values), three_bus_unit());
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "test.dyr:1: GENROU at bus 102 id '1': field 5 (H) = -1 → must be > 0 → correct the record");
  }
  values = genrou_values(0.5, 0.3);  // 1.2 S(1.2) < S(1.0): no quadratic through both
  EXPECT_THROW(make_genrou(record(102, "GENROU", "1", values), three_bus_unit()), ModelError);
}

}  // namespace
}  // namespace lsdae::psse::test
