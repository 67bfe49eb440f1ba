// tests/runtime/capi/lsdae_c_stats_test.cpp -- the C interface's statistics
// (lsdae_stats, lsdae_statistics_json) come from the run layer's one field
// table (run/statistics.h): every numeric field the table marks for C is a
// member of lsdae_stats by the same name and every member is such a field
// (capi/statistics.h lists the members), the values are the table's, and
// the JSON is the run layer's document. lsdae_run's two files never name
// the FMU or the input table, nor one file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
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

// lsdae_run's files naming the FMU or the table of lsdae_set_input_file
// replaced it (LSDAE_OK); both on one file kept only the statistics. Refused
// before anything is written, in the C fields' words (run/model_files.h).
TEST(CApiStatistics, NoOutputOfLsdaeRunIsAnInput) {
  const std::filesystem::path work = std::filesystem::temp_directory_path() / ("lsdae_c_clash_" + std::to_string(::getpid()));
  std::filesystem::create_directories(work);
  const std::filesystem::path model = work / "model.fmu", table = work / "in.csv";
  std::filesystem::copy_file(lsdae::test::fmu_path("HelloWorld_ode"), model);
  std::ofstream(table) << "time\n0\n1\n";
  const auto model_size = std::filesystem::file_size(model), table_size = std::filesystem::file_size(table);
  lsdae_options options;
  lsdae_options_init(&options);
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(model.c_str(), &options, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  ASSERT_EQ(lsdae_set_input_file(sim, table.c_str()), LSDAE_OK) << lsdae_last_error(sim);
  const std::string other_spelling = (work / "." / "model.fmu").string(), same = (work / "x.csv").string();
  struct Case {
    const char *results, *statistics, *says;
  };
  for (const Case& c : {Case{nullptr, other_spelling.c_str(), "lsdae_run: output.statistics_file \""},
                        Case{table.c_str(), nullptr, "\": this is the table of lsdae_set_input_file; writing there"},
                        Case{same.c_str(), same.c_str(), "output.result_file and lsdae_run: output.statistics_file both name"}}) {
    lsdae_output output;
    lsdae_output_init(&output);
    output.result_file = c.results;
    output.statistics_file = c.statistics;
    EXPECT_EQ(lsdae_run(sim, &output), LSDAE_ERR_USAGE);
    EXPECT_NE(std::string(lsdae_last_error(sim)).find(c.says), std::string::npos) << lsdae_last_error(sim);
  }
  EXPECT_EQ(std::filesystem::file_size(model), model_size);
  EXPECT_EQ(std::filesystem::file_size(table), table_size);
  EXPECT_FALSE(std::filesystem::exists(same));
  lsdae_free(sim);
  std::filesystem::remove_all(work);
}

}  // namespace
