// tests/runtime/run/statistics_test.cpp -- the statistics record and its one
// JSON writer (run/statistics.h): the document's groups and order (the one
// `lsdae simulate --stats` has always written, which bench/baseline reads),
// what a run without a simulation writes, and the flat names.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "run/statistics.h"

namespace lsdae::run {
namespace {

TEST(Statistics, TheDocumentKeepsItsGroupsAndOrder) {
  RunStatistics s;
  s.model = "m.fmu";
  s.rows = 3;
  s.simulated = true;
  s.simulation.steps = 7;
  s.simulation.jacobian_nonzeros = 4;
  s.simulation.klu_lnz = 3;
  s.simulation.klu_unz = 3;
  s.results = ResultsRecord{"hdf5", 0.5, {{"chunks", 2}, {"chunks_compressed", 1}}};
  const std::string json = statistics_json(s);
  const char* in_order[] = {"\"fmu\": \"m.fmu\"", "\"command_line\": []", "\"versions\": {", "\"completed\": true",
                            "\"interrupted\": false", "\"rows_written\": 3", "\"wall_time_s\"", "\"start_time\"",
                            "\"stop_time\"", "\"reached_time\"", "\"model\": {", "\"jacobian\": {",
                            "\"counters\": {", "\"steps\": 7", "\"klu_analyses_carried_over\"", "\"first_step_retries\"",
                            "\"dummy_derivatives\"", "\"terminated_by_fmu\"", "\"klu\": {", "\"fill_ratio\": 1.5",
                            "\"time_s\": {", "\"write_results\": 0.5", "\"results\": {", "\"format\": \"hdf5\"",
                            "\"chunks\": 2", "\"chunks_compressed\": 1"};
  std::size_t at = 0;
  for (const char* key : in_order) {
    const std::size_t found = json.find(key, at);
    ASSERT_NE(found, std::string::npos) << key << " (after position " << at << ") in\n" << json;
    at = found;
  }
  EXPECT_EQ(json.find("\"error\""), std::string::npos) << "only when there is one";
}

TEST(Statistics, ARunThatEndedOutsideItsProcessHasNoSimulationPart) {
  RunStatistics s;
  s.model = "m.fmu";
  s.error = "the FMU crashed";
  const std::string json = statistics_json(s);
  EXPECT_NE(json.find("\"completed\": false"), std::string::npos);
  EXPECT_NE(json.find("\"error\": \"the FMU crashed\""), std::string::npos);
  EXPECT_EQ(json.find("\"counters\""), std::string::npos);
  EXPECT_EQ(json.find("\"start_time\""), std::string::npos);
}

TEST(Statistics, FlatNamesAreUniqueAndCoverTheSimulation) {
  std::set<std::string> flat;
  for (const auto& f : statistic_fields()) {
    if (!f.flat.empty()) {
      EXPECT_TRUE(flat.insert(f.flat).second) << f.flat;
    }
  }
  for (const char* name : {"steps", "jacobian_method", "klu_ordering", "time_integrate", "reached_time",
                           "dummy_derivatives", "largest_drift_constraint", "terminated_by_fmu"})
    EXPECT_EQ(flat.count(name), 1u) << name;
  RunStatistics s;
  s.simulated = true;
  s.simulation.steps = 9;
  s.simulation.jacobian_method = "directional";
  for (const auto& [name, value] : flat_statistics(s)) {
    if (name == "steps") {
      EXPECT_EQ(std::get<std::int64_t>(value), 9);
    } else if (name == "jacobian_method") {
      EXPECT_EQ(std::get<std::string>(value), "directional");
    }
  }
}

}  // namespace
}  // namespace lsdae::run
