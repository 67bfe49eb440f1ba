// tests/runtime/sweep/sweep_metrics_test.cpp -- the metric functions of
// runtime/sweep/metrics.h a grid engineer asks for: the centre of inertia
// (a mean weighted by a second glob: maxdev(gen[*].delta, gen[*].H)) and the
// voltage magnitude (hypot(bus[*].Vr, bus[*].Vi)), their pairing of names,
// and the refusals. The CLI test (sweep_cli_test.cpp) checks them against a
// hand computation over a result file.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/sweep.h"
#include "sweep/metrics.h"

namespace lsdae::sweep {
namespace {

TEST(SweepSelector, WeightedMeanIsTheCentreOfInertia) {
  // Angles 0.1, 0.5, −0.3 with inertias 2, 6, 1 (channels 3, 4, 5).
  const std::vector<double> v{0.1, 0.5, -0.3, 2.0, 6.0, 1.0};
  Selector s;
  s.channels = {0, 1, 2};
  s.weights = {3, 4, 5};
  s.aggregate = Selector::Aggregate::mean;
  const double coi = (2.0 * 0.1 + 6.0 * 0.5 + 1.0 * -0.3) / (2.0 + 6.0 + 1.0);
  EXPECT_EQ(s.value(v), coi);
  s.aggregate = Selector::Aggregate::maxdev;
  EXPECT_EQ(s.value(v), std::fabs(-0.3 - coi));  // the lightest machine is farthest from the heavy one
  s.weights.clear();                             // unweighted: |0.5 − 0.1| = 0.4
  EXPECT_NEAR(s.value(v), 0.4, 1e-15);
  // Weights that do not sum to a positive number, or NaN: no centre.
  s.weights = {3, 4, 5};
  EXPECT_TRUE(std::isnan(s.value({0.1, 0.5, -0.3, 0.0, 0.0, 0.0})));
  EXPECT_TRUE(std::isnan(s.value({0.1, 0.5, -0.3, 1.0, std::nan(""), 1.0})));
}

TEST(SweepSelector, HypotIsTheMagnitudeOfEachPair) {
  // Two buses: V = 0.6 + 0.8j (|V| = 1) and 0.3 − 0.4j (|V| = 0.5).
  const std::vector<double> v{0.6, 0.3, 0.8, -0.4};
  Selector s;
  s.channels = {0, 1};
  s.partners = {2, 3};
  s.aggregate = Selector::Aggregate::min;
  EXPECT_EQ(s.value(v), std::hypot(0.3, -0.4));
  s.aggregate = Selector::Aggregate::max;
  EXPECT_EQ(s.value(v), std::hypot(0.6, 0.8));
  s.aggregate = Selector::Aggregate::single;
  EXPECT_EQ(s.value(v), std::hypot(0.6, 0.8));
  // hypot(inf, NaN) is inf in C; a NaN part is a NaN sample here.
  EXPECT_TRUE(std::isnan(s.value({HUGE_VAL, 0.3, std::nan(""), -0.4})));
}

// A stop condition on a metric's selector takes that metric's value at each
// sample (the screening settings: maxdev of the rotor angles as metric and as
// stop); one on a selector of its own, or on the same elements with another
// aggregate, evaluates its own.
TEST(SweepMetrics, StopConditionOnAMetricsSelectorStopsAtTheSameSample) {
  Selector angles;  // channels 0, 1 weighted by 2, 3
  angles.channels = {0, 1};
  angles.weights = {2, 3};
  angles.aggregate = Selector::Aggregate::maxdev;
  Selector largest = angles;
  largest.weights.clear();
  largest.aggregate = Selector::Aggregate::max;
  CompiledChecks checks;
  checks.metrics = {{Metric::Stat::max, largest, "max:max(a)"}, {Metric::Stat::max, angles, "max:maxdev(a, w)"}};
  StopCondition separated;
  separated.selector = angles;
  separated.threshold = 0.5;
  separated.text = "maxdev(a, w) > 0.5";
  Selector first;
  first.channels = {0};
  StopCondition low;
  low.selector = first;
  low.op = StopCondition::Op::less;
  low.threshold = -5;
  low.text = "a[0] < -5";
  checks.stops = {separated, low};
  MetricAccumulator acc(checks);
  EXPECT_EQ(acc.sample(0.0, {0.6, 0.7, 1.0, 1.0}), "");  // max 0.7 > 0.5, but maxdev 0.05
  EXPECT_EQ(acc.sample(0.1, {-6.0, -6.0, 1.0, 1.0}), "a[0] < -5");
  EXPECT_EQ(acc.sample(0.2, {0.0, 2.0, 1.0, 1.0}), "maxdev(a, w) > 0.5");  // maxdev 1
  const std::vector<std::optional<double>> results = acc.results();
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0], 2.0);
  EXPECT_EQ(results[1], 1.0);
}

std::shared_ptr<Fmu> case39() { return Fmu::open(test::fmu_path("PowerGrid_case39_semi_explicit")); }

TEST(SweepPlan, PairsWeightsAndComponentsByTheirWildcards) {
  SweepOptions o;
  o.metrics = {"max:maxdev(gen[*].delta, gen[*].H)", "min:min(hypot(bus[*].Vr, bus[*].Vi))",
               "final:hypot(bus[16].Vr,bus[16].Vi)", "max:der(gen[1].delta)"};
  auto plan = SweepPlan::compile(case39(), o);
  const CompiledChecks& checks = plan->checks();
  ASSERT_EQ(checks.metrics.size(), 4u);
  const Selector& coi = checks.metrics[0].selector;
  ASSERT_EQ(coi.channels.size(), 10u);  // case39's ten machines
  ASSERT_EQ(coi.weights.size(), 10u);
  for (std::size_t k = 0; k < coi.channels.size(); ++k) {
    std::string name = checks.channels[coi.channels[k]].name;
    name.replace(name.size() - 5, 5, "H");  // gen[30].delta → gen[30].H
    EXPECT_EQ(checks.channels[coi.weights[k]].name, name);
  }
  const Selector& magnitude = checks.metrics[1].selector;
  ASSERT_EQ(magnitude.channels.size(), 39u);
  ASSERT_EQ(magnitude.partners.size(), 39u);
  for (std::size_t k = 0; k < magnitude.channels.size(); ++k) {
    std::string name = checks.channels[magnitude.channels[k]].name;
    name.back() = 'i';  // bus[5].Vr → bus[5].Vi
    EXPECT_EQ(checks.channels[magnitude.partners[k]].name, name);
  }
  EXPECT_EQ(checks.metrics[2].selector.aggregate, Selector::Aggregate::single);
  // A name with parentheses is a name when no aggregate has it.
  EXPECT_EQ(checks.channels[checks.metrics[3].selector.channels[0]].name, "der(gen[1].delta)");
}

std::string compile_error(const std::string& metric) {
  SweepOptions o;
  o.metrics = {metric};
  try {
    SweepPlan::compile(case39(), o);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage) << metric;
    return e.what();
  }
  ADD_FAILURE() << "no error for " << metric;
  return {};
}

TEST(SweepPlan, RefusesWeightsAndPairsThatDoNotFit) {
  EXPECT_NE(compile_error("max:maxdev(gen[*].delta, gen[1].H)").find("must have the wildcards"), std::string::npos);
  // bus[1..10] have a gen[k].H; bus[11] has none.
  const std::string missing = compile_error("max:mean(bus[*].Vr, gen[*].H)");
  EXPECT_NE(missing.find("\"bus[11].Vr\" has no weight (\"gen[11].H\""), std::string::npos) << missing;
  EXPECT_NE(compile_error("min:min(gen[*].delta, gen[*].H)").find("weights are for mean and maxdev only"),
            std::string::npos);
  EXPECT_NE(compile_error("min:min(hypot(bus[*].Vr))").find("hypot takes two"), std::string::npos);
  EXPECT_NE(compile_error("min:hypot(bus[*].Vr, bus[*].Vi)").find("aggregate them"), std::string::npos);
  EXPECT_NE(compile_error("max:maxdev(gen[*].delta, gen[*].H, x)").find("takes a glob"), std::string::npos);
  EXPECT_NE(compile_error("max:median(gen[*].delta)").find("unknown aggregate \"median\""), std::string::npos);
  EXPECT_NE(compile_error("max:maxdev(gen[*].delta, gen[*].nosuch)").find("gen[*].nosuch"), std::string::npos);
}

}  // namespace
}  // namespace lsdae::sweep
