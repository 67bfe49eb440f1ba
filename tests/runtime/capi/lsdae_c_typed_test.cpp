// tests/runtime/capi/lsdae_c_typed_test.cpp -- runtime/capi/lsdae_c.cpp:
// typed values through the C interface (lsdae_set_text, lsdae_get_int64,
// lsdae_get_text, lsdae_set_input_file) on FMUs we did not write: the FMI
// project's Reference-FMUs beside the clone (../shared; skipped only when
// ../shared is absent, a missing file there fails).
#include <gtest/gtest.h>

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
  size_t needed = 0;
  EXPECT_EQ(lsdae_get_text(sim, name, nullptr, 0, &needed), LSDAE_OK) << lsdae_last_error(sim);
  std::string buffer(needed, '\0');
  EXPECT_EQ(lsdae_get_text(sim, name, buffer.data(), buffer.size(), nullptr), LSDAE_OK) << lsdae_last_error(sim);
  buffer.resize(needed == 0 ? 0 : needed - 1);
  return buffer;
}

TEST(CApiTyped, EveryTypeIsSetAndReadExactly) {
  CORPUS_FMU(fmu, "fmi3/Feedthrough.fmu");
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(fmu.c_str(), nullptr, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(lsdae_set_text(sim, "Int64_input", "-9223372036854775807"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set_text(sim, "UInt64_input", "18446744073709551615"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set_text(sim, "String_input", "héllo"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set_text(sim, "Boolean_input", "true"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set(sim, "Int32_input", 42), LSDAE_OK) << lsdae_last_error(sim);
  // Type checks: a fraction for an integer, a String through lsdae_set, garbage text.
  EXPECT_EQ(lsdae_set(sim, "Int32_input", 1.5), LSDAE_ERR_USAGE);
  EXPECT_NE(std::string(lsdae_last_error(sim)).find("\"Int32_input\" (Int32)"), std::string::npos)
      << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set(sim, "String_input", 1.0), LSDAE_ERR_USAGE);
  EXPECT_EQ(lsdae_set_text(sim, "Float64_continuous_input", "1e400"), LSDAE_ERR_USAGE);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  int64_t i = 0;
  ASSERT_EQ(lsdae_get_int64(sim, "Int64_output", &i), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(i, -9223372036854775807LL);
  ASSERT_EQ(lsdae_get_int64(sim, "Int32_output", &i), LSDAE_OK);
  EXPECT_EQ(i, 42);
  ASSERT_EQ(lsdae_get_int64(sim, "Boolean_output", &i), LSDAE_OK);
  EXPECT_EQ(i, 1);
  EXPECT_EQ(lsdae_get_int64(sim, "UInt64_output", &i), LSDAE_ERR_USAGE) << "2^64 - 1 does not fit";
  EXPECT_EQ(text_of(sim, "UInt64_output"), "18446744073709551615");
  EXPECT_EQ(text_of(sim, "String_output"), "héllo");
  EXPECT_EQ(text_of(sim, "Binary_output"), "666f6f");
  char small[4];
  EXPECT_EQ(lsdae_get_text(sim, "String_output", small, sizeof small, nullptr), LSDAE_ERR_USAGE);
  EXPECT_EQ(lsdae_get_int64(sim, "String_output", &i), LSDAE_ERR_USAGE);
  lsdae_free(sim);
}

TEST(CApiTyped, ArraysAndInputFiles) {
  CORPUS_FMU(fmu, "fmi3/StateSpace.fmu");
  lsdae_simulation* sim = nullptr;
  ASSERT_EQ(lsdae_open(fmu.c_str(), nullptr, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(lsdae_set_text(sim, "u", "1 2 3"), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(lsdae_set(sim, "u[2]", 5.0), LSDAE_OK) << lsdae_last_error(sim);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(text_of(sim, "y"), "1 5 3");
  double y2 = 0;
  ASSERT_EQ(lsdae_get(sim, "y[2]", &y2), LSDAE_OK) << lsdae_last_error(sim);
  EXPECT_EQ(y2, 5.0);
  lsdae_free(sim);

  CORPUS_FMU(feedthrough, "fmi3/Feedthrough.fmu");
  ASSERT_EQ(lsdae_open(feedthrough.c_str(), nullptr, &sim), LSDAE_OK);
  EXPECT_EQ(lsdae_set_input_file(sim, (kCorpus / "fmi3/Feedthrough_in.csv").c_str()), LSDAE_OK)
      << lsdae_last_error(sim);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  int64_t i = 0;
  ASSERT_EQ(lsdae_get_int64(sim, "Int32_output", &i), LSDAE_OK);
  EXPECT_EQ(i, -2147483648LL);
  ASSERT_EQ(lsdae_advance_to(sim, 1.5, nullptr), LSDAE_OK) << lsdae_last_error(sim);
  ASSERT_EQ(lsdae_get_int64(sim, "Int32_output", &i), LSDAE_OK);
  EXPECT_EQ(i, 2147483647LL) << "the step at t = 1 from the input file";
  EXPECT_EQ(lsdae_set_input_file(sim, "/no/such.csv"), LSDAE_ERR_USAGE) << "after initialize, and missing";
  lsdae_free(sim);
}

}  // namespace
