// tests/models/powergrid/matpower_case_test.cpp -- the MATPOWER case reader:
// the shipped cases read with the right sizes and values, the syntax
// variants of the format, and one specific message per malformed input.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "powergrid/matpower_case.h"

namespace lsdae::powergrid {
namespace {

std::string cases_dir() { return LSDAE_GRID_CASES_DIR; }

bool have_cases() { return std::filesystem::exists(cases_dir() + "/case9.m"); }

// A small valid case; tests replace pieces of it.
const std::string kSmall = R"(function mpc = small
% a comment line
mpc.version = '2';
mpc.baseMVA = 100;

mpc.bus = [
	1	3	0	0	0	0	1	1.04	0	345	1	1.1	0.9;
	2	1	90	30	0	5	1	1	0	345	1	1.1	0.9;
];
mpc.gen = [
	1	72.3	27.03	300	-300	1.04	100	1	250	10	0	0	0	0	0	0	0	0	0	0	0;
];
mpc.branch = [
	1	2	0.01	0.085	0.176	250	250	250	0	0	1	-360	360;
];
mpc.gencost = [
	2	1500	0	3	0.11	5	150;
];
)";

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

std::string error_of(const std::string& text) {
  try {
    parse_matpower_case(text, "small.m");
  } catch (const CaseError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MatpowerCase, ReadsTheSmallCase) {
  const Case c = parse_matpower_case(kSmall, "small.m");
  EXPECT_EQ(c.name, "small");
  EXPECT_EQ(c.base_mva, 100.0);
  ASSERT_EQ(c.buses.size(), 2u);
  ASSERT_EQ(c.generators.size(), 1u);
  ASSERT_EQ(c.branches.size(), 1u);
  EXPECT_EQ(c.buses[0].type, BusType::slack);
  EXPECT_EQ(c.buses[1].number, 2);
  EXPECT_EQ(c.buses[1].pd, 90.0);
  EXPECT_EQ(c.buses[1].bs, 5.0);
  EXPECT_EQ(c.buses[1].line, 8);
  EXPECT_EQ(c.generators[0].vg, 1.04);
  EXPECT_TRUE(c.generators[0].in_service);
  EXPECT_EQ(c.branches[0].b, 0.176);
  EXPECT_EQ(c.branches[0].line, 14);
}

TEST(MatpowerCase, AcceptsTheSyntaxVariants) {
  // Bare rows (no ';'), commas, a row split with '...', trailing comments,
  // CRLF line ends, Inf limits, cell arrays with '%' and ';' in strings,
  // a one-line matrix.
  const std::string text =
      "function mpc = variants\r\n"
      "mpc.version = '2';\r\n"
      "mpc.baseMVA = 100;  % system base\r\n"
      "mpc.bus = [\r\n"
      "  1, 3, 0, 0, 0, 0, 1, 1.04, 0, 345, 1, 1.1, 0.9   % slack\r\n"
      "  2 1 90 30 0 0 1 1 ...\r\n"
      "    0 345 1 1.1 0.9\r\n"
      "];\r\n"
      "mpc.gen = [1 72.3 27.03 Inf -Inf 1.04 100 1 250 10];\r\n"
      "mpc.branch = [ 1 2 0.01 0.085 0.176 250 250 250 0 0 1 ];\r\n"
      "mpc.bus_name = {\r\n  'A;B%C';\r\n  'it''s';\r\n};\r\n";
  const Case c = parse_matpower_case(text, "variants.m");
  ASSERT_EQ(c.buses.size(), 2u);
  EXPECT_EQ(c.buses[1].base_kv, 345.0);
  EXPECT_EQ(c.buses[1].line, 6);
  EXPECT_TRUE(std::isinf(c.generators[0].qmax));
  EXPECT_LT(c.generators[0].qmin, 0.0);
  EXPECT_EQ(c.branches.size(), 1u);
}

TEST(MatpowerCase, OutOfServiceElementsAreRead) {
  std::string text = replaced(kSmall, "300	-300	1.04	100	1	250", "300	-300	1.04	100	0	250");
  text = replaced(text, "0	0	1	-360	360;", "0	0	0	-360	360;");
  const Case c = parse_matpower_case(text, "small.m");
  EXPECT_FALSE(c.generators[0].in_service);
  EXPECT_FALSE(c.branches[0].in_service);
}

// Each malformed input gives its own message, with file and line.
TEST(MatpowerCase, MalformedInputsNameFileLineAndFix) {
  struct Bad {
    std::string from, to, message;
  };
  const Bad cases[] = {
      {"1	1.04	0	345	1	1.1	0.9;", "1	1.04	0	345	1	1.1;",
       "small.m:7: bus row has 12 columns, expected at least 13 → fix the row"},
      {"	2	1	90	30", "	2.5	1	90	30", "small.m:8: bus number is 2.5 → bus numbers are positive integers"},
      {"	2	1	90	30", "	1	1	90	30", "small.m:8: bus number 1 appears twice (first at line 7) → renumber one of them"},
      {"	2	1	90	30", "	2	7	90	30", "small.m:8: type of bus 2 is 7 → use 1 (PQ), 2 (PV) or 3 (slack)"},
      {"	2	1	90	30", "	2	4	90	30",
       "small.m:8: bus 2 has type 4 (isolated) → remove the bus and set its branches and generators out of service"},
      {"	2	1	90	30", "	2	1	9x0	30", "small.m:8: bus row 2, column 3: \"9x0\" is not a number → fix the value"},
      {"	2	1	90	30", "	2	1	NaN	30", "small.m:8: bus 2, column 3 is nan → give a finite value"},
      {"	1	72.3	27.03", "	5	72.3	27.03",
       "small.m:11: generator bus is 5, which is not in mpc.bus → fix the bus number"},
      {"	250	10	0	0	0	0	0	0	0	0	0	0	0;\n];\nmpc.branch", "	250;\n];\nmpc.branch",
       "small.m:11: gen row has 9 columns, expected at least 10 → fix the row"},
      {"	1	2	0.01	0.085", "	1	2	0	0",
       "small.m:14: branch 1-2 has r = 0 and x = 0 → give it an impedance or set BR_STATUS to 0"},
      {"	1	2	0.01	0.085", "	1	1	0.01	0.085",
       "small.m:14: branch connects bus 1 to itself → model it as a bus shunt (GS, BS) or set BR_STATUS to 0"},
      {"	1	2	0.01	0.085", "	1	3	0.01	0.085",
       "small.m:14: branch to-bus is 3, which is not in mpc.bus → fix the bus number"},
      {"mpc.baseMVA = 100;", "mpc.baseMVA = -5;",
       "small.m:4: mpc.baseMVA is \"-5\" → give the system MVA base as a positive number"},
      {"mpc.baseMVA = 100;", "", "small.m:19: no mpc.baseMVA → add mpc.baseMVA = 100; (the system MVA base)"},
      {"mpc.version = '2';", "mpc.version = '1';",
       "small.m:3: mpc.version is '1' → only case format version 2 is read; convert the file with MATPOWER's savecase"},
      {"mpc.gen = [", "mpc.generators = [",
       "small.m:19: no mpc.gen matrix → is this a MATPOWER case file (format version 2)?"},
      {"0	0	1	-360	360;\n];", "0	0	1	-360	360;\n",
       "small.m:13: mpc.branch = [ is not closed before line 16 → end the matrix with '];'"},
      {"mpc.baseMVA = 100;", "mpc.baseMVA 100;",
       "small.m:4: expected '=' after mpc.baseMVA → write mpc.baseMVA = ...;"},
  };
  for (const Bad& bad : cases) EXPECT_EQ(error_of(replaced(kSmall, bad.from, bad.to)), bad.message) << bad.to;
  EXPECT_EQ(error_of(kSmall.substr(0, kSmall.find("];\nmpc.gencost"))),
            "small.m:13: mpc.branch = [ is never closed → end the matrix with '];'");
  EXPECT_EQ(error_of(replaced(kSmall, "% a comment line", "mpc.bus_name = { 'A';")),
            "small.m:2: mpc.bus_name = { is never closed → end the cell array with '};'");
  EXPECT_EQ(error_of(replaced(kSmall, "% a comment line", "mpc.note = 'unterminated")),
            "small.m:2: string is not closed → add the closing quote");
}

TEST(MatpowerCase, MissingFileIsNamed) {
  try {
    read_matpower_case("/nonexistent/case.m");
    FAIL();
  } catch (const CaseError& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/case.m: cannot open the case file → check the path");
  }
}

TEST(MatpowerCase, ReadsTheShippedCases) {
  if (!have_cases()) GTEST_SKIP() << "no cases in " << cases_dir();
  struct Size {
    const char* name;
    std::size_t buses, generators, branches;
  };
  for (const Size& s : {Size{"case9", 9, 3, 9}, Size{"case14", 14, 5, 20}, Size{"case39", 39, 10, 46},
                        Size{"case118", 118, 54, 186}, Size{"case300", 300, 69, 411},
                        Size{"case2383wp", 2383, 327, 2896}, Size{"case_ACTIVSg10k", 10000, 2485, 12706},
                        Size{"case13659pegase", 13659, 4092, 20467}}) {
    const Case c = read_matpower_case(cases_dir() + "/" + s.name + ".m");
    EXPECT_EQ(c.name, s.name);
    EXPECT_EQ(c.base_mva, 100.0) << s.name;
    EXPECT_EQ(c.buses.size(), s.buses) << s.name;
    EXPECT_EQ(c.generators.size(), s.generators) << s.name;
    EXPECT_EQ(c.branches.size(), s.branches) << s.name;
  }
  // Spot values: case2383wp has Inf reactive limits; case_ACTIVSg10k out-of-service generators.
  const Case wp = read_matpower_case(cases_dir() + "/case2383wp.m");
  EXPECT_TRUE(std::isinf(wp.generators[0].qmax) || std::isfinite(wp.generators[0].qmax));
  const Case tenk = read_matpower_case(cases_dir() + "/case_ACTIVSg10k.m");
  std::size_t off = 0;
  for (const auto& g : tenk.generators) off += g.in_service ? 0 : 1;
  EXPECT_EQ(off, 2485u - 1937u);
}

}  // namespace
}  // namespace lsdae::powergrid
