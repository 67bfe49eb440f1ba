// tests/runtime/cli/parser_regression_test.cpp -- regressions in the
// modelDescription parser and the validator found while building the fuzzing
// corpus (runtime/fuzz/, docs/fuzzing.md). Each test names the finding.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "import/model_description_parser.h"
#include "import/validate.h"
#include "lsdae/diagnostics.h"
#include "lsdae/manifest.h"

namespace lsdae::test {
namespace {

std::string description(const std::string& types, const std::string& variables) {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="M" instantiationToken="{t}">
  <ModelExchange modelIdentifier="M"/>
  <TypeDefinitions>)" + types + R"(</TypeDefinitions>
  <ModelVariables>
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
)" + variables + R"(
  </ModelVariables>
  <ModelStructure/>
</fmiModelDescription>
)";
}

// What `lsdae validate` counts as errors: both severities.
std::string errors_of(const Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items())
    if (item.severity == Severity::error || item.severity == Severity::conformance) out += item.format() + "\n";
  return out;
}

// Finding 1: UInt64 min/max above INT64_MAX (on a variable or a UInt64Type)
// were reported as "is not an integer"; the start value had been fixed
// before, the bounds had not.
TEST(ParserRegression, UInt64BoundsAboveInt64MaxAreIntegers) {
  Diagnostics d;
  ModelDescription md = import::parse_model_description(
      description(R"(<UInt64Type name="Big" min="0" max="18446744073709551615"/>)",
                  R"(<UInt64 name="u" valueReference="1" causality="parameter" variability="fixed"
                       start="18446744073709551615" min="9223372036854775808" max="18446744073709551615"/>
                     <UInt64 name="t" valueReference="2" causality="parameter" variability="fixed"
                       start="1" declaredType="Big"/>)"),
      d);
  EXPECT_EQ(errors_of(d), "");
  ASSERT_EQ(md.types.size(), 1u);
  ASSERT_TRUE(md.types[0].max.has_value());
  EXPECT_EQ(*md.types[0].max, static_cast<double>(std::numeric_limits<std::uint64_t>::max()));
  const Variable* u = md.find(ValueReference{1});
  ASSERT_NE(u, nullptr);
  ASSERT_TRUE(u->min && u->max);
  EXPECT_EQ(*u->min, 9223372036854775808.0);
  EXPECT_EQ(*u->max, static_cast<double>(std::numeric_limits<std::uint64_t>::max()));
  const Variable* t = md.find(ValueReference{2});
  ASSERT_NE(t, nullptr);
  ASSERT_TRUE(t->max.has_value()) << "declaredType supplies the bound";
  // Signed types still reject what does not fit them.
  Diagnostics bad;
  import::parse_model_description(
      description("", R"(<Int64 name="i" valueReference="1" causality="parameter" variability="fixed" start="0"
                           max="18446744073709551615"/>)"),
      bad);
  EXPECT_NE(errors_of(bad).find("max=\"18446744073709551615\" is not an integer"), std::string::npos)
      << errors_of(bad);
}

// Finding 2: an input Clock was reported as "an input without start value";
// FMI 3.0 Clocks have no start attribute.
TEST(ParserRegression, InputClockNeedsNoStartValue) {
  Diagnostics d;
  ModelDescription md = import::parse_model_description(
      description("", R"(<Clock name="tick" valueReference="1" causality="input" variability="discrete"
                           intervalVariability="triggered"/>
                         <Float64 name="u" valueReference="2" causality="input" variability="continuous"/>)"),
      d);
  import::validate(md, Manifest{}, d);
  std::string errors = errors_of(d);
  EXPECT_EQ(errors.find("\"tick\" is an input without start value"), std::string::npos) << errors;
  // Other inputs still need one.
  EXPECT_NE(errors.find("variable \"u\" is an input without start value"), std::string::npos) << errors;
}

}  // namespace
}  // namespace lsdae::test
