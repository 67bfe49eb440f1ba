// tests/runtime/import/ssp_files_test.cpp -- the SSP 1.0 reader on files
// (runtime/import/ssp/, lsdae/ssp.h): an .ssd beside its FMUs, file URIs and
// parameter files, .ssp archives built here (unpacked for as long as the
// description lives), and members, sources and paths that are refused with
// their messages. The reader's rules on SSD text: ssp_reader_test.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/ssp.h"
#include "ssd_text.h"
#include "zip_writer.h"

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;
using test_text::ssd;


class SspFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("lsdae-ssp-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "tmp");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  SystemReadOptions options() const {
    SystemReadOptions o;
    o.temp_root = root_ / "tmp";
    return o;
  }
  fs::path root_;
};

const char* kPackaged = R"(<?xml version="1.0"?>
<ssd:SystemStructureDescription xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" name="packaged" version="1.0">
<ssd:System name="root">
<ssd:Elements>
<ssd:Component name="a" source="resources/a.fmu">
<ssd:ParameterBindings><ssd:ParameterBinding source="resources/a.ssv"/></ssd:ParameterBindings>
</ssd:Component>
</ssd:Elements>
</ssd:System>
</ssd:SystemStructureDescription>
)";

const char* kSsv = R"(<?xml version="1.0"?>
<ssv:ParameterSet xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" version="1.0" name="a">
<ssv:Parameters><ssv:Parameter name="k"><ssv:Real value="4.25"/></ssv:Parameter></ssv:Parameters>
</ssv:ParameterSet>
)";

TEST_F(SspFiles, AnSspIsUnpackedForAsLongAsTheDescriptionLives) {
  const fs::path ssp = root_ / "system.ssp";
  test::write_zip(ssp, {{"SystemStructure.ssd", kPackaged}, {"resources/a.fmu", "not really a zip"}, {"resources/a.ssv", kSsv}});
  fs::path fmu;
  {
    SystemDescription s = read_system_description(ssp, options());
    ASSERT_EQ(s.components.size(), 1u);
    fmu = s.components[0].fmu;
    EXPECT_TRUE(fs::exists(fmu)) << fmu;
    EXPECT_EQ(fmu.filename(), "a.fmu");
    EXPECT_EQ(s.source, ssp);
    ASSERT_EQ(s.components[0].parameters.size(), 1u);
    EXPECT_EQ(s.components[0].parameters[0].second, "4.25");
    EXPECT_EQ(s.components[0].parameters_where[0], "resources/a.ssv:3");
    SystemDescription copy = s;
    s = SystemDescription{};
    EXPECT_TRUE(fs::exists(fmu)) << "a copy keeps the folder";
  }
  EXPECT_FALSE(fs::exists(fmu));
  EXPECT_TRUE(fs::is_empty(root_ / "tmp"));
}

TEST_F(SspFiles, ABareSsdFindsItsFmusBesideIt) {
  write(root_ / "sys" / "models" / "a.fmu", "x");
  write(root_ / "sys" / "system.ssd", ssd(R"(<ssd:Elements><ssd:Component name="a" source="models/a.fmu"/>
<ssd:Component name="b" source="missing.fmu"/></ssd:Elements>
)"));
  Diagnostics d;
  SystemDescription s = read_system_description(root_ / "sys" / "system.ssd", options(), d);
  ASSERT_EQ(s.components.size(), 2u);
  EXPECT_EQ(s.components[0].fmu, root_ / "sys" / "models" / "a.fmu");
  EXPECT_EQ(s.storage, nullptr);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].format(), "system.ssd:5: error: source of b: \"missing.fmu\" does not exist (looked for " +
                                       (root_ / "sys" / "missing.fmu").string() +
                                       ") → fix the path (relative to the .ssd's folder)");
  // The throwing form lists every error, as invalid input.
  try {
    read_system_description(root_ / "sys" / "system.ssd", options());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid);
    EXPECT_EQ(std::string(e.what()).rfind("system.ssd: the system description has 1 error(s):\n  system.ssd:5: error: source of b", 0), 0u)
        << e.what();
  }
}

TEST_F(SspFiles, ABareSsdTakesFileUrisAndParameterFilesBesideIt) {
  write(root_ / "fmus" / "a.fmu", "x");
  write(root_ / "sys" / "values" / "a.ssv", kSsv);
  write(root_ / "sys" / "system.ssd",
        ssd("<ssd:Elements><ssd:Component name=\"a\" source=\"file://" + (root_ / "fmus" / "a.fmu").string() +
            "\">\n<ssd:ParameterBindings><ssd:ParameterBinding source=\"values/a.ssv\"/>"
            "<ssd:ParameterBinding source=\"values/gone.ssv\"/></ssd:ParameterBindings>\n"
            "</ssd:Component></ssd:Elements>\n"));
  Diagnostics d;
  SystemDescription s = read_system_description(root_ / "sys" / "system.ssd", options(), d);
  ASSERT_EQ(s.components.size(), 1u);
  EXPECT_EQ(s.components[0].fmu, root_ / "fmus" / "a.fmu");
  ASSERT_EQ(s.components[0].parameters.size(), 1u);
  EXPECT_EQ(s.components[0].parameters[0].second, "4.25");
  EXPECT_EQ(s.components[0].parameters_where[0], "values/a.ssv:3");
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].format(), "system.ssd:5: error: source of <ParameterBinding>: \"values/gone.ssv\" does not "
                                   "exist (looked for " + (root_ / "sys" / "values" / "gone.ssv").string() +
                                   ") → fix the path (relative to the .ssd's folder)");
}

TEST_F(SspFiles, AnSspMemberOutsideTheArchiveIsRefusedAndNothingIsLeft) {
  const fs::path ssp = root_ / "evil.ssp";
  test::write_raw_zip(ssp, {{"SystemStructure.ssd", kPackaged}, {"../../escaped.fmu", "x"}});
  try {
    read_system_description(ssp, options());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::archive);
    EXPECT_NE(std::string(e.what()).find("../../escaped.fmu"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("evil.ssp: ", 0), 0u) << e.what();
  }
  EXPECT_FALSE(fs::exists(root_ / "escaped.fmu"));
  EXPECT_TRUE(fs::is_empty(root_ / "tmp"));
}

TEST_F(SspFiles, AnSspWithoutSystemStructureSsdIsAnArchiveError) {
  const fs::path ssp = root_ / "folder.ssp";
  test::write_zip(ssp, {{"folder/SystemStructure.ssd", kPackaged}});
  try {
    read_system_description(ssp, options());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::archive);
    EXPECT_EQ(std::string(e.what()),
              "folder.ssp: SystemStructure.ssd is missing at the root of the archive → an .ssp holds its default "
              "system as SystemStructure.ssd (zip the files, not their folder)");
  }
  EXPECT_TRUE(fs::is_empty(root_ / "tmp"));
}

TEST_F(SspFiles, AnSspSourceThatIsNotInThePackageIsNamed) {
  const fs::path ssp = root_ / "missing.ssp";
  test::write_zip(ssp, {{"SystemStructure.ssd", kPackaged}, {"resources/a.ssv", kSsv}});
  Diagnostics d;
  read_system_description(ssp, options(), d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].format(),
            "SystemStructure.ssd:5: error: source of a: the package has no file \"resources/a.fmu\" → add it to the "
            ".ssp or fix the path");
}

TEST_F(SspFiles, MissingAndOddPathsAreUsageErrors) {
  for (const fs::path& p : {root_ / "none.ssp", root_}) {
    try {
      read_system_description(p, options());
      FAIL() << "no error for " << p;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage) << e.what();
    }
  }
  EXPECT_TRUE(is_system_file("x.SSP"));
  EXPECT_TRUE(is_system_file("dir/x.ssd"));
  EXPECT_FALSE(is_system_file("x.fmu"));
}

}  // namespace
}  // namespace lsdae::import
