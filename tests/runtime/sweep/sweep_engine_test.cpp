// tests/runtime/sweep/sweep_engine_test.cpp -- lsdae/sweep.h in process:
// summary rows as CSV and back, metric and stop-condition parsing, one
// scenario run (metrics, early termination, failures kept), and run_sweep in
// worker processes giving the rows of the in-process run; the same rows
// with the model reused across scenarios (ScenarioRunner) and without.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/sweep.h"
#include "sweep/metrics.h"
#include "sweep/scenario_runner.h"
#include "sweep/stretch_queue.h"

namespace lsdae::sweep {
namespace {

TEST(SweepSummaryRow, RoundTripsExactly) {
  SummaryRow row;
  row.id = "a,b";
  row.status = Status::stopped_early;
  row.message = "line one\n  \"line\" two";
  row.reached_time = 0.1 + 0.2;
  row.steps = 42;
  row.wall_time = 1.0 / 3.0;
  row.metrics = {std::nullopt, std::nan(""), -1e-300, 5.0};
  const SummaryRow back = SummaryRow::from_csv(row.to_csv(), 4);
  EXPECT_EQ(back.to_csv(), row.to_csv());
  EXPECT_EQ(back.id, row.id);
  EXPECT_EQ(back.message, row.message);
  EXPECT_EQ(*back.reached_time, *row.reached_time);
  EXPECT_EQ(back.wall_time, row.wall_time);
  EXPECT_FALSE(back.metrics[0]);
  EXPECT_TRUE(std::isnan(*back.metrics[1]));
  EXPECT_EQ(*back.metrics[2], -1e-300);
  EXPECT_THROW(SummaryRow::from_csv(row.to_csv(), 3), Error);
  EXPECT_THROW(SummaryRow::from_csv("x,fine,,1,2,3", 0), Error);
}

TEST(SweepSelector, Aggregates) {
  Selector s;
  s.channels = {0, 1, 2};
  const std::vector<double> v{1.0, 4.0, -2.0};
  s.aggregate = Selector::Aggregate::min;
  EXPECT_EQ(s.value(v), -2.0);
  s.aggregate = Selector::Aggregate::spread;
  EXPECT_EQ(s.value(v), 6.0);
  s.aggregate = Selector::Aggregate::mean;
  EXPECT_EQ(s.value(v), 1.0);
  s.aggregate = Selector::Aggregate::maxdev;  // |4 − 1| = 3
  EXPECT_EQ(s.value(v), 3.0);
}

std::shared_ptr<Fmu> hello() { return Fmu::open(test::fmu_path("HelloWorld_ode")); }

std::string compile_error(const SweepOptions& options) {
  try {
    SweepPlan::compile(hello(), options);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(SweepPlan, RefusesBadMetricsAndConditions) {
  SweepOptions o;
  o.metrics = {"biggest:x"};
  EXPECT_NE(compile_error(o).find("STAT:SELECTOR"), std::string::npos);
  o.metrics = {"max:nosuch"};
  EXPECT_NE(compile_error(o).find("nosuch"), std::string::npos);
  o.metrics = {"max:median(x)"};
  EXPECT_NE(compile_error(o).find("unknown aggregate \"median\""), std::string::npos);
  o.metrics = {"max:*"};
  EXPECT_NE(compile_error(o).find("→ aggregate them"), std::string::npos);
  o.metrics = {};
  o.stop_when = {"x >> 2"};
  EXPECT_NE(compile_error(o).find("not a finite number"), std::string::npos);
  o.stop_when = {"x = 2"};
  EXPECT_NE(compile_error(o).find("OP >, >=, < or <="), std::string::npos);
}

TEST(SweepRunScenario, MetricsOfTheExactSolution) {
  SweepOptions o;
  o.simulation.stop_time = 1.0;
  o.simulation.rtol = 1e-9;
  o.metrics = {"final:x", "max:x", "tmax:x", "min:mean(*)"};
  auto plan = SweepPlan::compile(hello(), o);
  const SummaryRow row = run_scenario(*plan, {"two", {{"x", "2"}}});
  ASSERT_EQ(row.status, Status::ok) << row.message;
  EXPECT_EQ(*row.reached_time, 1.0);
  EXPECT_GT(row.steps, 0);
  EXPECT_NEAR(*row.metrics[0], 2 * std::exp(1.4), 1e-6);
  EXPECT_EQ(*row.metrics[1], *row.metrics[0]);  // growing: the last point is the largest
  EXPECT_EQ(*row.metrics[2], 1.0);
  // x, der(x) = 7x/5, y = 7x/5, z = −x/5: the mean is (1 + 1.4 + 1.4 − 0.2)x/4 = 0.9x, smallest at t = 0.
  EXPECT_NEAR(*row.metrics[3], 0.9 * 2, 1e-9);
}

TEST(SweepRunScenario, StopWhenAndSettleEndEarly) {
  SweepOptions o;
  o.simulation.stop_time = 2.0;
  o.metrics = {"max:x"};
  o.stop_when = {"x > 3"};
  auto plan = SweepPlan::compile(hello(), o);
  const SummaryRow row = run_scenario(*plan, {"s", {}});
  ASSERT_EQ(row.status, Status::stopped_early) << row.message;
  EXPECT_NE(row.message.find("x > 3 at t = "), std::string::npos) << row.message;
  EXPECT_LT(*row.reached_time, 2.0);
  EXPECT_GT(*row.metrics[0], 3.0);
  EXPECT_LT(std::log(3.0) / 1.4, *row.reached_time);

  SweepOptions settle;
  settle.simulation.stop_time = 2.0;
  settle.settle = Settle{1e9, 0.5, 0.25};  // every derivative is below 1e9: settled 0.5 s after t = 0.25
  const SummaryRow s2 = run_scenario(*SweepPlan::compile(hello(), settle), {"s", {}});
  ASSERT_EQ(s2.status, Status::stopped_early) << s2.message;
  EXPECT_NE(s2.message.find("settled"), std::string::npos);
  EXPECT_NEAR(*s2.reached_time, 0.75, 1e-9);
}

TEST(SweepRunScenario, AFailureIsARowNotAnException) {
  SweepOptions o;
  o.metrics = {"max:x"};
  auto plan = SweepPlan::compile(hello(), o);
  const SummaryRow row = run_scenario(*plan, {"bad", {{"x", "not-a-number"}}});
  EXPECT_EQ(row.status, Status::failed);
  EXPECT_NE(row.message.find("not-a-number"), std::string::npos) << row.message;
  ASSERT_EQ(row.metrics.size(), 1u);
  EXPECT_FALSE(row.metrics[0]);
}

std::string without_wall_time(SummaryRow row) {
  row.wall_time = 0;
  return row.to_csv();
}

// Scenario after scenario on one runner, a failing one in the middle (its
// Simulation is reset for the next): the rows of fresh Simulations.
TEST(SweepRunScenario, AReusedModelGivesTheRowsOfFreshOnes) {
  std::vector<Scenario> scenarios{{"a", {{"x", "2"}}}, {"b", {{"x", "-0.5"}}}, {"broken", {{"x", "oops"}}},
                                  {"c", {}},           {"d", {{"x", "3"}}}};
  SweepOptions o;
  o.simulation.stop_time = 0.7;
  o.metrics = {"final:x", "max:spread(*)", "tmax:x"};
  o.stop_when = {"x > 6"};  // d (3·e^0.98 ≈ 8) stops early, a (≈ 5.3) does not
  auto plan = SweepPlan::compile(hello(), o);
  ScenarioRunner runner(*plan);
  std::map<std::size_t, std::string> fresh;
  for (std::size_t k = 0; k < scenarios.size(); ++k) {
    const SummaryRow reused = run_scenario(*plan, scenarios[k], runner);
    fresh[k] = without_wall_time(run_scenario(*plan, scenarios[k]));
    EXPECT_EQ(without_wall_time(reused), fresh[k]) << "scenario " << scenarios[k].id;
  }
  EXPECT_NE(fresh[0], fresh[1]);  // the scenarios differ (else the comparison proves little)
  EXPECT_NE(fresh[2].find("failed"), std::string::npos);
  EXPECT_NE(fresh[4].find("stopped-early"), std::string::npos) << fresh[4];
  EXPECT_EQ(runner.scenarios(), scenarios.size());
  EXPECT_EQ(runner.reused(), scenarios.size() - 1) << "one Simulation, reset for every later scenario";
  EXPECT_EQ(runner.fresh_after_failed_reset(), 0u);

  // SweepOptions::reuse = false: a new Simulation every time, the same rows.
  o.reuse = false;
  auto baseline = SweepPlan::compile(hello(), o);
  ScenarioRunner fresh_runner(*baseline);
  for (std::size_t k = 0; k < scenarios.size(); ++k)
    EXPECT_EQ(without_wall_time(run_scenario(*baseline, scenarios[k], fresh_runner)), fresh[k]);
  EXPECT_EQ(fresh_runner.reused(), 0u);
}

TEST(SweepRunSweep, WorkerProcessesGiveTheInProcessRows) {
  std::vector<Scenario> scenarios;
  for (int k = 1; k <= 7; ++k) scenarios.push_back({"s" + std::to_string(k), {{"x", std::to_string(k)}}});
  scenarios.push_back({"broken", {{"x", "oops"}}});
  SweepOptions o;
  o.simulation.stop_time = 0.5;
  o.metrics = {"final:x", "max:spread(*)"};
  auto rows_of = [&](bool isolate, std::size_t jobs, bool reuse = true) {
    o.isolate = isolate;
    o.jobs = jobs;
    o.reuse = reuse;
    std::map<std::string, std::string> rows;
    auto outcome = run_sweep(*SweepPlan::compile(hello(), o), scenarios, [&](std::size_t i, const SummaryRow& r) {
      EXPECT_EQ(scenarios[i].id, r.id);
      SummaryRow copy = r;
      copy.wall_time = 0;
      rows[r.id] = copy.to_csv();
    });
    EXPECT_EQ(outcome.ran, 8u);
    EXPECT_EQ(outcome.failed, 1u);
    return rows;
  };
  const auto in_process = rows_of(false, 1);
  EXPECT_EQ(rows_of(true, 1), in_process);
  EXPECT_EQ(rows_of(true, 3), in_process);
  // A new Simulation per scenario (--no-reuse) gives the same rows.
  EXPECT_EQ(rows_of(false, 1, false), in_process);
  EXPECT_EQ(rows_of(true, 2, false), in_process);
}


// stretch_queue.h: two workers, the outages of two fault buses (A: 0,1,2;
// B: 3,4) and one scenario without stages (5), interleaved in the table.
// Each worker keeps to one bus, so each bus's fault-on stretch is computed
// by one worker; handed out in table order (the old queue), both workers
// would take scenarios of bus A first and both compute its stretch.
TEST(StretchQueue, AWorkerKeepsToTheScenariosOfItsLastStretch) {
  const std::vector<std::size_t> order = {0, 3, 1, 4, 2, 5};
  const std::vector<std::string> keys = {"A", "B", "A", "B", "A", ""};
  StretchQueue queue(order, keys);
  EXPECT_EQ(queue.size(), 6u);
  std::vector<std::vector<std::size_t>> taken(2);
  // The order in which the workers ask: 0, 1, then alternately.
  for (std::size_t ask = 0; !queue.empty(); ++ask) {
    const std::size_t worker = ask % 2;
    const auto next = queue.take(worker);
    ASSERT_TRUE(next.has_value());
    taken[worker].push_back(*next);
  }
  EXPECT_EQ(taken[0], (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(taken[1], (std::vector<std::size_t>{3, 4, 5}));
  EXPECT_FALSE(queue.take(0).has_value());
}

// Without stages every scenario is a group of its own: the given order, as
// before; and when every group left is being worked on, a free worker
// shares the first one rather than waiting.
TEST(StretchQueue, WithoutStretchesTheGivenOrderAndNoWorkerWaits) {
  StretchQueue plain({4, 2, 7}, {"", "", ""});
  EXPECT_EQ(plain.take(0), std::optional<std::size_t>(4));
  EXPECT_EQ(plain.take(1), std::optional<std::size_t>(2));
  EXPECT_EQ(plain.take(0), std::optional<std::size_t>(7));
  StretchQueue one_bus({0, 1, 2, 3}, {"A", "A", "A", "A"});
  EXPECT_EQ(one_bus.take(0), std::optional<std::size_t>(0));
  EXPECT_EQ(one_bus.take(1), std::optional<std::size_t>(1));  // shares bus A
  EXPECT_EQ(one_bus.take(1), std::optional<std::size_t>(2));
  EXPECT_EQ(one_bus.take(0), std::optional<std::size_t>(3));
}

}  // namespace
}  // namespace lsdae::sweep

