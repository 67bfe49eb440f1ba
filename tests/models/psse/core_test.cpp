// tests/models/psse/core_test.cpp -- the model framework's own pieces
// (models/psse/core): parameters with character fields, the non-windup PI
// limiter, the block helpers and the bus frequency measurement.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "component_harness.h"
#include "psse/core/limiter.h"
#include "psse/core/parameters.h"

namespace lsdae::psse::test {
namespace {

constexpr ParameterSpec kWithText[] = {
    {"BUS", "", "a bus number"},
    {"CKT", "", "a circuit id", true},
    {"T", "s", "a time constant"},
};

DyrRecord tokens_record(std::vector<std::string> tokens) {
  DyrRecord r = record(5, "TEST", "1", {});
  r.tokens = std::move(tokens);
  r.numeric = false;
  for (const auto& t : r.tokens) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end != t.c_str() && *end == '\0') r.values.push_back(v);
  }
  return r;
}

TEST(Parameters, TextFieldsAreReadTokenByToken) {
  // As the .dyr reader keeps REPCA1's quoted circuit id '1 ': a token, not a value.
  const Parameters p(tokens_record({"7", "1 ", "0.5D-1"}), kWithText);
  EXPECT_EQ(p[0], 7.0);
  EXPECT_EQ(p.text(1), "1");
  EXPECT_TRUE(std::isnan(p[1]));
  EXPECT_DOUBLE_EQ(p[2], 0.05);  // a Fortran D exponent
  EXPECT_EQ(p.text(0), "");
  EXPECT_EQ(p.field(1), "field 2 (CKT) = '1'");
}

TEST(Parameters, TextFieldMessages) {
  try {
    Parameters p(tokens_record({"7", "A", "x"}), kWithText);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(), "test.dyr:1: TEST at bus 5 id '1': field 3 (T) is \"x\", not a number → correct the record");
  }
  try {
    Parameters p(tokens_record({"7", "A"}), kWithText);
    FAIL();
  } catch (const ModelError& e) {
    EXPECT_STREQ(e.what(),
                 "test.dyr:1: TEST at bus 5 id '1': 2 parameters, expected 3 (BUS, CKT, T) → correct the record, or "
                 "substitute or skip the model");
  }
}

}  // namespace
}  // namespace lsdae::psse::test
