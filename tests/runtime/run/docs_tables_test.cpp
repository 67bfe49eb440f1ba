// tests/runtime/run/docs_tables_test.cpp -- docs/run.md documents the options
// table and the statistics field table once, for every front door; its two
// tables are rendered here from the tables they document and must be the
// same text. On a difference the test writes the expected text to
// <build>/tests/runtime/run/<table>.md (paste it between the markers).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "run/options.h"
#include "run/statistics.h"
#include "run/value_checks.h"

namespace lsdae::run {
namespace {

std::string code(const std::string& text) { return "`" + text + "`"; }

std::string values_of(const OptionSpec& s) {
  switch (s.kind) {
    case OptionKind::real: return describe_range(RealRange{s.low, s.high, s.low_inclusive, s.high_inclusive, "", ""});
    case OptionKind::count:
      return s.count_high == std::numeric_limits<std::int64_t>::max()
                 ? "whole, at least " + std::to_string(s.count_low)
                 : "whole, " + std::to_string(s.count_low) + " to " + std::to_string(s.count_high);
    case OptionKind::flag: return "on/off: C 1/0, Python True/False";
    case OptionKind::text: return "text";
    case OptionKind::choice:
    case OptionKind::choice_list: {
      std::string out = s.kind == OptionKind::choice_list ? "comma-separated: " : "";
      bool first = true;
      for (const auto& c : s.choices) {
        if (c.word.empty()) continue;
        out += (first ? "" : ", ") + code(c.word);
        first = false;
        if (!c.c_name.empty()) out += " (C " + code(c.c_name) + ")";
      }
      return out;
    }
  }
  return {};
}

std::string options_markdown() {
  std::ostringstream out;
  out << "| key (Python `key=`) | command line | C | default | values | meaning |\n";
  out << "|---|---|---|---|---|---|\n";
  for (const auto& s : option_table()) {
    const std::string cli = s.kind == OptionKind::flag && s.flag_default ? code(s.cli) + " (off)" : code(s.cli);
    out << "| " << code(s.key) << " | " << cli << " | " << code(spelled(s, Door::c)) << " | " << s.default_text
        << " | " << values_of(s) << " | " << s.help << " |\n";
  }
  return out.str();
}

std::string statistics_markdown() {
  std::ostringstream out;
  out << "| JSON (`--stats`, `lsdae_run`, `statistics_json()`) | C `lsdae_stats` / Python `statistics()` | type | meaning |\n";
  out << "|---|---|---|---|\n";
  for (const auto& f : statistic_fields()) {
    std::string json = f.group.empty() ? f.key : f.group + "." + (f.key.empty() ? "<writer's counts>" : f.key);
    std::string flat = f.flat.empty() ? "—" : (f.in_c ? code(f.flat) : code(f.flat) + " (Python)");
    const char* type = f.type == FieldType::text          ? "text"
                       : f.type == FieldType::boolean     ? "bool"
                       : f.type == FieldType::integer     ? "integer"
                       : f.type == FieldType::real        ? "number"
                       : f.type == FieldType::text_list   ? "list of text"
                                                          : "integers";
    out << "| " << code(json) << " | " << flat << " | " << type << " | " << f.meaning << " |\n";
  }
  return out.str();
}

// The text between "<!-- begin NAME -->\n" and "<!-- end NAME -->" in docs/run.md.
std::string block(const std::string& name) {
  std::ifstream in(std::string(LSDAE_DOCS_DIR) + "/run.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str(), begin = "<!-- begin " + name + " -->\n", end = "<!-- end " + name + " -->";
  const auto b = doc.find(begin), e = doc.find(end);
  if (b == std::string::npos || e == std::string::npos || e < b) return "(no " + name + " block in docs/run.md)";
  return doc.substr(b + begin.size(), e - b - begin.size());
}

void expect_documented(const std::string& name, const std::string& expected) {
  const std::string documented = block(name);
  if (documented != expected) std::ofstream(std::string(LSDAE_TEST_OUTPUT_DIR) + "/" + name + ".md") << expected;
  EXPECT_EQ(documented, expected) << "docs/run.md's " << name << " is not the table's: the expected text is in "
                                  << LSDAE_TEST_OUTPUT_DIR << "/" << name << ".md";
}

TEST(RunDocs, TheOptionsTableIsDocumentedAsItIs) { expect_documented("options-table", options_markdown()); }

TEST(RunDocs, TheStatisticsTableIsDocumentedAsItIs) { expect_documented("statistics-table", statistics_markdown()); }

// The user guide explains `lsdae simulate`'s options at length; it names every
// option of the table, so that the two cannot part. The guide is an index
// (docs/user-guide.md) and its pages (docs/user-guide/*.md).
TEST(RunDocs, TheUserGuideNamesEveryOptionOfTheTable) {
  const std::filesystem::path docs(LSDAE_DOCS_DIR);
  std::vector<std::filesystem::path> pages{docs / "user-guide.md"};
  for (const auto& entry : std::filesystem::directory_iterator(docs / "user-guide"))
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  ASSERT_GT(pages.size(), 1u) << "docs/user-guide/ has no pages";
  std::stringstream text;
  for (const auto& page : pages) {
    std::ifstream in(page);
    ASSERT_TRUE(in) << page << " cannot be read";
    text << in.rdbuf();
  }
  for (const auto& s : option_table())
    EXPECT_NE(text.str().find("`" + s.cli), std::string::npos) << s.cli << " is not in docs/user-guide/";
}

}  // namespace
}  // namespace lsdae::run
