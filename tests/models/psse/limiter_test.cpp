// tests/models/psse/limiter_test.cpp -- the limiter rules (core/limiter.h)
// and a model with every kind of limiter through the framework
// (component_harness.h): an exciter-like lag with a non-windup limit on its
// state, a windup limit on its output, a switch; at rest, exact partials in
// each mode, the indicators' signs.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "component_harness.h"
#include "psse/core/limiter.h"
#include "psse/core/signals.h"

namespace lsdae::psse::test {
namespace {

TEST(LimiterRules, WindupIndicatorIsPositiveWhileTheModeHolds) {
  const LimiterRecord inside{0.5, 0.0, 1.0, 0.0, true}, above{1.2, 0.0, 1.0, 0.0, true};
  EXPECT_GT(limiter_indicator(LimiterKind::windup, kModeFree, inside), 0.0);
  EXPECT_LT(limiter_indicator(LimiterKind::windup, kModeFree, above), 0.0);
  EXPECT_EQ(limiter_transition(LimiterKind::windup, kModeFree, above), kModeHigh);
  EXPECT_GT(limiter_indicator(LimiterKind::windup, kModeHigh, above), 0.0);
  EXPECT_LT(limiter_indicator(LimiterKind::windup, kModeHigh, inside), 0.0);
  EXPECT_EQ(limiter_transition(LimiterKind::windup, kModeHigh, inside), kModeFree);
  const LimiterRecord below{-0.1, 0.0, 1.0, 0.0, true};
  EXPECT_EQ(limiter_transition(LimiterKind::windup, kModeFree, below), kModeLow);
}

TEST(LimiterRules, NonWindupReleasesWhenTheRateTurnsBack) {
  LimiterRecord held{1.0, 0.0, 1.0, 0.3, true};  // x at hi, pushed outward
  EXPECT_GT(limiter_indicator(LimiterKind::non_windup, kModeHigh, held), 0.0);
  held.rate = -0.2;  // the input fell: released
  EXPECT_LT(limiter_indicator(LimiterKind::non_windup, kModeHigh, held), 0.0);
  EXPECT_EQ(limiter_transition(LimiterKind::non_windup, kModeHigh, held), kModeFree);
  const LimiterRecord reached{1.0 + 1e-12, 0.0, 1.0, 0.5, true};
  EXPECT_EQ(limiter_transition(LimiterKind::non_windup, kModeFree, reached), kModeHigh);
  EXPECT_DOUBLE_EQ(limiter_held_value(kModeHigh, reached), 1.0);
}

// An unbounded side (kUnbounded, frame.h) never makes an indicator, its
// tangent or the hysteresis test inf or nan, in any kind and mode: every
// importer root-finds on these numbers. With infinity as "no limit" the
// free indicator of a limiter unbounded on both sides was inf, and the
// hysteresis bound inf − margin·inf nan.
TEST(LimiterRules, UnboundedLimitsGiveFiniteIndicators) {
  const LimiterKind kinds[] = {LimiterKind::windup, LimiterKind::select, LimiterKind::non_windup,
                               LimiterKind::pi_non_windup};
  const double bounds[][2] = {{-kUnbounded, kUnbounded}, {-kUnbounded, 1.0}, {-1.0, kUnbounded}};
  for (LimiterKind kind : kinds)
    for (const auto& b : bounds)
      for (double u : {-1e6, -2.0, 0.0, 0.5, 2.0, 1e6})
        for (int mode : {kModeFree, kModeHigh, kModeLow}) {
          const LimiterRecord r{u, b[0], b[1], u - 0.5, true}, t{1.0, 0.0, 0.0, 1.0, true};
          SCOPED_TRACE(std::string(limiter_mode_name(kind, mode)) + " u = " + std::to_string(u) +
                       " lo = " + std::to_string(b[0]) + " hi = " + std::to_string(b[1]));
          EXPECT_TRUE(std::isfinite(limiter_indicator(kind, mode, r)));
          EXPECT_TRUE(std::isfinite(limiter_indicator_tangent(kind, mode, r, t)));
          // An unbounded side is never reached, by value or at a crossing.
          const int by_value = limiter_mode_by_value(kind, mode, r, 1e-8);
          if (b[1] == kUnbounded) {
            EXPECT_TRUE(by_value != kModeHigh || mode == kModeHigh);
          }
          if (b[0] == -kUnbounded) {
            EXPECT_TRUE(by_value != kModeLow || mode == kModeLow);
          }
          if (mode == kModeFree && b[0] == -kUnbounded && b[1] == kUnbounded) {
            EXPECT_GT(limiter_indicator(kind, mode, r), 1e29);
          }
        }
  // The gates of frame.h put kUnbounded on their open side.
  FrameShape shape;
  shape.limiters = 2;
  const double known[2] = {0.0, 0.0};
  double out[2] = {0.0, 0.0};
  const int mode[2] = {kModeFree, kModeFree};
  LimiterRecord record[2];
  Frame<double> f(shape, known, out, nullptr, mode, record, 0.0);
  EXPECT_EQ(f.low_select(0, 0.3, 0.5), 0.3);
  EXPECT_EQ(f.high_select(1, 0.3, 0.1), 0.3);
  EXPECT_EQ(record[0].lo, -kUnbounded);
  EXPECT_EQ(record[1].hi, kUnbounded);
  for (const LimiterRecord& r : record)
    EXPECT_DOUBLE_EQ(limiter_indicator(LimiterKind::select, kModeFree, r), 0.2);  // |a − b|
}

TEST(LimiterRules, ModeByValueHasHysteresis) {
  // Just past the limit by rounding: no change either way.
  EXPECT_EQ(limiter_mode_by_value(LimiterKind::windup, kModeHigh, {1.0 - 1e-12, 0, 1, 0, true}, 1e-8), kModeHigh);
  EXPECT_EQ(limiter_mode_by_value(LimiterKind::windup, kModeFree, {1.0 + 1e-12, 0, 1, 0, true}, 1e-8), kModeFree);
  // A jump across the limit (a fault): the mode follows.
  EXPECT_EQ(limiter_mode_by_value(LimiterKind::windup, kModeFree, {1.5, 0, 1, 0, true}, 1e-8), kModeHigh);
  EXPECT_EQ(limiter_mode_by_value(LimiterKind::windup, kModeHigh, {-0.5, 0, 1, 0, true}, 1e-8), kModeLow);
  EXPECT_EQ(limiter_mode_by_value(LimiterKind::below, kModeFree, {0.05, 0.7, 0, 0, true}, 1e-8), kModeBelow);
  EXPECT_EQ(limiter_mode_by_value(LimiterKind::below, kModeBelow, {0.95, 0.7, 0, 0, true}, 1e-8), kModeFree);
  // Steady state at a non-windup limit (rate 0) stays held.
  EXPECT_EQ(limiter_mode_by_value(LimiterKind::non_windup, kModeHigh, {1.0, 0, 1, 0.0, true}, 1e-8), kModeHigh);
}

TEST(LimiterRules, InitialModeAndOutside) {
  bool outside = false;
  EXPECT_EQ(limiter_initial_mode(LimiterKind::windup, {1.0, 0, 1, 0, true}, 1e-6, outside), kModeFree);
  EXPECT_FALSE(outside);
  EXPECT_EQ(limiter_initial_mode(LimiterKind::windup, {1.3, 0, 1, 0, true}, 1e-6, outside), kModeHigh);
  EXPECT_TRUE(outside);
  EXPECT_EQ(limiter_initial_mode(LimiterKind::non_windup, {1.0, 0, 1, 0, true}, 1e-6, outside), kModeHigh);
  EXPECT_FALSE(outside);  // at its limit: held, legitimately
}

// A lag with a non-windup limit on its state x, a windup limit on its output
// Efd = clamp(x), and a switch on the terminal voltage: every limiter kind.
class LimitedLag final : public Equations<LimitedLag> {
 public:
  LimitedLag() : Equations({"LAGLIM", Role::exciter, InitStage::inner_control, 1, "1", "test"}) {}
  void declare(Layout& l) override {
    x_ = l.state("x", "lag state");
    efd_ = l.algebraic("Efd", "field voltage");
    l.output(signal::efd, Var::z(efd_));
    vref_ = l.parameter("Vref", "voltage reference");
    hold_ = l.limiter("VR", LimiterKind::non_windup, x_);
    clamp_ = l.limiter("EFD", LimiterKind::windup);
    low_ = l.limiter("LV", LimiterKind::below);
  }
  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    in.state(x_, efd);
    in.algebraic(efd_, efd);
    in.parameter(vref_, std::abs(in.voltage()) + efd / k_);
  }
  template <class T>
  void equations(Frame<T>& f) const {
    const T vt = sqrt(f.vr() * f.vr() + f.vi() * f.vi());
    const double gain = f.below(low_, vt, T(0.5)) ? 0.0 : k_;
    const T rate = (gain * (f.p(vref_) - vt) - f.x(x_)) / t_;
    f.der(x_, f.hold(hold_, f.x(x_), rate, T(-2.0), T(3.0)));
    f.res(efd_, f.z(efd_) - f.clamp(clamp_, f.x(x_), T(-1.5), T(2.5)));
  }

 private:
  double k_ = 50.0, t_ = 0.1;
  int x_ = 0, efd_ = 0, vref_ = 0, hold_ = 0, clamp_ = 0, low_ = 0;
};

TEST(LimitedLag, AtRestThenEachMode) {
  ComponentHarness h(std::make_unique<LimitedLag>());
  h.initialize({1.0, 0.1}, {}, {{signal::efd, 2.0}});
  EXPECT_LT(h.largest_derivative(), 1e-12);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  for (int m : h.modes()) EXPECT_EQ(m, kModeFree);
  auto records = h.limiter_records();
  EXPECT_GT(limiter_indicator(LimiterKind::non_windup, kModeFree, records[0]), 0.0);
  EXPECT_GT(limiter_indicator(LimiterKind::windup, kModeFree, records[1]), 0.0);
  EXPECT_GT(limiter_indicator(LimiterKind::below, kModeFree, records[2]), 0.0);
  // The state above the output limit: the windup indicator has crossed zero.
  h.known()[0] = 2.8;
  records = h.limiter_records();
  EXPECT_LT(limiter_indicator(LimiterKind::windup, kModeFree, records[1]), 0.0);
  h.modes()[1] = limiter_transition(LimiterKind::windup, kModeFree, records[1]);
  EXPECT_EQ(h.modes()[1], kModeHigh);
  EXPECT_DOUBLE_EQ(h.outputs()[1], h.known()[1] - 2.5);  // Efd held at 2.5
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
  // The state held at its upper limit: no derivative while pushed outward.
  h.known()[0] = 3.0;
  h.modes()[0] = kModeHigh;
  h.known()[2] = 0.5;  // a low voltage would push x up: the voltage collapses
  EXPECT_DOUBLE_EQ(h.outputs()[0], 0.0);
  EXPECT_LT(h.jacobian_mismatch(), 1e-6);
}

}  // namespace
}  // namespace lsdae::psse::test
