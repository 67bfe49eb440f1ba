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
  // Names only label results: a broken "must" that simulation does not depend on.
  EXPECT_TRUE(o.has(":14: conformance error: the name \"x\" is used twice (first at line 7)")) << o.text();
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
  EXPECT_TRUE(o.has("conformance error: <ContinuousStateDerivative> for \"der(x)\" lists 1 dependency but 2 "
                    "dependenciesKind entries")) << o.text();
  o = run(kVariables, R"(<ContinuousStateDerivative valueReference="2" dependenciesKind="constant"/>)");
  EXPECT_TRUE(o.has("conformance error: <ContinuousStateDerivative> for \"der(x)\" has dependenciesKind but no "
                    "dependencies")) << o.text();
}

TEST(Validate, VariableRules) {
  Outcome o = run(kVariables + R"(<Float64 name="p" valueReference="20" causality="parameter" variability="fixed"/>
<Int32 name="c" valueReference="21" variability="continuous"/>
<Float64 name="a" valueReference="22" causality="parameter" variability="fixed" start="1 2"><Dimension start="2"/></Float64>
<Float64 name="q" valueReference="23" initial="exact"/>
<Float64 name="n" valueReference="24" nominal="0" min="2" max="1"/>
)");
  EXPECT_TRUE(o.has(":14: conformance error: variable \"p\" is a parameter without start value")) << o.text();
  EXPECT_TRUE(o.has(":15: conformance error: variable \"c\" is Int32 with variability=\"continuous\"")) << o.text();
  EXPECT_FALSE(o.has(":16: error")) << "arrays are valid: " << o.text();
  EXPECT_TRUE(o.has(":17: conformance error: variable \"q\" has initial=\"exact\" but no start value")) << o.text();
  EXPECT_TRUE(o.has(":18: conformance error: variable \"n\" has min=2")) << o.text();
  EXPECT_TRUE(o.has(":18: conformance error: variable \"n\" has nominal=0")) << o.text();
  // None of these stops simulation (arrays are simulated).
  EXPECT_EQ(o.diagnostics.count(Severity::error), 0u) << o.text();
}

TEST(Validate, ModelLevelRules) {
  Outcome o = run(replaced(kVariables, "causality=\"independent\"", "causality=\"local\""));
  EXPECT_TRUE(o.has("conformance error: no variable has causality=\"independent\"")) << o.text();
  std::string md = test::model_description();
  Diagnostics d;
  ModelDescription parsed = parse_model_description(
      replaced(replaced(md, "modelIdentifier=\"HelloWorld\"", "modelIdentifier=\"../../evil\""), "stopTime=\"1\"",
               "stopTime=\"-1\""),
      d);
  validate(parsed, Manifest{}, d);
  std::string text;
  for (const auto& item : d.items()) text += item.format() + "\n";
  // A path cannot name the binary: an error. A bad experiment is only a warning (simulate takes --stop).
  EXPECT_NE(text.find("error: modelIdentifier=\"../../evil\" is not a valid C identifier"), std::string::npos) << text;
  EXPECT_NE(text.find("warning: DefaultExperiment stopTime=-1 is before startTime=0 → pass --start/--stop"),
            std::string::npos) << text;
  EXPECT_EQ(d.count(Severity::error), 1u) << text;
}

TEST(Validate, EveryOutputMustBeListed) {
  Outcome o = run(kVariables + R"(<Float64 name="out" valueReference="30" causality="output"/>
)");
  EXPECT_TRUE(o.has(":14: conformance error: variable \"out\" has causality=\"output\" but no <Output> lists it"))
      << o.text();
  o = run(kVariables + R"(<Float64 name="out" valueReference="30" causality="output"/>
)", kStructure + R"(<Output valueReference="30"/><Output valueReference="30"/><Output valueReference="3"/>)");
  EXPECT_TRUE(o.has("conformance error: <Output> lists \"out\" twice")) << o.text();
  EXPECT_TRUE(o.has("conformance error: <Output> lists \"y\", whose causality is \"local\"")) << o.text();
  EXPECT_EQ(o.diagnostics.count(Severity::error), 0u) << o.text();
}

// Issue 13: "FMI 3.0 requires one <Output> per output, in ModelVariables order" refused a valid FMU.
// FMI 3.0 (<Output>): "The ordering of the variables in this list is defined by the exporting tool."
TEST(Validate, OutputsInAnyOrderAreValid) {
  std::string outputs = R"(<Float64 name="b" valueReference="31" causality="output"/>
<Float64 name="a" valueReference="30" causality="output"/>
<Float64 name="c" valueReference="32" causality="output"/>
)";
  Outcome o = run(kVariables + outputs,
                  R"(<Output valueReference="32"/><Output valueReference="30"/><Output valueReference="31"/>)" + kStructure);
  EXPECT_TRUE(o.diagnostics.empty()) << o.text();
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
  // FMI-LS-DAE names no causality for residuals: reading one works whatever it is.
  EXPECT_TRUE(o.has("warning: the residual \"g[2]\" has causality=\"parameter\" → it should be local or output"))
      << o.text();
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
  EXPECT_TRUE(o.has("error: 1 residual group, 1 state, 2 algebraic variables: too few residuals for the "
                    "semi-explicit form; the semi-explicit form needs one residual per algebraic variable (2) → "
                    "structural analysis cannot match 1 unknown to any residual")) << o.text();
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
  EXPECT_TRUE(o.has("warning: 1 DAE-mode row has no dependencies attribute, so it counts")) << o.text();
  EXPECT_TRUE(o.has("dense")) << o.text();
}

// Issue 13: an undefined declaredType (seen in a published LS-DAE example FMU) breaks an FMI
// rule that simulation does not depend on: `validate` fails, `simulate` warns (conformance).
TEST(Validate, UndefinedDeclaredTypeIsAConformanceError) {
  Outcome o = run(replaced(kVariables, R"(name="y" valueReference="3")", R"(name="y" declaredType="Voltage" valueReference="3")"));
  EXPECT_TRUE(o.has("modelDescription.xml:9: conformance error: variable \"y\" has declaredType=\"Voltage\", but no "
                    "such type is defined → add it to <TypeDefinitions> or remove the attribute")) << o.text();
  EXPECT_FALSE(o.diagnostics.has_errors()) << o.text();
  EXPECT_TRUE(o.diagnostics.has_conformance_errors());
  EXPECT_EQ(o.diagnostics.validation_errors(), 1u);
  // Defined: clean.
  o = run(replaced(kVariables, R"(name="y" valueReference="3")", R"(name="y" declaredType="Voltage" valueReference="3")"),
          kStructure, kManifestBodyA, R"(<TypeDefinitions><Float64Type name="Voltage" unit="V"/></TypeDefinitions>
)");
  EXPECT_TRUE(o.diagnostics.empty()) << o.text();
}

// Issue 14: NaN or infinite start values on states were accepted without a word.
TEST(Validate, NonFiniteStartOfAStateOrAlgebraicVariableIsAnError) {
  for (const char* bad : {"NaN", "INF", "-INF", "nan", "inf"}) {
    SCOPED_TRACE(bad);
    Outcome o = run(replaced(kVariables, R"(initial="exact" start="1")", std::string(R"(initial="exact" start=")") + bad + "\""));
    EXPECT_TRUE(o.has(std::string(":7: error: the state \"x\" has start=\"") + bad +
                      "\", which is not a finite number → lsdae cannot integrate from NaN or infinity")) << o.text();
  }
  Outcome o = run(replaced(kVariables, R"(name="z" valueReference="4" causality="local" variability="continuous" initial="approx" start="0")",
                           R"(name="z" valueReference="4" causality="local" variability="continuous" initial="approx" start="NaN")"));
  EXPECT_TRUE(o.has(":10: error: the algebraic variable \"z\" has start=\"NaN\", which is not a finite number")) << o.text();
  // A NaN elsewhere (not an unknown lsdae integrates) is not this error.
  o = run(kVariables + R"(<Float64 name="p" valueReference="20" causality="parameter" variability="fixed" start="NaN"/>
)");
  EXPECT_FALSE(o.has("not a finite number")) << o.text();
}

TEST(Validate, DerivativeAttributeMattersOnlyForListedStateDerivatives) {
  // A derivative relation that no <ContinuousStateDerivative> uses (FMI allows it between inputs or
  // outputs) only breaks a rule when it dangles.
  Outcome o = run(kVariables + R"(<Float64 name="v" valueReference="20" causality="output"/>
<Float64 name="dv" valueReference="21" causality="output" derivative="99"/>
<Int32 name="k" valueReference="22" causality="output"/>
<Float64 name="dk" valueReference="23" causality="output" derivative="22"/>
)", kStructure + R"(<Output valueReference="20"/><Output valueReference="21"/><Output valueReference="22"/><Output valueReference="23"/>)");
  EXPECT_TRUE(o.has(":15: conformance error: variable \"dv\" has derivative=\"99\"")) << o.text();
  EXPECT_TRUE(o.has(":17: warning: variable \"dk\" is the derivative of \"k\", which is not a continuous Float")) << o.text();
  EXPECT_FALSE(o.diagnostics.has_errors()) << o.text();
}

TEST(Validate, ModelIdentifierThatStillNamesAFile) {
  Diagnostics d;
  ModelDescription md = parse_model_description(
      replaced(test::model_description(), "modelIdentifier=\"HelloWorld\"", "modelIdentifier=\"Hello-World\""), d);
  validate(md, Manifest{}, d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].severity, Severity::conformance);
  EXPECT_NE(d.items()[0].message.find("lsdae loads binaries/<platform>/Hello-World.so anyway"), std::string::npos)
      << d.items()[0].format();
}

TEST(Validate, IndependentVariableRules) {
  Outcome o = run(replaced(kVariables, R"(<Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>)",
                           R"(<Float64 name="time" valueReference="0" causality="independent" variability="discrete" initial="exact" start="0"/>)"));
  EXPECT_TRUE(o.has(":6: conformance error: the independent variable \"time\" has a start value")) << o.text();
  EXPECT_TRUE(o.has(":6: conformance error: the independent variable \"time\" has an initial attribute")) << o.text();
  EXPECT_TRUE(o.has(":6: conformance error: the independent variable \"time\" has variability=\"discrete\"")) << o.text();
  EXPECT_FALSE(o.diagnostics.has_errors()) << o.text();
}

// The Reference-FMUs' Roberts manifest lists the constant y3_nominal as an initial unknown.
TEST(Validate, InitialUnknownsOutsideTheDefinedSet) {
  std::string vars = kVariables + R"(<Float64 name="c" valueReference="20" variability="constant" start="2"/>
<Float64 name="ind" valueReference="21"/>
)";
  std::string structure = kStructure + R"(<InitialUnknown valueReference="2"/><InitialUnknown valueReference="20"/>
<InitialUnknown valueReference="21"/><InitialUnknown valueReference="2"/><EventIndicator valueReference="21"/>)";
  Outcome o = run(vars, structure);
  EXPECT_TRUE(o.has("warning: <InitialUnknown> lists \"c\" (causality=\"local\", variability=\"constant\"), which is "
                    "not an unknown of Initialization Mode")) << o.text();
  EXPECT_TRUE(o.has("conformance error: <InitialUnknown> lists the event indicator \"ind\"")) << o.text();
  EXPECT_TRUE(o.has("conformance error: <InitialUnknown> lists \"der(x)\" twice")) << o.text();
  EXPECT_FALSE(o.has("<InitialUnknown> lists \"der(x)\" (")) << o.text();  // a derivative belongs there
  EXPECT_FALSE(o.diagnostics.has_errors()) << o.text();
  // In the manifest, algebraic variables are initial unknowns too.
  std::string body = replaced(kManifestBodyA, "<ModelStructure>", R"(<ModelStructure><InitialUnknown valueReference="3"/>)");
  o = run(kVariables, kStructure, body);
  EXPECT_TRUE(o.diagnostics.empty()) << o.text();
}

TEST(Validate, DanglingReferencesThatSimulationDoesNotUseAreConformanceErrors) {
  Outcome o = run(kVariables, kStructure + R"(<Output valueReference="77"/><EventIndicator valueReference="78"/>)");
  EXPECT_TRUE(o.has("conformance error: <Output valueReference=\"77\"> references no variable")) << o.text();
  EXPECT_TRUE(o.has("conformance error: <EventIndicator valueReference=\"78\"> references no variable")) << o.text();
  // A state derivative that dangles is the state vector itself: an error.
  o = run(kVariables, kStructure + R"(<ContinuousStateDerivative valueReference="79"/>)");
  EXPECT_TRUE(o.has("error: <ContinuousStateDerivative valueReference=\"79\"> references no variable")) << o.text();
  EXPECT_TRUE(o.diagnostics.has_errors());
}

// A repeated dependency is found per unknown (one stamp array shared by all
// unknowns): a value listed once in each of two rows is no repeat, a value
// listed twice in one row is, and each row reports its own.
TEST(Validate, RepeatedDependenciesAreFoundPerUnknown) {
  const std::string body = replaced(
      replaced(kManifestBodyA, R"(valueReference="5" dependencies="1 3 4" dependenciesKind="constant constant constant")",
               R"(valueReference="5" dependencies="3 1 3 4" dependenciesKind="constant constant constant constant")"),
      R"(valueReference="6" dependencies="1 3 4" dependenciesKind="constant constant constant")",
      R"(valueReference="6" dependencies="4 1 3 4" dependenciesKind="constant constant constant constant")");
  Outcome o = run(kVariables, kStructure, body);
  EXPECT_TRUE(o.has("warning: <Formulation> for \"g[1]\" lists \"y\" twice")) << o.text();
  EXPECT_TRUE(o.has("warning: <Formulation> for \"g[2]\" lists \"z\" twice")) << o.text();
  std::size_t repeats = 0;
  for (std::size_t at = o.text().find(" twice"); at != std::string::npos; at = o.text().find(" twice", at + 1)) ++repeats;
  EXPECT_EQ(repeats, 2u) << o.text();
  EXPECT_FALSE(o.diagnostics.has_errors()) << o.text();
}

TEST(Validate, DefaultExperimentValuesAreWarnings) {
  Diagnostics d;
  ModelDescription md = parse_model_description(
      replaced(test::model_description(), R"(tolerance="1e-6" stepSize="0.01")", R"(tolerance="0" stepSize="-1")"), d);
  validate(md, Manifest{}, d);
  std::string text;
  for (const auto& item : d.items()) text += item.format() + "\n";
  EXPECT_NE(text.find("warning: DefaultExperiment tolerance=0 is not positive → pass --rtol to simulate"), std::string::npos) << text;
  EXPECT_NE(text.find("warning: DefaultExperiment stepSize=-1 is not positive → pass --output-interval"), std::string::npos) << text;
  EXPECT_EQ(d.validation_errors(), 0u) << text;
}

}  // namespace
}  // namespace lsdae::import
