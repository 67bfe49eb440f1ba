// tests/runtime/cli/validation_cli_test.cpp -- what `validate` and `simulate` make of
// valid-but-unusual FMUs and of FMUs that break only rules simulation does not depend
// on (issue 13 item 4, issue 14):
//   * every FMU of models/unusual validates with no error and no warning, simulates with
//     exit 0 and no warning, and reproduces its closed-form reference;
//   * <Output>s in another order than ModelVariables are valid (they were refused);
//   * a conformance error (an undefined declaredType) fails `validate` (exit 1), is a
//     warning of `simulate` (exit 0), and makes `simulate --strict` refuse (exit 1);
//   * a NaN or infinite start of a state is an error naming the variable;
//   * `validate --json` prints a JSON object also when the archive or the XML cannot be
//     read, and spells the manifest shape as `info --json` does;
//   * counts in messages agree with their nouns ("1 error", "2 errors").
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "broken_fmus.h"
#include "cli_fixture.h"
#include "lsdae/error.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

// A CSV with a header line: column name -> values.
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;
  std::size_t column(const std::string& name) const {
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (columns[c] == name) return c;
    throw std::runtime_error("no column " + name);
  }
};

Table read_csv(const fs::path& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  Table t;
  std::string line;
  std::getline(in, line);
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) t.columns.push_back(cell);
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::vector<double> values;
    for (std::string cell; std::getline(row, cell, ',');) values.push_back(std::stod(cell));
    t.rows.push_back(values);
  }
  return t;
}

struct UnusualFmu {
  std::string name;
  std::string reference;              // file name in models/unusual/reference/
  std::vector<std::string> compared;  // columns compared with the reference
};

const std::vector<UnusualFmu>& unusual_fmus() {
  static const std::vector<UnusualFmu> fmus = {
      {"UnusualOscillator_ode_scattered", "unusual_oscillator.csv", {"x", "p", "v", "sum", "twice_v", "rs", "f", "s"}},
      {"UnusualOscillator_semi_explicit_dae_only", "unusual_oscillator.csv", {"x", "p", "v", "sum", "twice_v", "rs", "f", "s"}},
      {"UnusualOscillator_fully_implicit_dae_only", "unusual_oscillator.csv", {"x", "p", "v", "sum", "twice_v", "rs", "f", "s"}},
      {"UnusualOscillator_semi_explicit_shapeB", "unusual_oscillator.csv", {"x", "p", "v", "sum", "twice_v", "rs", "f", "s"}},
      {"UnusualConstraint_dae_only_scattered", "unusual_constraint.csv", {"x1", "x2", "y"}},
  };
  return fmus;
}

class ValidationCliTest : public CliTest {};

// HelloWorld_semi_explicit_shapeA with the start value of its state x replaced by `start`.
FmuImage with_state_start(const std::string& start) {
  FmuImage image = FmuImage::from_directory(catalog_entry("HelloWorld_semi_explicit_shapeA").unpacked_dir);
  std::string& md = image.data(kModelDescription);
  const auto at = md.find("name=\"x\"");
  const auto value = md.find("start=\"1\"", at);
  if (at == std::string::npos || value == std::string::npos || md.find('\n', at) < value)
    throw std::runtime_error("no start=\"1\" on x in HelloWorld_semi_explicit_shapeA");
  md.replace(value, 9, "start=\"" + start + "\"");
  return image;
}

class UnusualFmuTest : public CliTest, public ::testing::WithParamInterface<std::size_t> {};

TEST_P(UnusualFmuTest, ValidatesCleanSimulatesWithoutWarningAndMatchesTheExactSolution) {
  const UnusualFmu& u = unusual_fmus()[GetParam()];
  const CatalogEntry& entry = catalog_entry(u.name);
  ProcessResult validate = lsdae({"validate", entry.fmu.string()});
  EXPECT_TRUE(ExitedWith(validate, 0));
  EXPECT_TRUE(Mentions(validate, u.name + ".fmu: valid (0 errors, 0 warnings"));
  EXPECT_TRUE(Mentions(validate, "binary ok)"));

  const fs::path csv = work_ / "result.csv";
  std::string vars;
  for (const auto& c : u.compared) vars += (vars.empty() ? "" : ",") + c;
  ProcessResult simulate = lsdae({"simulate", entry.fmu.string(), "-o", csv.string(), "--output-vars", vars});
  ASSERT_TRUE(ExitedWith(simulate, 0));
  EXPECT_EQ(simulate.err.find("warning"), std::string::npos) << simulate.describe();
  EXPECT_EQ(simulate.err.find("error"), std::string::npos) << simulate.describe();

  const Table result = read_csv(csv);
  const Table reference = read_csv(fs::path(LSDAE_UNUSUAL_REFERENCE_DIR) / u.reference);
  ASSERT_EQ(result.rows.size(), reference.rows.size()) << "the default experiment's output grid";
  double worst = 0;
  std::string where;
  for (std::size_t r = 0; r < result.rows.size(); ++r) {
    ASSERT_NEAR(result.rows[r][0], reference.rows[r][0], 1e-12) << "row " << r;
    for (const auto& name : u.compared) {
      const double got = result.rows[r][result.column(name)], want = reference.rows[r][reference.column(name)];
      const double scaled = std::abs(got - want) / std::max(1.0, std::abs(want));
      if (scaled > worst) {
        worst = scaled;
        where = name + " at t = " + std::to_string(result.rows[r][0]) + ": " + std::to_string(got) + " vs " +
                std::to_string(want);
      }
    }
  }
  // The FMUs run at tolerance 1e-8; 1e-5 leaves room for the global error over the run.
  EXPECT_LT(worst, 1e-5) << where;
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Models, UnusualFmuTest, ::testing::Range<std::size_t>(0, unusual_fmus().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& p) { return unusual_fmus()[p.param].name; });

// The orders really are unusual: neither ModelVariables order nor value-reference order.
TEST_F(ValidationCliTest, UnusualOrdersAreUnlikeModelVariablesAndValueReferences) {
  const std::string md = read_file(catalog_entry("UnusualOscillator_semi_explicit_dae_only").unpacked_dir /
                                   "modelDescription.xml");
  auto vr_of = [&](const std::string& name) {
    const auto at = md.find("name=\"" + name + "\" valueReference=\"");
    if (at == std::string::npos) throw std::runtime_error("no variable " + name);
    return std::stoull(md.substr(at + name.size() + 24));
  };
  auto line_of = [&](const std::string& name) { return md.find("name=\"" + name + "\""); };
  // <ContinuousStateDerivative> order: der(p), der(x), der(v).
  const std::vector<std::string> states = {"der(p)", "der(x)", "der(v)"};
  std::string listed;
  for (const auto& s : states) listed += "<ContinuousStateDerivative valueReference=\"" + std::to_string(vr_of(s)) + "\"";
  std::string in_file;
  for (std::size_t at = md.find("<ContinuousStateDerivative"); at != std::string::npos;
       at = md.find("<ContinuousStateDerivative", at + 1))
    in_file += md.substr(at, md.find('"', md.find('"', at) + 1) - at + 1);
  EXPECT_EQ(in_file, listed);
  bool by_line = true, by_vr = true;
  for (std::size_t i = 0; i + 1 < states.size(); ++i) {
    by_line = by_line && line_of(states[i]) < line_of(states[i + 1]);
    by_vr = by_vr && vr_of(states[i]) < vr_of(states[i + 1]);
  }
  EXPECT_FALSE(by_line) << "state order equals ModelVariables order";
  EXPECT_FALSE(by_vr) << "state order equals value-reference order";
  EXPECT_GT(vr_of("time"), 1000000u) << "value references are not scattered";
}

// Issue 13: an FMU whose <Output>s are not in ModelVariables order was refused by
// `validate` and `simulate` ("FMI 3.0 requires one <Output> per output, in ModelVariables order").
TEST_F(ValidationCliTest, OutputsInAnotherOrderAreValid) {
  const CatalogEntry& base = catalog_entry("HelloWorld_ode");
  FmuImage image = FmuImage::from_directory(base.unpacked_dir);
  std::string& md = image.data(kModelDescription);
  const auto first = md.find("    <Output ");
  const auto second = md.find("    <Output ", first + 1);
  ASSERT_NE(second, std::string::npos) << "HelloWorld_ode has two outputs";
  const auto second_end = md.find('\n', second) + 1;
  const std::string second_line = md.substr(second, second_end - second);
  md.erase(second, second_end - second);
  md.insert(first, second_line);
  const fs::path fmu = work_ / "reordered.fmu";
  image.write(fmu);
  ProcessResult validate = lsdae({"validate", fmu.string()});
  EXPECT_TRUE(ExitedWith(validate, 0));
  EXPECT_TRUE(Mentions(validate, "valid (0 errors, 0 warnings"));
  ProcessResult simulate = lsdae({"simulate", fmu.string(), "-o", (work_ / "r.csv").string()});
  EXPECT_TRUE(ExitedWith(simulate, 0));
  EXPECT_FALSE(Mentions(simulate, "ModelVariables order"));
}

class ConformanceTest : public ValidationCliTest {
 protected:
  // HelloWorld with an undefined declaredType on y: breaks an FMI rule that
  // simulation does not depend on.
  fs::path undefined_declared_type() {
    FmuImage image = FmuImage::from_directory(catalog_entry("HelloWorld_semi_explicit_shapeA").unpacked_dir);
    image.replace(kModelDescription, "name=\"y\"", "name=\"y\" declaredType=\"Voltage\"");
    const fs::path fmu = work_ / "declared_type.fmu";
    image.write(fmu);
    return fmu;
  }
};

TEST_F(ConformanceTest, ValidateCountsItAsAnError) {
  const fs::path fmu = undefined_declared_type();
  ProcessResult result = lsdae({"validate", fmu.string()});
  EXPECT_TRUE(ExitedWith(result, exit_code(ErrorKind::invalid)));
  EXPECT_TRUE(Mentions(result, "re:declared_type\\.fmu: modelDescription\\.xml:[0-9]+: conformance error: variable "
                               "\"y\" has declaredType=\"Voltage\", but no such type is defined"));
  EXPECT_TRUE(Mentions(result, "INVALID (1 error (1 conformance), 0 warnings;"));
  EXPECT_TRUE(Mentions(result, "only conformance errors: `lsdae simulate` runs it with warnings, `lsdae simulate "
                               "--strict` refuses it"));
  // The binary is still loaded: conformance errors do not stop simulation.
  EXPECT_TRUE(Mentions(result, "binary ok)"));

  ProcessResult json = lsdae({"validate", "--json", fmu.string()});
  EXPECT_TRUE(ExitedWith(json, exit_code(ErrorKind::invalid)));
  Json j = JsonReader::parse(json.out);
  EXPECT_FALSE(j["valid"].boolean);
  EXPECT_EQ(j["errors"].number, 1);
  EXPECT_EQ(j["conformance_errors"].number, 1);
  ASSERT_EQ(j["diagnostics"].array.size(), 1u);
  EXPECT_EQ(j["diagnostics"].array[0]["severity"].string, "error");
  EXPECT_FALSE(j["diagnostics"].array[0]["blocks_simulation"].boolean);
}

TEST_F(ConformanceTest, SimulateWarnsAndRuns) {
  const fs::path fmu = undefined_declared_type();
  ProcessResult result = lsdae({"simulate", fmu.string(), "-o", (work_ / "r.csv").string()});
  EXPECT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "re:lsdae: warning: declared_type\\.fmu: modelDescription\\.xml:[0-9]+: warning: variable "
                               "\"y\" has declaredType=\"Voltage\", but no such type is defined → add it to "
                               "<TypeDefinitions> or remove the attribute \\(breaks an FMI rule that simulation does "
                               "not depend on; --strict refuses it\\)"));
  EXPECT_TRUE(Mentions(result, "simulated declared_type.fmu from 0 to 1"));
}

TEST_F(ConformanceTest, SimulateStrictRefuses) {
  const fs::path fmu = undefined_declared_type();
  const fs::path csv = work_ / "r.csv";
  ProcessResult result = lsdae({"simulate", "--strict", fmu.string(), "-o", csv.string()});
  EXPECT_TRUE(ExitedWith(result, exit_code(ErrorKind::invalid)));
  EXPECT_TRUE(Mentions(result, "lsdae: error: declared_type.fmu: the FMU is invalid (1 error, refused by --strict):"));
  EXPECT_TRUE(Mentions(result, "conformance error: variable \"y\" has declaredType=\"Voltage\""));
  EXPECT_FALSE(fs::exists(csv)) << "refused before any output";
  // --strict changes nothing for a conforming FMU.
  ProcessResult clean = lsdae({"simulate", "--strict", catalog_entry("HelloWorld_semi_explicit_shapeA").fmu.string(),
                               "-o", csv.string()});
  EXPECT_TRUE(ExitedWith(clean, 0));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// Issue 14: NaN or infinite start values on states were accepted without a word.
TEST_F(ValidationCliTest, NonFiniteStartOfAStateIsAnErrorNamingIt) {
  for (const char* bad : {"NaN", "INF"}) {
    SCOPED_TRACE(bad);
    const fs::path fmu = work_ / "nan_start.fmu";
    with_state_start(bad).write(fmu);
    const std::string message = std::string("error: the state \"x\" has start=\"") + bad +
                                "\", which is not a finite number → lsdae cannot integrate from NaN or infinity";
    ProcessResult validate = lsdae({"validate", fmu.string()});
    EXPECT_TRUE(ExitedWith(validate, exit_code(ErrorKind::invalid)));
    EXPECT_TRUE(Mentions(validate, message));
    EXPECT_TRUE(Mentions(validate, "INVALID (1 error, 0 warnings;"));
    ProcessResult simulate = lsdae({"simulate", fmu.string(), "-o", (work_ / "r.csv").string()});
    EXPECT_TRUE(ExitedWith(simulate, exit_code(ErrorKind::invalid)));
    EXPECT_TRUE(Mentions(simulate, "the FMU is invalid (1 error):"));
    EXPECT_TRUE(Mentions(simulate, message));
  }
}

// Issue 14: `validate --json` printed nothing when the archive or the XML could not be read.
TEST_F(ValidationCliTest, ValidateJsonReportsArchiveAndXmlFailuresAsJson) {
  FmuImage image = FmuImage::from_directory(catalog_entry("HelloWorld_semi_explicit_shapeA").unpacked_dir);
  const fs::path broken_xml = work_ / "broken_xml.fmu";
  image.replace(kModelDescription, "<ModelVariables>", "<ModelVariables");
  image.write(broken_xml);
  const fs::path not_zip = work_ / "not_zip.fmu";
  write_file(not_zip, random_bytes(1000, 7));
  struct Case {
    fs::path fmu;
    ErrorKind kind;
    std::string file, fragment;
  };
  for (const Case& c : {Case{broken_xml, ErrorKind::xml, "modelDescription.xml", "malformed XML"},
                        Case{not_zip, ErrorKind::archive, "", "is not a zip archive"},
                        Case{work_ / "missing.fmu", ErrorKind::usage, "", "no such file"}}) {
    SCOPED_TRACE(c.fmu.string());
    ProcessResult result = lsdae({"validate", "--json", c.fmu.string()});
    EXPECT_TRUE(ExitedWith(result, exit_code(c.kind)));
    Json j;
    ASSERT_NO_THROW(j = JsonReader::parse(result.out)) << result.describe();
    EXPECT_EQ(j["file"].string, c.fmu.filename().string());
    EXPECT_FALSE(j["valid"].boolean);
    EXPECT_EQ(j["stage"].string, to_string(c.kind));
    EXPECT_EQ(j["exit_code"].number, exit_code(c.kind));
    EXPECT_EQ(j["manifest_shape"].kind, Json::Kind::null);
    EXPECT_EQ(j["errors"].number, 1);
    ASSERT_EQ(j["diagnostics"].array.size(), 1u);
    const Json& d = j["diagnostics"].array[0];
    EXPECT_EQ(d["severity"].string, "error");
    EXPECT_TRUE(d["blocks_simulation"].boolean);
    EXPECT_EQ(d["file"].string, c.file);
    if (!c.file.empty()) {
      EXPECT_GT(d["line"].number, 0);
    }
    EXPECT_NE(d["message"].string.find(c.fragment), std::string::npos) << d["message"].string;
    EXPECT_NE(d["hint"].string, "") << "the part after → is the hint";
    EXPECT_NE(result.err.find("lsdae: error: "), std::string::npos) << "people still read stderr";
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// Issue 14: `validate --json` spelled the manifest shape "A (draft 0.1)", `info --json` "A".
TEST_F(ValidationCliTest, ValidateAndInfoSpellTheManifestShapeAlike) {
  for (const char* name : {"HelloWorld_ode", "HelloWorld_semi_explicit_shapeA", "HelloWorld_semi_explicit_shapeB"}) {
    SCOPED_TRACE(name);
    const std::string fmu = catalog_entry(name).fmu.string();
    ProcessResult validate = lsdae({"validate", "--json", fmu});
    ProcessResult info = lsdae({"info", "--json", fmu});
    ASSERT_TRUE(ExitedWith(validate, 0));
    ASSERT_TRUE(ExitedWith(info, 0));
    const std::string shape = JsonReader::parse(validate.out)["manifest_shape"].string;
    EXPECT_EQ(shape, JsonReader::parse(info.out)["manifest_shape"].string);
    EXPECT_TRUE(shape == "none" || shape == "A" || shape == "B") << shape;
  }
}

// "1 errors" style plurals.
TEST_F(ValidationCliTest, CountsAgreeWithTheirNouns) {
  FmuImage image = with_state_start("NaN");
  const fs::path one = work_ / "one.fmu";
  image.write(one);
  image.replace(kModelDescription, "name=\"y\"", "name=\"y\" declaredType=\"T\"");
  const fs::path two = work_ / "two.fmu";
  image.write(two);
  ProcessResult r1 = lsdae({"validate", one.string()});
  EXPECT_TRUE(Mentions(r1, "INVALID (1 error, 0 warnings;"));
  EXPECT_FALSE(Mentions(r1, "1 errors"));
  ProcessResult r2 = lsdae({"validate", two.string()});
  EXPECT_TRUE(Mentions(r2, "INVALID (2 errors (1 conformance), 0 warnings;"));
  ProcessResult s1 = lsdae({"simulate", one.string(), "-o", (work_ / "r.csv").string()});
  EXPECT_TRUE(Mentions(s1, "the FMU is invalid (1 error):"));
  EXPECT_FALSE(Mentions(s1, "1 errors"));
}

}  // namespace
}  // namespace lsdae::test
