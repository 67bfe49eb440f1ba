// tests/runtime/cli/cli_fixture.h -- what the `lsdae` program tests share: a
// private folder per test, the program run with TMPDIR pointing into it, and
// the catalog of model FMUs.
//
// Layout of a test's folder (created fresh, removed afterwards):
//   <root>/work/  FMUs the test writes, captured output
//   <root>/tmp/   TMPDIR of every `lsdae` child: must be empty after each run
// Nothing else may appear in <root>: an archive member that escaped its
// extraction folder (<root>/tmp/lsdae-XXXXXX/) by one or two levels lands
// in tmp/ or in <root> itself and is caught by leftovers().
#ifndef LSDAE_TESTS_RUNTIME_CLI_CLI_FIXTURE_H
#define LSDAE_TESTS_RUNTIME_CLI_CLI_FIXTURE_H

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "run_process.h"

namespace lsdae::test {

struct CatalogEntry {
  std::string name;
  std::filesystem::path unpacked_dir, fmu;
  std::string model_identifier;
};

// build/fmus/catalog.tsv (LSDAE_FMU_CATALOG), read once.
const std::vector<CatalogEntry>& catalog();
const CatalogEntry& catalog_entry(const std::string& name);

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Runs `lsdae <args...>` with TMPDIR=<root>/tmp and `extra_env`.
  ProcessResult lsdae(const std::vector<std::string>& args,
                      const std::map<std::string, std::string>& extra_env = {});
  // Entries of <root>/tmp, and of <root> other than work/ and tmp/, as paths
  // relative to <root>; empty when clean.
  std::vector<std::string> leftovers() const;

  std::filesystem::path root_, work_, tmp_;
};

// gtest assertion helpers; a failure shows everything the child printed.
// ExitedWith: the child ended normally (no signal, no time-out) with `code`.
// Mentions: stdout + stderr contain `fragment`, or match it as an ECMAScript
// regular expression when it starts with "re:".
::testing::AssertionResult ExitedWith(const ProcessResult& result, int code);
::testing::AssertionResult Mentions(const ProcessResult& result, const std::string& fragment);

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_CLI_CLI_FIXTURE_H
