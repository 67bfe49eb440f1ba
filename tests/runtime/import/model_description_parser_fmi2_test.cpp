// tests/runtime/import/model_description_parser_fmi2_test.cpp --
// runtime/import/model_description_parser_fmi2.cpp: FMI 2.0 XML into the one
// ModelDescription (indices become value references, guid the token,
// aliases accepted), and the logger's "#r17#" substitution of fmi2/instance.cpp.
#include <gtest/gtest.h>

#include "fmu/fmi2/instance.h"
#include "import/model_description_parser.h"
#include "import/validate.h"
#include "lsdae/error.h"

namespace lsdae::import {
namespace {

// 1-based: 1 time, 2 x (vr 100), 3 der(x) (vr 3), 4 alias_of_x (vr 100), 5 k (Real vr 9), 6 mode (Integer vr 9),
// 7 e (Enumeration), 8 flag (Boolean).
const char* kXml = R"xml(<?xml version="1.0"?>
<fmiModelDescription fmiVersion="2.0.1" modelName="M" guid="{g-1}" numberOfEventIndicators="2"
    maxNumberOfConstraints="3">
  <ModelExchange modelIdentifier="M" providesDirectionalDerivative="true" canGetAndSetFMUstate="true"
      providesConstraints="withJacobian" providesProjection="true"/>
  <TypeDefinitions>
    <SimpleType name="Modes"><Enumeration><Item name="off" value="1"/><Item name="on" value="2"/></Enumeration></SimpleType>
    <SimpleType name="Gain"><Real unit="1/s" min="0" nominal="4"/></SimpleType>
  </TypeDefinitions>
  <DefaultExperiment stopTime="2" tolerance="1e-6"/>
  <ModelVariables>
    <ScalarVariable name="time" valueReference="0" causality="independent"><Real/></ScalarVariable>
    <ScalarVariable name="x" valueReference="100" causality="output" initial="exact"><Real start="1.5"/></ScalarVariable>
    <ScalarVariable name="der(x)" valueReference="3"><Real derivative="2"/></ScalarVariable>
    <ScalarVariable name="alias_of_x" valueReference="100" causality="output" initial="exact"><Real start="1.5"/></ScalarVariable>
    <ScalarVariable name="k" valueReference="9" causality="parameter" variability="fixed"><Real declaredType="Gain" start="2"/></ScalarVariable>
    <ScalarVariable name="mode" valueReference="9" causality="parameter" variability="fixed"><Integer start="-4"/></ScalarVariable>
    <ScalarVariable name="e" valueReference="11" causality="parameter" variability="fixed"><Enumeration declaredType="Modes" start="2"/></ScalarVariable>
    <ScalarVariable name="flag" valueReference="12" causality="parameter" variability="fixed"><Boolean start="true"/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs><Unknown index="2" dependencies="2"/><Unknown index="4" dependencies="2"/></Outputs>
    <Derivatives><Unknown index="3" dependencies="2 5" dependenciesKind="dependent fixed"/></Derivatives>
    <InitialUnknowns><Unknown index="3"/></InitialUnknowns>
  </ModelStructure>
</fmiModelDescription>)xml";

TEST(ModelDescriptionParserFmi2, MapsFmi2OntoTheOneModelDescription) {
  Diagnostics d;
  ModelDescription md = parse_model_description(kXml, d);
  EXPECT_TRUE(d.empty()) << d.items()[0].format();
  EXPECT_EQ(md.fmi_major, FmiVersion::fmi2);
  EXPECT_EQ(md.fmi_version, "2.0.1");
  EXPECT_EQ(md.instantiation_token, "{g-1}");
  EXPECT_EQ(md.number_of_event_indicators, 2u);
  EXPECT_EQ(md.max_number_of_constraints, 3u);
  ASSERT_TRUE(md.model_exchange);
  EXPECT_TRUE(md.model_exchange->provides_directional_derivatives);
  EXPECT_TRUE(md.model_exchange->can_get_and_set_fmu_state);
  EXPECT_TRUE(md.model_exchange->needs_completed_integrator_step) << "completedIntegratorStepNotNeeded absent";
  EXPECT_EQ(md.model_exchange->provides_constraints, ModelExchange::Constraints::with_jacobian);
  EXPECT_TRUE(md.model_exchange->provides_projection);
  EXPECT_FALSE(md.model_exchange->provides_projection_step);
  EXPECT_EQ(md.default_experiment.stop_time, 2.0);
  ASSERT_EQ(md.variables.size(), 8u);
  EXPECT_EQ(md.variables[2].derivative, 100u) << "derivative=\"2\" is variable 2's value reference";
  EXPECT_EQ(md.variables[4].unit, "1/s") << "from the SimpleType";
  EXPECT_EQ(md.variables[4].nominal, 4.0);
  EXPECT_EQ(md.variables[5].type, VariableType::int32);
  EXPECT_EQ(md.variables[5].start, -4.0);
  EXPECT_EQ(md.variables[5].variability, Variability::fixed);
  EXPECT_EQ(md.variables[6].type, VariableType::enumeration);
  EXPECT_EQ(md.variables[7].start, 1.0);
  EXPECT_EQ(md.variables[3].variability, Variability::continuous) << "FMI 2.0's default for a Real";
  ASSERT_EQ(md.structure.continuous_state_derivatives.size(), 1u);
  const Unknown& der = md.structure.continuous_state_derivatives[0];
  EXPECT_EQ(der.value_reference, 3u);
  EXPECT_EQ(der.dependencies, (std::vector<ValueReference>{100, 9}));
  ASSERT_TRUE(der.dependencies_kind);
  EXPECT_EQ((*der.dependencies_kind)[1], DependencyKind::fixed);
  ASSERT_EQ(md.structure.outputs.size(), 2u);
  EXPECT_EQ(md.structure.outputs[1].variable_index, 3u) << "the alias that was listed";
  // A value reference shared by a Real and an Integer: the Real is found by value reference.
  EXPECT_EQ(md.find(9)->name, "k");
  EXPECT_EQ(md.find(100)->name, "x") << "the first alias";
}

TEST(ModelDescriptionParserFmi2, AliasesAndTypeSharedReferencesValidateClean) {
  Diagnostics d;
  ModelDescription md = parse_model_description(kXml, d);
  ValidationResult r = validate(md, Manifest{}, d);
  EXPECT_EQ(d.count(Severity::error), 0u) << (d.empty() ? "" : d.items()[0].format());
  EXPECT_EQ(d.count(Severity::conformance), 0u) << (d.empty() ? "" : d.items()[0].format());
  EXPECT_EQ(r.states, (std::vector<ValueReference>{100}));
  EXPECT_EQ(r.derivatives, (std::vector<ValueReference>{3}));
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(ModelDescriptionParserFmi2, IndicesThatPointNowhereAreErrorsWithTheirLine) {
  std::string xml = replaced(kXml, "<Unknown index=\"3\" dependencies=\"2 5\"", "<Unknown index=\"30\" dependencies=\"2 5\"");
  xml = replaced(xml, "derivative=\"2\"", "derivative=\"0\"");
  Diagnostics d;
  ModelDescription md = parse_model_description(xml, d);
  ASSERT_EQ(d.count(Severity::error), 2u);
  EXPECT_NE(d.items()[0].format().find("modelDescription.xml:14: error: variable \"der(x)\" has derivative=\"0\", "
                                       "which points at no variable"),
            std::string::npos)
      << d.items()[0].format();
  EXPECT_NE(d.items()[1].format().find("modelDescription.xml:23: error: <Derivatives><Unknown index=\"30\"> points "
                                       "at no variable (ModelVariables has 8, counted from 1)"),
            std::string::npos)
      << d.items()[1].format();
  EXPECT_TRUE(md.structure.continuous_state_derivatives.empty());
  EXPECT_FALSE(md.variables[2].derivative);
}

TEST(ModelDescriptionParserFmi2, FmiVersionsOtherThan20AreNotReadAsFmi2) {
  Diagnostics d;
  const std::string xml = replaced(kXml, "fmiVersion=\"2.0.1\"", "fmiVersion=\"2.1\"");
  EXPECT_THROW(parse_model_description(xml, d), Error);
}

TEST(Fmi2Logger, ReferencesAreReplacedByNamesOfTheRightType) {
  Diagnostics d;
  ModelDescription md = parse_model_description(kXml, d);
  EXPECT_EQ(Fmi2Instance::substitute_references(md, "#r9# is k, #i9# is mode, #r100# is x"),
            "k is k, mode is mode, x is x");
  EXPECT_EQ(Fmi2Instance::substitute_references(md, "##r9## and #r777# and #q1# and #r#"),
            "#r9# and #r777# and #q1# and #r#");
  EXPECT_EQ(Fmi2Instance::substitute_references(md, "#b12#=1, #i11#=2, 100## done #"), "flag=1, e=2, 100# done #");
}

}  // namespace
}  // namespace lsdae::import
