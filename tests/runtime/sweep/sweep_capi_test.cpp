// tests/runtime/sweep/sweep_capi_test.cpp -- lsdae_sweep (lsdae/lsdae.h): a
// CSV table, metrics, two workers, a failure counted, a bad metric refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "catalog.h"
#include "lsdae/lsdae.h"

namespace lsdae::sweep {
namespace {

TEST(SweepCApi, RunsATableAndCountsFailures) {
  const auto dir = std::filesystem::temp_directory_path() / ("lsdae_sweep_capi_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "t.csv") << "id,x\na,1\nb,nope\nc,3\n";
  lsdae_options options;
  lsdae_options_init(&options);
  options.stop_time = 0.5;
  const char* metrics[] = {"final:x"};
  lsdae_sweep_spec spec{};
  spec.scenarios_csv = (dir / "t.csv").c_str();
  spec.metrics = metrics;
  spec.metric_count = 1;
  spec.jobs = 2;
  const std::string summary = (dir / "s.csv").string();
  spec.summary_csv = summary.c_str();
  const std::string t_csv = (dir / "t.csv").string();
  spec.scenarios_csv = t_csv.c_str();
  std::size_t failed = 99;
  ASSERT_EQ(lsdae_sweep(test::fmu_path("HelloWorld_ode").c_str(), &options, &spec, &failed), LSDAE_OK)
      << lsdae_last_error(nullptr);
  EXPECT_EQ(failed, 1u);
  std::ifstream in(summary);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "id,status,message,reached_time,steps,wall_time_s,final:x");
  int rows = 0;
  while (std::getline(in, line)) rows += line.empty() ? 0 : 1;
  EXPECT_GE(rows, 3);

  const char* bad[] = {"final:nosuch"};
  spec.metrics = bad;
  EXPECT_EQ(lsdae_sweep(test::fmu_path("HelloWorld_ode").c_str(), &options, &spec, &failed), LSDAE_ERR_USAGE);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("nosuch"), std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace lsdae::sweep
