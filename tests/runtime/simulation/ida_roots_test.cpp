// tests/runtime/simulation/ida_roots_test.cpp -- a non-finite event indicator
// ends the run with a message instead of hanging IDA's root finding
// (ida_roots.cpp: IDARootfind's Illinois rule turns an infinite indicator
// into a NaN trial time and then loops for ever, asking g at t = NaN; found on
// ACTIVSg2000 with every PSS/E model).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "lsdae/error.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/indicator_domains.h"
#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae {
namespace {

// y' = -y, one unknown.
class Decay : public kernels::ResidualFunction {
 public:
  std::size_t size() const override { return 1; }
  kernels::EvalStatus residual(double, std::span<const double> y, std::span<const double> yp,
                               std::span<double> r) override {
    r[0] = yp[0] + y[0];
    return kernels::EvalStatus::ok;
  }
};

simulation::IntegratorOptions decay_options() {
  simulation::IntegratorOptions o;
  o.atol.assign(1, 1e-8);
  o.id = {1};
  return o;
}

// IDA on y' = -y from y(0) = 1 to a stop at t = 1, with the event
// indicators the test installs before start().
struct DecayRun {
  Decay model;
  const structure::Pattern pattern = structure::Pattern::from_rows(1, {{0}});
  const structure::Coloring coloring = structure::color_columns_best(pattern);
  simulation::IdaIntegrator ida{model, {&model}, pattern, coloring, decay_options()};

  void start() {
    const std::vector<double> y0{1.0}, yp0{-1.0};
    ida.start(0.0, y0, yp0);
    ida.set_stop_time(1.0);
  }
};

// Two indicators: one falls through 0 at t = 0.5 (a true root, so that IDA's
// root finding runs); the other turns from +inf to -inf at t = 0.3.
std::string run_with_indicator(double jump_value) {
  DecayRun run;
  simulation::IdaIntegrator& ida = run.ida;
  ida.set_root_function(2, [jump_value](double t, std::span<const double>, std::span<const double>,
                                        std::span<double> g) {
    g[0] = 0.5 - t;
    g[1] = t < 0.3 ? std::numeric_limits<double>::infinity() : jump_value;
    return 0;
  });
  run.start();
  try {
    for (int k = 0; k < 100000; ++k)
      if (ida.one_step(1.0) == simulation::StepOutcome::stop_time) return "reached the stop time";
    return "no end after 100000 steps";
  } catch (const Error& e) {
    return std::string(to_string(e.kind())) + ": " + e.what();
  }
}

TEST(IdaRoots, AnInfiniteIndicatorEndsTheRunWithAMessage) {
  const std::string seen = run_with_indicator(-std::numeric_limits<double>::infinity());
  EXPECT_NE(seen.find("must be finite"), std::string::npos) << seen;
  EXPECT_NE(seen.find("indicator 1 of 2 is inf"), std::string::npos) << seen;
}

TEST(IdaRoots, ANanIndicatorEndsTheRunWithAMessage) {
  const std::string seen = run_with_indicator(std::numeric_limits<double>::quiet_NaN());
  EXPECT_NE(seen.find("must be finite"), std::string::npos) << seen;
}

// An indicator a few ulps above 0 at the start (parked in its domain z > 0:
// IDA sees +tiny, indicator_domains.h), exactly 0 from t = 0.5 (a limiter at
// its hysteresis point: FMI's domain z <= 0, but inside the parking band, so
// still +tiny for IDA) and -1 from t = 0.7 (out of the band: the parking ends
// there). IDARootfind brackets the root between IDA's last step end (+tiny)
// and t > 0.7 (-1), and evaluates inside: now at exact 0, no longer parked,
// so -tiny. It tells the side of its trial time by glo * g(tmid) < 0; with
// DBL_MIN for tiny that product underflowed to -0, the change went unseen,
// the bracket was lost, and IDA returned a "root" with no indicator flagged
// at the end of its bracket, past 0.7 (on ACTIVSg2000 with every PSS/E model
// its Illinois weight then doubled until the trial time left the step:
// t = -inf). With 2^-500 the products are normal numbers: the root is found,
// flagged, at the change IDA sees, inside [0.5, 0.7].
TEST(IdaRoots, AnExactZeroAgainstAnIndicatorAFewUlpsAboveIsAChangeOfDomainIdaSees) {
  DecayRun run;
  simulation::IdaIntegrator& ida = run.ida;
  simulation::IndicatorDomains domains;
  ida.set_root_function(1, [&domains](double t, std::span<const double>, std::span<const double>,
                                      std::span<double> g) {
    g[0] = t < 0.5 ? 1.1e-16 : (t < 0.7 ? 0.0 : -1.0);
    domains.map(t, g);
    return 0;
  });
  domains.arm(0.0);
  run.start();
  simulation::StepOutcome out = simulation::StepOutcome::step;
  for (int k = 0; k < 10000 && out == simulation::StepOutcome::step; ++k) out = ida.one_step(1.0);
  ASSERT_EQ(out, simulation::StepOutcome::root);
  EXPECT_EQ(ida.roots_found(), (std::vector<int>{-1}));
  EXPECT_GE(ida.time(), 0.5);
  EXPECT_LE(ida.time(), 0.7);
}

}  // namespace
}  // namespace lsdae
