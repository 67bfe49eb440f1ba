// tests/runtime/cli/cli_fixture.cpp -- see cli_fixture.h.
#include "cli_fixture.h"

#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

namespace lsdae::test {

namespace fs = std::filesystem;

const std::vector<CatalogEntry>& catalog() {
  static const std::vector<CatalogEntry> entries = [] {
    std::vector<CatalogEntry> out;
    std::ifstream in(LSDAE_FMU_CATALOG);
    if (!in) throw std::runtime_error(std::string("cannot read the FMU catalog ") + LSDAE_FMU_CATALOG);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty()) continue;
      std::vector<std::string> fields;
      std::stringstream row(line);
      for (std::string field; std::getline(row, field, '\t');) fields.push_back(field);
      if (fields.size() < 4) throw std::runtime_error("malformed catalog line: " + line);
      out.push_back({fields[0], fields[1], fields[2], fields[3]});
    }
    return out;
  }();
  return entries;
}

const CatalogEntry& catalog_entry(const std::string& name) {
  for (const auto& e : catalog())
    if (e.name == name) return e;
  throw std::runtime_error("no FMU \"" + name + "\" in " + LSDAE_FMU_CATALOG);
}

void CliTest::SetUp() {
  const char* env = std::getenv("TMPDIR");
  std::string templ = (fs::path(env != nullptr && *env != '\0' ? env : "/tmp") / "lsdae-cli-test-XXXXXX").string();
  ASSERT_NE(mkdtemp(templ.data()), nullptr) << "mkdtemp " << templ;
  root_ = templ;
  work_ = root_ / "work";
  tmp_ = root_ / "tmp";
  fs::create_directory(work_);
  fs::create_directory(tmp_);
}

void CliTest::TearDown() {
  std::error_code ec;
  fs::remove_all(root_, ec);
}

ProcessResult CliTest::lsdae(const std::vector<std::string>& args, const std::map<std::string, std::string>& extra_env) {
  std::vector<std::string> argv{LSDAE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::map<std::string, std::string> env = extra_env;
  env["TMPDIR"] = tmp_.string();
  return run_process(argv, env, work_);
}

std::vector<std::string> CliTest::leftovers() const {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(tmp_)) out.push_back(fs::relative(e.path(), root_).string());
  for (const auto& e : fs::directory_iterator(root_))
    if (e.path() != work_ && e.path() != tmp_) out.push_back(fs::relative(e.path(), root_).string());
  return out;
}

::testing::AssertionResult ExitedWith(const ProcessResult& result, int code) {
  if (!result.timed_out && result.signal == 0 && result.exit_code == code) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "expected exit " << code << ", got " << result.describe();
}

::testing::AssertionResult Mentions(const ProcessResult& result, const std::string& fragment) {
  bool found = fragment.rfind("re:", 0) == 0
                   ? std::regex_search(result.output(), std::regex(fragment.substr(3), std::regex::ECMAScript))
                   : result.output().find(fragment) != std::string::npos;
  if (found) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the output lacks \"" << fragment << "\"; got " << result.describe();
}

}  // namespace lsdae::test
