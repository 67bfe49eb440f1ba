// tests/runtime/import/dae_form_test.cpp -- runtime/import/dae_form.cpp through
// the validator: which form a manifest is read in, and the count rule of a
// manifest without ContinuousStateDerivative. The Hello World DAE
//   der(x) = y;  0 = y + 2z - x;  0 = y - 3z - 2x
// in OpenModelica's fully implicit form: F1 = der(x) - y names x (vr 1) for
// der(x), F2 and F3 as before.
#include <gtest/gtest.h>

#include "import/manifest_parser.h"
#include "import/model_description_parser.h"
#include "import/validate.h"
#include "xml_fixtures.h"

namespace lsdae::import {
namespace {

const std::string kVariablesOm = test::kVariables + R"(
    <Float64 name="F1" valueReference="8" causality="local" variability="continuous"/>
)";

// Shape B, no ContinuousStateDerivative; F1's dependencies name the state x (1) for der(x).
const std::string kManifestOm = R"(
  <EnableDAEParameter valueReference="7"/>
  <AlgebraicVariables>
    <AlgebraicVariable valueReference="3"/>
    <AlgebraicVariable valueReference="4"/>
  </AlgebraicVariables>
  <ModelStructure>
    <Residual valueReference="8" dependencies="1 3"/>
    <Residual valueReference="5" dependencies="1 3 4"/>
    <Residual valueReference="6" dependencies="1 3 4"/>
  </ModelStructure>
)";

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

Outcome run(const std::string& manifest_body, const std::string& variables = kVariablesOm) {
  Outcome o;
  ModelDescription md = parse_model_description(test::model_description(variables), o.diagnostics);
  Manifest m = parse_manifest(test::manifest_b(manifest_body), &md, o.diagnostics);
  o.result = validate(md, m, o.diagnostics);
  return o;
}

std::string without(std::string text, const std::string& line) {
  const auto at = text.find(line);
  EXPECT_NE(at, std::string::npos) << "fixture lacks: " << line;
  if (at != std::string::npos) text.erase(at, line.size());
  return text;
}

TEST(DaeForm, NoContinuousStateDerivativeAndOneResidualPerUnknownIsTheOpenModelicaForm) {
  Outcome o = run(kManifestOm);
  EXPECT_EQ(o.result.form, DaeForm::fully_implicit_openmodelica);
  EXPECT_EQ(o.diagnostics.count(Severity::error), 0u) << o.text();
  EXPECT_EQ(o.diagnostics.count(Severity::warning), 0u) << o.text();
  EXPECT_STREQ(to_key(o.result.form), "fully_implicit_openmodelica");
  EXPECT_NE(std::string(to_string(o.result.form)).find("a state in dependencies stands for x and ẋ"),
            std::string::npos);
  EXPECT_TRUE(is_fully_implicit(o.result.form));
}

TEST(DaeForm, ACountThatFitsNeitherFormNamesBothExpectations) {
  // 1 residual group for 1 state and 2 algebraic variables: neither 3 nor 2.
  Outcome o = run(without(without(kManifestOm, R"(<Residual valueReference="8" dependencies="1 3"/>)"),
                          R"(<Residual valueReference="5" dependencies="1 3 4"/>)"));
  EXPECT_TRUE(o.has("fmi-ls-manifest.xml:1: error: 1 residual groups for 1 states and 2 algebraic variables, with no "
                    "<ContinuousStateDerivative> and no residual that names a state derivative"))
      << o.text();
  EXPECT_TRUE(o.has("needs one residual per state and algebraic variable (1 + 2 = 3)")) << o.text();
  EXPECT_TRUE(o.has("which needs one per algebraic variable (2); 1 fits neither")) << o.text();
  EXPECT_TRUE(o.has("2 residuals are missing for the fully implicit form")) << o.text();
  EXPECT_FALSE(o.has("unbalanced")) << o.text();
  EXPECT_EQ(o.diagnostics.count(Severity::error), 1u) << o.text();
}

TEST(DaeForm, ExtraResidualsAreAnErrorNotAHigherIndexWarning) {
  std::string body = kManifestOm;
  body.replace(body.find("  </ModelStructure>"), 0, R"(    <Residual valueReference="9" dependencies="1"/>
)");
  Outcome o = run(body, kVariablesOm + R"(<Float64 name="F4" valueReference="9" causality="local" variability="continuous"/>
)");
  EXPECT_TRUE(o.has("error: 4 residual groups for 1 states and 2 algebraic variables")) << o.text();
  EXPECT_TRUE(o.has("1 residual is extra for the fully implicit form")) << o.text();
  EXPECT_EQ(o.result.form, DaeForm::fully_implicit_openmodelica);
}

TEST(DaeForm, AsManyResidualsAsAlgebraicVariablesStaysSemiExplicit) {
  // No ContinuousStateDerivative, 2 residual groups for 1 state and 2 algebraic
  // variables: the semi-explicit reading as before (der(x) then depends on everything).
  Outcome o = run(without(kManifestOm, R"(<Residual valueReference="8" dependencies="1 3"/>)"));
  EXPECT_EQ(o.result.form, DaeForm::semi_explicit) << o.text();
  EXPECT_EQ(o.diagnostics.count(Severity::error), 0u) << o.text();
}

TEST(DaeForm, TheOtherTwoFormsAreReadAsBefore) {
  // A derivative in dependencies: fully implicit (x stands for x only).
  std::string body = kManifestOm;
  body.replace(body.find(R"(dependencies="1 3"/>)"), 20, R"(dependencies="2 3"/>)");
  Outcome o = run(body);
  EXPECT_EQ(o.result.form, DaeForm::fully_implicit) << o.text();
  EXPECT_EQ(o.diagnostics.count(Severity::error), 0u) << o.text();
  // ContinuousStateDerivative listed: semi-explicit, and 3 residuals are one more than it needs.
  body = kManifestOm;
  body.replace(body.find("  <ModelStructure>\n") + 19, 0,
               R"(    <ContinuousStateDerivative valueReference="2" dependencies="3"/>
)");
  o = run(body);
  EXPECT_EQ(o.result.form, DaeForm::semi_explicit) << o.text();
  EXPECT_TRUE(o.has("more residuals than the semi-explicit form needs")) << o.text();
}

}  // namespace
}  // namespace lsdae::import
