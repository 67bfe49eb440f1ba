// tests/runtime/cli/cli_test.cpp -- the `lsdae` program as a user runs it:
// every model FMU validates clean, `info --json` is well-formed JSON with the
// right numbers, GNU-style usage handling, and an interrupted run leaves no
// extraction folder behind.
#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "broken_fmus.h"
#include "cli_fixture.h"
#include "lsdae/error.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

constexpr int kUsage = 2;

// ---- every FMU of the catalog ----------------------------------------------------

class CatalogTest : public CliTest, public ::testing::WithParamInterface<std::size_t> {};

TEST_P(CatalogTest, ValidatesCleanAndInfoJsonParses) {
  const CatalogEntry& entry = catalog()[GetParam()];
  ProcessResult validate = lsdae({"validate", entry.fmu.string()});
  EXPECT_TRUE(ExitedWith(validate, 0));
  EXPECT_TRUE(Mentions(validate, entry.name + ".fmu: valid (0 errors, 0 warnings"));
  EXPECT_TRUE(Mentions(validate, "binary ok)"));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});

  ProcessResult info = lsdae({"info", "--json", entry.fmu.string()});
  ASSERT_TRUE(ExitedWith(info, 0));
  EXPECT_EQ(info.err, "");
  Json json;
  ASSERT_NO_THROW(json = JsonReader::parse(info.out)) << info.out;
  EXPECT_EQ(json["file"].string, entry.name + ".fmu");
  EXPECT_EQ(json["model_identifier"].string, entry.model_identifier);
  EXPECT_EQ(json["fmi_version"].string.substr(0, 2), "3.");
  EXPECT_EQ(json["errors"].number, 0);
  EXPECT_EQ(json["warnings"].number, 0);
  const Json& counts = json["counts"];
  EXPECT_EQ(counts["states"].number, counts["derivatives"].number);
  bool has_manifest = json["manifest_shape"].string != "none";
  EXPECT_EQ(has_manifest, json["form"].string != "ode") << info.out;
  if (has_manifest) {
    EXPECT_GT(counts["residual_groups"].number, 0) << info.out;
  }
  EXPECT_EQ(json["capabilities"].kind, Json::Kind::array);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Models, CatalogTest, ::testing::Range<std::size_t>(0, catalog().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& param) { return catalog()[param.param].name; });

// ---- info --json: the numbers of the big transmission line ------------------------

class InfoJsonTest : public CliTest {};

TEST_F(InfoJsonTest, TransmissionLine1280CountsInBothShapes) {
  for (const char* shape : {"A", "B"}) {
    SCOPED_TRACE(std::string("shape ") + shape);
    const CatalogEntry& entry = catalog_entry(std::string("TransmissionLine_dae_shape") + shape + "_1280");
    ProcessResult info = lsdae({"info", "--json", entry.fmu.string()});
    ASSERT_TRUE(ExitedWith(info, 0));
    Json json = JsonReader::parse(info.out);
    EXPECT_EQ(json["model_name"].string, "TransmissionLine");
    EXPECT_EQ(json["manifest_shape"].string, shape);
    const Json& counts = json["counts"];
    EXPECT_EQ(counts["states"].number, 2562);
    EXPECT_EQ(counts["derivatives"].number, 2562);
    EXPECT_EQ(counts["algebraic_variables"].number, 3841);
    EXPECT_EQ(counts["residual_groups"].number, 6403);
    EXPECT_EQ(counts["dense_rows"].number, 0);
    EXPECT_TRUE(json["capabilities"].kind == Json::Kind::array && !json["capabilities"].array.empty());
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(InfoJsonTest, TextSummaryOfAnUnpackedFolderExtractsNothing) {
  const CatalogEntry& entry = catalog_entry("HelloWorld_semi_explicit_shapeA");
  ProcessResult info = lsdae({"info", entry.unpacked_dir.string()});
  EXPECT_TRUE(ExitedWith(info, 0));
  EXPECT_TRUE(Mentions(info, "model identifier        HelloWorld"));
  EXPECT_TRUE(Mentions(info, "LS-DAE manifest         A (draft 0.1)"));
  EXPECT_TRUE(Mentions(info, "algebraic variables     2"));
  EXPECT_TRUE(Mentions(info, "validation              0 errors, 0 warnings"));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(InfoJsonTest, ValidateJsonOfAnInvalidFmuParsesWithEveryFinding) {
  // Messages carry quotes, arrows and line numbers: the JSON must escape them.
  FmuImage image = FmuImage::from_directory(catalog_entry("HelloWorld_semi_explicit_shapeA").unpacked_dir);
  image.replace(kModelDescription, "derivative=\"1\"", "derivative=\"999\"");
  image.replace(kManifest, "dependenciesKind=\"constant constant constant\"", "dependenciesKind=\"constant\"");
  fs::path fmu = work_ / "two_errors.fmu";
  image.write(fmu);
  ProcessResult validate = lsdae({"validate", "--json", fmu.string()});
  EXPECT_TRUE(ExitedWith(validate, exit_code(ErrorKind::invalid)));
  Json json;
  ASSERT_NO_THROW(json = JsonReader::parse(validate.out)) << validate.out;
  EXPECT_FALSE(json["valid"].boolean);
  EXPECT_EQ(json["binary"].string, "skipped");
  EXPECT_GE(json["errors"].number, 2);
  bool saw_derivative = false, saw_kinds = false;
  for (const Json& d : json["diagnostics"].array) {
    if (d["severity"].string != "error") continue;
    EXPECT_GT(d["line"].number, 0) << d["message"].string;
    if (d["message"].string.find("derivative=\"999\"") != std::string::npos) {
      saw_derivative = true;
      EXPECT_EQ(d["file"].string, "modelDescription.xml");
      EXPECT_EQ(d["hint"].string, "fix the reference");
    }
    if (d["message"].string.find("but 1 dependenciesKind entry") != std::string::npos) {
      saw_kinds = true;
      EXPECT_EQ(d["file"].string, kManifest);
      EXPECT_FALSE(d["blocks_simulation"].boolean) << "lsdae reads only the dependencies: a conformance error";
    }
  }
  EXPECT_TRUE(saw_derivative) << validate.out;
  EXPECT_TRUE(saw_kinds) << validate.out;
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// ---- usage -------------------------------------------------------------------------

class UsageTest : public CliTest {};

TEST_F(UsageTest, HelpExitsZeroAndListsCommandsOptionsAndExitCodes) {
  ProcessResult top = lsdae({"--help"});
  EXPECT_TRUE(ExitedWith(top, 0));
  for (const char* word : {"info", "validate", "Exit codes: 0 ok, 1 invalid FMU, 2 usage, 3 archive, 4 XML"})
    EXPECT_TRUE(Mentions(top, word));
  ProcessResult info = lsdae({"info", "--help"});
  EXPECT_TRUE(ExitedWith(info, 0));
  EXPECT_TRUE(Mentions(info, "--json"));
  EXPECT_TRUE(Mentions(info, "--max-unpacked-size BYTES"));
  ProcessResult validate = lsdae({"validate", "--help"});
  EXPECT_TRUE(ExitedWith(validate, 0));
  for (const char* word : {"--json", "--no-load", "--quiet", "--max-unpacked-size BYTES"})
    EXPECT_TRUE(Mentions(validate, word));
  ProcessResult version = lsdae({"--version"});
  EXPECT_TRUE(ExitedWith(version, 0));
  EXPECT_TRUE(Mentions(version, "lsdae "));
}

TEST_F(UsageTest, BadCommandLinesExitTwo) {
  const std::string fmu = catalog_entry("HelloWorld_ode").fmu.string();
  struct Case {
    std::vector<std::string> args;
    std::string fragment;
  };
  const std::vector<Case> cases = {
      {{}, "no command given"},
      {{"--no-such-option"}, "unknown option \"--no-such-option\" → `lsdae --help` lists the options"},
      {{"frobnicate", fmu}, "\"frobnicate\" is not a command"},
      {{"info"}, "info: no FMU given"},
      {{"info", "--no-such-option", fmu}, "--no-such-option"},
      {{"validate", "--no-such-option", fmu}, "--no-such-option"},
      {{"info", "--max-unpacked-size", "lots", fmu}, "\"lots\" is not a positive whole number of bytes"},
      {{"info", "--max-unpacked-size", "0", fmu}, "\"0\" is not a positive whole number of bytes"},
      {{"validate", "--max-unpacked-size", "-1", fmu}, "is not a positive whole number of bytes"},
      {{"info", "/no/such/dir/model.fmu"}, "/no/such/dir/model.fmu: no such file → check the path"},
      {{"validate", (work_ / "missing.fmu").string()}, "missing.fmu: no such file → check the path"},
  };
  for (const auto& c : cases) {
    std::string line = "lsdae";
    for (const auto& a : c.args) line += " " + a;
    SCOPED_TRACE(line);
    ProcessResult result = lsdae(c.args);
    EXPECT_TRUE(ExitedWith(result, kUsage));
    EXPECT_TRUE(Mentions(result, c.fragment));
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(UsageTest, GenerousUnpackLimitStillOpens) {
  ProcessResult result =
      lsdae({"validate", "--max-unpacked-size", "67108864", catalog_entry("HelloWorld_ode").fmu.string()});
  EXPECT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "valid (0 errors, 0 warnings"));
}

// ---- signals ----------------------------------------------------------------------
//
// `lsdae validate` on an FMU whose binary blocks inside
// fmi3InstantiateModelExchange (stub_fmu_binary.cpp, LSDAE_STUB_BLOCKING):
// when the stub says it is ready, the extraction folder exists (and the
// private TMPDIR of the child that loaded the binary); the signal must stop
// the child at once, remove both and end with exit 130, naming the call.

class SignalTest : public CliTest, public ::testing::WithParamInterface<int> {};

TEST_P(SignalTest, InterruptedRunRemovesItsExtractionFolder) {
  const int signo = GetParam();
  FmuImage image = FmuImage::from_directory(catalog_entry("HelloWorld_ode").unpacked_dir);
  image.put(binary_member("HelloWorld"), read_file(LSDAE_STUB_BLOCKING), true);
  fs::path fmu = work_ / "blocking.fmu";
  image.write(fmu);
  fs::path ready = work_ / "ready";

  ChildProcess child({LSDAE_BINARY, "validate", fmu.string()},
                     {{"TMPDIR", tmp_.string()}, {"LSDAE_STUB_READY_FILE", ready.string()}}, work_);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (!fs::exists(ready) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_TRUE(fs::exists(ready)) << "the stub binary never reached fmi3InstantiateModelExchange: "
                                 << child.wait(std::chrono::seconds(1)).describe();
  std::vector<std::string> during = leftovers();
  ASSERT_EQ(during.size(), 2u) << "expected the extraction folder and the child's TMPDIR while lsdae runs";
  bool unpacked = false;
  for (const auto& entry : during) {
    EXPECT_EQ(entry.rfind("tmp/lsdae-", 0), 0u) << entry;
    unpacked = unpacked || fs::exists(root_ / entry / "modelDescription.xml");
  }
  EXPECT_TRUE(unpacked) << "one of them is the extraction folder";

  child.send(signo);
  ProcessResult result = child.wait(std::chrono::seconds(30));
  ASSERT_TRUE(ExitedWith(result, 130));
  EXPECT_TRUE(Mentions(result, std::string("blocking.fmu: interrupted by SIG") + sigabbrev_np(signo) +
                                   " (" + strsignal(signo) + ") in fmi3InstantiateModelExchange (instance "
                                   "\"lsdae-validate\")"));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalTest, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& param) {
                           return std::string(param.param == SIGINT ? "SIGINT" : param.param == SIGTERM ? "SIGTERM" : "SIGHUP");
                         });

}  // namespace
}  // namespace lsdae::test
