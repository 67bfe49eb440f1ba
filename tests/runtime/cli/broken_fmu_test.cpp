// tests/runtime/cli/broken_fmu_test.cpp -- the corpus of broken and hostile
// FMUs, generated at test time from good model FMUs (broken_fmus.h), each run
// through the real `lsdae validate` and `lsdae info`.
//
// For every case and both commands: the documented exit code (lsdae/error.h:
// 1 invalid, 3 archive, 4 xml; `info` exits 0 on an FMU that parses but is
// invalid or cannot be loaded -- it summarises, `validate` judges), the
// specific message, no crash (a child killed by a signal fails), and nothing
// left in the child's TMPDIR or anywhere outside it.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <functional>
#include <string>
#include <vector>

#include "broken_fmus.h"
#include "cli_fixture.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kHello = "HelloWorld_semi_explicit_shapeA";
const std::string kHelloBinary = binary_member("HelloWorld");

struct Expect {
  int exit_code = 0;
  std::vector<std::string> fragments;  // each must appear in stdout + stderr
};

// What a case sees when it builds its FMU.
struct BuildContext {
  FmuImage image;     // the base FMU's members, to edit
  fs::path fmu;       // where the broken .fmu must be written
  fs::path root;      // the test's private folder (see cli_fixture.h)
};

struct BrokenCase {
  std::string name;
  std::function<void(BuildContext&)> build;
  Expect validate;
  Expect info;
  std::vector<std::string> extra_args = {};     // given to both commands
  std::string base = kHello;                    // the catalog FMU it starts from
  std::vector<std::string> must_not_exist = {};  // absolute paths a hostile member aims at
};

// A builder that edits the image and writes it.
std::function<void(BuildContext&)> edit(std::function<void(FmuImage&)> change) {
  return [change](BuildContext& c) {
    change(c.image);
    c.image.write(c.fmu);
  };
}

// A builder that adds one member with the given name (hostile names included).
std::function<void(BuildContext&)> with_member(std::string name, std::string data = "pwned\n") {
  return edit([name, data](FmuImage& image) { image.put(name, data); });
}

Expect archive_error(std::vector<std::string> fragments) { return {exit_code(ErrorKind::archive), std::move(fragments)}; }
Expect xml_error(std::vector<std::string> fragments) { return {exit_code(ErrorKind::xml), std::move(fragments)}; }
Expect invalid(std::vector<std::string> fragments) {
  fragments.push_back("INVALID (");
  return {exit_code(ErrorKind::invalid), std::move(fragments)};
}
// `validate` on an FMU whose XML is fine but whose binary fails: the finding is
// listed like the others, and the exit code says which stage failed.
Expect load_error(ErrorKind kind, std::vector<std::string> fragments) {
  fragments.push_back("INVALID (1 error");
  return {exit_code(kind), std::move(fragments)};
}
// `info` on an FMU that parses but breaks a rule: a summary, exit 0, the error count.
Expect summarised_with_errors() { return {0, {"re:validation +[1-9][0-9]* errors?, [0-9]+ warnings? \\(`lsdae validate` lists them\\)"}}; }

std::string zip_slip_fragment(const std::string& member, const std::string& reason) {
  return "member \"" + member + "\" " + reason + ", which would write outside the FMU's folder";
}

std::vector<BrokenCase> corpus() {
  std::vector<BrokenCase> cases;
  // ---- the archive ------------------------------------------------------------
  cases.push_back({"TruncatedZip",
                   [](BuildContext& c) {
                     c.image.write(c.fmu);
                     truncate_file(c.fmu, fs::file_size(c.fmu) / 2);
                   },
                   // libzip finds no end-of-central-directory record and says "not a zip"; the
                   // message may learn to mention truncation, so only "zip archive" is pinned.
                   archive_error({"HelloWorld_semi_explicit_shapeA.fmu: ", "zip archive"}),
                   archive_error({"zip archive"})});
  cases.push_back({"TruncatedEndOfCentralDirectory",
                   [](BuildContext& c) {
                     c.image.write(c.fmu);
                     truncate_file(c.fmu, fs::file_size(c.fmu) - 10);
                   },
                   archive_error({"HelloWorld_semi_explicit_shapeA.fmu: ", "zip archive"}),
                   archive_error({"zip archive"})});
  cases.push_back({"CorruptMemberData",
                   [](BuildContext& c) {
                     c.image.write(c.fmu);
                     // Flip bytes inside the stored binary: the directory is intact, the CRC is not.
                     std::string bytes = read_file(c.fmu);
                     std::size_t at = bytes.size() / 2;
                     for (std::size_t i = at; i < at + 16; ++i) bytes[i] = static_cast<char>(~bytes[i]);
                     write_file(c.fmu, bytes);
                   },
                   archive_error({"member \"binaries/x86_64-linux/HelloWorld.so\" is corrupt (CRC error) → "
                                  "re-export or re-download the FMU"}),
                   archive_error({"is corrupt (CRC error)"})});
  cases.push_back({"RandomBytes", [](BuildContext& c) { write_file(c.fmu, random_bytes(4096, 42)); },
                   archive_error({".fmu: is not a zip archive, or a truncated one (no zip directory at its end) → "
                                  "an FMU must be a complete zip file"}),
                   archive_error({"is not a zip archive"})});
  cases.push_back({"TextFile", [](BuildContext& c) { write_file(c.fmu, "This is a README, not an FMU.\n"); },
                   archive_error({"is not a zip archive"}), archive_error({"is not a zip archive"})});
  cases.push_back({"EmptyFile", [](BuildContext& c) { write_file(c.fmu, ""); },
                   archive_error({"is not a zip archive"}), archive_error({"is not a zip archive"})});
  cases.push_back({"MissingModelDescription", edit([](FmuImage& i) { i.remove(kModelDescription); }),
                   archive_error({"modelDescription.xml is missing → an FMU must contain modelDescription.xml at the "
                                  "top level"}),
                   archive_error({"modelDescription.xml is missing"})});
  cases.push_back({"ZippedTheFolder", edit([](FmuImage& i) { i.nest_under("HelloWorld"); }),
                   archive_error({"modelDescription.xml is missing → it is inside the folder \"HelloWorld/\": zip "
                                  "the folder's contents, not the folder"}),
                   archive_error({"zip the folder's contents, not the folder"})});
  cases.push_back({"ZipSlipParent", with_member("../evil.txt"),
                   archive_error({zip_slip_fragment("../evil.txt", "contains a \"..\" component")}),
                   archive_error({zip_slip_fragment("../evil.txt", "contains a \"..\" component")})});
  cases.push_back({"ZipSlipGrandparent", with_member("../../evil.txt"),
                   archive_error({zip_slip_fragment("../../evil.txt", "contains a \"..\" component")}),
                   archive_error({"contains a \"..\" component"})});
  cases.push_back({"ZipSlipInside", with_member("a/../../evil.txt"),
                   archive_error({zip_slip_fragment("a/../../evil.txt", "contains a \"..\" component")}),
                   archive_error({"contains a \"..\" component"})});
  cases.push_back({"ZipSlipBackslash", with_member("resources\\..\\..\\evil.txt"),
                   archive_error({"contains a \"..\" component"}), archive_error({"contains a \"..\" component"})});
  cases.push_back({"ZipSlipAbsolute", with_member("/abs/evil.txt"),
                   archive_error({zip_slip_fragment("/abs/evil.txt", "is an absolute path")}),
                   archive_error({"is an absolute path"}), {}, kHello, {"/abs/evil.txt"}});
  {
    BrokenCase c{"ZipSlipAbsoluteIntoTestFolder",
                 [](BuildContext& b) {
                   b.image.put((b.root / "abs-evil.txt").string(), "pwned\n");
                   b.image.write(b.fmu);
                 },
                 archive_error({"is an absolute path"}), archive_error({"is an absolute path"})};
    cases.push_back(c);
  }
  cases.push_back({"SymlinkMember",
                   edit([](FmuImage& i) {
                     ZipMember link;
                     link.name = "resources/passwd";
                     link.data = "/etc/passwd";
                     link.kind = ZipMember::Kind::symlink;
                     i.add(link);
                   }),
                   archive_error({"member \"resources/passwd\" is a symbolic link → FMUs must not contain symlinks"}),
                   archive_error({"is a symbolic link"})});
  cases.push_back({"SymlinkDirectoryThenWriteThrough",
                   edit([](FmuImage& i) {
                     // The classic two-step escape: a symlink folder, then a file "through" it.
                     ZipMember link;
                     link.name = "resources/up";
                     link.data = "../../..";
                     link.kind = ZipMember::Kind::symlink;
                     i.add(link);
                     i.put("resources/up/evil.txt", "pwned\n");
                   }),
                   archive_error({"member \"resources/up\" is a symbolic link"}),
                   archive_error({"is a symbolic link"})});
  cases.push_back({"OversizedMember",
                   edit([](FmuImage& i) {
                     // 64 MiB of zeros deflate to ~64 KiB. First in the archive, so the
                     // per-member cap trips before the total (which the binary also counts to).
                     ZipMember zeros;
                     zeros.name = "resources/zeros.bin";
                     zeros.data = std::string(64u << 20, '\0');
                     i.members.insert(i.members.begin(), zeros);
                   }),
                   archive_error({"member \"resources/zeros.bin\" inflates to more than 16.0 MiB",
                                  "this looks like a zip bomb"}),
                   archive_error({"inflates to more than 16.0 MiB"}), {"--max-unpacked-size", "16777216"}});
  cases.push_back({"OversizedTotal",
                   edit([](FmuImage& i) {
                     // Each part is under the cap; together they are over it.
                     for (int k = 0; k < 8; ++k) i.put("resources/part" + std::to_string(k), std::string(2u << 20, 'x'));
                   }),
                   archive_error({"members inflate to more than 16.0 MiB in total (at \"resources/part", "zip bomb"}),
                   archive_error({"in total"}), {"--max-unpacked-size", "16777216"}});
  cases.push_back({"TooManyMembers",
                   edit([](FmuImage& i) {
                     // The default cap (100000), so one more than that in all.
                     ZipMember pad;
                     pad.store = true;
                     for (std::size_t k = i.members.size(); k <= 100000; ++k) {
                       pad.name = "resources/pad/" + std::to_string(k);
                       i.add(pad);
                     }
                   }),
                   archive_error({"has 100001 members, more than the limit of 100000", "this looks like a zip bomb"}),
                   archive_error({"more than the limit of 100000"})});
  // ---- modelDescription.xml -----------------------------------------------------
  cases.push_back({"MalformedModelDescription",
                   edit([](FmuImage& i) { i.replace(kModelDescription, "<ModelVariables>", "<ModelVariables"); }),
                   xml_error({"modelDescription.xml:", ": malformed XML ("}), xml_error({": malformed XML ("})});
  cases.push_back({"ModelDescriptionCutShort",
                   edit([](FmuImage& i) {
                     std::string& text = i.data(kModelDescription);
                     text.resize(text.size() / 2);
                   }),
                   xml_error({"modelDescription.xml:", ": malformed XML ("}), xml_error({": malformed XML ("})});
  cases.push_back({"WrongFmiVersion",
                   edit([](FmuImage& i) { i.replace(kModelDescription, "fmiVersion=\"3.0\"", "fmiVersion=\"1.0\""); }),
                   xml_error({"fmiVersion=\"1.0\" is not FMI 2.0 or 3.x → lsdae reads FMI 2.0 and FMI 3.0"}),
                   xml_error({"fmiVersion=\"1.0\" is not FMI 2.0 or 3.x"})});
  cases.push_back({"DanglingDerivative",
                   edit([](FmuImage& i) { i.replace(kModelDescription, "derivative=\"1\"", "derivative=\"999\""); }),
                   invalid({"re:modelDescription\\.xml:[0-9]+: error: variable \"der\\(x\\)\" has derivative=\"999\", but no "
                            "variable has valueReference 999 → fix the reference"}),
                   summarised_with_errors()});
  cases.push_back({"DanglingDependency",
                   edit([](FmuImage& i) {
                     i.replace(kManifest, "dependencies=\"3\" dependenciesKind=\"constant\"",
                               "dependencies=\"3 77\" dependenciesKind=\"constant constant\"");
                   }),
                   // lsdae drops the reference from the sparsity pattern: a conformance error.
                   invalid({"re:fmi-ls-manifest\\.xml:[0-9]+: conformance error: <ContinuousStateDerivative> for "
                            "\"der\\(x\\)\" depends on valueReference 77, which references no variable"}),
                   summarised_with_errors()});
  cases.push_back({"DanglingAlgebraicVariable",
                   edit([](FmuImage& i) {
                     i.replace(kManifest, "<AlgebraicVariable valueReference=\"4\"/>",
                               "<AlgebraicVariable valueReference=\"44\"/>");
                   }),
                   invalid({"re:fmi-ls-manifest\\.xml:[0-9]+: error: <AlgebraicVariable valueReference=\"44\"> references no "
                            "variable of modelDescription\\.xml"}),
                   summarised_with_errors()});
  cases.push_back({"DuplicateValueReference",
                   edit([](FmuImage& i) { i.replace(kModelDescription, "name=\"z\" valueReference=\"4\"", "name=\"z\" valueReference=\"3\""); }),
                   invalid({"re:modelDescription\\.xml:[0-9]+: error: variables \"y\" \\(line [0-9]+\\) and \"z\" share "
                            "valueReference 3"}),
                   summarised_with_errors()});
  cases.push_back({"DuplicateName",
                   edit([](FmuImage& i) { i.replace(kModelDescription, "name=\"z\"", "name=\"y\""); }),
                   invalid({"re:modelDescription\\.xml:[0-9]+: conformance error: the name \"y\" is used twice \\(first at "
                            "line [0-9]+\\)"}),
                   summarised_with_errors()});
  // ---- the LS-DAE manifest ------------------------------------------------------
  cases.push_back({"ManifestUnknownRoot",
                   edit([](FmuImage& i) { i.replace_all(kManifest, "fmiLayeredStandardManifest", "fmiSomethingElse"); }),
                   xml_error({"the root element is <fmiSomethingElse>, which is neither an FMI-LS-DAE draft-0.1 manifest"}),
                   xml_error({"the root element is <fmiSomethingElse>"})});
  cases.push_back({"ManifestMalformed",
                   edit([](FmuImage& i) { i.replace(kManifest, "</ModelStructure>", "</ModelStructur>"); }),
                   xml_error({"fmi-ls-manifest.xml:", ": malformed XML ("}), xml_error({": malformed XML ("})});
  cases.push_back({"FormulationIndicesOutOfOrder",
                   edit([](FmuImage& i) {
                     i.replace(kManifest, "index=\"3\"", "index=\"@\"");
                     i.replace(kManifest, "index=\"1\"", "index=\"3\"");
                     i.replace(kManifest, "index=\"@\"", "index=\"1\"");
                   }),
                   invalid({"re:fmi-ls-manifest\\.xml:[0-9]+: error: Formulation indices are out of order in the <Residual> at "
                            "line [0-9]+: \"c1\" has index 2 after index 1"}),
                   summarised_with_errors(), {}, "Pendulum_dae_shapeA"});
  cases.push_back({"ResidualIsInt32",
                   edit([](FmuImage& i) {
                     i.replace(kModelDescription, "<Float64 name=\"g[1]\"", "<Int32 name=\"g[1]\"");
                   }),
                   invalid({"the residual \"g[1]\" is Int32 → FMI-LS-DAE requires Float64"}), summarised_with_errors()});
  cases.push_back({"ResidualIsParameter",
                   edit([](FmuImage& i) {
                     i.replace(kModelDescription,
                               "name=\"g[1]\" valueReference=\"5\" description=\"y + 2z - x\" causality=\"local\" "
                               "variability=\"continuous\" initial=\"calculated\"",
                               "name=\"g[1]\" valueReference=\"5\" description=\"y + 2z - x\" causality=\"parameter\" "
                               "variability=\"fixed\" start=\"0\"");
                   }),
                   // A fixed residual cannot follow IDA (error); its causality alone would only be a warning.
                   invalid({"error: the residual \"g[1]\" has variability=\"fixed\" → it must be continuous",
                            "warning: the residual \"g[1]\" has causality=\"parameter\" → it should be local or output"}),
                   summarised_with_errors()});
  cases.push_back({"DependenciesKindLengthMismatch",
                   edit([](FmuImage& i) {
                     i.replace(kManifest, "dependencies=\"1 3 4\" dependenciesKind=\"constant constant constant\"",
                               "dependencies=\"1 3 4\" dependenciesKind=\"constant constant\"");
                   }),
                   invalid({"lists 3 dependencies but 2 dependenciesKind entries → give one kind per dependency"}),
                   summarised_with_errors()});
  // ---- the binary ---------------------------------------------------------------
  // `validate` lists a binary that fails to load or instantiate as a finding on
  // binaries/x86_64-linux/<id>.so and exits with the stage's code: 5 (binary) or
  // 6 (fmu_call); `info` does not load the binary and exits 0.
  cases.push_back({"MissingBinary", edit([](FmuImage& i) { i.remove(kHelloBinary); }),
                   load_error(ErrorKind::binary,
                              {"binaries/x86_64-linux/HelloWorld.so: error: binaries/x86_64-linux/HelloWorld.so is "
                               "missing: the FMU has no binary for this platform"}),
                   {0, {"0 errors, 1 warning"}}});
  cases.push_back({"BinaryWithoutRequiredSymbol",
                   edit([](FmuImage& i) { i.put(kHelloBinary, read_file(LSDAE_STUB_MISSING_SYMBOL), true); }),
                   load_error(ErrorKind::binary, {"HelloWorld.so does not export the required function fmi3GetFloat64"}),
                   {0, {"0 errors"}}});
  cases.push_back({"BinaryReportsFmi2",
                   edit([](FmuImage& i) { i.put(kHelloBinary, read_file(LSDAE_STUB_FMI2_VERSION), true); }),
                   load_error(ErrorKind::binary, {"fmi3GetVersion() returned \"2.0\", expected 3.x"}),
                   {0, {"0 errors"}}});
  cases.push_back({"BinaryIsNotALibrary",
                   edit([](FmuImage& i) { i.put(kHelloBinary, "#!/bin/sh\necho not a library\n", true); }),
                   load_error(ErrorKind::binary, {"cannot load HelloWorld.so: "}), {0, {"0 errors"}}});
  cases.push_back({"WrongInstantiationToken",
                   edit([](FmuImage& i) {
                     std::string& md = i.data(kModelDescription);
                     std::size_t at = md.find("instantiationToken=\"{lsdae-");
                     if (at == std::string::npos) throw std::runtime_error("no kit token in modelDescription.xml");
                     md.replace(at, std::string("instantiationToken=\"{lsdae-").size(), "instantiationToken=\"{forged-");
                   }),
                   load_error(ErrorKind::fmu_call,
                              {"fmi3InstantiateModelExchange(\"lsdae-validate\") returned NULL (the FMU said: ",
                            "does not match this binary's",
                            "check that modelDescription.xml and the binary belong together"}),
                   {0, {"0 errors"}}});
  return cases;
}

const std::vector<BrokenCase>& all_cases() {
  static const std::vector<BrokenCase> cases = corpus();
  return cases;
}

class BrokenFmuTest : public CliTest, public ::testing::WithParamInterface<std::size_t> {};

TEST_P(BrokenFmuTest, EachCommandExitsWithItsCodeAndMessageAndLeavesNothingBehind) {
  const BrokenCase& bc = all_cases()[GetParam()];
  const CatalogEntry& base = catalog_entry(bc.base);
  BuildContext context{FmuImage::from_directory(base.unpacked_dir), work_ / (base.name + ".fmu"), root_};
  bc.build(context);

  for (const char* command : {"validate", "info"}) {
    SCOPED_TRACE(std::string("lsdae ") + command + " on the broken FMU \"" + bc.name + "\"");
    const Expect& expect = std::string(command) == "validate" ? bc.validate : bc.info;
    std::vector<std::string> args{command};
    args.insert(args.end(), bc.extra_args.begin(), bc.extra_args.end());
    args.push_back(context.fmu.string());
    ProcessResult result = lsdae(args);
    if (std::getenv("LSDAE_CLI_TEST_VERBOSE") != nullptr)
      std::cout << "[ lsdae " << command << " | " << bc.name << " ] " << result.describe() << '\n';
    EXPECT_EQ(result.signal, 0) << "crashed: " << result.describe();
    EXPECT_TRUE(ExitedWith(result, expect.exit_code));
    for (const auto& fragment : expect.fragments) EXPECT_TRUE(Mentions(result, fragment));
    EXPECT_EQ(leftovers(), std::vector<std::string>{}) << "files left outside work/ after `lsdae " << command << "`";
    for (const auto& path : bc.must_not_exist) EXPECT_FALSE(fs::exists(path)) << path << " was written";
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, BrokenFmuTest, ::testing::Range<std::size_t>(0, all_cases().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& param) { return all_cases()[param.param].name; });

// The zip-bomb and member-count caps through the C++ API, with the limits
// lowered in OpenOptions (the CLI can lower only the byte caps).
class ArchiveLimitsApiTest : public CliTest {};

TEST_F(ArchiveLimitsApiTest, OpenRefusesAMemberThatInflatesBeyondTheLimit) {
  FmuImage image = FmuImage::from_directory(catalog_entry(kHello).unpacked_dir);
  fs::path plain = work_ / "plain.fmu";
  image.write(plain);
  image.put("resources/zeros.bin", std::string(64u << 20, '\0'));
  fs::path fmu = work_ / "bomb.fmu";
  image.write(fmu);
  // The binary's size depends on the build (sanitizers triple it); the zeros must add little.
  EXPECT_LT(fs::file_size(fmu), fs::file_size(plain) + (1u << 20)) << "64 MiB of zeros should deflate to little";
  OpenOptions options;
  options.temp_root = tmp_;
  options.limits.max_entry_bytes = 16u << 20;
  try {
    Fmu::open(fmu, options);
    FAIL() << "a 64 MiB member opened with a 1 MiB cap";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::archive);
    EXPECT_NE(std::string(e.what()).find("bomb.fmu: member \"resources/zeros.bin\" inflates to more than 16.0 MiB"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(ArchiveLimitsApiTest, OpenRefusesMoreMembersThanTheLimit) {
  FmuImage image = FmuImage::from_directory(catalog_entry(kHello).unpacked_dir);
  fs::path fmu = work_ / "many.fmu";
  image.write(fmu);
  OpenOptions options;
  options.temp_root = tmp_;
  options.limits.max_entries = image.members.size() - 1;
  try {
    Fmu::open(fmu, options);
    FAIL() << "an archive of " << image.members.size() << " members opened with a cap of " << options.limits.max_entries;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::archive);
    EXPECT_NE(std::string(e.what()).find("many.fmu: has " + std::to_string(image.members.size()) +
                                         " members, more than the limit of " +
                                         std::to_string(options.limits.max_entries)),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
  options.limits.max_entries = image.members.size();
  EXPECT_NO_THROW(Fmu::open(fmu, options)) << "the cap is inclusive";
  EXPECT_EQ(leftovers(), std::vector<std::string>{}) << "the Fmu is gone, so is its folder";
}

}  // namespace
}  // namespace lsdae::test
