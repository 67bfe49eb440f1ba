// tests/models/psse/core_test.cpp -- the model framework's own pieces
// (models/psse/core): parameters with character fields, the non-windup PI
// limiter, the block helpers and the bus frequency measurement.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "component_harness.h"
#include "psse/core/limiter.h"
#include "psse/core/parameters.h"
#include "psse/core/blocks.h"
#include "psse/core/bus_frequency.h"
#include "psse/core/component.h"

namespace lsdae::psse::test {
namespace {

constexpr ParameterSpec kWithText[] = {
    {"BUS", "", "a bus number"},
    {"CKT", "", "a circuit id", true},
    {"T", "s", "a time constant"},
};

DyrRecord tokens_record(std::vector<std::string> tokens) {
  DyrRecord r = record(5, "TEST", "1", {});
  r.tokens = std::move(tokens);
  r.numeric = false;
  for (const auto& t : r.tokens) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() && *end == '\0') r.values.push_back(v);
  }
  return r;
}

TEST(Parameters, TextFieldsAreReadTokenByToken) {
  // As the .dyr reader keeps REPCA1's quoted circuit id '1 ': a token, not a value.
  const Parameters p(tokens_record({"7", "1 ", "0.5D-1"}), kWithText);
  EXPECT_EQ(p[0], 7.0);
  EXPECT_EQ(p.text(1), "1");
  EXPECT_TRUE(std::isnan(p[1]));
  EXPECT_DOUBLE_EQ(p[2], 0.05);  // a Fortran D exponent
  EXPECT_EQ(p.text(0), "");
  EXPECT_EQ(p.field(1), "field 2 (CKT) = '1'");
}

TEST(Parameters, TextFieldMessages) {
  try {
    Parameters p(tokens_record({"7", "A", "x"}), kWithText);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "test.dyr:1: TEST at bus 5 id '1': field 3 (T) is \"x\", not a number → correct the record");
  }
  try {
    Parameters p(tokens_record({"7", "A"}), kWithText);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(),
                 "test.dyr:1: TEST at bus 5 id '1': 2 parameters, expected 3 (BUS, CKT, T) → correct the record, or "
                 "substitute or skip the model");
  }
}

// A PI block with non-windup limits, alone: y = clamp(Kp u + x, lo, hi),
// dx/dt = Ki u while not held (frame.h, hold_pi).
class PiBlock final : public Equations<PiBlock> {
 public:
  PiBlock() : Equations({"PI", Role::other, InitStage::network_device, 1, "1", ""}) {}
  void declare(Layout& l) override {
    x_ = l.state("x", "integrator");
    y_ = l.algebraic("y", "output");
    u_ = l.input("u", 0.0);
    sum_ = l.limiter("sum", LimiterKind::windup);
    int_ = l.limiter("integrator", LimiterKind::pi_non_windup);
  }
  void initialize(InitContext& in) override {
    in.state(x_, 0.0);
    in.algebraic(y_, 0.0);
  }
  template <class T>
  void equations(Frame<T>& f) const {
    const T v = kp * f.u(u_) + f.x(x_);
    f.res(y_, f.z(y_) - f.clamp(sum_, v, T(lo), T(hi)));
    f.der(x_, f.hold_pi(int_, v, T(ki * f.u(u_)), T(lo), T(hi)));
  }
  static constexpr double kp = 0.5, ki = 1.0, lo = -1.0, hi = 1.0;

 private:
  int x_ = 0, y_ = 0, u_ = 0, sum_ = 0, int_ = 0;
};

// Hand-computed: u = 1 from rest drives x = t and y = 0.5 + t until y = 1 at
// t = 0.5; then the integrator holds at 0.5 (no windup) whatever u's size;
// u = -0.2 releases it at once: x = 0.5 - 0.2 t, y = -0.1 + x.
TEST(Limiters, PiNonWindupHoldsTheIntegratorNotTheState) {
  ComponentHarness h(std::make_unique<PiBlock>());
  h.initialize({1.0, 0.0}, {0.0, 0.0});
  EXPECT_LT(h.largest_derivative(), 1e-15);
  EXPECT_LT(h.jacobian_mismatch(), 1e-9);
  const std::size_t u = h.input("u");
  h.known()[u] = 1.0;
  EXPECT_EQ(h.advance(1e-3, 400), 0);  // t = 0.4: free
  EXPECT_NEAR(h.x("x"), 0.4, 1e-9);
  EXPECT_NEAR(h.z("y"), 0.9, 1e-9);
  EXPECT_EQ(h.advance(1.1e-3, 200), 2);  // sum clamped, integrator held
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("sum"))], kModeHigh);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("integrator"))], kModeHigh);
  EXPECT_NEAR(h.x("x"), 0.5, 1.1e-3);  // within one step of the located engagement
  const double held = h.x("x");
  h.known()[u] = 3.0;  // pushing harder: no windup
  EXPECT_EQ(h.advance(1e-3, 1000), 0);
  EXPECT_EQ(h.x("x"), held);
  EXPECT_EQ(h.z("y"), 1.0);
  h.known()[u] = -0.2;  // reverses: released, the sum leaves the limit at once
  EXPECT_EQ(h.advance(1e-3, 1000), 2);
  EXPECT_NEAR(h.x("x"), held - 0.2, 1e-9);
  EXPECT_NEAR(h.z("y"), -0.1 + h.x("x"), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-9);
}

// The other blocks, alone: a lag with rate limits [-1, 2] p.u./s on input u
// (T = 0.1 s), a dead band [-0.1, 0.2] on u, and the bus frequency.
class Blocks final : public Equations<Blocks> {
 public:
  Blocks() : Equations({"BLOCKS", Role::other, InitStage::network_device, 1, "1", ""}) {}
  void declare(Layout& l) override {
    x_ = l.state("x", "rate-limited lag");
    freq_.declare(l);
    db_ = l.algebraic("db", "dead band output");
    df_ = l.algebraic("df", "bus frequency deviation");
    u_ = l.input("u", 0.0);
    rate_ = l.limiter("rate", LimiterKind::windup);
    band_ = l.limiter("band", LimiterKind::windup);
  }
  void initialize(InitContext& in) override {
    freq_.initialize(in);
    in.state(x_, 0.0);
  }
  template <class T>
  void equations(Frame<T>& f) const {
    f.der(x_, rate_limit(f, rate_, T((f.u(u_) - f.x(x_)) / 0.1), -1.0, 2.0));
    f.res(db_, f.z(db_) - dead_band(f, band_, f.u(u_), -0.1, 0.2));
    freq_.equations(f);
    f.res(df_, f.z(df_) - freq_.deviation(f));
  }

 private:
  BusFrequency freq_{0.02, 2 * 3.141592653589793 * 60.0};
  int x_ = 0, db_ = 0, df_ = 0, u_ = 0, rate_ = 0, band_ = 0;
};

TEST(Blocks, RateLimitDeadBandAndBusFrequency) {
  ComponentHarness h(std::make_unique<Blocks>());
  h.initialize(std::polar(1.02, 0.3), {0.0, 0.0});
  EXPECT_LT(h.largest_derivative(), 1e-15);
  EXPECT_LT(h.jacobian_mismatch(), 1e-8);
  const std::size_t u = h.input("u");
  // u = 1: (u - x)/T = 10 > 2, so x ramps at 2 p.u./s until (1 - x)/0.1 = 2,
  // x = 0.8 at t = 0.4 s; then x = 1 - 0.2 exp(-(t - 0.4)/0.1).
  h.known()[u] = 1.0;
  h.advance(1e-4, 3000);  // t = 0.3
  EXPECT_NEAR(h.x("x"), 0.6, 1e-9);
  EXPECT_NEAR(h.z("db"), 0.8, 1e-12);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("rate"))], kModeHigh);
  h.advance(1e-5, 20000);  // t = 0.5
  EXPECT_NEAR(h.x("x"), 1.0 - 0.2 * std::exp(-1.0), 2e-4);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("rate"))], kModeFree);
  h.known()[u] = 0.05;  // inside the band
  h.advance(1e-4, 1);
  EXPECT_EQ(h.z("db"), 0.0);
  h.known()[u] = -0.5;
  h.advance(1e-4, 1);
  EXPECT_NEAR(h.z("db"), -0.4, 1e-12);
  EXPECT_EQ(h.modes()[static_cast<std::size_t>(h.limiter("rate"))], kModeLow);  // (-0.5 - x)/T < -1
  EXPECT_LT(h.jacobian_mismatch(), 1e-8);
  // The bus rotates at +0.01 p.u. (0.6 Hz above nominal): after 10 Tf the
  // measured deviation is 0.01 to within the lag's transient exp(-10).
  const double omega = 0.01 * 2 * 3.141592653589793 * 60.0, dt = 1e-5;
  const std::size_t vr = static_cast<std::size_t>(h.slot().shape().vr_index());
  for (int k = 1; k <= 20000; ++k) {
    const Complex v = std::polar(1.02, 0.3 + omega * k * dt);
    h.known()[vr] = v.real();
    h.known()[vr + 1] = v.imag();
    h.advance(dt, 1);
  }
  EXPECT_NEAR(h.z("df"), 0.01, 1e-5);
}

}  // namespace
}  // namespace lsdae::psse::test
