// tests/runtime/cli/ssp_cli_test.cpp -- `lsdae info` and `lsdae validate` on
// systems of FMUs (.ssp archives built here from the Reference-FMUs, bare
// .ssd files beside them), run as a user runs them: the printed system, the
// JSON, every model-description check with its message, and the archive
// protections (nothing left in TMPDIR, nothing written outside it).
#include <gtest/gtest.h>
#include <zip.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_fixture.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = LSDAE_REFERENCE_FMUS_DIR;

// A Reference-FMU, or an empty path when ../shared is not beside the clone
// (the test then skips); with ../shared present a missing file is a failure.
fs::path reference_fmu(const std::string& name) {
  if (!fs::exists(kCorpus.parent_path().parent_path().parent_path())) return {};
  fs::path p = kCorpus / "fmi3" / (name + ".fmu");
  EXPECT_TRUE(fs::exists(p)) << p << " is missing from the shared corpus";
  return p;
}

// Writes an .ssp: SystemStructure.ssd from `ssd`, then (member, file) pairs
// copied from disk, or (member, text) written as given.
void write_ssp(const fs::path& path, const std::string& ssd, const std::vector<std::pair<std::string, fs::path>>& files,
               const std::vector<std::pair<std::string, std::string>>& texts = {}) {
  int error = 0;
  zip_t* zip = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error);
  ASSERT_NE(zip, nullptr);
  std::vector<std::pair<std::string, std::string>> all = texts;
  all.insert(all.begin(), {"SystemStructure.ssd", ssd});
  std::vector<std::string> keep;
  keep.reserve(all.size());
  for (const auto& [name, text] : all) {
    keep.push_back(text);
    zip_source_t* s = zip_source_buffer(zip, keep.back().data(), keep.back().size(), 0);
    ASSERT_GE(zip_file_add(zip, name.c_str(), s, ZIP_FL_ENC_UTF_8), 0);
  }
  for (const auto& [name, file] : files) {
    zip_source_t* s = zip_source_file(zip, file.c_str(), 0, -1);
    ASSERT_NE(s, nullptr);
    ASSERT_GE(zip_file_add(zip, name.c_str(), s, ZIP_FL_ENC_UTF_8), 0);
  }
  ASSERT_EQ(zip_close(zip), 0);
}

const char* kHead = R"(<?xml version="1.0" encoding="UTF-8"?>
<ssd:SystemStructureDescription xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" name="bench" version="1.0">
<ssd:System name="root">
)";
const char* kTail = R"(</ssd:System>
<ssd:DefaultExperiment startTime="0" stopTime="3"/>
</ssd:SystemStructureDescription>
)";

// A ball driving a feedthrough, two feedthroughs coupled acausally, a parameter set.
const char* kValid = R"(<ssd:Elements>
<ssd:Component name="ball" source="resources/BouncingBall.fmu">
<ssd:Connectors><ssd:Connector name="h" kind="output"><ssc:Real unit="m"/></ssd:Connector></ssd:Connectors>
<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues><ssv:ParameterSet version="1.0" name="ball">
<ssv:Parameters><ssv:Parameter name="e"><ssv:Real value="0.8"/></ssv:Parameter></ssv:Parameters>
</ssv:ParameterSet></ssd:ParameterValues></ssd:ParameterBinding></ssd:ParameterBindings>
</ssd:Component>
<ssd:Component name="f" source="resources/Feedthrough.fmu">
<ssd:Connectors><ssd:Connector name="Float64_continuous_input" kind="input"><ssc:Real/></ssd:Connector></ssd:Connectors>
</ssd:Component>
<ssd:Component name="left" source="resources/Feedthrough.fmu"/>
<ssd:Component name="right" source="resources/Feedthrough.fmu"/>
</ssd:Elements>
<ssd:Connections>
<ssd:Connection startElement="ball" startConnector="h" endElement="f" endConnector="Float64_continuous_input">
<ssc:LinearTransformation factor="2" offset="0.5"/></ssd:Connection>
</ssd:Connections>
<ssd:Annotations><ssc:Annotation type="org.lsdae.couplings">
<lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0"><lsdae:Coupling name="rod">
<lsdae:Port element="left" potential="Float64_continuous_output" flow="Float64_continuous_input"/>
<lsdae:Port element="right" potential="Float64_continuous_output" flow="Float64_continuous_input"/>
</lsdae:Coupling></lsdae:Couplings>
</ssc:Annotation></ssd:Annotations>
)";

class SspCli : public CliTest {
 protected:
  // The .ssp with the two Reference-FMUs under resources/; false when ../shared is absent.
  bool make_ssp(const fs::path& path, const std::string& body) {
    const fs::path ball = reference_fmu("BouncingBall"), feed = reference_fmu("Feedthrough");
    if (ball.empty() || feed.empty()) return false;
    write_ssp(path, kHead + body + kTail, {{"resources/BouncingBall.fmu", ball}, {"resources/Feedthrough.fmu", feed}});
    return true;
  }
  // bench.ssd in the work folder with the two Reference-FMUs beside it under
  // resources/ (a bare .ssd); false when ../shared is absent.
  bool make_bare_ssd() {
    const fs::path ball = reference_fmu("BouncingBall"), feed = reference_fmu("Feedthrough");
    if (ball.empty() || feed.empty()) return false;
    fs::create_directories(work_ / "resources");
    fs::copy_file(ball, work_ / "resources" / "BouncingBall.fmu");
    fs::copy_file(feed, work_ / "resources" / "Feedthrough.fmu");
    std::ofstream(work_ / "bench.ssd") << kHead << kValid << kTail;
    return true;
  }
};

#define MAKE_SSP_OR_SKIP(path, body) \
  if (!make_ssp(path, body)) GTEST_SKIP() << "../shared is not beside this clone"

TEST_F(SspCli, InfoPrintsTheSystem) {
  const fs::path ssp = work_ / "bench.ssp";
  MAKE_SSP_OR_SKIP(ssp, kValid);
  auto r = lsdae({"info", ssp.string()});
  EXPECT_TRUE(ExitedWith(r, 0));
  EXPECT_TRUE(Mentions(r, "bench.ssp (system \"bench\")"));
  EXPECT_TRUE(Mentions(r, "re:ball +resources/BouncingBall.fmu  FMI 3.0, model \"BouncingBall\""));
  EXPECT_TRUE(Mentions(r, "ball.h → f.Float64_continuous_input  (to = 2 · from + 0.5)"));
  EXPECT_TRUE(Mentions(r, "rod: left.Float64_continuous_output = right.Float64_continuous_output; "
                          "left.Float64_continuous_input + right.Float64_continuous_input = 0"));
  EXPECT_TRUE(Mentions(r, "ball.e = 0.8"));
  EXPECT_TRUE(Mentions(r, "experiment: start 0, stop 3"));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(SspCli, InfoJsonParses) {
  const fs::path ssp = work_ / "bench.ssp";
  MAKE_SSP_OR_SKIP(ssp, kValid);
  auto r = lsdae({"info", ssp.string(), "--json"});
  ASSERT_TRUE(ExitedWith(r, 0));
  Json j = JsonReader::parse(r.out);
  EXPECT_EQ(j["system"].string, "bench");
  ASSERT_EQ(j["components"].array.size(), 4u);
  EXPECT_EQ(j["components"].array[0]["fmi_version"].string, "3.0");
  EXPECT_EQ(j["components"].array[0]["parameters"].array[0]["value"].string, "0.8");
  EXPECT_EQ(j["connections"].array[0]["factor"].number, 2.0);
  EXPECT_EQ(j["connections"].array[0]["where"].string, "SystemStructure.ssd:18");
  EXPECT_EQ(j["couplings"].array[0]["ports"].array[1]["component"].string, "right");
  EXPECT_EQ(j["experiment"]["stop_time"].number, 3.0);
  EXPECT_EQ(j["experiment"]["tolerance"].kind, Json::Kind::null);
}

TEST_F(SspCli, ValidateAcceptsAConsistentSystemAndLoadsEveryBinary) {
  const fs::path ssp = work_ / "bench.ssp";
  MAKE_SSP_OR_SKIP(ssp, kValid);
  auto r = lsdae({"validate", ssp.string()});
  EXPECT_TRUE(ExitedWith(r, 0));
  EXPECT_TRUE(Mentions(r, "bench.ssp: valid (4 components, 1 connection, 1 coupling; 0 errors"));
  auto j = lsdae({"validate", ssp.string(), "--json"});
  ASSERT_TRUE(ExitedWith(j, 0));
  Json json = JsonReader::parse(j.out);
  EXPECT_TRUE(json["valid"].boolean);
  EXPECT_EQ(json["components"].array[3]["binary"].string, "ok");
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(SspCli, ValidateReportsWhatTheModelDescriptionsContradict) {
  const fs::path ssp = work_ / "broken.ssp";
  MAKE_SSP_OR_SKIP(ssp, R"(<ssd:Elements>
<ssd:Component name="ball" source="resources/BouncingBall.fmu">
<ssd:Connectors>
<ssd:Connector name="h" kind="output"><ssc:Real unit="s"/></ssd:Connector>
<ssd:Connector name="v" kind="input"><ssc:Real/></ssd:Connector>
<ssd:Connector name="nope" kind="output"><ssc:Real/></ssd:Connector>
</ssd:Connectors>
<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues><ssv:ParameterSet version="1.0" name="ball"><ssv:Parameters>
<ssv:Parameter name="e"><ssv:String value="bouncy"/></ssv:Parameter>
<ssv:Parameter name="h"><ssv:Real value="2"/></ssv:Parameter>
<ssv:Parameter name="mass"><ssv:Real value="2"/></ssv:Parameter>
</ssv:Parameters></ssv:ParameterSet></ssd:ParameterValues></ssd:ParameterBinding></ssd:ParameterBindings>
</ssd:Component>
<ssd:Component name="f" source="resources/Feedthrough.fmu">
<ssd:Connectors>
<ssd:Connector name="Int32_output" kind="output"><ssc:Real/></ssd:Connector>
<ssd:Connector name="Float64_continuous_input" kind="input"><ssc:Real/></ssd:Connector>
<ssd:Connector name="Float64_discrete_input" kind="input"><ssc:Real/></ssd:Connector>
<ssd:Connector name="Float64_continuous_output" kind="output"><ssc:Real/></ssd:Connector>
</ssd:Connectors>
</ssd:Component>
<ssd:Component name="g" source="resources/Feedthrough.fmu"/>
</ssd:Elements>
<ssd:Connections>
<ssd:Connection startElement="f" startConnector="Int32_output" endElement="f" endConnector="Float64_continuous_input"/>
<ssd:Connection startElement="ball" startConnector="h" endElement="f" endConnector="Float64_discrete_input"/>
<ssd:Connection startElement="ball" startConnector="h" endElement="f" endConnector="Float64_discrete_input"/>
<ssd:Connection startElement="f" startConnector="Float64_continuous_output" endElement="ball" endConnector="v"/>
</ssd:Connections>
<ssd:Annotations><ssc:Annotation type="org.lsdae.couplings">
<lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0"><lsdae:Coupling name="bad">
<lsdae:Port element="g" potential="Float64_continuous_input" flow="Int32_input"/>
<lsdae:Port element="f" potential="Float64_continuous_output" flow="Float64_continuous_input"/>
</lsdae:Coupling></lsdae:Couplings>
</ssc:Annotation></ssd:Annotations>
)");
  auto r = lsdae({"validate", "--no-load", ssp.string()});
  EXPECT_TRUE(ExitedWith(r, 1));
  for (const char* expected : {
           "broken.ssp: SystemStructure.ssd:7: error: <Connector> \"h\" of \"ball\" has unit \"s\", but the FMU's "
           "variable has \"m\" → declare the FMU's unit",
           "broken.ssp: SystemStructure.ssd:8: error: <Connector> \"v\" of \"ball\" has kind=\"input\", but the FMU's "
           "variable is output → write kind=\"output\"",
           "broken.ssp: SystemStructure.ssd:9: error: <Connector> \"nope\": BouncingBall.fmu (component \"ball\") has "
           "no variable \"nope\"",
           "broken.ssp: SystemStructure.ssd:12: error: parameter \"e\" of \"ball\": value \"bouncy\" does not fit the "
           "FMU's Float64 variable",
           "broken.ssp: SystemStructure.ssd:13: error: parameter \"h\" of \"ball\": the FMU's variable is output, not "
           "settable",
           "broken.ssp: SystemStructure.ssd:14: error: parameter \"mass\": BouncingBall.fmu (component \"ball\") has no "
           "variable \"mass\"",
           "broken.ssp: SystemStructure.ssd:19: error: <Connector> \"Int32_output\" of \"f\" is declared Real, but the "
           "FMU's variable is Int32 → declare it as ssc:Integer",
           "broken.ssp: SystemStructure.ssd:28: error: connection f.Int32_output → f.Float64_continuous_input: types "
           "differ (Int32 → Float64)",
           "broken.ssp: SystemStructure.ssd:30: error: connection ball.h → f.Float64_discrete_input: input "
           "\"Float64_discrete_input\" of \"f\" is already driven (at SystemStructure.ssd:29)",
           "broken.ssp: SystemStructure.ssd:31: error: connection f.Float64_continuous_output → ball.v: the end \"v\" "
           "is output, not an input → swap start and end",
           "broken.ssp: SystemStructure.ssd:34: error: coupling \"bad\" port 1 (g): potential \"Float64_continuous_input\" "
           "is input, not an output",
           "broken.ssp: SystemStructure.ssd:34: error: coupling \"bad\" port 1 (g): flow \"Int32_input\" is Int32, not "
           "Float64",
           "broken.ssp: SystemStructure.ssd:34: error: coupling \"bad\" port 2 (f): flow \"Float64_continuous_input\" "
           "is already driven (at SystemStructure.ssd:28)",
           "broken.ssp: INVALID (3 components, 4 connections, 1 coupling; 13 errors"})
    EXPECT_TRUE(Mentions(r, expected)) << expected;
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(SspCli, ABareSsdBesideItsFmusValidates) {
  if (!make_bare_ssd()) GTEST_SKIP() << "../shared is not beside this clone";
  auto r = lsdae({"validate", "--no-load", (work_ / "bench.ssd").string()});
  EXPECT_TRUE(ExitedWith(r, 0));
  EXPECT_TRUE(Mentions(r, "bench.ssd: valid (4 components"));
}

// A bare .ssd reads the FMUs beside it: --stats (or -o with --format csv)
// named like one replaced the component with the run's output, exit 0.
// Refused, as the .ssd itself is (runtime/common/output_clash.h).
TEST_F(SspCli, NoOutputIsAComponentFmuOfABareSsd) {
  if (!make_bare_ssd()) GTEST_SKIP() << "../shared is not beside this clone";
  const fs::path component = work_ / "resources" / "BouncingBall.fmu";
  const auto size = fs::file_size(component);
  const std::string csv = (work_ / "r.csv").string(), ssd = (work_ / "bench.ssd").string();
  for (const auto& args : {std::vector<std::string>{"simulate", ssd, "-o", csv, "--stats", component.string()},
                           std::vector<std::string>{"simulate", ssd, "-o", component.string(), "--format", "csv"}}) {
    auto r = lsdae(args);
    EXPECT_TRUE(ExitedWith(r, 2));
    EXPECT_TRUE(Mentions(r, "BouncingBall.fmu\": this is the FMU of component ball; writing there would destroy it"));
    EXPECT_EQ(fs::file_size(component), size);
  }
  auto r = lsdae({"sweep", ssd, "--grid", "ball.e=0.7", "--summary", component.string(), "--overwrite", "--no-progress"});
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_TRUE(Mentions(r, "--summary \"" + component.string() + "\": this is the FMU of component ball"));
  EXPECT_EQ(fs::file_size(component), size);
  EXPECT_FALSE(fs::exists(csv));
}

TEST_F(SspCli, BrokenSsdIsInvalidInputWithItsLine) {
  std::ofstream(work_ / "ghost.ssd") << kHead
                                     << "<ssd:Elements><ssd:Component name=\"a\" source=\"nowhere/a.fmu\"/></ssd:Elements>\n"
                                     << kTail;
  auto v = lsdae({"validate", (work_ / "ghost.ssd").string()});
  EXPECT_TRUE(ExitedWith(v, 1));
  EXPECT_TRUE(Mentions(v, "ghost.ssd: ghost.ssd:4: error: source of a: \"nowhere/a.fmu\" does not exist"));
  auto i = lsdae({"info", (work_ / "ghost.ssd").string()});
  EXPECT_TRUE(ExitedWith(i, 1));
  EXPECT_TRUE(Mentions(i, "ghost.ssd: the system description has 1 error(s):"));
}

TEST_F(SspCli, AnArchiveThatEscapesIsRefusedAndLeavesNothing) {
  write_ssp(work_ / "slip.ssp", std::string(kHead) + kTail, {}, {{"../../../slipped.txt", "x"}});
  for (const char* command : {"info", "validate"}) {
    auto r = lsdae({command, (work_ / "slip.ssp").string()});
    EXPECT_TRUE(ExitedWith(r, 3)) << command;
    EXPECT_TRUE(Mentions(r, "slip.ssp")) << command;
    EXPECT_TRUE(Mentions(r, "contains a \"..\" component")) << command;
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
  EXPECT_FALSE(fs::exists(root_.parent_path() / "slipped.txt"));
}

TEST_F(SspCli, SingleFmuOptionsAreUsageErrorsForASystem) {
  std::ofstream(work_ / "empty.ssd") << kHead << kTail;
  auto r = lsdae({"info", "--variables", (work_ / "empty.ssd").string()});
  EXPECT_TRUE(ExitedWith(r, 2));
  EXPECT_TRUE(Mentions(r, "--variables is for one FMU, not a system"));
  // --structure is a system's too (tests/systems: systems.info_structure).
}

}  // namespace
}  // namespace lsdae::test
