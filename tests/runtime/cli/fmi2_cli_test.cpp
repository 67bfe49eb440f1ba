// tests/runtime/cli/fmi2_cli_test.cpp -- FMI 2.0 Model Exchange through the
// `lsdae` program, with an FMU we wrote by hand in the habits of other
// exporters (fmi2_oscillator_fmu.c: aliases, a value reference shared by a
// Real and an Integer, states in an order unlike their value references, no
// directional derivatives, no time variable, #r..# references in its log).
// It simulates to its exact solution, and bad FMI 2.0 input gets the same
// kind of message and exit code as FMI 3.0: a wrong guid, a missing required
// function, malformed XML, an index or a derivative that points nowhere, an
// LS-DAE manifest next to a 2.0 FMU.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <numbers>
#include <sstream>

#include "cli_fixture.h"
#include "lsdae/error.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

// ModelVariables, 1-based: 1 der(v), 2 w, 3 v, 4 x, 5 der(x), 6 position (alias of x), 7 crossings.
const std::string kModelDescription = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="2.0" modelName="Oscillator" guid="{4a1c-lsdae-fmi2-oscillator}"
    generationTool="hand-written C" numberOfEventIndicators="1">
  <ModelExchange modelIdentifier="Oscillator" completedIntegratorStepNotNeeded="true"/>
  <UnitDefinitions><Unit name="rad/s"><BaseUnit s="-1"/></Unit></UnitDefinitions>
  <TypeDefinitions><SimpleType name="AngularVelocity"><Real unit="rad/s"/></SimpleType></TypeDefinitions>
  <DefaultExperiment startTime="0" stopTime="3" stepSize="0.01"/>
  <ModelVariables>
    <ScalarVariable name="der(v)" valueReference="900"><Real derivative="3"/></ScalarVariable>
    <ScalarVariable name="w" valueReference="7" causality="parameter" variability="fixed" initial="exact">
      <Real declaredType="AngularVelocity" start="2"/></ScalarVariable>
    <ScalarVariable name="v" valueReference="41" initial="exact"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="x" valueReference="5000000" causality="output" initial="exact"><Real start="1"/></ScalarVariable>
    <ScalarVariable name="der(x)" valueReference="13"><Real derivative="4"/></ScalarVariable>
    <ScalarVariable name="position" valueReference="5000000" causality="output" initial="exact">
      <Real start="1"/></ScalarVariable>
    <ScalarVariable name="crossings" valueReference="7" causality="output" variability="discrete">
      <Integer/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs>
      <Unknown index="4" dependencies="4"/>
      <Unknown index="6" dependencies="4"/>
      <Unknown index="7" dependencies=""/>
    </Outputs>
    <Derivatives>
      <Unknown index="5" dependencies="3"/>
      <Unknown index="1" dependencies="4"/>
    </Derivatives>
    <InitialUnknowns>
      <Unknown index="1"/>
      <Unknown index="5"/>
      <Unknown index="7"/>
    </InitialUnknowns>
  </ModelStructure>
</fmiModelDescription>
)xml";

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  std::size_t column(const std::string& name) const {
    for (std::size_t c = 0; c < names.size(); ++c)
      if (names[c] == name) return c;
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
};

Csv read_csv(const fs::path& p) {
  std::ifstream in(p);
  Csv csv;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::stringstream s(line);
    std::string f;
    while (std::getline(s, f, ',')) fields.push_back(f);
    if (csv.names.empty()) {
      csv.names = fields;
      continue;
    }
    std::vector<double> row;
    for (const auto& x : fields) row.push_back(std::strtod(x.c_str(), nullptr));
    csv.rows.push_back(row);
  }
  return csv;
}

class Fmi2Cli : public CliTest {
 protected:
  // An unpacked FMI 2.0 FMU (a directory, opened in place) with `xml` and `binary`.
  fs::path oscillator(const std::string& xml = kModelDescription, const char* binary = LSDAE_FMI2_OSCILLATOR) {
    const fs::path dir = work_ / ("Oscillator" + std::to_string(count_++));
    write_text(dir / "modelDescription.xml", xml);
    fs::create_directories(dir / "binaries" / "linux64");
    fs::copy_file(binary, dir / "binaries" / "linux64" / "Oscillator.so");
    return dir;
  }
  int count_ = 0;
};

TEST_F(Fmi2Cli, SimulatesToTheExactSolutionWithAliasesAndOddValueReferences) {
  const fs::path fmu = oscillator();
  ProcessResult v = lsdae({"validate", fmu.string()});
  EXPECT_TRUE(ExitedWith(v, 0));
  EXPECT_TRUE(Mentions(v, "valid (0 errors, 0 warnings"));
  const fs::path out = work_ / "osc.csv";
  ProcessResult s = lsdae({"simulate", fmu.string(), "--rtol", "1e-9", "--atol", "1e-10", "--no-progress", "-o",
                           out.string()});
  ASSERT_TRUE(ExitedWith(s, 0));
  // The FMU's log message: "#r5000000#" is the first variable with that Real reference, "##" is "#".
  EXPECT_TRUE(Mentions(s, "x starts at 1 (# of crossings so far: 0)"));
  const Csv csv = read_csv(out);
  // Default channels: outputs and states, in ModelVariables order; the alias keeps its own name.
  EXPECT_EQ(csv.names, (std::vector<std::string>{"time", "v", "x", "position", "crossings"}));
  ASSERT_GT(csv.rows.size(), 300u);
  const double w = 2.0, pi = std::numbers::pi;
  double worst = 0;
  for (const auto& r : csv.rows) {
    const double t = r[0];
    worst = std::max(worst, std::fabs(r[csv.column("x")] - std::cos(w * t)));
    worst = std::max(worst, std::fabs(r[csv.column("v")] + w * std::sin(w * t)));
    EXPECT_EQ(r[csv.column("position")], r[csv.column("x")]) << "an alias is the same value, t = " << t;
    // Crossings at (k + 1/2) pi / w; away from them the count is exact.
    const double k = t * w / pi - 0.5;
    if (std::fabs(k - std::round(k)) > 1e-3) {
      EXPECT_EQ(r[csv.column("crossings")], std::floor(k) + 1) << "t = " << t;
    }
  }
  EXPECT_LT(worst, 1e-6) << "largest error against x = cos(2t), v = -2 sin(2t)";
  EXPECT_EQ(csv.rows.back()[csv.column("crossings")], 2) << "crossings at pi/4 and 3pi/4 before t = 3";
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(Fmi2Cli, SetOutputVarsAndInfoWorkOnAnFmi2Fmu) {
  const fs::path fmu = oscillator();
  const fs::path out = work_ / "osc.csv";
  ProcessResult s = lsdae({"simulate", fmu.string(), "--set", "w=3", "--stop", "1", "--no-progress", "-o",
                           out.string(), "--output-vars", "position,crossings,w"});
  ASSERT_TRUE(ExitedWith(s, 0));
  const Csv csv = read_csv(out);
  EXPECT_EQ(csv.names, (std::vector<std::string>{"time", "position", "crossings", "w"}));
  EXPECT_EQ(csv.rows.back()[3], 3.0) << "--set reached the Real that shares its value reference with an Integer";
  EXPECT_NEAR(csv.rows.back()[1], std::cos(3.0), 1e-5);
  EXPECT_EQ(csv.rows.back()[2], 1.0) << "one crossing, at pi/6";
  ProcessResult bad = lsdae({"simulate", fmu.string(), "--set", "crossings=1.5", "--no-progress", "-o",
                             (work_ / "bad.csv").string()});
  EXPECT_TRUE(ExitedWith(bad, exit_code(ErrorKind::usage)));
  ProcessResult i = lsdae({"info", fmu.string()});
  ASSERT_TRUE(ExitedWith(i, 0));
  EXPECT_TRUE(Mentions(i, "FMI 2.0"));
  EXPECT_TRUE(Mentions(i, "re:continuous states +2"));
  EXPECT_TRUE(Mentions(i, "re:event indicators +1"));
  ProcessResult vars = lsdae({"info", "--variables", "", fmu.string()});
  ASSERT_TRUE(ExitedWith(vars, 0));
  // Types as FMI 2.0 names them.
  EXPECT_TRUE(Mentions(vars, "re:position +Real +output"));
  EXPECT_TRUE(Mentions(vars, "re:crossings +Integer +output +discrete"));
}

TEST_F(Fmi2Cli, AWrongGuidIsRefusedByTheFmuWithItsMessage) {
  const fs::path fmu = oscillator(replaced(kModelDescription, "{4a1c-lsdae-fmi2-oscillator}", "{other}"));
  ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "o.csv").string()});
  EXPECT_TRUE(ExitedWith(s, exit_code(ErrorKind::fmu_call)));
  EXPECT_TRUE(Mentions(s, "fmi2Instantiate(\"lsdae\") returned NULL (the FMU said: wrong guid \"{other}\""));
  EXPECT_TRUE(Mentions(s, "(guid \"{other}\")"));
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(Fmi2Cli, AMissingRequiredFunctionIsABinaryError) {
  const fs::path fmu = oscillator(kModelDescription, LSDAE_FMI2_OSCILLATOR_WITHOUT_GET_DERIVATIVES);
  ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "o.csv").string()});
  EXPECT_TRUE(ExitedWith(s, exit_code(ErrorKind::binary)));
  EXPECT_TRUE(Mentions(s, "Oscillator.so does not export the required function fmi2GetDerivatives → the binary is "
                          "not an FMI 2.0 Model Exchange FMU"));
  ProcessResult v = lsdae({"validate", fmu.string()});
  EXPECT_FALSE(ExitedWith(v, 0));
  EXPECT_TRUE(Mentions(v, "fmi2GetDerivatives"));
}

TEST_F(Fmi2Cli, BadFmi2XmlIsReportedWithFileAndLine) {
  struct Bad {
    std::string from, to;
    int exit;
    std::string message;
  };
  const Bad cases[] = {
      {"<ModelVariables>", "<ModelVariables", exit_code(ErrorKind::xml), "modelDescription.xml:"},
      {"<Unknown index=\"5\" dependencies=\"3\"/>", "<Unknown index=\"12\" dependencies=\"3\"/>",
       exit_code(ErrorKind::invalid),
       "re:modelDescription\\.xml:[0-9]+: error: <Derivatives><Unknown index=\"12\"> points at no variable "
       "\\(ModelVariables has 7, counted from 1\\)"},
      {"<Real derivative=\"4\"/>", "<Real derivative=\"99\"/>", exit_code(ErrorKind::invalid),
       "variable \"der(x)\" has derivative=\"99\", which points at no variable"},
      {"<Real derivative=\"4\"/>", "<Real derivative=\"7\"/>", exit_code(ErrorKind::invalid),
       "variable \"der(x)\" has derivative=\"7\", which is \"crossings\" (Integer, not Real)"},
      {"<Unknown index=\"1\" dependencies=\"4\"/>", "<Unknown index=\"1\" dependencies=\"4 0\"/>",
       exit_code(ErrorKind::invalid), "depends on index 0, which points at no variable"},
      {"<Unknown index=\"5\" dependencies=\"3\"/>", "<Unknown index=\"2\" dependencies=\"3\"/>",
       exit_code(ErrorKind::invalid), "\"w\""},
  };
  for (const Bad& bad : cases) {
    const fs::path fmu = oscillator(replaced(kModelDescription, bad.from, bad.to));
    ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "o.csv").string()});
    EXPECT_TRUE(ExitedWith(s, bad.exit)) << bad.to;
    EXPECT_TRUE(Mentions(s, bad.message)) << bad.to;
  }
}

// Messages name the calls and statuses of the FMU's own FMI version: an FMI
// 2.0 FMU never reads "fmi3..." (the engine is shared, the names were not).
TEST_F(Fmi2Cli, RunFailuresNameTheFmi2CallsAndStatuses) {
  // An infinite derivative: the NaN/inf report names fmi2GetDerivatives.
  const fs::path fmu = oscillator();
  ProcessResult inf = lsdae({"simulate", fmu.string(), "--set", "w=1e200", "--stop", "1", "--no-progress", "-o",
                             (work_ / "inf.csv").string()});
  EXPECT_TRUE(ExitedWith(inf, exit_code(ErrorKind::solver)));
  EXPECT_TRUE(Mentions(inf, "re:the FMU returned [+-]inf for der\\(v\\) \\(from fmi2GetDerivatives\\)"));
  EXPECT_FALSE(Mentions(inf, "fmi3"));
  // Repeated discards: the report names the function and fmi2Discard.
  const fs::path faulty = oscillator(kModelDescription, LSDAE_FMI2_OSCILLATOR_FAULTY);
  ProcessResult discard = lsdae({"simulate", faulty.string(), "--set", "w=-1", "--stop", "1", "--no-progress", "-o",
                                 (work_ / "discard.csv").string()});
  EXPECT_FALSE(ExitedWith(discard, 0));
  EXPECT_TRUE(Mentions(discard, "re:fmi2GetDerivatives \\(instance \"lsdae\"\\) returned fmi2Discard [0-9]+ times?"));
  EXPECT_FALSE(Mentions(discard, "fmi3"));
  // exit() inside a call: the supervisor's advice names fmi2Error.
  ProcessResult exits = lsdae({"simulate", faulty.string(), "--set", "w=0", "--stop", "1", "--no-progress", "-o",
                               (work_ / "exit.csv").string()});
  EXPECT_FALSE(ExitedWith(exits, 0));
  EXPECT_TRUE(Mentions(exits, "re:the FMU ended the process running it in fmi2GetDerivatives"));
  EXPECT_TRUE(Mentions(exits, "an FMU must return fmi2Error, not end the process"));
  EXPECT_FALSE(Mentions(exits, "fmi3"));
  EXPECT_TRUE(leftovers().empty());
}

// Validation hints name FMI 2.0 and its type names for an FMI 2.0 FMU; `info
// --json` keeps lsdae's canonical type names (Float64, Int32) whatever the
// version, while the text table uses the FMU's own (Real, Integer).
TEST_F(Fmi2Cli, ValidationHintsAndTypeNamesFollowTheFmiVersion) {
  std::string xml = replaced(kModelDescription, "<Unknown index=\"7\" dependencies=\"\"/>", "");
  xml = replaced(xml, "causality=\"output\" variability=\"discrete\">", "causality=\"output\" variability=\"continuous\">");
  const fs::path fmu = oscillator(xml);
  ProcessResult v = lsdae({"validate", fmu.string()});
  EXPECT_TRUE(Mentions(v, "FMI 2.0 requires one <Output> per output variable"));
  EXPECT_TRUE(Mentions(v, "variable \"crossings\" is Integer with variability=\"continuous\""));
  EXPECT_TRUE(Mentions(v, "only Real variables can be continuous"));
  EXPECT_FALSE(Mentions(v, "FMI 3.0"));
  EXPECT_FALSE(Mentions(v, "Float64"));
  ProcessResult text = lsdae({"info", oscillator().string(), "--variables", "crossings"});
  ASSERT_TRUE(ExitedWith(text, 0));
  EXPECT_TRUE(Mentions(text, "re:crossings +Integer +output"));
  ProcessResult json = lsdae({"info", oscillator().string(), "--variables", "--json"});
  ASSERT_TRUE(ExitedWith(json, 0));
  EXPECT_TRUE(Mentions(json, "re:\"name\": \"crossings\",\\s*\"value_reference\": 7,\\s*\"type\": \"Int32\""));
  EXPECT_TRUE(Mentions(json, "re:\"name\": \"w\",\\s*\"value_reference\": 7,\\s*\"type\": \"Float64\""));
  EXPECT_FALSE(Mentions(json, "\"Real\""));
}

TEST_F(Fmi2Cli, AnLsDaeManifestNextToAnFmi2FmuIsRefusedWithTheWayOut) {
  const fs::path fmu = oscillator();
  write_text(fmu / "extra" / "org.fmi-standard.fmi-ls-dae" / "fmi-ls-manifest.xml", "<fmiLayeredStandardManifest/>");
  ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "o.csv").string()});
  EXPECT_TRUE(ExitedWith(s, exit_code(ErrorKind::invalid)));
  EXPECT_TRUE(Mentions(s, "an FMI-LS-DAE manifest next to an FMI 2.0 modelDescription.xml"));
  EXPECT_TRUE(Mentions(s, "remove the manifest to simulate the FMI 2.0 FMU as an ODE"));
}

// Issue 16: a step whose projection would correct it by more than IDA's
// error test allows is rejected and taken again smaller -- here the FMU's
// constraint jumps at t = 0.5 without an event, which no step size cures:
// after 5 rejections the step is accepted and projected, with a warning, and
// the run goes on (no endless shrinking). The healthy binary needs none.
TEST_F(Fmi2Cli, ALargeProjectionRejectsTheStepAFewTimesThenWarns) {
  // The oscillator's invariant declared as Najafi et al.'s constraint.
  std::string xml = replaced(kModelDescription, "<fmiModelDescription ", "<fmiModelDescription maxNumberOfConstraints=\"1\" ");
  xml = replaced(xml, "<ModelExchange modelIdentifier=\"Oscillator\"",
                 "<ModelExchange modelIdentifier=\"Oscillator\" providesConstraints=\"true\"");
  const fs::path faulty = oscillator(xml, LSDAE_FMI2_OSCILLATOR_FAULTY);
  const fs::path stats = work_ / "jump.json";
  ProcessResult s = lsdae({"simulate", faulty.string(), "--stop", "1", "--no-progress", "-o",
                           (work_ / "jump.csv").string(), "--stats", stats.string()});
  ASSERT_TRUE(ExitedWith(s, 0));
  EXPECT_TRUE(Mentions(s, "re:[0-9]+ steps rejected and retried smaller for a large correction"));
  EXPECT_TRUE(Mentions(s, "re:the FMU's projection still corrects the step by [0-9.e+]+ \\(IDA's error norm\\) "
                          "after 5 rejected steps"));
  EXPECT_TRUE(Mentions(s, "jump where the FMU reports no event"));
  const std::string text = read_text(stats);
  const auto at = text.find("\"projection_rejections\": ");
  ASSERT_NE(at, std::string::npos) << text;
  EXPECT_GE(std::stol(text.substr(at + 25)), 5) << text;
  EXPECT_LE(std::stol(text.substr(at + 25)), 10) << text << ": a few, not an endless shrinking";
  const Csv csv = read_csv(work_ / "jump.csv");
  const double x = csv.rows.back()[csv.column("x")], v = csv.rows.back()[csv.column("v")];
  EXPECT_NEAR(x * x + v * v / 4, 1.01, 1e-4) << "on the constraint after the jump";
  ProcessResult healthy = lsdae({"simulate", oscillator(xml).string(), "--stop", "1", "--no-progress", "-v", "-o",
                                 (work_ / "healthy.csv").string(), "--stats", (work_ / "healthy.json").string()});
  ASSERT_TRUE(ExitedWith(healthy, 0));
  EXPECT_TRUE(Mentions(healthy, "keeps the states on the FMU's constraints"));
  EXPECT_NE(read_text(work_ / "healthy.json").find("\"projection_rejections\": 0"), std::string::npos);
}

}  // namespace
}  // namespace lsdae::test

namespace lsdae::test {
namespace {

// Najafi et al.'s constraint functions through the command line: the default
// projects and says how often; --constraints none reports the drift, naming
// the constraint (models/najafi_pendulum; fmu_constraint_projection_test.cpp
// has the bounds).
class NajafiCli : public CliTest {};

TEST_F(NajafiCli, TheDefaultProjectsAndNoneReportsTheDrift) {
  const std::string fmu = std::string(LSDAE_FMU_DIR) + "/NajafiPendulum_fmi2_values_only.fmu";
  ProcessResult p = lsdae({"simulate", fmu, "--no-progress", "-v", "-o", (work_ / "p.csv").string()});
  ASSERT_TRUE(ExitedWith(p, 0));
  EXPECT_TRUE(Mentions(p, "by Gauss-Newton with finite differences of fmi2Constraint"));
  EXPECT_TRUE(Mentions(p, "re: [0-9]+ projections \\(largest correction"));
  ProcessResult n =
      lsdae({"simulate", fmu, "--no-progress", "--constraints", "none", "-o", (work_ / "n.csv").string()});
  ASSERT_TRUE(ExitedWith(n, 0));
  EXPECT_FALSE(Mentions(n, "projection"));
  EXPECT_TRUE(Mentions(n, "re:largest drift [0-9.e-]+ \\(\"fmi2Constraint C\\[[01]\\]\"\\)"));
}

// A loose rtol with a tight atol (--rtol 1e-4 --atol 1e-12): the FMU's
// constraints were kept below 10·atol = 1e-11 while IDA's error test let each
// step drift by ~rtol, so every step was projected and IDA restarted after
// it: 449 042 steps (and 381 121 projections) for one second, against 84 with
// --rtol 1e-4 alone. The default tolerance follows the looser of the two.
TEST_F(NajafiCli, ALooseRtolWithATightAtolDoesNotProjectEveryStep) {
  const std::string fmu = std::string(LSDAE_FMU_DIR) + "/NajafiPendulum_fmi2.fmu";
  const auto stats = work_ / "s.json";
  ProcessResult p = lsdae({"simulate", fmu, "--no-progress", "-v", "--stop", "1", "--rtol", "1e-4", "--atol", "1e-12",
                           "-o", (work_ / "p.csv").string(), "--stats", stats.string()});
  ASSERT_TRUE(ExitedWith(p, 0));
  EXPECT_TRUE(Mentions(p, "projecting after a step when max|C| exceeds 0.001"));
  EXPECT_TRUE(Mentions(p, "re:from 0 to 1: [0-9]{1,3} steps")) << "fewer than 1000 steps";
  EXPECT_NE(read_text(stats).find("\"completed\": true"), std::string::npos);
  // Given, --projection-tolerance still decides.
  ProcessResult given = lsdae({"simulate", fmu, "--no-progress", "-v", "--stop", "0.01", "--rtol", "1e-4", "--atol",
                               "1e-12", "--projection-tolerance", "1e-9", "-o", (work_ / "g.csv").string()});
  ASSERT_TRUE(ExitedWith(given, 0));
  EXPECT_TRUE(Mentions(given, "projecting after a step when max|C| exceeds 1e-09"));
}

// Issue 16: the declared-but-missing path, as a user sees it: a warning at
// load, a note on the path taken, and a run that still projects.
TEST_F(NajafiCli, ADeclaredFunctionTheBinaryLacksIsNotedAndItsPathDisabled) {
  const std::string fmu = std::string(LSDAE_FMU_DIR) + "/NajafiPendulum_fmi2_missing_projection.fmu";
  ProcessResult p = lsdae({"simulate", fmu, "--no-progress", "-v", "-o", (work_ / "p.csv").string()});
  ASSERT_TRUE(ExitedWith(p, 0));
  EXPECT_TRUE(Mentions(p, "providesProjection=\"true\" but the binary does not export fmi2Projection → lsdae does "
                          "not use it"));
  EXPECT_TRUE(Mentions(p, "providesProjection is declared, but the binary does not export fmi2Projection: lsdae "
                          "projects by its own Gauss-Newton iteration instead"));
  EXPECT_TRUE(Mentions(p, "by Gauss-Newton with fmi2ConstraintJacobian"));
  EXPECT_TRUE(Mentions(p, "re: [0-9]+ projections \\(largest correction"));
  ProcessResult step = lsdae({"simulate", std::string(LSDAE_FMU_DIR) + "/NajafiPendulum_fmi2_projection_step.fmu",
                              "--no-progress", "-v", "-o", (work_ / "s.csv").string()});
  ASSERT_TRUE(ExitedWith(step, 0));
  EXPECT_TRUE(Mentions(step, "by Gauss-Newton with the FMU's fmi2ProjectionStep"));
}

TEST_F(NajafiCli, StartValuesOffTheConstraintsWhereTheProjectionIsDiscardedStopWithExitCode7) {
  const std::string fmu = std::string(LSDAE_FMU_DIR) + "/NajafiPendulum_fmi2.fmu";
  ProcessResult r = lsdae({"simulate", fmu, "--no-progress", "--set", "x=0", "--set", "y=0", "-o",
                           (work_ / "r.csv").string()});
  EXPECT_TRUE(ExitedWith(r, 7));
  EXPECT_TRUE(Mentions(r, "the start values violate the FMU's constraints"));
  EXPECT_TRUE(Mentions(r, "fmi2Projection returned fmi2Discard"));
}

}  // namespace
}  // namespace lsdae::test
