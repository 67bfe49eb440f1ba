// tests/runtime/capi/lsdae_c_fmi2_test.cpp -- the C interface on FMI 2.0
// Model Exchange FMUs we did not write (the Reference-FMUs' fmi2/ folder
// beside the clone; skipped only when ../shared is absent, a missing file
// there fails): lsdae_open ... lsdae_set/get behave as for FMI 3.0, and the
// types FMI 2.0 has (Real, Integer, Boolean, String, Enumeration) travel
// through their own fmi2 calls.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>

#include "lsdae/lsdae.h"

namespace {

namespace fs = std::filesystem;
const fs::path kCorpus = LSDAE_REFERENCE_FMUS_DIR;

#define CORPUS_FMU(var, relative)                                                             \
  if (!fs::exists(kCorpus.parent_path().parent_path().parent_path()))                         \
    GTEST_SKIP() << "../shared is not beside this clone";                                     \
  const fs::path var = kCorpus / (relative);                                                  \
  ASSERT_TRUE(fs::exists(var)) << var << " is missing from the shared corpus"

std::string text_of(lsdae_simulation* sim, const char* name) {
  char buffer[256] = {};
  EXPECT_EQ(lsdae_get_text(sim, name, buffer, sizeof buffer, nullptr), LSDAE_OK) << lsdae_last_error(sim);
  return buffer;
}

TEST(CApiFmi2, SetsParametersAndReadsStatesOfAnFmi2Fmu) {
  CORPUS_FMU(fmu, "fmi2/VanDerPol.fmu");
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(fmu.c_str(), nullptr, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  ASSERT_EQ(lsdae_set(sim, "mu", 0.0), LSDAE_OK) << lsdae_last_error(sim);  // x0'' = -x0: a harmonic oscillator
  uint32_t vr = 0;
  ASSERT_EQ(lsdae_value_reference(sim, "x0", &vr), LSDAE_OK) << lsdae_last_error(sim);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  double t = 0;
  ASSERT_EQ(lsdae_advance_to(sim, 1.0, &t), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(t, 1.0);
  double x0 = 0, bulk = 0, mu = 1;
  ASSERT_EQ(lsdae_get(sim, "x0", &x0), LSDAE_OK) << lsdae_last_error(sim);
  ASSERT_EQ(lsdae_get_values(sim, &vr, 1, &bulk), LSDAE_OK) << lsdae_last_error(sim);
  ASSERT_EQ(lsdae_get(sim, "mu", &mu), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(mu, 0.0);
  EXPECT_NEAR(x0, 2 * std::cos(1.0), 1e-4) << "x0(0) = 2, x1(0) = 0";
  EXPECT_EQ(bulk, x0);
  lsdae_stats stats{};
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  EXPECT_EQ(stats.differential, 2u);
  lsdae_free(sim);
}

TEST(CApiFmi2, IntegersBooleansStringsAndEnumerationsTravelAsFmi2Types) {
  CORPUS_FMU(fmu, "fmi2/Feedthrough.fmu");
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(fmu.c_str(), nullptr, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(lsdae_set(sim, "Int32_input", -7), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set_text(sim, "Boolean_input", "true"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set_text(sim, "String_input", "héllo"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set_text(sim, "Enumeration_input", "2"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set(sim, "Int32_input", 1.5), LSDAE_ERR_USAGE) << "a fraction for an Integer";
  EXPECT_EQ(lsdae_set(sim, "no_such_variable", 1.0), LSDAE_ERR_USAGE);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  int64_t i = 0;
  ASSERT_EQ(lsdae_get_int64(sim, "Int32_output", &i), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(i, -7);
  ASSERT_EQ(lsdae_get_int64(sim, "Boolean_output", &i), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(i, 1);
  ASSERT_EQ(lsdae_get_int64(sim, "Enumeration_output", &i), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(i, 2);
  EXPECT_EQ(text_of(sim, "String_output"), "héllo");
  lsdae_free(sim);
}

}  // namespace
