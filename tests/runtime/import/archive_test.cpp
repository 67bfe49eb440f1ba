// tests/runtime/import/archive_test.cpp -- runtime/import/archive.cpp:
// safe extraction, hostile member names and types, size caps.
#include "import/archive.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "zip_writer.h"

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;
using test::RawZipMember;
using test::ZipMember;
using test::write_raw_zip;
using test::write_zip;

std::string slurp(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// Bytes in regular files below `dir`: what an extraction wrote.
std::uintmax_t bytes_below(const fs::path& dir) {
  std::uintmax_t total = 0;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.is_regular_file()) total += entry.file_size();
  return total;
}

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
  // The same for an archive written byte by byte.
  std::string extract_raw(const std::vector<RawZipMember>& members, const ArchiveLimits& limits = {}) {
    write_raw_zip(root_ / "test.fmu", members);
    return extract_file(root_ / "test.fmu", limits);
  }
  std::string extract_file(const fs::path& archive, const ArchiveLimits& limits = {}) {
    diagnostics_ = Diagnostics{};
    try {
      report_ = extract_archive(archive, root_ / "out", limits, &diagnostics_);
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
  Diagnostics diagnostics_;
  ExtractionReport report_;
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

// ---- members listed twice ----------------------------------------------------------

// The shape of the Reference-FMUs' Roberts.fmu: six members listed twice with the same bytes.
TEST_F(ArchiveTest, AcceptsMembersListedTwiceWithIdenticalBytesWithOneWarning) {
  std::vector<RawZipMember> members = {{"modelDescription.xml", "<x/>"}};
  const std::vector<std::string> twice = {"sources/all.c",   "sources/cosimulation.c", "sources/fmi3Functions.c",
                                          "sources/model.c", "sources/config.h",       "sources/model.h"};
  for (const auto& name : twice) members.push_back({name, "/* " + name + " */\n" + std::string(70000, 'c')});
  for (const auto& name : twice) members.push_back({name, "/* " + name + " */\n" + std::string(70000, 'c')});
  EXPECT_EQ(extract_raw(members), "");
  EXPECT_EQ(report_.identical_duplicates, twice);
  for (const auto& name : twice) EXPECT_EQ(slurp(root_ / "out" / name), "/* " + name + " */\n" + std::string(70000, 'c'));
  ASSERT_EQ(diagnostics_.items().size(), 1u) << "one warning for all of them";
  const Diagnostic& d = diagnostics_.items()[0];
  EXPECT_EQ(d.severity, Severity::warning);
  EXPECT_NE(d.message.find("lists 6 members"), std::string::npos) << d.message;
  for (const auto& name : twice) EXPECT_NE(d.message.find("\"" + name + "\""), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("identical bytes"), std::string::npos) << d.message;
  EXPECT_EQ(diagnostics_.count(Severity::error), 0u);
}

TEST_F(ArchiveTest, AcceptsTheSameFileUnderTwoSpellingsOfItsPath) {
  EXPECT_EQ(extract_raw({{"resources/a/x.txt", "same"}, {"resources\\a\\x.txt", "same"}, {"./resources//a/x.txt", "same"}}),
            "");
  EXPECT_EQ(slurp(root_ / "out/resources/a/x.txt"), "same");
  ASSERT_EQ(diagnostics_.items().size(), 1u);
  EXPECT_NE(diagnostics_.items()[0].message.find("the member \"resources/a/x.txt\""), std::string::npos)
      << diagnostics_.items()[0].message;
}

TEST_F(ArchiveTest, RefusesMembersListedTwiceWithDifferentBytesAndNamesThem) {
  // Same size, different bytes: the CRC-32s differ, refused before anything is written.
  std::string message = extract_raw({{"modelDescription.xml", "<x/>"}, {"resources/data.bin", "version 1"},
                                     {"resources/data.bin", "version 2"}});
  EXPECT_NE(message.find("member \"resources/data.bin\" is listed twice with different contents"), std::string::npos)
      << message;
  EXPECT_NE(message.find("→ lsdae cannot tell which copy is meant"), std::string::npos) << message;
  EXPECT_TRUE(fs::is_empty(root_ / "out")) << "refused before anything is written";
  // Different sizes.
  message = extract_raw({{"a.txt", "short"}, {"a.txt", "longer text"}});
  EXPECT_NE(message.find("member \"a.txt\" is listed twice with different contents (5 and 11 bytes"),
            std::string::npos)
      << message;
  // A forged CRC-32 in the second copy's entry: the bytes are compared while inflating
  // (stored, so libzip's own CRC check at the end of the member cannot come first).
  RawZipMember first{"b.txt", "0123456789"}, second{"b.txt", "0123X56789"};
  first.deflate = second.deflate = false;
  second.declared_crc = static_cast<std::uint32_t>(crc32(0, reinterpret_cast<const Bytef*>("0123456789"), 10));
  fs::remove_all(root_ / "out");
  fs::create_directory(root_ / "out");
  message = extract_raw({first, second});
  EXPECT_NE(message.find("member \"b.txt\" is listed twice with different contents"), std::string::npos) << message;
}

TEST_F(ArchiveTest, RefusesAFileAndAFolderAtTheSamePlace) {
  std::string message = extract_raw({{"resources/x", "file"}, {"resources/x/", ""}});
  EXPECT_NE(message.find("member \"resources/x/\" is a folder, but member \"resources/x\" is a file at the same place"),
            std::string::npos)
      << message;
  fs::remove_all(root_ / "out");
  fs::create_directory(root_ / "out");
  message = extract_raw({{"resources/x", "file"}, {"resources/x/y", "below a file"}});
  EXPECT_NE(message.find("member \"resources/x/y\" needs \"resources/x\" to be a folder, but an earlier member made it a file"),
            std::string::npos)
      << message;
  fs::remove_all(root_ / "out");
  fs::create_directory(root_ / "out");
  message = extract_raw({{"resources/x/y", "below a folder"}, {"resources/x", "file"}});
  EXPECT_NE(message.find("member \"resources/x\" cannot be created (an earlier member made a folder of that name)"),
            std::string::npos)
      << message;
  EXPECT_TRUE(nothing_outside());
}

// ---- Unix modes ----------------------------------------------------------------------

// Written by Python 3.11.2: zipfile.ZipFile(path, "w", ZIP_DEFLATED) and writestr() for
// every member, one of them twice (Python warns "Duplicate name" and writes it). writestr
// of a name stores external attributes 0600 << 16: permission bits, no file type.
const char* const kPythonWritestrZip =
    "504b03041400000008008318225c48c3dc0c2e0000002d000000140000006d6f64656c4465736372697074696f6e2e78"
    "6d6cb3b1afc8cd51284b2d2acecccfb35532d43350b2b7e3b249cbcdf4cd4f49cd71492d4e2eca2c28014aeadb710100"
    "504b03041400000008008318225c2b144e330e0000000c000000130000007265736f75726365732f7461626c652e6373"
    "762bd1a9e432d031e432d431e20200504b03041400000008008318225c4880b02813000000110000000f000000736f75"
    "726365732f6d6f64656c2e63cbcc2b5148cc2b2e4f2d52b0553031b2e60200504b03041400000008008318225c4880b0"
    "2813000000110000000f000000736f75726365732f6d6f64656c2e63cbcc2b5148cc2b2e4f2d52b0553031b2e6020050"
    "4b010214031400000008008318225c48c3dc0c2e0000002d0000001400000000000000000000008001000000006d6f64"
    "656c4465736372697074696f6e2e786d6c504b010214031400000008008318225c2b144e330e0000000c000000130000"
    "0000000000000000008001600000007265736f75726365732f7461626c652e637376504b010214031400000008008318"
    "225c4880b02813000000110000000f000000000000000000000080019f000000736f75726365732f6d6f64656c2e6350"
    "4b010214031400000008008318225c4880b02813000000110000000f00000000000000000000008001df000000736f75"
    "726365732f6d6f64656c2e63504b05060000000004000400fd0000001f0100000000";

TEST_F(ArchiveTest, ReadsAnArchiveWrittenByPythonZipfileWritestr) {
  std::string bytes;
  for (const char* p = kPythonWritestrZip; p[0] != '\0'; p += 2) bytes += static_cast<char>(std::stoi(std::string(p, 2), nullptr, 16));
  {
    std::ofstream(root_ / "python.fmu", std::ios::binary) << bytes;
  }
  EXPECT_EQ(extract_file(root_ / "python.fmu"), "");
  EXPECT_EQ(slurp(root_ / "out/modelDescription.xml"), "<?xml version=\"1.0\"?>\n<fmiModelDescription/>\n");
  EXPECT_EQ(slurp(root_ / "out/resources/table.csv"), "t,y\n0,1\n1,2\n");
  EXPECT_EQ(slurp(root_ / "out/sources/model.c"), "int answer = 42;\n");
  EXPECT_EQ(report_.identical_duplicates, std::vector<std::string>{"sources/model.c"});
  struct stat st {};
  ASSERT_EQ(::stat((root_ / "out/resources/table.csv").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
}

TEST_F(ArchiveTest, PermissionBitsWithoutAFileTypeMeanAFileOrAFolder) {
  RawZipMember file{"resources/plain.txt", "text"}, exe{"binaries/x86_64-linux/m.so", "ELF"}, dir{"resources/empty/", ""};
  file.external_attributes = 0600u << 16;
  exe.external_attributes = 0755u << 16;
  dir.external_attributes = 0700u << 16;
  EXPECT_EQ(extract_raw({file, exe, dir}), "");
  EXPECT_EQ(slurp(root_ / "out/resources/plain.txt"), "text");
  EXPECT_TRUE(fs::is_directory(root_ / "out/resources/empty"));
  struct stat st {};
  ASSERT_EQ(::stat((root_ / "out/binaries/x86_64-linux/m.so").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u) << "the executable bit is kept";
  ASSERT_EQ(::stat((root_ / "out/resources/plain.txt").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // MS-DOS attributes (archive bit) from a Windows tool: not a Unix mode at all.
  RawZipMember dos{"resources/dos.txt", "dos"};
  dos.made_by_system = 0;
  dos.external_attributes = 0x20;
  fs::remove_all(root_ / "out");
  fs::create_directory(root_ / "out");
  EXPECT_EQ(extract_raw({dos}), "");
  EXPECT_EQ(slurp(root_ / "out/resources/dos.txt"), "dos");
}

TEST_F(ArchiveTest, EveryOtherFileTypeStaysRefused) {
  const std::pair<unsigned, const char*> types[] = {
      {S_IFLNK | 0777, "is a symbolic link"},
      {S_IFIFO | 0644, "is a special file (a FIFO, mode 010644)"},
      {S_IFCHR | 0600, "is a special file (a character device, mode 020600)"},
      {S_IFBLK | 0600, "is a special file (a block device, mode 060600)"},
      {S_IFSOCK | 0600, "is a special file (a socket, mode 0140600)"},
  };
  for (const auto& [mode, expected] : types) {
    RawZipMember m{"resources/odd", "/etc/passwd"};
    m.external_attributes = mode << 16;
    std::string message = extract_raw({{"modelDescription.xml", "<x/>"}, m});
    EXPECT_NE(message.find("member \"resources/odd\" " + std::string(expected)), std::string::npos) << message;
    EXPECT_TRUE(fs::is_empty(root_ / "out")) << "refused before anything is written";
  }
  EXPECT_TRUE(nothing_outside());
}

// ---- depth -----------------------------------------------------------------------------

TEST_F(ArchiveTest, DeeplyNestedMembersAreExtractedAndTheTempFolderIsRemoved) {
  // 100 folders deep (the depth seen to leak the temp folder) and 1200, where a removal
  // that recursed with a buffer per level would have run out of stack in a signal handler.
  // (A zip name of 65535 bytes nests up to 32767 folders; that works too, but costs half a
  // millisecond per folder on an ext4 TMPDIR, twice.)
  for (std::size_t depth : {std::size_t{100}, std::size_t{1200}}) {
    std::string name;
    for (std::size_t k = 0; k < depth; ++k) name += "d/";
    name += "f";
    fs::path made;
    {
      TempDir temp = TempDir::create(root_);
      made = temp.path();
      write_raw_zip(root_ / "deep.fmu", {{"modelDescription.xml", "<x/>"}, {name, "bottom"}});
      ExtractionReport report = extract_archive(root_ / "deep.fmu", temp.path(), {});
      EXPECT_EQ(report.entries, 2u);
      // Walk down with openat: the full path is longer than PATH_MAX.
      int fd = ::open(temp.path().c_str(), O_RDONLY | O_DIRECTORY);
      for (std::size_t k = 0; k < depth && fd >= 0; ++k) {
        int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY);
        ::close(fd);
        fd = next;
      }
      ASSERT_GE(fd, 0) << "depth " << depth;
      char text[16] = {};
      int file = ::openat(fd, "f", O_RDONLY);
      EXPECT_EQ(::read(file, text, sizeof text), 6);
      EXPECT_STREQ(text, "bottom");
      ::close(file);
      ::close(fd);
    }
    EXPECT_FALSE(fs::exists(made)) << "depth " << depth << ": the temp folder was left behind";
  }
}

// ---- zip bombs ---------------------------------------------------------------------------

TEST_F(ArchiveTest, RefusesAMemberDeclaredOverTheCapBeforeWritingAnything) {
  ArchiveLimits limits;
  limits.max_entry_bytes = 16u << 20;
  std::string message = extract_raw({{"modelDescription.xml", "<x/>"}, {"resources/zeros.bin", std::string(64u << 20, '\0')}},
                                    limits);
  EXPECT_NE(message.find("member \"resources/zeros.bin\" inflates to more than 16.0 MiB (its zip entry declares 64.0 MiB)"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("zip bomb"), std::string::npos) << message;
  EXPECT_TRUE(fs::is_empty(root_ / "out")) << "nothing written: the declared size is checked first";
}

TEST_F(ArchiveTest, RefusesADeclaredTotalOverTheCapBeforeWritingAnything) {
  ArchiveLimits limits;
  limits.max_total_bytes = 3u << 20;
  std::string message =
      extract_raw({{"a.bin", std::string(2u << 20, 'a')}, {"b.bin", std::string(2u << 20, 'b')}}, limits);
  EXPECT_NE(message.find("members inflate to more than 3.0 MiB in total (at \"b.bin\"), by the sizes the zip directory declares"),
            std::string::npos)
      << message;
  EXPECT_TRUE(fs::is_empty(root_ / "out"));
}

TEST_F(ArchiveTest, RefusesAnAbsurdCompressionRatioBeforeWritingAnything) {
  // 64 MiB of zeros deflate about 1030:1, under the default 4 GiB cap but over 1000:1.
  std::string message = extract_raw({{"modelDescription.xml", "<x/>"}, {"resources/zeros.bin", std::string(64u << 20, '\0')}});
  EXPECT_NE(message.find("member \"resources/zeros.bin\" inflates 6"), std::string::npos) << message;
  EXPECT_NE(message.find(" KiB to 64.0 MiB, a compression ratio above 1000:1"), std::string::npos) << message;
  EXPECT_NE(message.find("unzip it yourself and give lsdae the folder"), std::string::npos) << message;
  EXPECT_TRUE(fs::is_empty(root_ / "out"));
  // The same bytes under the size that is checked: accepted (a small table of zeros is fine).
  fs::remove_all(root_ / "out");
  fs::create_directory(root_ / "out");
  EXPECT_EQ(extract_raw({{"resources/zeros.bin", std::string(8u << 20, '\0')}}), "");
  // And a raised ratio lets the big one through.
  fs::remove_all(root_ / "out");
  fs::create_directory(root_ / "out");
  ArchiveLimits limits;
  limits.max_compression_ratio = 2000;
  EXPECT_EQ(extract_raw({{"resources/zeros.bin", std::string(64u << 20, '\0')}}, limits), "");
}

TEST_F(ArchiveTest, StopsAMemberThatInflatesPastItsDeclaredSize) {
  // The directory lies: 64 MiB of zeros declared as 1000 bytes (ratio and caps look fine).
  RawZipMember bomb{"resources/bomb.bin", std::string(64u << 20, '\0')};
  bomb.declared_size = 1000;
  std::string message = extract_raw({{"modelDescription.xml", "<x/>"}, bomb});
  EXPECT_NE(message.find("member \"resources/bomb.bin\" inflates to more than the 1000 bytes its zip entry declares"),
            std::string::npos)
      << message;
  EXPECT_LE(bytes_below(root_ / "out"), 1000u + 4u) << "written: the declared 1000 bytes and the XML at most";
  // Declared just under the ratio check (8 MiB): stops there, not at the 4 GiB cap.
  fs::remove_all(root_ / "out");
  fs::create_directory(root_ / "out");
  bomb.declared_size = 8u << 20;
  message = extract_raw({bomb});
  EXPECT_NE(message.find("inflates to more than the 8388608 bytes its zip entry declares"), std::string::npos) << message;
  EXPECT_LE(bytes_below(root_ / "out"), 8u << 20);
}

TEST_F(ArchiveTest, RefusesAMemberShorterThanDeclared) {
  RawZipMember member{"resources/short.bin", "only this"};
  member.deflate = false;
  member.declared_size = 20;  // stored: libzip reads the 9 bytes of the compressed size
  std::string message = extract_raw({member});
  EXPECT_NE(message.find("member \"resources/short.bin\""), std::string::npos) << message;
  EXPECT_TRUE(message.find("inflates to 9 bytes, but its zip entry declares 20") != std::string::npos ||
              message.find("is corrupt") != std::string::npos)
      << message;
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
