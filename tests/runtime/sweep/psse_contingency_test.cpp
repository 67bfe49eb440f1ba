// tests/runtime/sweep/psse_contingency_test.cpp -- the PsseGrid FMU's own
// scenario source (models/psse/scenarios/): PSS/E .con files, MATPOWER change
// table rows matched to PSS/E branches (on ACTIVSg2000's own files, read from
// ../shared beside the clone), and two sources of one name in the registry.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "lsdae/error.h"
#include "lsdae/sweep.h"
#include "powergrid/scenarios/matpower_changes.h"
#include "psse/io/raw_reader.h"
#include "psse/scenarios/branch_match.h"
#include "psse/scenarios/con_file.h"

namespace lsdae::psse {
namespace {

std::string error_of(const std::string& text) {
  try {
    parse_con(text, "t.con");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(PsseConFile, BranchAndMachineOutagesKeptOthersSkipped) {
  const ConFile con = parse_con("COM a comment\n"
                                "CONTINGENCY 'ONE'\n open branch from bus 1001 to bus 1064 circuit 2\nEND\n"
                                "CONTINGENCY TWO /* N-2\n OPEN LINE FROM BUS 1 TO BUS 2 CKT 'A'\n"
                                " DISCONNECT BRANCH FROM BUS 3 TO BUS 4 TO BUS 5\nEND\n"
                                "CONTINGENCY 'G'\n REMOVE UNIT W FROM BUS 1032\nEND\n"
                                "CONTINGENCY 'B'\n DISCONNECT BUS 3\nEND\n"
                                "CONTINGENCY 'MIX'\n REMOVE MACHINE 1 FROM BUS 7\n TRIP LINE FROM BUS 1 TO BUS 2\nEND\n"
                                "CONTINGENCY 'EMPTY'\nEND\nEND\n",
                                "t.con");
  ASSERT_EQ(con.contingencies.size(), 3u);
  const ConContingency& one = con.contingencies[0];
  EXPECT_EQ(one.label, "ONE");
  ASSERT_EQ(one.elements.size(), 1u);
  EXPECT_EQ(one.elements[0].from, 1001);
  EXPECT_EQ(one.elements[0].to, 1064);
  EXPECT_EQ(one.elements[0].id, "2");
  EXPECT_EQ(one.elements[0].line, 3);
  const ConContingency& two = con.contingencies[1];
  ASSERT_EQ(two.elements.size(), 2u);
  EXPECT_EQ(two.elements[0].id, "A");
  EXPECT_EQ(two.elements[1].third, 5);
  EXPECT_EQ(two.elements[1].id, "1");  // PSS/E's default circuit
  const ConContingency& g = con.contingencies[2];
  EXPECT_EQ(g.elements[0].kind, ConElement::Kind::machine);
  EXPECT_EQ(g.elements[0].from, 1032);
  EXPECT_EQ(g.elements[0].id, "W");
  ASSERT_EQ(con.skipped.size(), 3u);
  EXPECT_NE(con.skipped[0].find("B (line 12): \"DISCONNECT BUS 3\""), std::string::npos) << con.skipped[0];
  EXPECT_NE(con.skipped[1].find("MIX (line 15): 2 elements with a machine"), std::string::npos) << con.skipped[1];
  EXPECT_NE(con.skipped[2].find("EMPTY (line 19): no element"), std::string::npos) << con.skipped[2];
}

TEST(PsseConFile, MalformedLinesNameTheLine) {
  EXPECT_NE(error_of("CONTINGENCY C\n OPEN BRANCH FROM BUS X1 TO BUS 2\nEND\n").find("t.con:2: bus \"X1\""),
            std::string::npos);
  EXPECT_NE(error_of("CONTINGENCY C\n OPEN BRANCH FROM 1 TO BUS 2\nEND\n").find("t.con:2: expected \"FROM BUS n\""),
            std::string::npos);
  EXPECT_NE(error_of("CONTINGENCY C\n OPEN BRANCH FROM BUS 1 TO BUS 2 RATE 3\nEND\n").find("t.con:2: \"RATE\""),
            std::string::npos);
  EXPECT_NE(error_of("CONTINGENCY C\n OPEN BRANCH FROM BUS 1 TO BUS 2\n").find("line 1 is not ended"),
            std::string::npos);
  EXPECT_NE(error_of("just text\n").find("no CONTINGENCY block"), std::string::npos);
}

TEST(PsseBranchMatch, ParallelRowsByCircuitAndWhatMatchesNothingOrSeveral) {
  RawCase raw;
  for (int b : {1, 2, 3, 4}) raw.buses.push_back({b, "", 138, 1, 1, 1, 1, 1.0, 0.0, 0});
  RawBranch l;
  l.from = 1, l.to = 2, l.ckt = "2";  // the file lists circuit 2 first
  raw.branches.push_back(l);
  l.ckt = "1";
  raw.branches.push_back(l);
  l.from = 3, l.to = 2, l.ckt = "A";  // one branch, circuit 'A', written the other way round
  raw.branches.push_back(l);
  l.from = 3, l.to = 4, l.ckt = "1";
  l.status = 0;
  raw.branches.push_back(l);
  RawTransformer t;
  t.i = 3, t.j = 4, t.ckt = "1";  // a line and a transformer of circuit 1 between 3 and 4
  raw.transformers.push_back(t);
  const std::vector<BranchRow> rows = branch_rows(raw);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_FALSE(rows[3].in_service);
  EXPECT_TRUE(rows[4].transformer);
  const std::vector<powergrid::BranchEnds> ends{{1, 2, true, 1}, {1, 2, true, 2}, {2, 3, true, 3},
                                                {3, 4, true, 4}, {1, 4, true, 5}};
  const auto match = match_matpower(ends, rows);
  ASSERT_EQ(match.size(), 5u);
  EXPECT_EQ(match[0].row, 1u);  // circuit 1 is the second record
  EXPECT_EQ(match[1].row, 0u);
  EXPECT_EQ(match[2].row, 2u);  // no circuit '1' between 2 and 3: the only one, by order
  EXPECT_FALSE(match[3].row);
  EXPECT_NE(match[3].note.find("is ambiguous: the PSS/E case has 2 branches between these buses, 2 of circuit 1"),
            std::string::npos) << match[3].note;
  EXPECT_FALSE(match[4].row);
  EXPECT_NE(match[4].note.find("branch row 5 (1-4) matches no branch"), std::string::npos) << match[4].note;
  EXPECT_EQ(find_branch(rows, 2, 3, 0, "a"), std::vector<std::size_t>{2});
  EXPECT_EQ(find_branch(rows, 4, 3, 0, "1").size(), 2u);
  EXPECT_TRUE(find_branch(rows, 1, 2, 0, "3").empty());
}

// ACTIVSg2000: MATPOWER's case and change table against the PSS/E case they
// were written from: every branch row finds its PSS/E record, one to one.
TEST(PsseBranchMatch, ActivSg2000ChangeTableRowsAreThePsseBranches) {
  const std::filesystem::path grids = LSDAE_GRID_CASES_DIR;
  const auto raw_path = grids / "psse/no_reference/ACTIVSg2000/ACTIVSg2000.RAW";
  if (!std::filesystem::exists(raw_path)) GTEST_SKIP() << "no " << raw_path;
  const RawCase raw = read_raw(raw_path.string());
  const std::vector<BranchRow> rows = branch_rows(raw);
  const auto ends = powergrid::read_branch_ends(grids / "case_ACTIVSg2000.m");
  ASSERT_EQ(ends.size(), rows.size());
  const auto match = match_matpower(ends, rows);
  std::vector<int> used(rows.size(), 0);
  for (std::size_t m = 0; m < match.size(); ++m) {
    ASSERT_TRUE(match[m].row) << match[m].note;
    ++used[*match[m].row];
  }
  EXPECT_EQ(std::count(used.begin(), used.end(), 1), static_cast<std::ptrdiff_t>(rows.size()));
  const auto table = powergrid::read_chgtab(grids / "contab_ACTIVSg2000.m");
  EXPECT_EQ(table.outages.size(), 3190u);
  EXPECT_EQ(table.skipped.size(), 544u);  // the generator outages (CT_TGEN)
}

// Two sources of one name: the one whose `serves` accepts the model makes the
// scenarios; the options are the union.
TEST(ScenarioSourceRegistry, SourcesOfOneNameMergeTheirOptions) {
  sweep::ScenarioSource a;
  a.name = "merge-test";
  sweep::ScenarioSourceOption selecting;
  selecting.name = "merge-test";
  a.options = {selecting};
  a.make = [](const Model&, const sweep::ScenarioSourceArguments&) {
    sweep::SourceScenarios s;
    s.scenarios.push_back({"from-a", {}});
    return s;
  };
  sweep::ScenarioSource b = a;
  b.kind = "B";
  sweep::ScenarioSourceOption extra;
  extra.name = "merge-extra";
  extra.kind = sweep::ScenarioSourceOption::Kind::flag;
  b.options.push_back(extra);
  b.serves = [](const Model&) { return false; };
  sweep::register_scenario_source(a);
  sweep::register_scenario_source(b);
  sweep::register_scenario_source(b);  // twice: harmless
  std::size_t found = 0;
  for (const auto& s : sweep::scenario_sources())
    if (s.name == "merge-test") {
      ++found;
      ASSERT_EQ(s.options.size(), 2u);
      EXPECT_EQ(s.options[1].name, "merge-extra");
    }
  EXPECT_EQ(found, 1u);
}

}  // namespace
}  // namespace lsdae::psse
