// tests/runtime/common/output_clash_test.cpp -- the identity rule of
// runtime/common/output_clash.h on real files in a private folder: spellings
// of one path (also of a file not yet written, also relative: "x.csv" and
// "./x.csv" were two files once, weakly_canonical leaving a relative path
// whose first part does not exist as it was), a symlink, a hard link, a file
// inside an input folder (an existing one or a new one), the
// messages, and two outputs on one file.
#include "common/output_clash.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace lsdae::files {
namespace {

namespace fs = std::filesystem;

class OutputClash : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("lsdae_output_clash_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "sub");
    std::ofstream(dir_ / "case.m") << "case";
    fs::create_directories(dir_ / "unpacked");
    std::ofstream(dir_ / "unpacked" / "modelDescription.xml") << "<x/>";
    old_ = fs::current_path();
    fs::current_path(dir_);
  }
  void TearDown() override {
    fs::current_path(old_);
    fs::remove_all(dir_);
  }
  fs::path dir_, old_;
};

TEST_F(OutputClash, SpellingsOfOnePathAreOneFile) {
  EXPECT_TRUE(same_file("case.m", "./case.m"));
  EXPECT_TRUE(same_file("case.m", "sub/../case.m"));
  EXPECT_TRUE(same_file("case.m", (dir_ / "case.m").string()));
  // Not written yet: relative, and through a folder that does not exist.
  EXPECT_TRUE(same_file("new.csv", "./new.csv"));
  EXPECT_TRUE(same_file("new.csv", "missing/../new.csv"));
  EXPECT_TRUE(same_file("sub/new.csv", (dir_ / "sub" / "." / "new.csv").string()));
  EXPECT_FALSE(same_file("new.csv", "sub/new.csv"));
  EXPECT_FALSE(same_file("case.m", "case.m.csv"));
}

TEST_F(OutputClash, LinksAreTheFileTheyName) {
  fs::create_symlink(dir_ / "case.m", "sub/link.m");
  fs::create_hard_link("case.m", "hard.m");
  EXPECT_TRUE(same_file("sub/link.m", "case.m"));
  EXPECT_TRUE(same_file("hard.m", "case.m"));
  // A folder reached through a symlink: its ".." is the target's parent.
  fs::create_directories("deep/inner");
  fs::create_symlink(dir_ / "deep" / "inner", "jump");
  std::ofstream("deep/t.csv") << "t";
  EXPECT_TRUE(same_file("jump/../t.csv", "deep/t.csv"));
}

TEST_F(OutputClash, TheMessageNamesTheOptionThePathAndTheInput) {
  const std::vector<ReadPath> inputs{{"case.m", "the case being read"}, {"unpacked", "the FMU being simulated"}};
  EXPECT_EQ(output_over_input({{"--out", "./case.m", "--out CASE.grid"}}, inputs),
            "--out \"./case.m\": this is the case being read; writing there would destroy it → choose another file "
            "name, e.g. --out CASE.grid");
  EXPECT_EQ(output_over_input({{"-o", "unpacked/modelDescription.xml", "-o r.csv"}}, inputs),
            "-o \"unpacked/modelDescription.xml\": this lies inside the unpacked FMU \"unpacked\", which lsdae "
            "reads but never modifies → write outside that folder");
  // A new file inside the folder too: a second run would find it there.
  EXPECT_EQ(output_over_input({{"-o", "unpacked/sub/../r.csv", ""}}, inputs),
            "-o \"unpacked/sub/../r.csv\": this lies inside the unpacked FMU \"unpacked\", which lsdae reads but "
            "never modifies → write outside that folder");
  // Standard output and "none" are no clash.
  EXPECT_EQ(output_over_input({{"-o", "-", ""}, {"--stats", "", ""}}, inputs), "");
  EXPECT_EQ(output_over_input({{"-o", "r.csv", ""}}, {{"", "nothing"}}), "");
}

TEST_F(OutputClash, TwoOutputsOnOneFile) {
  EXPECT_EQ(same_output({{"-o", "r.csv", ""}, {"--stats", "s.json", ""}}), std::nullopt);
  const auto pair = same_output({{"-o", "r.csv", ""}, {"--stats", "s.json", ""}, {"--x", "./r.csv", ""}});
  ASSERT_TRUE(pair.has_value());
  EXPECT_EQ(pair->first, 0u);
  EXPECT_EQ(pair->second, 2u);
  fs::create_hard_link("case.m", "hard.m");
  EXPECT_TRUE(same_output({{"-o", "case.m", ""}, {"--stats", "hard.m", ""}}).has_value());
  EXPECT_EQ(same_output({{"-o", "-", ""}, {"--stats", "-", ""}}), std::nullopt) << "standard output is the caller's";
}

}  // namespace
}  // namespace lsdae::files
