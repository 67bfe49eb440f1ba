// tests/runtime/import/archive_test.cpp -- runtime/import/archive.cpp:
// safe extraction, hostile member names and types, size caps.
#include "import/archive.h"

#include <gtest/gtest.h>

#include <fstream>

#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "zip_writer.h"

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;
using test::ZipMember;
using test::write_zip;

class ArchiveTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("lsdae-archive-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "out");
  }
  void TearDown() override { fs::remove_all(root_); }

  // Extracts and returns the error message ("" on success).
  std::string extract(const std::vector<ZipMember>& members, const ArchiveLimits& limits = {}) {
    write_zip(root_ / "test.fmu", members);
    try {
      extract_archive(root_ / "test.fmu", root_ / "out", limits);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::archive);
      return e.what();
    }
    return {};
  }
  // Everything below root_ except the archive and the extraction folder's contents.
  bool nothing_outside() const {
    for (const auto& entry : fs::recursive_directory_iterator(root_)) {
      fs::path rel = fs::relative(entry.path(), root_);
      if (rel == "test.fmu" || rel == "out" || *rel.begin() == "out") continue;
      ADD_FAILURE() << "unexpected file outside the extraction folder: " << rel;
      return false;
    }
    return true;
  }

  fs::path root_;
};

TEST_F(ArchiveTest, ExtractsFilesAndFolders) {
  EXPECT_EQ(extract({{"modelDescription.xml", "<x/>"}, {"binaries/", ""}, {"binaries/x86_64-linux/M.so", "ELF"},
                     {"resources/a/b/c.txt", "deep"}}),
            "");
  std::ifstream in(root_ / "out/resources/a/b/c.txt");
  std::string text;
  in >> text;
  EXPECT_EQ(text, "deep");
  EXPECT_TRUE(fs::is_directory(root_ / "out/binaries/x86_64-linux"));
}

TEST_F(ArchiveTest, RejectsParentComponents) {
  for (std::string name : {"../evil.txt", "a/../../evil.txt", "resources/..\\..\\evil.txt"}) {
    std::string message = extract({{"modelDescription.xml", "<x/>"}, {name, "pwned"}});
    EXPECT_NE(message.find("\"..\" component"), std::string::npos) << name << ": " << message;
    EXPECT_NE(message.find(name), std::string::npos) << message;
    EXPECT_TRUE(nothing_outside());
    EXPECT_TRUE(fs::is_empty(root_ / "out")) << "nothing is written before all names are checked";
  }
}

TEST_F(ArchiveTest, RejectsAbsolutePathsAndDriveLetters) {
  EXPECT_NE(extract({{"/tmp/evil.txt", "x"}}).find("absolute path"), std::string::npos);
  EXPECT_NE(extract({{"C:/evil.txt", "x"}}).find("drive letter"), std::string::npos);
  EXPECT_TRUE(nothing_outside());
}

TEST_F(ArchiveTest, RejectsSymlinksAndSpecialFiles) {
  std::string message = extract({{"resources/link", "/etc/passwd", S_IFLNK | 0777}});
  EXPECT_NE(message.find("symbolic link"), std::string::npos) << message;
  message = extract({{"resources/fifo", "", S_IFIFO | 0644}});
  EXPECT_NE(message.find("special file"), std::string::npos) << message;
  EXPECT_TRUE(nothing_outside());
}

TEST_F(ArchiveTest, CapsMemberCount) {
  ArchiveLimits limits;
  limits.max_entries = 3;
  std::string message = extract({{"a", "1"}, {"b", "2"}, {"c", "3"}, {"d", "4"}}, limits);
  EXPECT_NE(message.find("has 4 members, more than the limit of 3"), std::string::npos) << message;
}

TEST_F(ArchiveTest, CapsInflatedSizeOfOneMember) {
  ArchiveLimits limits;
  limits.max_entry_bytes = 1 << 20;
  std::string message = extract({{"resources/bomb.bin", std::string(4 << 20, '\0')}}, limits);
  EXPECT_NE(message.find("\"resources/bomb.bin\" inflates to more than 1.0 MiB"), std::string::npos) << message;
  EXPECT_NE(message.find("zip bomb"), std::string::npos);
}

TEST_F(ArchiveTest, CapsTotalInflatedSize) {
  ArchiveLimits limits;
  limits.max_total_bytes = 3 << 20;
  std::string message = extract(
      {{"a.bin", std::string(2 << 20, 'a')}, {"b.bin", std::string(2 << 20, 'b')}}, limits);
  EXPECT_NE(message.find("more than 3.0 MiB in total (at \"b.bin\")"), std::string::npos) << message;
}

TEST_F(ArchiveTest, RejectsDuplicateMembers) {
  // libzip refuses to write duplicate names, so build the duplicate through case-distinct
  // spellings of one path: "a/x" and "a\\x" land on the same file.
  std::string message = extract({{"a/x", "1"}, {"a\\x", "2"}});
  EXPECT_NE(message.find("lists this member twice"), std::string::npos) << message;
}

TEST_F(ArchiveTest, RejectsNonZipAndTruncatedFiles) {
  {
    std::ofstream out(root_ / "text.fmu");
    out << "this is not a zip archive\n";
  }
  try {
    extract_archive(root_ / "text.fmu", root_ / "out", {});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not a zip archive"), std::string::npos) << e.what();
  }
  write_zip(root_ / "good.fmu", {{"modelDescription.xml", std::string(5000, 'x')}, {"b.txt", "hello"}});
  auto size = fs::file_size(root_ / "good.fmu");
  fs::resize_file(root_ / "good.fmu", size / 2);
  try {
    extract_archive(root_ / "good.fmu", root_ / "out", {});
    FAIL() << "no error";
  } catch (const Error& e) {
    std::string message = e.what();
    EXPECT_TRUE(message.find("not a zip archive") != std::string::npos ||
                message.find("damaged") != std::string::npos)
        << message;
  }
}

TEST(UnsafeMemberReason, NamesTheRule) {
  EXPECT_EQ(unsafe_member_reason("resources/data.csv"), "");
  EXPECT_EQ(unsafe_member_reason("a/./b"), "");
  EXPECT_EQ(unsafe_member_reason(""), "has an empty name");
  EXPECT_EQ(unsafe_member_reason("/etc/passwd"), "is an absolute path");
  EXPECT_EQ(unsafe_member_reason("\\\\server\\share"), "is an absolute path");
  EXPECT_EQ(unsafe_member_reason(".."), "contains a \"..\" component");
  EXPECT_EQ(unsafe_member_reason(std::string("a\0b", 3)), "contains a NUL byte");
}

}  // namespace
}  // namespace lsdae::import
