// tests/runtime/capi/lsdae_c_stats_test.cpp -- the C interface's statistics
// (lsdae_stats, lsdae_statistics_json) come from the run layer's one field
// table (run/statistics.h): every numeric field the table marks for C is a
// member of lsdae_stats by the same name and every member is such a field
// (capi/statistics.h lists the members), the values are the table's, and
// the JSON is the run layer's document.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <variant>

#include "capi/statistics.h"
#include "catalog.h"
#include "lsdae/lsdae.h"
#include "run/statistics.h"

namespace {

TEST(CApiStatistics, LsdaeStatsHasAMemberForEveryNumberOfTheFieldTable) {
  std::set<std::string> members, fields;
  for (const auto& m : lsdae::capi::c_members()) EXPECT_TRUE(members.insert(m.name).second) << m.name << " twice";
  for (const auto& f : lsdae::run::statistic_fields())
    if (f.in_c) {
      EXPECT_NE(f.type, lsdae::run::FieldType::text) << f.flat << ": a text cannot be a member of lsdae_stats";
      fields.insert(f.flat);
    }
  EXPECT_EQ(members, fields);
}

TEST(CApiStatistics, ValuesAndJsonAreTheRunLayers) {
  lsdae_options options;
  lsdae_options_init(&options);
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(lsdae::test::fmu_path("HelloWorld_ode").c_str(), &options, &sim), LSDAE_OK)
      << lsdae_last_error(nullptr);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  ASSERT_EQ(lsdae_advance_to(sim, 0.5, nullptr), LSDAE_OK) << lsdae_last_error(sim);
  lsdae_stats stats;
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  EXPECT_GT(stats.steps, 0);
  EXPECT_EQ(stats.reached_time, 0.5);
  EXPECT_EQ(stats.terminated_by_fmu, 0);
  EXPECT_DOUBLE_EQ(stats.klu_fill_ratio,
                   static_cast<double>(stats.klu_lnz + stats.klu_unz) / static_cast<double>(stats.jacobian_nonzeros));
  size_t needed = 0;
  ASSERT_EQ(lsdae_statistics_json(sim, nullptr, 0, &needed), LSDAE_OK);
  std::string json(needed, '\0');
  char small[4];
  EXPECT_EQ(lsdae_statistics_json(sim, small, sizeof small, nullptr), LSDAE_ERR_USAGE);
  ASSERT_EQ(lsdae_statistics_json(sim, json.data(), json.size(), nullptr), LSDAE_OK);
  EXPECT_NE(json.find("\"steps\": " + std::to_string(stats.steps) + ","), std::string::npos) << json;
  EXPECT_NE(json.find("\"counters\": {"), std::string::npos) << json;
  EXPECT_NE(json.find("\"fmu\": \"HelloWorld_ode.fmu\""), std::string::npos) << json;
  lsdae_free(sim);
}

}  // namespace
