// tests/runtime/cli/openmodelica_form_cli_test.cpp -- the `lsdae` program on
// OpenModelica's fully implicit DAE form: `info` (text and --json) says which
// form was read, `validate` explains a manifest whose residual count fits no
// form, `simulate` runs the hand-written RcLadderOM (tests/runtime/foreign_fmus)
// and says with --verbose why its Jacobian is built by finite differences.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_fixture.h"
#include "mini_json.h"
#include "rc_ladder_om_fmu.h"

namespace lsdae::test {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class OpenModelicaFormCli : public CliTest {};

TEST_F(OpenModelicaFormCli, InfoSaysWhichFormWasRead) {
  RcLadderOmFmu files("cli-info");
  ProcessResult info = lsdae({"info", files.dir().string()});
  ASSERT_TRUE(ExitedWith(info, 0));
  EXPECT_TRUE(Mentions(info, "form                    fully implicit DAE (OpenModelica form: no "
                             "ContinuousStateDerivative; a state in dependencies stands for x and ẋ) (DAE mode "
                             "through the enable switch)"));
  EXPECT_TRUE(Mentions(info, "residual groups         601"));
  EXPECT_TRUE(Mentions(info, "validation              0 errors, 0 warnings"));

  ProcessResult json_run = lsdae({"info", "--json", files.dir().string()});
  ASSERT_TRUE(ExitedWith(json_run, 0));
  Json json = JsonReader::parse(json_run.out);
  EXPECT_EQ(json["form"].string, "fully_implicit_openmodelica");
  EXPECT_NE(json["form_description"].string.find("a state in dependencies stands for x and ẋ"), std::string::npos);
  EXPECT_EQ(json["counts"]["states"].number, 200);
  EXPECT_EQ(json["counts"]["algebraic_variables"].number, 401);
  EXPECT_EQ(json["counts"]["residual_groups"].number, 601);

  // The kit's FMUs of the other forms keep their keys.
  ProcessResult shape_b = lsdae({"info", "--json", catalog_entry("TransmissionLine_dae_shapeB_10").fmu.string()});
  ASSERT_TRUE(ExitedWith(shape_b, 0));
  EXPECT_EQ(JsonReader::parse(shape_b.out)["form"].string, "fully_implicit");
  ProcessResult om = lsdae({"info", "--json", catalog_entry("TransmissionLine_dae_openmodelica_10").fmu.string()});
  ASSERT_TRUE(ExitedWith(om, 0));
  EXPECT_EQ(JsonReader::parse(om.out)["form"].string, "fully_implicit_openmodelica");
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(OpenModelicaFormCli, ValidateNamesBothCountsOfABrokenManifest) {
  RcLadderOmOptions broken;
  broken.drop_last_residual = true;
  RcLadderOmFmu files("cli-broken", broken);
  ProcessResult validate = lsdae({"validate", files.dir().string()});
  EXPECT_TRUE(ExitedWith(validate, 1));
  EXPECT_TRUE(Mentions(validate, "fmi-ls-manifest.xml:1: error: 600 residual groups for 200 states and 401 algebraic "
                                 "variables"));
  EXPECT_TRUE(Mentions(validate, "(200 + 401 = 601)"));
  EXPECT_TRUE(Mentions(validate, "600 fits neither"));
  ProcessResult simulate = lsdae({"simulate", files.dir().string(), "-o", (work_ / "broken.csv").string()});
  EXPECT_TRUE(ExitedWith(simulate, 1));
  EXPECT_FALSE(Mentions(simulate, "unbalanced"));
}

TEST_F(OpenModelicaFormCli, SimulateRunsItAndSaysWhyFiniteDifferences) {
  RcLadderOmFmu files("cli-simulate");
  const auto csv = work_ / "ladder.csv", stats = work_ / "ladder.json";
  ProcessResult run = lsdae({"--verbose", "simulate", files.dir().string(), "--no-progress", "--stop", "0.05", "-o",
                             csv.string(), "--stats", stats.string(), "--output-vars", "vLoad,C[1].v"});
  ASSERT_TRUE(ExitedWith(run, 0));
  EXPECT_TRUE(Mentions(run, "names a state for both x and ẋ"));
  EXPECT_TRUE(Mentions(run, "the Jacobian is built by coloured finite differences"));
  Json j = JsonReader::parse(read_text(stats));
  EXPECT_TRUE(j["completed"].boolean);
  EXPECT_EQ(j["model"]["unknowns"].number, 601);
  EXPECT_EQ(j["jacobian"]["method"].string, "finite differences") << read_text(stats);

  ProcessResult directional = lsdae({"simulate", files.dir().string(), "--jacobian", "directional", "-o",
                                     (work_ / "d.csv").string()});
  EXPECT_TRUE(ExitedWith(directional, 2));
  EXPECT_TRUE(Mentions(directional, "cannot be asked for apart → use --jacobian fd"));
  EXPECT_TRUE(leftovers().empty());
}

}  // namespace
}  // namespace lsdae::test
