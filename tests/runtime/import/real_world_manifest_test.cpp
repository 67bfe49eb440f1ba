// tests/runtime/import/real_world_manifest_test.cpp -- the LS-DAE manifests and model
// descriptions other authors published (../shared/data/manifests/, provenance in its
// README): every one parses with the right shape, and their known mistakes (a constant
// listed as an initial unknown, an algebraic variable used in dependencies but not
// declared, a `nominal` attribute that is a value reference) come out as clear warnings,
// never as errors that would refuse the FMU.
//
// The files are read from ../shared next to the source tree (LSDAE_SHARED_MANIFESTS).
// Without ../shared at all the tests are skipped; with ../shared present, a missing
// file fails them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "import/manifest_parser.h"
#include "import/model_description_parser.h"
#include "import/validate.h"

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;

const fs::path kDir = LSDAE_SHARED_MANIFESTS;

std::string all(const Diagnostics& d) {
  std::string out;
  for (const auto& item : d.items()) out += item.format() + "\n";
  return out;
}
bool has(const Diagnostics& d, const std::string& fragment) { return all(d).find(fragment) != std::string::npos; }

class RealWorldManifests : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kDir.parent_path().parent_path()))
      GTEST_SKIP() << "no shared data folder at " << kDir.parent_path().parent_path() << " (it is ../shared of the clone)";
  }
  // Reads one file; fails (does not skip) when the shared folder is there but the file is not.
  std::string read(const std::string& name) {
    const fs::path path = kDir / name;
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      ADD_FAILURE() << "missing shared data file " << path;
      return {};
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

TEST_F(RealWorldManifests, EveryFileOfTheFolderIsCovered) {
  // A file added to the folder must get a test here too.
  std::set<std::string> covered = {
      "README.md",
      "elmir-nahodovic+fmi-ls-dae__SimpleDAE_fmi-ls-manifest_alpha1-draft.xml",
      "masoud-najafi+fmi-ls-dae__MassSpringOscillator_fmi-ls-manifest_alpha1+Invariant.xml",
      "masoud-najafi+fmi-ls-dae__MassSpringOscillator_modelDescription.xml",
      "modelica+Reference-FMUs__Roberts_fmi-ls-manifest_preAlpha.xml",
      "modelica+Reference-FMUs__Roberts_modelDescription.xml",
      "modelica+fmi-ls-dae__SimpleDAE_fmi-ls-manifest_0.1-Formulation.xml",
      "modelica+fmi-ls-dae__SimpleDAE_packaged-FMU_fmi-ls-manifest_flatResidual.xml",
      "modelica+fmi-ls-dae__examples_fmi-ls-dae-example_EnableDAE-Formulation.xml",
  };
  ASSERT_TRUE(fs::is_directory(kDir)) << kDir << " is missing";
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(kDir)) present.insert(entry.path().filename().string());
  for (const auto& name : covered) EXPECT_TRUE(present.count(name)) << "missing shared data file " << kDir / name;
  for (const auto& name : present) EXPECT_TRUE(covered.count(name)) << "no test covers " << name;
}

// Reference-FMUs Roberts: namespaced shape A, fmi-ls-name "fmi-ls-dae", empty version,
// <AlgebraicVariable nominal="7"> (the value reference of the constant y3_nominal), which
// the manifest also lists as an <InitialUnknown>.
TEST_F(RealWorldManifests, RobertsFromTheReferenceFmus) {
  Diagnostics d;
  ModelDescription md = parse_model_description(read("modelica+Reference-FMUs__Roberts_modelDescription.xml"), d);
  Manifest m = parse_manifest(read("modelica+Reference-FMUs__Roberts_fmi-ls-manifest_preAlpha.xml"), &md, d);
  ValidationResult r = validate(md, m, d);
  EXPECT_EQ(m.shape, ManifestShape::draft_0_1);
  EXPECT_EQ(m.root_element, "fmiLayeredStandardManifest");
  EXPECT_EQ(m.enable_dae, 1u);
  ASSERT_EQ(m.algebraic_variables.size(), 1u);
  EXPECT_EQ(m.algebraic_variables[0].value_reference, 6u);
  ASSERT_EQ(m.residuals.size(), 1u);
  EXPECT_EQ(m.residuals[0].formulations[0].index, 1);
  EXPECT_EQ(m.structure.initial_unknowns.size(), 3u);
  EXPECT_EQ(m.structure.event_indicators.size(), 2u);
  EXPECT_EQ(r.form, DaeForm::semi_explicit);
  EXPECT_EQ(r.states, (std::vector<ValueReference>{2, 4}));
  EXPECT_EQ(d.validation_errors(), 0u) << all(d);
  EXPECT_TRUE(has(d, "fmi-ls-manifest.xml:2: warning: fmi-ls-name is \"fmi-ls-dae\", expected \"org.fmi-standard.fmi-ls-dae\"")) << all(d);
  EXPECT_TRUE(has(d, "note: the manifest states no version")) << all(d);
  // The core ModelStructure lets g2 depend on the output y3, which is no known of ODE mode.
  EXPECT_TRUE(has(d, "warning: <EventIndicator> for \"g2\" depends on \"y3\", which is not a known in ODE mode")) << all(d);
  EXPECT_TRUE(has(d, "fmi-ls-manifest.xml:11: warning: <AlgebraicVariable> attribute nominal=\"7\" is not defined by "
                     "FMI-LS-DAE and is ignored (it is the value reference of \"y3_nominal\")")) << all(d);
  EXPECT_TRUE(has(d, "fmi-ls-manifest.xml:32: warning: <InitialUnknown> lists \"y3_nominal\" (causality=\"local\", "
                     "variability=\"constant\"), which is not an unknown of Initialization Mode")) << all(d);
}

// masoud-najafi fork: shape B with <EnableDAEParameter> and an <Invariant> (the energy).
TEST_F(RealWorldManifests, MassSpringOscillatorWithInvariant) {
  Diagnostics d;
  ModelDescription md =
      parse_model_description(read("masoud-najafi+fmi-ls-dae__MassSpringOscillator_modelDescription.xml"), d);
  Manifest m =
      parse_manifest(read("masoud-najafi+fmi-ls-dae__MassSpringOscillator_fmi-ls-manifest_alpha1+Invariant.xml"), &md, d);
  ValidationResult r = validate(md, m, d);
  EXPECT_EQ(m.shape, ManifestShape::alpha_1_0_0);
  EXPECT_EQ(m.root_element, "fmiDAEManifest");
  EXPECT_EQ(m.ls_version, "1.0.0-alpha.1");
  EXPECT_EQ(m.enable_dae, 10u);
  EXPECT_EQ(m.algebraic_variables.size(), 1u);
  EXPECT_EQ(m.residuals.size(), 1u);
  ASSERT_EQ(m.invariants.size(), 1u);
  EXPECT_EQ(m.invariants[0].value_reference, 8u);
  EXPECT_EQ(r.form, DaeForm::semi_explicit);
  EXPECT_EQ(d.validation_errors(), 0u) << all(d);
  EXPECT_EQ(d.count(Severity::warning), 0u) << all(d);
}

// modelica/fmi-ls-dae SimpleDAE, draft 0.1: root <fmi-ls-dae> in the default namespace,
// <EnableDAE>, <Residual><Formulation/>, Residuals before the Outputs.
TEST_F(RealWorldManifests, SimpleDaeDraftWithFormulations) {
  Diagnostics d;
  Manifest m = parse_manifest(read("modelica+fmi-ls-dae__SimpleDAE_fmi-ls-manifest_0.1-Formulation.xml"), nullptr, d);
  EXPECT_EQ(m.shape, ManifestShape::draft_0_1);
  EXPECT_EQ(m.root_element, "fmi-ls-dae");
  EXPECT_EQ(m.ls_version, "0.1");
  EXPECT_EQ(m.enable_dae, 13u);
  EXPECT_EQ(m.algebraic_variables.size(), 2u);
  ASSERT_EQ(m.residuals.size(), 2u);
  EXPECT_EQ(m.residuals[1].formulations[0].residual.value_reference, 12u);
  EXPECT_EQ(m.structure.outputs.size(), 2u);
  EXPECT_EQ(m.structure.continuous_state_derivatives.size(), 2u);
  EXPECT_TRUE(d.empty()) << all(d);
}

// The packaged SimpleDAE FMU: CRLF line ends, fmi-ls-name "fmi-ls-dae", version 1.0, no
// enable element (a DAE-only FMU), flat <Residual>s in a draft-0.1 root.
TEST_F(RealWorldManifests, SimpleDaePackagedFlatResiduals) {
  Diagnostics d;
  Manifest m =
      parse_manifest(read("modelica+fmi-ls-dae__SimpleDAE_packaged-FMU_fmi-ls-manifest_flatResidual.xml"), nullptr, d);
  EXPECT_EQ(m.shape, ManifestShape::draft_0_1);
  EXPECT_FALSE(m.enable_dae.has_value());
  ASSERT_EQ(m.residuals.size(), 2u);
  EXPECT_EQ(m.residuals[0].formulations.size(), 1u);
  EXPECT_EQ(m.residuals[0].formulations[0].residual.value_reference, 11u);
  EXPECT_EQ(d.validation_errors(), 0u) << all(d);
  EXPECT_TRUE(has(d, "warning: fmi-ls-name is \"fmi-ls-dae\"")) << all(d);
  EXPECT_EQ(d.count(Severity::note), 2u) << all(d);  // one per flat <Residual>
  EXPECT_TRUE(has(d, "fmi-ls-manifest.xml:25: note: flat <Residual valueReference> in a draft-0.1 manifest")) << all(d);
}

// elmir-nahodovic fork: an alpha.1 root without namespace that still spells the switch
// <EnableDAE>.
TEST_F(RealWorldManifests, Alpha1DraftWithTheOtherSwitchSpelling) {
  Diagnostics d;
  Manifest m =
      parse_manifest(read("elmir-nahodovic+fmi-ls-dae__SimpleDAE_fmi-ls-manifest_alpha1-draft.xml"), nullptr, d);
  EXPECT_EQ(m.shape, ManifestShape::alpha_1_0_0);
  EXPECT_EQ(m.enable_dae, 13u);
  EXPECT_EQ(m.algebraic_variables.size(), 2u);
  EXPECT_EQ(m.residuals.size(), 2u);
  EXPECT_EQ(d.validation_errors(), 0u) << all(d);
  EXPECT_TRUE(has(d, "fmi-ls-manifest.xml:10: note: <EnableDAE> is the other shape's spelling; accepted")) << all(d);
}

// The standard's example declares z1 as algebraic but its derivative depends on z2 too.
// It has no model description of its own; this one follows the manifest's comments.
TEST_F(RealWorldManifests, ExampleWithAnUndeclaredAlgebraicVariable) {
  const std::string md_text = R"XML(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Example" instantiationToken="{t}">
  <ModelExchange modelIdentifier="Example"/>
  <ModelVariables>
    <Float64 name="time" valueReference="0" causality="independent"/>
    <Float64 name="x1" valueReference="1" initial="exact" start="0"/>
    <Float64 name="der(x1)" valueReference="2" derivative="1"/>
    <Float64 name="z1" valueReference="5" initial="approx" start="0"/>
    <Float64 name="z2" valueReference="6" initial="approx" start="0"/>
    <Float64 name="u1" valueReference="7" causality="input" start="0"/>
    <Float64 name="u2" valueReference="8" causality="input" start="0"/>
    <Float64 name="y1" valueReference="9" causality="output"/>
    <Float64 name="__residual0" valueReference="11"/>
    <Boolean name="dae" valueReference="20" causality="structuralParameter" variability="fixed" start="false"/>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="9"/>
    <ContinuousStateDerivative valueReference="2"/>
  </ModelStructure>
</fmiModelDescription>
)XML";
  Diagnostics d;
  ModelDescription md = parse_model_description(md_text, d);
  ASSERT_TRUE(d.empty()) << all(d);
  Manifest m =
      parse_manifest(read("modelica+fmi-ls-dae__examples_fmi-ls-dae-example_EnableDAE-Formulation.xml"), &md, d);
  validate(md, m, d);
  EXPECT_EQ(m.shape, ManifestShape::draft_0_1);
  EXPECT_EQ(m.root_element, "fmi-ls-dae");
  EXPECT_EQ(m.enable_dae, 20u);
  EXPECT_EQ(m.algebraic_variables.size(), 1u);
  EXPECT_EQ(d.validation_errors(), 0u) << all(d);
  EXPECT_TRUE(has(d, "fmi-ls-manifest.xml:20: warning: <ContinuousStateDerivative> for \"der(x1)\" depends on \"z2\", "
                     "which is not a known in DAE mode (it is not declared in <AlgebraicVariables>) → if \"z2\" is an "
                     "algebraic variable of the DAE, add <AlgebraicVariable valueReference=\"6\"/>")) << all(d);
}

}  // namespace
}  // namespace lsdae::import
