// tests/runtime/import/validate_test.cpp -- runtime/import/validate.cpp: one
// test per rule, each asserting the message (with its line) and the severity.
#include "import/validate.h"

#include <gtest/gtest.h>

#include "import/manifest_parser.h"
#include "import/model_description_parser.h"
#include "xml_fixtures.h"

namespace lsdae::import {
namespace {

using test::kManifestBodyA;
using test::kStructure;
using test::kVariables;

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "fixture lacks: " << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

struct Outcome {
  Diagnostics diagnostics;
  ValidationResult result;
  std::string text() const {
    std::string out;
    for (const auto& d : diagnostics.items()) out += d.format() + "\n";
    return out;
  }
  bool has(const std::string& fragment) const { return text().find(fragment) != std::string::npos; }
};

Outcome run(const std::string& variables = kVariables, const std::string& structure = kStructure,
            const std::string& manifest_body = kManifestBodyA, const std::string& extra = "") {
  Outcome o;
  ModelDescription md = parse_model_description(test::model_description(variables, structure, "3.0", extra), o.diagnostics);
  Manifest m;
  if (!manifest_body.empty()) m = parse_manifest(test::manifest_a(manifest_body), &md, o.diagnostics);
  o.result = validate(md, m, o.diagnostics);
  return o;
}

TEST(Validate, CleanFixtureIsSemiExplicit) {
  Outcome o = run();
  EXPECT_TRUE(o.diagnostics.empty()) << o.text();
  EXPECT_EQ(o.result.form, DaeForm::semi_explicit);
  EXPECT_EQ(o.result.states, std::vector<ValueReference>{1});
  EXPECT_EQ(o.result.derivatives, std::vector<ValueReference>{2});
}

TEST(Validate, DuplicateValueReferencesAndNames) {
  Outcome o = run(kVariables + R"(<Float64 name="x" valueReference="4" causality="local"/>
)");
  EXPECT_TRUE(o.has("modelDescription.xml:14: error: variables \"z\" (line 10) and \"x\" share valueReference 4")) << o.text();
  EXPECT_TRUE(o.has(":14: error: the name \"x\" is used twice (first at line 7)")) << o.text();
}

TEST(Validate, DanglingDerivativeAndDependencies) {
  Outcome o = run(replaced(kVariables, "derivative=\"1\"", "derivative=\"99\""),
                  R"(<ContinuousStateDerivative valueReference="2" dependencies="1 42"/>)");
  EXPECT_TRUE(o.has(":8: error: variable \"der(x)\" has derivative=\"99\", but no variable has valueReference 99 → fix the reference")) << o.text();
  EXPECT_TRUE(o.has("depends on valueReference 42, which references no variable")) << o.text();
}

TEST(Validate, StateDerivativeWithoutDerivativeAttribute) {
  Outcome o = run(kVariables, R"(<ContinuousStateDerivative valueReference="3"/>)", "");
  EXPECT_TRUE(o.has("error: <ContinuousStateDerivative> lists \"y\", which has no derivative attribute")) << o.text();
}

TEST(Validate, DependenciesKindMustMatch) {
  Outcome o = run(kVariables, R"(<ContinuousStateDerivative valueReference="2" dependencies="1" dependenciesKind="constant fixed"/>)");
  EXPECT_TRUE(o.has("lists 1 dependencies but 2 dependenciesKind entries")) << o.text();
  o = run(kVariables, R"(<ContinuousStateDerivative valueReference="2" dependenciesKind="constant"/>)");
  EXPECT_TRUE(o.has("has dependenciesKind but no dependencies")) << o.text();
}

TEST(Validate, VariableRules) {
  Outcome o = run(kVariables + R"(<Float64 name="p" valueReference="20" causality="parameter" variability="fixed"/>
<Int32 name="c" valueReference="21" variability="continuous"/>
<Float64 name="a" valueReference="22" causality="parameter" variability="fixed" start="1 2"><Dimension start="2"/></Float64>
<Float64 name="q" valueReference="23" initial="exact"/>
<Float64 name="n" valueReference="24" nominal="0" min="2" max="1"/>
)");
  EXPECT_TRUE(o.has(":14: error: variable \"p\" is a parameter without start value")) << o.text();
  EXPECT_TRUE(o.has(":15: error: variable \"c\" is Int32 with variability=\"continuous\"")) << o.text();
  EXPECT_FALSE(o.has(":16: error")) << "arrays are valid: " << o.text();
  EXPECT_TRUE(o.has(":17: error: variable \"q\" has initial=\"exact\" but no start value")) << o.text();
  EXPECT_TRUE(o.has(":18: error: variable \"n\" has min=2")) << o.text();
  EXPECT_TRUE(o.has(":18: warning: variable \"n\" has nominal=0")) << o.text();
}

TEST(Validate, ModelLevelRules) {
  Outcome o = run(replaced(kVariables, "causality=\"independent\"", "causality=\"local\""));
  EXPECT_TRUE(o.has("error: no variable has causality=\"independent\"")) << o.text();
  std::string md = test::model_description();
  Diagnostics d;
  ModelDescription parsed = parse_model_description(
      replaced(replaced(md, "modelIdentifier=\"HelloWorld\"", "modelIdentifier=\"../../evil\""), "stopTime=\"1\"",
               "stopTime=\"-1\""),
      d);
  validate(parsed, Manifest{}, d);
  std::string text;
  for (const auto& item : d.items()) text += item.format() + "\n";
  EXPECT_NE(text.find("modelIdentifier=\"../../evil\" is not a valid C identifier"), std::string::npos) << text;
  EXPECT_NE(text.find("stopTime=-1 is before startTime=0"), std::string::npos) << text;
}

TEST(Validate, OutputsMustBeListedInOrder) {
  Outcome o = run(kVariables + R"(<Float64 name="out" valueReference="30" causality="output"/>
)");
  EXPECT_TRUE(o.has("<ModelStructure> lists 0 <Output>s, but 1 variables have causality=\"output\"")) << o.text();
}

TEST(Validate, ManifestReferencesAndRoles) {
  std::string body = replaced(kManifestBodyA, "<AlgebraicVariable valueReference=\"4\"/>",
                              "<AlgebraicVariable valueReference=\"44\"/><AlgebraicVariable valueReference=\"1\"/>");
  Outcome o = run(kVariables, kStructure, body);
  EXPECT_TRUE(o.has("fmi-ls-manifest.xml:6: error: <AlgebraicVariable valueReference=\"44\"> references no variable")) << o.text();
  EXPECT_TRUE(o.has("the algebraic variable \"x\" is also a continuous state or a state derivative")) << o.text();
  // z (4) is now neither algebraic nor a state, so the residuals' dependency on it is flagged.
  EXPECT_TRUE(o.has("depends on \"z\", which is not a known in DAE mode")) << o.text();
}

TEST(Validate, ResidualMustBeFloat64LocalContinuous) {
  Outcome o = run(replaced(kVariables, R"(<Float64 name="g[2]" valueReference="6" causality="local" variability="continuous"/>)",
                           R"(<Int32 name="g[2]" valueReference="6" causality="parameter" variability="fixed" start="0"/>)"));
  EXPECT_TRUE(o.has("error: the residual \"g[2]\" is Int32 → FMI-LS-DAE requires Float64")) << o.text();
  EXPECT_TRUE(o.has("error: the residual \"g[2]\" has causality=\"parameter\" → it must be local or output")) << o.text();
  EXPECT_TRUE(o.has("error: the residual \"g[2]\" has variability=\"fixed\" → it must be continuous")) << o.text();
}

TEST(Validate, FormulationIndicesMustDecrease) {
  std::string body = replaced(kManifestBodyA, R"(<Residual><Formulation valueReference="6")",
                              R"(<Residual><Formulation valueReference="8" index="1"/><Formulation valueReference="9" index="3"/><Formulation valueReference="6")");
  std::string vars = kVariables + R"(<Float64 name="c0" valueReference="8"/><Float64 name="c1" valueReference="9"/>
)";
  Outcome o = run(vars, kStructure, body);
  EXPECT_TRUE(o.has("error: Formulation indices are out of order in the <Residual> at line 11: \"c1\" has index 3 after index 1")) << o.text();
  EXPECT_TRUE(o.has("warning: some <Formulation>s of this <Residual> have an index and some do not")) << o.text();
  body = replaced(kManifestBodyA, R"(<Residual><Formulation valueReference="6")",
                  R"(<Residual><Formulation valueReference="8" index="3"/><Formulation valueReference="6" index="1")");
  o = run(vars, kStructure, body);
  EXPECT_TRUE(o.has("warning: Formulation index jumps from 3 to 1")) << o.text();
}

TEST(Validate, CountsThatFitNeitherForm) {
  std::string body = replaced(kManifestBodyA,
                              R"(<Residual><Formulation valueReference="6" dependencies="1 3 4" dependenciesKind="constant constant constant"/></Residual>)",
                              "");
  Outcome o = run(kVariables, kStructure, body);
  EXPECT_TRUE(o.has("error: 1 residual groups, 1 states, 2 algebraic variables: too few residuals for the "
                    "semi-explicit form; the semi-explicit form needs one residual per algebraic variable (2)")) << o.text();
  // A residual that takes der(x) makes the form fully implicit, which then needs 3 residuals.
  body = replaced(kManifestBodyA, R"(valueReference="5" dependencies="1 3 4" dependenciesKind="constant constant constant")",
                  R"(valueReference="5" dependencies="1 2 3 4")");
  o = run(kVariables, kStructure, body);
  EXPECT_EQ(o.result.form, DaeForm::fully_implicit);
  EXPECT_TRUE(o.has("too few residuals for the fully implicit form")) << o.text();
}

TEST(Validate, EnableSwitchMustBeABooleanStructuralParameter) {
  Outcome o = run(replaced(kVariables, R"(<Boolean name="enableDAEMode" valueReference="7" causality="structuralParameter" variability="fixed" start="false"/>)",
                           R"(<Float64 name="enableDAEMode" valueReference="7" causality="parameter" variability="fixed" start="1"/>)"));
  EXPECT_TRUE(o.has("error: the DAE enable switch \"enableDAEMode\" is Float64, not Boolean")) << o.text();
  EXPECT_TRUE(o.has("warning: the DAE enable switch \"enableDAEMode\" has causality=\"parameter\"")) << o.text();
}

TEST(Validate, DenseRowsAreAWarningThatSaysWhatTheyCost) {
  std::string body = replaced(kManifestBodyA, R"(<Formulation valueReference="5" dependencies="1 3 4" dependenciesKind="constant constant constant"/>)",
                              R"(<Formulation valueReference="5"/>)");
  Outcome o = run(kVariables, kStructure, body);
  EXPECT_EQ(o.diagnostics.count(Severity::error), 0u) << o.text();
  EXPECT_TRUE(o.has("warning: 1 DAE-mode rows have no dependencies attribute")) << o.text();
  EXPECT_TRUE(o.has("dense")) << o.text();
}

}  // namespace
}  // namespace lsdae::import
