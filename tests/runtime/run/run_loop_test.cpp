// tests/runtime/run/run_loop_test.cpp -- the one run loop (run/run_loop.h) on
// model FMUs: rows at the output points and on both sides of an event, a
// stepped simulation going on from where it stands, stop requests, a sink
// that ends the run, --output-steps with its row limit, --jacobian check.
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/simulation.h"
#include "run/output_plan.h"
#include "run/run_loop.h"

namespace lsdae::run {
namespace {

struct Row {
  double t;
  RowKind kind;
};

class Rows : public RowSink {
 public:
  void row(Simulation& sim, RowKind kind) override {
    rows.push_back({sim.time(), kind});
    count = rows.size();
  }
  void point(std::int64_t k, std::int64_t, double) override { last_point = k; }
  bool finished() override { return finish_after >= 0 && last_point >= finish_after; }
  void jacobian_checked(const JacobianCheck& check) override { verdicts.push_back(check); }
  std::vector<Row> rows;
  std::atomic<std::size_t> count{0};  // what a stop token polls from the watcher thread
  std::vector<JacobianCheck> verdicts;
  std::int64_t last_point = 0, finish_after = -1;
};

std::unique_ptr<Simulation> time_event(const SimulationOptions& options = {}) {
  return Simulation::create(Fmu::open(test::fmu_path("TimeEvent_ode")), options);  // stop 3, interval 0.01, event at 1
}

TEST(RunLoop, RowsAtThePointsAndOnBothSidesOfAnEvent) {
  auto sim = time_event();
  Rows sink;
  const OutputPlan plan = plan_output(*sim, {});
  EXPECT_EQ(plan.points, 300);
  EXPECT_EQ(run(*sim, plan, sink), Ending::completed);
  ASSERT_EQ(sink.rows.size(), 302u) << "301 points, the one at the event replaced by its two rows";
  EXPECT_EQ(sink.rows.front().t, 0.0);
  EXPECT_EQ(sink.rows.back().t, 3.0);
  std::size_t before = 0, after = 0;
  for (const Row& r : sink.rows) {
    before += r.kind == RowKind::before_event ? 1 : 0;
    after += r.kind == RowKind::after_event ? 1 : 0;
  }
  EXPECT_EQ(before, 1u);
  EXPECT_EQ(after, 1u);
}

TEST(RunLoop, ASteppedSimulationGoesOnFromWhereItStands) {
  auto sim = time_event();
  sim->initialize();
  sim->advance_to(2.505);
  Rows sink;
  EXPECT_EQ(run(*sim, plan_output(*sim, {}), sink), Ending::completed);
  ASSERT_EQ(sink.rows.size(), 51u) << "2.505, then 2.51 ... 3";
  EXPECT_EQ(sink.rows.front().t, 2.505);
}

TEST(RunLoop, AStopRequestEndsTheRunKeepingItsRows) {
  auto sim = time_event();
  Rows sink;
  const StopToken stop([&sink] { return sink.count.load() >= 10; });
  EXPECT_EQ(run(*sim, plan_output(*sim, {}), sink, stop), Ending::stopped);
  EXPECT_EQ(sink.rows.size(), 10u);
  EXPECT_EQ(sim->time(), sink.rows.back().t);
}

TEST(RunLoop, ASinkEndsTheRunAtTheNextPoint) {
  auto sim = time_event();
  Rows sink;
  sink.finish_after = 5;
  EXPECT_EQ(run(*sim, plan_output(*sim, {}), sink), Ending::finished);
  EXPECT_EQ(sink.rows.size(), 6u);
}

TEST(RunLoop, OutputStepsStopAtTheRowLimit) {
  auto sim = time_event();
  Rows sink;
  OutputControl control;
  control.steps = true;
  control.max_rows = 4;
  try {
    run(*sim, plan_output(*sim, control), sink);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::output);
    EXPECT_NE(std::string(e.what()).find("--output-steps reached --max-rows 4 rows"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sink.rows.size(), 4u);
}

TEST(RunLoop, TheJacobianCheckIsMadeOnceAtTheStart) {
  SimulationOptions options;
  options.jacobian = JacobianMode::directional;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA")), options);
  Rows sink;
  EXPECT_EQ(run(*sim, plan_output(*sim, {}, /*check_jacobian=*/true), sink), Ending::completed);
  ASSERT_EQ(sink.verdicts.size(), 1u);
  EXPECT_TRUE(sink.verdicts[0].agree());
  EXPECT_EQ(sink.verdicts[0].time, 0.0);
}

}  // namespace
}  // namespace lsdae::run
