// tests/runtime/simulation/klu_symbolic_reuse_test.cpp -- KLU's symbolic
// analysis kept at events (runtime/simulation/klu_symbolic_reuse.h): runs with
// time and state events analyse once, re-factor afresh at every restart, and
// give bitwise the results and counters of SUNDIALS' re-analysis at every
// event (the analysis depends on the pattern alone, and the pattern is fixed).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "catalog.h"
#include "lsdae/fmu.h"
#include "lsdae/simulation.h"

namespace lsdae {
namespace {

struct RunRecord {
  std::vector<double> values;  // every scalar Float64 variable at every output time
  SimulationStats stats;
};

// The FMU's default experiment, `rows` output times.
RunRecord run(const std::string& fmu, bool keep, int rows) {
  SimulationOptions options;
  options.keep_klu_analysis = keep;
  auto sim = Simulation::create(Fmu::open(test::fmu_path(fmu)), options);
  std::vector<ValueReference> vrs;
  for (const auto& v : sim->fmu().model_description().variables)
    if (v.type == VariableType::float64 && v.dimensions.empty()) vrs.push_back(v.value_reference);
  sim->initialize();
  const double start = sim->start_time(), stop = sim->stop_time();
  RunRecord r;
  std::vector<double> row(vrs.size());
  for (int k = 1; k <= rows; ++k) {
    sim->advance_to(start + (stop - start) * k / rows);
    sim->get(vrs, row);
    r.values.insert(r.values.end(), row.begin(), row.end());
  }
  r.stats = sim->statistics();
  return r;
}

class KluSymbolicReuse : public ::testing::TestWithParam<std::string> {};

TEST_P(KluSymbolicReuse, AnalysesOnceAndMatchesReanalysisBitwise) {
  // PowerGrid case39: the fault and its clearing (2 time events); BouncingBall:
  // state events; CauerLowPass: a time event in a DAE.
  const RunRecord kept = run(GetParam(), true, 40);
  const RunRecord again = run(GetParam(), false, 40);
  const long events = kept.stats.time_events + kept.stats.state_events + kept.stats.step_events;
  ASSERT_GT(events, 0) << GetParam() << " must have events for this test to mean anything";

  EXPECT_EQ(kept.stats.klu_symbolic_analyses, 1) << "one analysis for the whole run";
  EXPECT_GT(again.stats.klu_symbolic_analyses, 1) << "SUNDIALS analyses at the start and at every restart";
  EXPECT_EQ(again.stats.klu_restart_factorizations, 0);
  // Every restart that reached a linear-solver setup factored afresh instead.
  EXPECT_GE(kept.stats.klu_restart_factorizations, 1);
  EXPECT_LE(kept.stats.klu_restart_factorizations, events);
  EXPECT_EQ(kept.stats.klu_restart_factorizations + 1, again.stats.klu_symbolic_analyses);

  EXPECT_EQ(kept.stats.steps, again.stats.steps);
  EXPECT_EQ(kept.stats.residual_calls, again.stats.residual_calls);
  EXPECT_EQ(kept.stats.jacobian_evaluations, again.stats.jacobian_evaluations);
  EXPECT_EQ(kept.stats.linear_solver_setups, again.stats.linear_solver_setups);
  EXPECT_EQ(kept.stats.klu_lnz, again.stats.klu_lnz);
  EXPECT_EQ(kept.stats.klu_unz, again.stats.klu_unz);
  ASSERT_EQ(kept.values.size(), again.values.size());
  EXPECT_EQ(std::memcmp(kept.values.data(), again.values.data(), kept.values.size() * sizeof(double)), 0)
      << "the kept analysis must give bitwise the results of a new one";
}

INSTANTIATE_TEST_SUITE_P(Events, KluSymbolicReuse,
                         ::testing::Values("PowerGrid_case39_semi_explicit", "BouncingBall_ode",
                                           "CauerLowPass_dae_shapeA"));

}  // namespace
}  // namespace lsdae
