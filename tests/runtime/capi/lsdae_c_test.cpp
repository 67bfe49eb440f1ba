// tests/runtime/capi/lsdae_c_test.cpp -- runtime/capi/lsdae_c.cpp: statuses
// and messages of the C interface, nothing thrown across it.
#include "lsdae/lsdae.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "catalog.h"

namespace {

TEST(CApi, SimulatesAndReportsStatistics) {
  lsdae_options options;
  lsdae_options_init(&options);
  options.stop_time = 0.5;
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(lsdae::test::fmu_path("HelloWorld_fully_implicit_shapeA").c_str(), &options, &sim), LSDAE_OK)
      << lsdae_last_error(nullptr);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  double reached = 0;
  ASSERT_EQ(lsdae_advance_to(sim, 10.0, &reached), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(reached, 0.5) << "clipped to the stop time";
  double x = 0;
  ASSERT_EQ(lsdae_get(sim, "x", &x), LSDAE_OK);
  EXPECT_NEAR(x, std::exp(0.7), 1e-5);
  lsdae_stats stats;
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  EXPECT_EQ(stats.unknowns, 3u);
  EXPECT_GT(stats.steps, 0);
  lsdae_free(sim);
}

// The fields appended for the constant Jacobian entries and KLU's analyses
// say what the C++ statistics say: PowerGrid case39 declares its network rows
// constant (and the fault's rows discrete), and its fault is two time events.
TEST(CApi, ReportsConstantEntriesAndKluAnalyses) {
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(lsdae::test::fmu_path("PowerGrid_case39_semi_explicit").c_str(), nullptr, &sim), LSDAE_OK)
      << lsdae_last_error(nullptr);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  double reached = 0;
  ASSERT_EQ(lsdae_advance_to(sim, 2.0, &reached), LSDAE_OK) << lsdae_last_error(sim);
  lsdae_stats stats;
  std::memset(&stats, 0xff, sizeof stats);  // every field must be written
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  EXPECT_EQ(stats.time_events, 2);
  EXPECT_EQ(stats.colors, 12u);
  EXPECT_EQ(stats.varying_colors, 3u);
  EXPECT_EQ(stats.constant_entries, 554u);
  EXPECT_GE(stats.constant_evaluations, 1);
  EXPECT_LE(stats.constant_evaluations, 1 + stats.time_events) << "once, and again per event at most";
  EXPECT_GT(stats.constant_calls, 0);
  EXPECT_EQ(stats.directional_calls,
            stats.constant_calls + stats.jacobian_evaluations * static_cast<long>(stats.varying_colors));
  EXPECT_EQ(stats.klu_symbolic_analyses, 1) << "kept at the two events";
  EXPECT_EQ(stats.klu_restart_factorizations, 2);
  lsdae_free(sim);
}

// The constraint-handling counters reach C too: Index2Example case 1 has only
// the original constraint r3, whose derivative lsdae synthesizes (two FMU
// evaluations per residual call, outside residual_calls); case 3 provides it.
TEST(CApi, StatisticsCountSynthesizedDerivatives) {
  auto run = [](const char* fmu) {
    lsdae_simulation* sim = nullptr;
    lsdae_stats stats;
    std::memset(&stats, 0xff, sizeof stats);  // every field must be written
    EXPECT_EQ(lsdae_open(lsdae::test::fmu_path(fmu).c_str(), nullptr, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
    if (sim == nullptr) return stats;
    EXPECT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
    EXPECT_EQ(lsdae_advance_to(sim, 1.0, nullptr), LSDAE_OK) << lsdae_last_error(sim);
    EXPECT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
    lsdae_free(sim);
    return stats;
  };
  const lsdae_stats synthesized = run("Index2Example_case1_shapeA"), provided = run("Index2Example_case3_shapeA");
  EXPECT_GE(synthesized.synthesis_evaluations, 2 * (synthesized.residual_calls + synthesized.jacobian_residual_calls));
  EXPECT_EQ(synthesized.synthesis_evaluations % 2, 0);
  EXPECT_EQ(provided.synthesis_evaluations, 0);
  EXPECT_EQ(synthesized.projection_rejections, 0) << "no FMU projection here: nothing rejected";
  EXPECT_EQ(provided.projection_rejections, 0);
  EXPECT_EQ(synthesized.first_step_retries, 0);
  EXPECT_EQ(provided.first_step_retries, 0);
}

TEST(CApi, ErrorsComeBackAsStatusAndMessage) {
  lsdae_simulation* sim = nullptr;
  EXPECT_EQ(lsdae_open("/no/such.fmu", nullptr, &sim), LSDAE_ERR_USAGE);
  EXPECT_EQ(sim, nullptr);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("no such file"), std::string::npos);
  ASSERT_EQ(lsdae_open(lsdae::test::fmu_path("HelloWorld_ode").c_str(), nullptr, &sim), LSDAE_OK);
  EXPECT_EQ(lsdae_advance_to(sim, 1.0, nullptr), LSDAE_ERR_USAGE) << "initialize first";
  EXPECT_NE(std::string(lsdae_last_error(sim)).find("initialize()"), std::string::npos) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set(sim, "no_such_variable", 1.0), LSDAE_ERR_USAGE);
  EXPECT_EQ(lsdae_get(sim, "x", nullptr), LSDAE_ERR_USAGE);
  EXPECT_EQ(lsdae_initialize(nullptr), LSDAE_ERR_USAGE);
  lsdae_free(sim);
  lsdae_free(nullptr);
}

}  // namespace

namespace {

TEST(CApi, VersionIsTheProjectVersionOfTheHeaders) {
  const std::string version = lsdae_version();
  EXPECT_EQ(version, LSDAE_VERSION_STRING);
  EXPECT_EQ(version, std::to_string(LSDAE_VERSION_MAJOR) + "." + std::to_string(LSDAE_VERSION_MINOR) + "." +
                         std::to_string(LSDAE_VERSION_PATCH));
}

}  // namespace
