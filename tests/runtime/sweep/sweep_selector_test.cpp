// tests/runtime/sweep/sweep_selector_test.cpp -- metric selectors that name a
// variable whose name has parentheses: FMI names a derivative "der(x)", which
// the selector grammar must not take for an aggregate "der" (a metric such as
// max:der(x) was refused as an unknown aggregate).
#include <gtest/gtest.h>

#include <cmath>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/sweep.h"

namespace lsdae::sweep {
namespace {

TEST(SweepSelector, ADerivativeNameIsAVariableNotAnAggregate) {
  SweepOptions o;
  o.simulation.stop_time = 1.0;
  o.simulation.rtol = 1e-9;
  o.metrics = {"max:der(x)", "final:max(der(*))"};
  o.stop_when = {"der(x) > 1e9"};
  auto plan = SweepPlan::compile(Fmu::open(test::fmu_path("HelloWorld_ode")), o);
  const SummaryRow row = run_scenario(*plan, {"one", {{"x", "1"}}});
  ASSERT_EQ(row.status, Status::ok) << row.message;
  // x' = 1.4 x: der(x) grows with x, largest at the end.
  EXPECT_NEAR(*row.metrics[0], 1.4 * std::exp(1.4), 1e-6);
  EXPECT_EQ(*row.metrics[1], *row.metrics[0]);
  // A name with parentheses that is no variable is still an unknown aggregate.
  o.metrics = {"max:median(x)"};
  o.stop_when = {};
  try {
    SweepPlan::compile(Fmu::open(test::fmu_path("HelloWorld_ode")), o);
    ADD_FAILURE() << "median(x) was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("unknown aggregate \"median\""), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace lsdae::sweep
