// tests/runtime/import/model_description_parser_test.cpp --
// runtime/import/model_description_parser.cpp.
#include "import/model_description_parser.h"

#include <gtest/gtest.h>

#include "lsdae/error.h"
#include "xml_fixtures.h"

namespace lsdae::import {
namespace {

using test::model_description;

TEST(ModelDescriptionParser, ReadsModelAttributesAndCapabilities) {
  Diagnostics d;
  ModelDescription md = parse_model_description(model_description(), d);
  EXPECT_TRUE(d.empty()) << d.items()[0].format();
  EXPECT_EQ(md.fmi_version, "3.0");
  EXPECT_EQ(md.model_name, "HelloWorld");
  EXPECT_EQ(md.instantiation_token, "{tok}");
  ASSERT_TRUE(md.model_exchange);
  EXPECT_EQ(md.model_exchange->model_identifier, "HelloWorld");
  EXPECT_TRUE(md.model_exchange->provides_directional_derivatives);
  EXPECT_FALSE(md.model_exchange->needs_completed_integrator_step);
  EXPECT_EQ(md.default_experiment.stop_time, 1.0);
  EXPECT_EQ(md.default_experiment.tolerance, 1e-6);
  ASSERT_EQ(md.variables.size(), 8u);
  const Variable* der = md.find("der(x)");
  ASSERT_NE(der, nullptr);
  EXPECT_EQ(der->derivative, 1u);
  EXPECT_EQ(der->line, 8);
  EXPECT_EQ(md.find(7u)->type, VariableType::boolean);
  EXPECT_EQ(md.find(7u)->start, 0.0);
  EXPECT_EQ(md.find(7u)->causality, Causality::structural_parameter);
  ASSERT_EQ(md.structure.continuous_state_derivatives.size(), 1u);
  EXPECT_EQ(*md.structure.continuous_state_derivatives[0].dependencies, std::vector<ValueReference>{1});
  EXPECT_EQ(*md.structure.continuous_state_derivatives[0].dependencies_kind,
            std::vector<DependencyKind>{DependencyKind::dependent});
}

TEST(ModelDescriptionParser, ReadsEveryVariableTypeWithDefaults) {
  std::string vars = R"(
    <Float64 name="time" valueReference="0" causality="independent"/>
    <Float32 name="f32" valueReference="1" causality="parameter" variability="fixed" start="1.5" min="0" max="2" nominal="3" unit="m"/>
    <Int8 name="i8" valueReference="2" causality="parameter" variability="fixed" start="-8"/>
    <UInt8 name="u8" valueReference="3" causality="parameter" variability="fixed" start="8"/>
    <Int16 name="i16" valueReference="4" causality="parameter" variability="fixed" start="-16"/>
    <UInt16 name="u16" valueReference="5" causality="parameter" variability="fixed" start="16"/>
    <Int32 name="i32" valueReference="6" causality="parameter" variability="tunable" start="-32" min="-100" max="100"/>
    <UInt32 name="u32" valueReference="7" causality="parameter" variability="fixed" start="32"/>
    <Int64 name="i64" valueReference="8" causality="parameter" variability="fixed" start="-64"/>
    <UInt64 name="u64" valueReference="9" causality="parameter" variability="fixed" start="18446744073709551615"/>
    <Boolean name="b" valueReference="10" causality="parameter" variability="fixed" start="true"/>
    <String name="s" valueReference="11" causality="parameter" variability="fixed"><Start value="hello"/></String>
    <Binary name="bin" valueReference="12" causality="parameter" variability="fixed" start="0aff"/>
    <Enumeration name="e" valueReference="13" declaredType="Mode" causality="parameter" variability="fixed" start="2"/>
    <Clock name="clk" valueReference="14" causality="input"/>
    <Float64 name="v" valueReference="15" declaredType="Voltage"/>
    <Float64 name="arr" valueReference="16" causality="parameter" variability="fixed" start="1 2 3"><Dimension start="3"/></Float64>
    <Int32 name="disc" valueReference="17"/>
)";
  std::string types = R"(  <TypeDefinitions>
    <Float64Type name="Voltage" unit="V" nominal="1000" min="-1e5" max="1e5"/>
    <EnumerationType name="Mode"><Item name="off" value="1"/><Item name="on" value="2"/></EnumerationType>
  </TypeDefinitions>
  <UnitDefinitions>
    <Unit name="degC"><BaseUnit K="1" factor="1" offset="273.15"/></Unit>
  </UnitDefinitions>
)";
  Diagnostics d;
  ModelDescription md = parse_model_description(model_description(vars, "", "3.0", types), d);
  EXPECT_EQ(d.count(Severity::error), 0u) << d.items()[0].format();
  ASSERT_EQ(md.variables.size(), 18u);
  const char* expected[] = {"Float64", "Float32", "Int8",   "UInt8",   "Int16",       "UInt16",
                            "Int32",   "UInt32",  "Int64",  "UInt64",  "Boolean",     "String",
                            "Binary",  "Enumeration", "Clock", "Float64", "Float64", "Int32"};
  for (std::size_t i = 0; i < md.variables.size(); ++i) EXPECT_STREQ(to_string(md.variables[i].type), expected[i]);
  const Variable& f32 = *md.find("f32");
  EXPECT_EQ(f32.start, 1.5);
  EXPECT_EQ(f32.min, 0.0);
  EXPECT_EQ(f32.max, 2.0);
  EXPECT_EQ(f32.nominal, 3.0);
  EXPECT_EQ(f32.unit, "m");
  EXPECT_EQ(md.find("i8")->start, -8.0);
  EXPECT_EQ(md.find("i32")->variability, Variability::tunable);
  EXPECT_EQ(md.find("i32")->min, -100.0);
  EXPECT_EQ(md.find("u64")->start_text, "18446744073709551615");
  EXPECT_EQ(md.find("b")->start, 1.0);
  EXPECT_EQ(md.find("s")->start_text, "hello");
  EXPECT_EQ(md.find("e")->start, 2.0);
  EXPECT_EQ(md.find("clk")->causality, Causality::input);
  // declaredType supplies unit, nominal, min, max.
  const Variable& v = *md.find("v");
  EXPECT_EQ(v.unit, "V");
  EXPECT_EQ(v.nominal, 1000.0);
  EXPECT_EQ(v.min, -1e5);
  // Defaults: Float continuous, others discrete; causality local.
  EXPECT_EQ(v.variability, Variability::continuous);
  EXPECT_EQ(v.causality, Causality::local);
  EXPECT_EQ(md.find("disc")->variability, Variability::discrete);
  // Arrays are read with their dimensions (the validator rejects them).
  EXPECT_TRUE(md.find("arr")->is_array());
  EXPECT_EQ(md.find("arr")->dimensions[0].start, 3u);
  EXPECT_FALSE(md.find("arr")->start);
  ASSERT_EQ(md.types.size(), 2u);
  EXPECT_EQ(md.types[1].items.size(), 2u);
  ASSERT_EQ(md.units.size(), 1u);
  EXPECT_EQ(md.units[0].offset, 273.15);
}

TEST(ModelDescriptionParser, ReadsEveryModelStructureList) {
  std::string structure = R"(
    <Output valueReference="5"/>
    <ContinuousStateDerivative valueReference="2" dependencies="" />
    <ClockedState valueReference="6"/>
    <InitialUnknown valueReference="5" dependencies="1 3" dependenciesKind="fixed tunable"/>
    <EventIndicator valueReference="6" dependencies="1"/>
)";
  Diagnostics d;
  ModelDescription md = parse_model_description(model_description(test::kVariables, structure), d);
  EXPECT_EQ(d.count(Severity::error), 0u);
  EXPECT_EQ(md.structure.outputs.size(), 1u);
  ASSERT_EQ(md.structure.continuous_state_derivatives.size(), 1u);
  ASSERT_TRUE(md.structure.continuous_state_derivatives[0].dependencies);
  EXPECT_TRUE(md.structure.continuous_state_derivatives[0].dependencies->empty()) << "present and empty: no deps";
  EXPECT_FALSE(md.structure.outputs[0].dependencies) << "absent: dense";
  EXPECT_EQ(md.structure.clocked_states.size(), 1u);
  EXPECT_EQ((*md.structure.initial_unknowns[0].dependencies_kind)[1], DependencyKind::tunable);
  EXPECT_EQ(md.structure.event_indicators.size(), 1u);
}

TEST(ModelDescriptionParser, RejectsOtherFmiVersionsWithAHint) {
  Diagnostics d;
  try {
    parse_model_description(model_description(test::kVariables, test::kStructure, "1.0"), d);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::xml);
    EXPECT_STREQ(e.what(),
                 "modelDescription.xml:2: fmiVersion=\"1.0\" is not FMI 2.0 or 3.x → lsdae reads FMI 2.0 and FMI "
                 "3.0; export the model as FMI 3.0 (or 2.0) Model Exchange");
  }
  EXPECT_THROW(parse_model_description("<fmiModelDescription modelName=\"m\"/>", d), Error);
  EXPECT_THROW(parse_model_description("<notAnFmu fmiVersion=\"3.0\"/>", d), Error);
}

TEST(ModelDescriptionParser, ReportsEveryBadAttributeWithItsLine) {
  std::string vars = R"(
    <Float64 name="time" valueReference="0" causality="independent"/>
    <Float64 name="a" valueReference="one" causality="local"/>
    <Float64 name="b" valueReference="2" causality="sideways"/>
    <Float64 valueReference="3" start="abc"/>
    <Wobble name="w" valueReference="4"/>
)";
  Diagnostics d;
  parse_model_description(model_description(vars, "<Output valueReference=\"5\" dependenciesKind=\"dependent often\"/>"), d);
  std::vector<std::string> lines;
  for (const auto& item : d.items()) lines.push_back(item.format());
  ASSERT_EQ(lines.size(), 6u) << ::testing::PrintToString(lines);
  EXPECT_EQ(lines[0], "modelDescription.xml:7: error: <Float64> attribute valueReference=\"one\" is not an unsigned "
                      "32-bit integer → write an unsigned 32-bit integer");
  EXPECT_NE(lines[1].find("modelDescription.xml:8: error: <Float64> causality=\"sideways\" is not a valid value"),
            std::string::npos) << lines[1];
  EXPECT_NE(lines[2].find(":9: error: <Float64> lacks the required attribute name"), std::string::npos) << lines[2];
  EXPECT_NE(lines[3].find(":9: error: <Float64> attribute start=\"abc\" is not a number"), std::string::npos);
  EXPECT_NE(lines[4].find(":10: warning: unknown element <Wobble>"), std::string::npos) << lines[4];
  EXPECT_NE(lines[5].find("dependenciesKind has the unknown value \"often\""), std::string::npos) << lines[5];
}

// The schema requires modelName and instantiationToken, but lsdae runs without them:
// conformance errors (validate fails, simulate warns), not a stop.
TEST(ModelDescriptionParser, MissingModelNameOrTokenIsAConformanceError) {
  Diagnostics d;
  std::string text = test::model_description();
  text.replace(text.find(" modelName=\"HelloWorld\""), std::string(" modelName=\"HelloWorld\"").size(), "");
  text.replace(text.find(" instantiationToken=\"{tok}\""), std::string(" instantiationToken=\"{tok}\"").size(), "");
  ModelDescription md = parse_model_description(text, d);
  EXPECT_EQ(d.count(Severity::error), 0u);
  ASSERT_EQ(d.count(Severity::conformance), 2u);
  EXPECT_EQ(d.items()[0].format(),
            "modelDescription.xml:2: conformance error: <fmiModelDescription> lacks the required attribute modelName → add it");
  EXPECT_EQ(md.instantiation_token, "");
}

}  // namespace
}  // namespace lsdae::import
