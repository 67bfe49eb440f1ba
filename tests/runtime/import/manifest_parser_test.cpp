// tests/runtime/import/manifest_parser_test.cpp -- runtime/import/manifest_parser.cpp:
// both shapes and the real-world variations the parser tolerates.
#include "import/manifest_parser.h"

#include <gtest/gtest.h>

#include "import/model_description_parser.h"
#include "lsdae/error.h"
#include "xml_fixtures.h"

namespace lsdae::import {
namespace {

ModelDescription hello() {
  Diagnostics d;
  return parse_model_description(test::model_description(), d);
}

std::string all(const Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items()) out += item.format() + "\n";
  return out;
}

TEST(ManifestParser, ReadsShapeA) {
  ModelDescription md = hello();
  Diagnostics d;
  Manifest m = parse_manifest(test::manifest_a(), &md, d);
  EXPECT_TRUE(d.empty()) << all(d);
  EXPECT_EQ(m.shape, ManifestShape::draft_0_1);
  EXPECT_EQ(m.ls_name, "org.fmi-standard.fmi-ls-dae");
  EXPECT_EQ(m.ls_version, "0.1.0");
  EXPECT_EQ(m.enable_dae, 7u);
  ASSERT_EQ(m.algebraic_variables.size(), 2u);
  EXPECT_EQ(m.algebraic_variables[1].value_reference, 4u);
  ASSERT_EQ(m.residuals.size(), 2u);
  EXPECT_EQ(m.residuals[0].formulations.size(), 1u);
  EXPECT_EQ(m.residuals[1].formulations[0].residual.value_reference, 6u);
  EXPECT_EQ(m.structure.continuous_state_derivatives.size(), 1u);
}

TEST(ManifestParser, ReadsGroupedFormulationsWithIndices) {
  std::string body = R"(
  <ModelStructure>
    <Residual>
      <Formulation valueReference="5" index="2" dependencies="1"/>
      <Formulation valueReference="6" index="1" dependencies="2"/>
    </Residual>
  </ModelStructure>)";
  Diagnostics d;
  Manifest m = parse_manifest(test::manifest_a(body), nullptr, d);
  ASSERT_EQ(m.residuals.size(), 1u);
  ASSERT_EQ(m.residuals[0].formulations.size(), 2u);
  EXPECT_EQ(m.residuals[0].formulations[0].index, 2);
  EXPECT_EQ(m.residuals[0].formulations[1].index, 1);
  EXPECT_FALSE(m.enable_dae) << "shape A without EnableDAE: a DAE-only FMU";
  EXPECT_EQ(m.formulation_count(), 2u);
}

TEST(ManifestParser, ReadsShapeBWithInvariants) {
  std::string body = test::kManifestBodyB;
  body.insert(body.rfind("</ModelStructure>"), R"(<Invariant valueReference="6" dependencies="1"/>)");
  Diagnostics d;
  Manifest m = parse_manifest(test::manifest_b(body), nullptr, d);
  EXPECT_EQ(m.shape, ManifestShape::alpha_1_0_0);
  EXPECT_EQ(m.enable_dae, 7u);
  ASSERT_EQ(m.residuals.size(), 2u);
  EXPECT_EQ(m.residuals[0].formulations.size(), 1u);
  EXPECT_FALSE(m.residuals[0].formulations[0].index);
  ASSERT_EQ(m.invariants.size(), 1u);
  EXPECT_EQ(m.invariants[0].value_reference, 6u);
  // No version attribute: a note, not a warning.
  EXPECT_EQ(d.count(Severity::warning), 0u) << all(d);
  EXPECT_EQ(d.count(Severity::note), 1u) << all(d);
}

TEST(ManifestParser, ToleratesRealWorldVariations) {
  ModelDescription md = hello();
  Diagnostics d;
  // Root `fmi-ls-dae`, another fmi-ls-name, an empty version, an extra attribute, the
  // enable switch given by name, a namespaced element, an unknown element.
  std::string body = R"(
  <AlgebraicVariables><x:AlgebraicVariable xmlns:x="urn:x" valueReference="3"/><AlgebraicVariable valueReference="4"/></AlgebraicVariables>
  <Vendor thing="1"/>
  <ModelStructure>
    <Residual valueReference="5" dependencies="1 3 4"/>
    <Residual><Formulation valueReference="6"/></Residual>
  </ModelStructure>)";
  Manifest m = parse_manifest(
      test::manifest_a(body, "fmi-ls-dae",
                       R"( fmi-ls:fmi-ls-name="org.example.dae" fmi-ls:fmi-ls-version="" tool:extra="yes" xmlns:tool="urn:t" enableDAEModeVariable="enableDAEMode")"),
      &md, d);
  EXPECT_EQ(m.shape, ManifestShape::draft_0_1);
  EXPECT_EQ(m.enable_dae, 7u);
  EXPECT_EQ(m.enable_dae_name, "enableDAEMode");
  EXPECT_EQ(m.algebraic_variables.size(), 2u);
  EXPECT_EQ(m.residuals.size(), 2u);
  EXPECT_EQ(d.count(Severity::error), 0u) << all(d);
  std::string text = all(d);
  EXPECT_NE(text.find("warning: fmi-ls-name is \"org.example.dae\""), std::string::npos) << text;
  EXPECT_NE(text.find("note: the manifest states no version"), std::string::npos) << text;
  EXPECT_NE(text.find(":4: warning: unknown element <Vendor> in the manifest is ignored"), std::string::npos) << text;
  EXPECT_NE(text.find("note: flat <Residual valueReference>"), std::string::npos) << text;
}

TEST(ManifestParser, WarnsOnShapeBOrderAndMissingSwitch) {
  std::string body = R"(
  <ModelStructure>
    <Residual valueReference="5"/>
    <ContinuousStateDerivative valueReference="2"/>
  </ModelStructure>)";
  Diagnostics d;
  Manifest m = parse_manifest(test::manifest_b(body), nullptr, d);
  EXPECT_FALSE(m.enable_dae);
  std::string text = all(d);
  EXPECT_NE(text.find(":5: conformance error: <ContinuousStateDerivative> comes after a later kind of element"),
            std::string::npos) << text;
  EXPECT_NE(text.find("conformance error: a 1.0.0-alpha.1 manifest requires <EnableDAEParameter>"), std::string::npos) << text;
}

TEST(ManifestParser, RejectsUnknownRootsAndBadReferences) {
  Diagnostics d;
  try {
    parse_manifest("<fmiModelDescription fmiVersion=\"3.0\"/>", nullptr, d);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::xml);
    EXPECT_NE(std::string(e.what()).find("the root element is <fmiModelDescription>"), std::string::npos);
    EXPECT_EQ(std::string(e.what()).rfind(kManifestFile, 0), 0u) << e.what();
  }
  ModelDescription md = hello();
  Manifest m = parse_manifest(test::manifest_a("", "fmiLayeredStandardManifest",
                                               R"( fmi-ls:fmi-ls-name="org.fmi-standard.fmi-ls-dae" fmi-ls:fmi-ls-version="0.1" enableDAEModeVariable="nope")"),
                              &md, d);
  EXPECT_EQ(d.count(Severity::error), 1u) << all(d);
  EXPECT_NE(all(d).find("enableDAEModeVariable=\"nope\" names no variable"), std::string::npos);
  Diagnostics d2;
  parse_manifest(test::manifest_a("<ModelStructure><Residual/></ModelStructure>"), nullptr, d2);
  EXPECT_NE(all(d2).find("<Residual> has neither a valueReference nor <Formulation> children"), std::string::npos);
}

// FMI 3.0's generic layered-standard root (fmi3LSManifest.xsd), the fourth root name in the wild.
TEST(ManifestParser, ReadsTheGenericFmiLsManifestRootAsShapeA) {
  ModelDescription md = hello();
  Diagnostics d;
  Manifest m = parse_manifest(test::manifest_a(test::kManifestBodyA, "FMILSManifest"), &md, d);
  EXPECT_EQ(m.shape, ManifestShape::draft_0_1);
  EXPECT_EQ(m.root_element, "FMILSManifest");
  EXPECT_EQ(m.residuals.size(), 2u);
  EXPECT_EQ(d.count(Severity::note), 1u) << all(d);
  EXPECT_NE(all(d).find("note: root <FMILSManifest> (FMI 3.0's generic layered-standard manifest root) is read as a "
                        "draft-0.1 manifest"), std::string::npos) << all(d);
}

// FMI-LS-DAE: "Each <AlgebraicVariable> has only one attribute defining the value reference."
// The Reference-FMUs' Roberts manifest writes nominal="7", a value reference.
TEST(ManifestParser, WarnsOnAttributesAnAlgebraicVariableDoesNotHave) {
  ModelDescription md = hello();
  Diagnostics d;
  std::string body = R"(
  <AlgebraicVariables>
    <AlgebraicVariable valueReference="3" nominal="4"/>
    <AlgebraicVariable valueReference="4" nominal="1e-3"/>
  </AlgebraicVariables>)";
  Manifest m = parse_manifest(test::manifest_a(body), &md, d);
  EXPECT_EQ(m.algebraic_variables.size(), 2u);
  EXPECT_EQ(d.validation_errors(), 0u) << all(d);
  const std::string text = all(d);
  EXPECT_NE(text.find(":4: warning: <AlgebraicVariable> attribute nominal=\"4\" is not defined by FMI-LS-DAE and is "
                      "ignored (it is the value reference of \"z\") → put nominal on the variable in "
                      "modelDescription.xml, where FMI 3.0 defines it"), std::string::npos) << text;
  EXPECT_NE(text.find(":5: warning: <AlgebraicVariable> attribute nominal=\"1e-3\" is not defined by FMI-LS-DAE and "
                      "is ignored → put"), std::string::npos) << text;
}

}  // namespace
}  // namespace lsdae::import
