// tests/runtime/cli/reference_fmus_test.cpp -- conformance with FMUs we did
// not write: the FMI project's Reference-FMUs (../shared/data/fmus/
// reference-fmus, README there), run as a user runs them.
//
// Every Model Exchange FMU, FMI 3.0 (fmi3/) and FMI 2.0 (fmi2/) alike,
// validates, `info` names its FMI version, simulates with its default experiment
// at rtol 1e-8, and every recorded output and state agrees with the
// reference made by an independent importer (fmusim + CVODE at rtol 1e-10):
// the same rows (an event gives two rows at its time), event times to 1e-8,
// values to a scaled difference of 1e-6 (|a - b| / max(1, max |column|)),
// integers, Booleans, Strings and Binary exactly. Then the regressions seen
// with them: FMUs without states, every variable type, arrays, inputs.
//
// The corpus lives beside the clone (../shared). Without ../shared the tests
// skip; with it, a missing file is a failure, never a skip.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_fixture.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "simulation/model_clocks.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = LSDAE_REFERENCE_FMUS_DIR;

// The corpus folder, or a skip when ../shared is not beside the clone.
fs::path corpus_file(const std::string& relative) {
  if (!fs::exists(kCorpus.parent_path().parent_path().parent_path())) return {};  // no ../shared at all
  fs::path p = kCorpus / relative;
  EXPECT_TRUE(fs::exists(p)) << p << " is missing from the shared corpus";
  return p;
}
#define CORPUS_FILE(var, relative)                                         \
  const fs::path var = corpus_file(relative);                              \
  if (var.empty()) GTEST_SKIP() << "../shared is not beside this clone";   \
  ASSERT_TRUE(fs::exists(var)) << var

struct Table {
  std::vector<std::string> names;
  std::vector<std::vector<std::string>> rows;  // fields as text (quotes removed)
  std::vector<bool> quoted;                    // per column: the first row's field was quoted
};

std::vector<std::string> fields_of(const std::string& line, std::vector<bool>* quoted = nullptr) {
  std::vector<std::string> out;
  std::string field;
  bool in_quotes = false, was_quoted = false;
  for (std::size_t k = 0; k < line.size(); ++k) {
    char c = line[k];
    if (in_quotes) {
      if (c == '"' && k + 1 < line.size() && line[k + 1] == '"') field += '"', ++k;
      else if (c == '"') in_quotes = false;
      else field += c;
    } else if (c == '"') {
      in_quotes = was_quoted = true;
    } else if (c == ',') {
      out.push_back(field);
      if (quoted) quoted->push_back(was_quoted);
      field.clear();
      was_quoted = false;
    } else if (c != '\r') {
      field += c;
    }
  }
  out.push_back(field);
  if (quoted) quoted->push_back(was_quoted);
  return out;
}

Table read_table(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  Table t;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (t.names.empty()) {
      t.names = fields_of(line);
      continue;
    }
    std::vector<bool> quoted;
    t.rows.push_back(fields_of(line, t.rows.empty() ? &t.quoted : nullptr));
  }
  return t;
}

// strtod, not stod: the references hold subnormal numbers (BouncingBall at
// rest: 2.225073858507201e-308), for which stod throws.
double number(const std::string& s) { return std::strtod(s.c_str(), nullptr); }

bool is_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return *end == '\0';
}

// Our columns for a reference column: the same name, or its array elements
// name[1], name[2], ... (fmusim prints an array as one space-separated cell).
std::vector<std::size_t> columns_for(const Table& ours, const std::string& name) {
  for (std::size_t c = 0; c < ours.names.size(); ++c)
    if (ours.names[c] == name) return {c};
  std::vector<std::size_t> out;
  for (std::size_t c = 0; c < ours.names.size(); ++c)
    if (ours.names[c].rfind(name + "[", 0) == 0) out.push_back(c);
  return out;
}

// Compares our result with the reference as the file header describes.
void expect_matches_reference(const Table& ours, const Table& ref, const std::string& model) {
  ASSERT_EQ(ours.rows.size(), ref.rows.size()) << model << ": rows (events give two rows at their time)";
  ASSERT_FALSE(ref.names.empty());
  for (std::size_t r = 0; r < ref.rows.size(); ++r) {
    const double t_ref = number(ref.rows[r][0]), t = number(ours.rows[r][0]);
    ASSERT_NEAR(t, t_ref, 1e-8 * std::max(1.0, std::fabs(t_ref))) << model << " row " << r + 1;
  }
  for (std::size_t c = 1; c < ref.names.size(); ++c) {
    const std::string& name = ref.names[c];
    std::vector<std::size_t> mine = columns_for(ours, name);
    ASSERT_FALSE(mine.empty()) << model << ": no column for reference column \"" << name << "\"";
    // Per element: the scale of the column, then every row.
    std::vector<std::vector<std::string>> ref_cells(ref.rows.size());
    for (std::size_t r = 0; r < ref.rows.size(); ++r) {
      std::istringstream words(ref.rows[r][c]);
      std::string w;
      if (mine.size() == 1) ref_cells[r] = {ref.rows[r][c]};
      else
        while (words >> w) ref_cells[r].push_back(w);
      ASSERT_EQ(ref_cells[r].size(), mine.size()) << model << " \"" << name << "\" row " << r + 1;
    }
    for (std::size_t e = 0; e < mine.size(); ++e) {
      const std::size_t col = mine[e];
      const bool numeric = is_number(ref_cells[0][e]) && !ref.quoted[c];
      double scale = 1.0;
      if (numeric)
        for (const auto& cells : ref_cells) scale = std::max(scale, std::fabs(number(cells[e])));
      double worst = 0;
      std::size_t worst_row = 0;
      for (std::size_t r = 0; r < ref.rows.size(); ++r) {
        const std::string& expected = ref_cells[r][e];
        const std::string& got = ours.rows[r][col];
        if (!numeric) {
          EXPECT_EQ(got, expected) << model << " \"" << ours.names[col] << "\" row " << r + 1;
          continue;
        }
        ASSERT_TRUE(is_number(got)) << model << " \"" << ours.names[col] << "\" row " << r + 1 << ": " << got;
        const double a = number(got), b = number(expected);
        const bool integral = expected.find_first_of(".eE") == std::string::npos;
        if (integral && std::fabs(b) < 9e15) {
          EXPECT_EQ(a, b) << model << " \"" << ours.names[col] << "\" row " << r + 1 << " (an integer: exactly)";
          continue;
        }
        if (integral) {  // beyond 2^53: compare the digits
          EXPECT_EQ(got, expected) << model << " \"" << ours.names[col] << "\" row " << r + 1;
          continue;
        }
        const double d = std::fabs(a - b) / scale;
        if (d > worst) worst = d, worst_row = r;
      }
      EXPECT_LE(worst, 1e-6) << model << " \"" << ours.names[col] << "\": largest scaled difference at row "
                             << worst_row + 1 << " (t = " << ref.rows[worst_row][0] << ")";
    }
  }
}

struct Case {
  std::string version;  // "fmi3" or "fmi2": the corpus folder
  std::string model;
  std::vector<std::string> extra;  // beyond --rtol 1e-8 and the reference's columns
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.version << "/" << c.model; }

class ReferenceFmu : public CliTest, public ::testing::WithParamInterface<Case> {};

TEST_P(ReferenceFmu, ValidatesSimulatesAndMatchesTheReference) {
  const Case& c = GetParam();
  CORPUS_FILE(fmu, c.version + "/" + c.model + ".fmu");
  CORPUS_FILE(reference, c.version + "/" + c.model + "_me_ref.csv");
  ProcessResult v = lsdae({"validate", fmu.string()});
  EXPECT_TRUE(ExitedWith(v, 0));
  ProcessResult i = lsdae({"info", fmu.string()});
  EXPECT_TRUE(ExitedWith(i, 0));
  EXPECT_TRUE(Mentions(i, c.version == "fmi2" ? "FMI 2.0" : "FMI 3.0"));
  const Table ref = read_table(reference);
  std::string columns;
  for (std::size_t k = 1; k < ref.names.size(); ++k) columns += (columns.empty() ? "" : ",") + ref.names[k];
  const fs::path out = work_ / "result.csv";
  std::vector<std::string> args{"simulate", fmu.string(), "--rtol", "1e-8", "--no-progress", "-o", out.string(),
                                "--output-vars", columns};
  args.insert(args.end(), c.extra.begin(), c.extra.end());
  ProcessResult s = lsdae(args);
  ASSERT_TRUE(ExitedWith(s, 0));
  // Quiet on valid FMUs (issue 29): a warning only where the user can act or
  // the result may be affected; these FMUs are valid.
  EXPECT_FALSE(Mentions(s, "warning")) << c.model;
  expect_matches_reference(read_table(out), ref, c.model);
  EXPECT_TRUE(leftovers().empty()) << "temporary folders left behind";
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) { return info.param.model; }

INSTANTIATE_TEST_SUITE_P(
    Fmi3, ReferenceFmu,
    ::testing::Values(Case{"fmi3", "BouncingBall", {}}, Case{"fmi3", "Dahlquist", {}},
                      Case{"fmi3", "Feedthrough", {"--input", (kCorpus / "fmi3/Feedthrough_in.csv").string()}},
                      Case{"fmi3", "Resource", {}}, Case{"fmi3", "Stair", {}}, Case{"fmi3", "StateSpace", {}},
                      Case{"fmi3", "VanDerPol", {}}),
    case_name);

// The same engine through the FMI 2.0 binary interface (no StateSpace: arrays are FMI 3.0).
INSTANTIATE_TEST_SUITE_P(
    Fmi2, ReferenceFmu,
    ::testing::Values(Case{"fmi2", "BouncingBall", {}}, Case{"fmi2", "Dahlquist", {}},
                      Case{"fmi2", "Feedthrough", {"--input", (kCorpus / "fmi2/Feedthrough_in.csv").string()}},
                      Case{"fmi2", "Resource", {}}, Case{"fmi2", "Stair", {}}, Case{"fmi2", "VanDerPol", {}}),
    case_name);

using ReferenceFmus = CliTest;

// The FMI project's LS-DAE example (lsdae/Roberts.fmu, README there) declares
// four entries of the Robertson rates constant that vary (issue 32): trusted,
// they stopped IDA at t = 27 (IDA_TOO_MUCH_WORK). Its default experiment
// (1e-5 … 1e8, tolerance 1e-4) must give the independent reference
// Roberts_ref.csv (IDA at rtol 1e-10) at the reference's times, within what
// rtol 1e-4 allows (the largest difference seen: 4.1e-3 of y2's largest
// value, at t = 1e-3; 5.3e-5 of y1 and y3), with one warning naming the four
// entries; with --jacobian check the false claim stops the run.
TEST_F(ReferenceFmus, RobertsFalseConstantsAreCaughtAndItsDefaultExperimentGivesTheReference) {
  CORPUS_FILE(fmu, "lsdae/Roberts.fmu");
  CORPUS_FILE(reference, "lsdae/Roberts_ref.csv");
  const Table ref = read_table(reference);
  std::string times;
  for (std::size_t r = 1; r < ref.rows.size(); ++r) {
    const bool event = (ref.rows[r][0] == ref.rows[r - 1][0]) ||
                       (r + 1 < ref.rows.size() && ref.rows[r + 1][0] == ref.rows[r][0]);
    if (!event) times += (times.empty() ? "" : ",") + ref.rows[r][0];
  }
  const fs::path out = work_ / "roberts.csv";
  ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", out.string(), "--output-times", times});
  ASSERT_TRUE(ExitedWith(s, 0));
  EXPECT_TRUE(Mentions(s, "4 entries declared constant (dependenciesKind) vary"));
  for (const char* entry : {"d \"der(y1) - f\" / d y2", "d \"der(y1) - f\" / d y3", "d \"der(y2) - f\" / d y2",
                            "d \"der(y2) - f\" / d y3"})
    EXPECT_TRUE(Mentions(s, entry)) << entry;
  const Table ours = read_table(out);
  std::size_t compared = 0;
  for (std::size_t c = 1; c < ref.names.size(); ++c) {
    const std::vector<std::size_t> mine = columns_for(ours, ref.names[c]);
    ASSERT_EQ(mine.size(), 1u) << ref.names[c];
    double scale = 0.0;
    for (const auto& row : ref.rows) scale = std::max(scale, std::fabs(number(row[c])));
    for (std::size_t r = 0; r < ref.rows.size(); ++r) {
      const bool event = (r > 0 && ref.rows[r][0] == ref.rows[r - 1][0]) ||
                         (r + 1 < ref.rows.size() && ref.rows[r + 1][0] == ref.rows[r][0]);
      if (event) continue;
      const double t = number(ref.rows[r][0]);
      for (const auto& row : ours.rows) {
        if (std::fabs(number(row[0]) - t) > 1e-9 * std::max(1.0, t)) continue;
        ++compared;
        EXPECT_LE(std::fabs(number(row[mine[0]]) - number(ref.rows[r][c])), 1e-2 * scale)
            << ref.names[c] << " at t = " << t << ": " << row[mine[0]] << ", reference " << ref.rows[r][c];
      }
    }
  }
  EXPECT_GE(compared, 3u * 14u) << "every time of the reference but the events'";
  ProcessResult check = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "c.csv").string(),
                               "--jacobian", "check"});
  EXPECT_TRUE(ExitedWith(check, exit_code(ErrorKind::invalid)));
  EXPECT_TRUE(Mentions(check, "declared constant (dependenciesKind) vary"));
}

// Seen: a segmentation fault on every FMU without continuous states.
TEST_F(ReferenceFmus, FmusWithoutStatesSimulateWithTheirEvents) {
  CORPUS_FILE(stair, "fmi3/Stair.fmu");
  const fs::path out = work_ / "stair.csv";
  ProcessResult s = lsdae({"simulate", stair.string(), "--no-progress", "-o", out.string()});
  ASSERT_TRUE(ExitedWith(s, 0));
  EXPECT_TRUE(Mentions(s, "the FMU asked to terminate at t = 9"));
  const Table t = read_table(out);
  ASSERT_EQ(t.names, (std::vector<std::string>{"time", "counter"})) << "the Int32 output is recorded by default";
  EXPECT_EQ(t.rows.back()[0], "9");
  EXPECT_EQ(t.rows.back()[1], "10");
}

// Seen: `--output-vars count` wrote only the time column with exit 0.
TEST_F(ReferenceFmus, OutputVarsThatMatchNothingIsAnErrorAndIntegersAreKept) {
  CORPUS_FILE(stair, "fmi3/Stair.fmu");
  ProcessResult s = lsdae({"simulate", stair.string(), "--no-progress", "-o", (work_ / "a.csv").string(),
                           "--output-vars", "count"});
  EXPECT_TRUE(ExitedWith(s, exit_code(ErrorKind::usage)));
  EXPECT_TRUE(Mentions(s, "\"count\" matches no variable"));
  s = lsdae({"simulate", stair.string(), "--no-progress", "-o", (work_ / "b.csv").string(), "--output-vars",
             "time,coun*,time"});
  ASSERT_TRUE(ExitedWith(s, 0));
  EXPECT_EQ(read_table(work_ / "b.csv").names, (std::vector<std::string>{"time", "counter"}))
      << "no second time column";
}

// An --input table a user wrote wrongly: every refusal says the file and
// line. Seen: a time too large for a double lost the "--input file:line"
// part, an output column read "is a output", and a table separated by
// semicolons was told only to put the time first.
TEST_F(ReferenceFmus, BadInputTablesNameTheFileLineAndTheFix) {
  CORPUS_FILE(feedthrough, "fmi3/Feedthrough.fmu");
  auto refusal = [&](const std::string& name, const std::string& text) {
    const fs::path table = work_ / name;
    std::ofstream(table, std::ios::binary) << text;
    ProcessResult r = lsdae({"simulate", feedthrough.string(), "--no-progress", "-o", (work_ / "r.csv").string(),
                             "--input", table.string()});
    EXPECT_TRUE(ExitedWith(r, exit_code(ErrorKind::usage))) << name;
    return r;
  };
  ProcessResult r = refusal("huge.csv", "time,Float64_continuous_input\n0,1\n1e400,2\n");
  EXPECT_TRUE(Mentions(r, "--input huge.csv:3: \"time\" (Float64): \"1e400\" is out of the range of a double"));
  r = refusal("output.csv", "time,Float64_continuous_output\n0,1\n");
  EXPECT_TRUE(Mentions(r, "--input output.csv:1: column \"Float64_continuous_output\" has causality output, not "
                          "input → use --set for parameters and start values"));
  r = refusal("semicolons.csv", "time;Float64_continuous_input\n0;1\n");
  EXPECT_TRUE(Mentions(r, "--input semicolons.csv:1: the first column is \"time;Float64_continuous_input\", not "
                          "\"time\" → separate the columns with commas"));
  EXPECT_FALSE(fs::exists(work_ / "r.csv")) << "nothing run";
}

// Every FMI 3.0 type in the results, settable with --set and type-checked.
TEST_F(ReferenceFmus, EveryVariableTypeIsSetAndRecordedExactly) {
  CORPUS_FILE(fmu, "fmi3/Feedthrough.fmu");
  const fs::path out = work_ / "ft.csv";
  ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "--stop", "0.01", "-o", out.string(), "--set",
                           "Int8_input=-7", "--set", "UInt64_input=18446744073709551615", "--set",
                           "Boolean_input=true", "--set", "String_input=a, \"quoted\" text", "--set",
                           "Enumeration_input=Option 2", "--set", "Float32_continuous_input=0.1", "--set",
                           "Binary_input=0aFF"});
  ASSERT_TRUE(ExitedWith(s, 0));
  const Table t = read_table(out);
  auto value = [&](const std::string& name) { return t.rows[0][columns_for(t, name).at(0)]; };
  EXPECT_EQ(value("Int8_output"), "-7");
  EXPECT_EQ(value("UInt64_output"), "18446744073709551615") << "not rounded through a double";
  EXPECT_EQ(value("Boolean_output"), "1");
  EXPECT_EQ(value("String_output"), "a, \"quoted\" text");
  EXPECT_EQ(value("Enumeration_output"), "2");
  EXPECT_EQ(value("Float32_continuous_output"), "0.1") << "a Float32 prints as the float it is";
  EXPECT_EQ(value("Binary_output"), "0aff");
  struct Bad {
    std::string set, fragment;
  };
  for (const Bad& bad : {Bad{"Int8_input=300", "\"Int8_input\" (Int8): \"300\" is not an integer from -128 to 127"},
                         Bad{"Float64_continuous_input=1e400", "\"1e400\" is out of the range of a double"},
                         Bad{"Float64_continuous_input=nan", "\"nan\" is not a decimal number"},
                         Bad{"Float64_continuous_input=0x10", "\"0x10\" is not a decimal number"},
                         Bad{"Float64_continuous_input=true", "\"true\" is not a decimal number"},
                         Bad{"Boolean_input=2", "\"2\" is not a Boolean"},
                         Bad{"Enumeration_input=Option 9", "is not an item of its enumeration → give one of"},
                         Bad{"UInt32_input=-1", "is not an integer from 0 to 4294967295"}}) {
    s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "bad.csv").string(), "--set", bad.set});
    EXPECT_TRUE(ExitedWith(s, exit_code(ErrorKind::usage))) << bad.set;
    EXPECT_TRUE(Mentions(s, bad.fragment)) << bad.set;
  }
}

// Arrays: sizes from structural parameters, elements selected and set by name.
TEST_F(ReferenceFmus, ArrayVariablesAreFlattenedToElements) {
  CORPUS_FILE(fmu, "fmi3/StateSpace.fmu");
  const fs::path out = work_ / "ss.csv";
  ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "--stop", "1", "-o", out.string(),
                           "--output-vars", "A[2,3],y,x[2]", "--set", "A[2,3]=0.5", "--set", "u=2 4 6"});
  ASSERT_TRUE(ExitedWith(s, 0));
  const Table t = read_table(out);
  EXPECT_EQ(t.names, (std::vector<std::string>{"time", "A[2,3]", "y[1]", "y[2]", "y[3]", "x[2]"}));
  EXPECT_EQ(t.rows[0][1], "0.5");
  // y = C x + D u with C = D = I and x(0) = 0: y(0) = u.
  EXPECT_EQ(t.rows[0][2], "2");
  EXPECT_EQ(t.rows[0][4], "6");
  s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "bad.csv").string(), "--set", "u=1 2"});
  EXPECT_TRUE(ExitedWith(s, exit_code(ErrorKind::usage)));
  EXPECT_TRUE(Mentions(s, "has 2 values for an array of 3 elements"));
  s = lsdae({"info", "--variables", "A", fmu.string()});
  ASSERT_TRUE(ExitedWith(s, 0));
  EXPECT_TRUE(Mentions(s, "A[3,3]"));
}

// An ME importer must refuse a ScheduledExecution-only FMU cleanly.
TEST_F(ReferenceFmus, ClocksWithoutModelExchangeIsRefusedWithAReason) {
  CORPUS_FILE(fmu, "fmi3/Clocks.fmu");
  ProcessResult s = lsdae({"simulate", fmu.string(), "--no-progress", "-o", (work_ / "c.csv").string()});
  EXPECT_TRUE(ExitedWith(s, exit_code(ErrorKind::invalid)));
  EXPECT_TRUE(Mentions(s, "no <ModelExchange>"));
  EXPECT_TRUE(leftovers().empty());
}

// `validate` reports the clock declarations `simulate` refuses, in the run's
// own words (simulation/model_clocks.h, clock_refusals: one copy of the rule):
// Clocks' countdown clock inClock3, clocked by inClock1, beside the missing
// <ModelExchange>. A kit clock FMU that runs is valid.
TEST_F(ReferenceFmus, ValidateReportsTheClockDeclarationsASimulationRefuses) {
  CORPUS_FILE(fmu, "fmi3/Clocks.fmu");
  ProcessResult v = lsdae({"validate", fmu.string(), "--no-load"});
  EXPECT_TRUE(ExitedWith(v, exit_code(ErrorKind::invalid)));
  EXPECT_TRUE(Mentions(v, "re:modelDescription\\.xml:[0-9]+: error: Clock \"inClock3\" \\(line [0-9]+\\): a countdown "
                          "input clock that is itself clocked \\(attribute clocks\\).* → re-export the model without "
                          "clocks on the Clock"));
  EXPECT_TRUE(Mentions(v, "no <ModelExchange>"));
  // The same words as the refusal of a run (ModelClocks).
  OpenOptions options;
  options.reject_invalid = false;
  const auto opened = Fmu::open(fmu, options);
  const auto refused = simulation::clock_refusals(opened->model_description());
  ASSERT_EQ(refused.size(), 1u);
  EXPECT_TRUE(Mentions(v, refused.front().statement() + " → " + refused.front().todo));
  ProcessResult kit = lsdae({"validate", std::string(LSDAE_FMU_DIR) + "/ClockTicks_changing.fmu", "--no-load"});
  EXPECT_TRUE(ExitedWith(kit, 0));
  EXPECT_FALSE(Mentions(kit, "error:"));
}

// What Model Exchange allows of Clocks: its clock declarations (three input
// clocks of three kinds, a triggered output clock, clocked Int32 outputs) are
// read as written; lsdae's clock driver refuses the countdown clock clocked by
// another clock and accepts the rest; changed to what lsdae does not drive,
// they are refused naming the clock and the rule.
TEST_F(ReferenceFmus, ClocksDeclarationsAreReadAndAcceptedByTheClockDriver) {
  CORPUS_FILE(path, "fmi3/Clocks.fmu");
  OpenOptions options;
  options.reject_invalid = false;  // no <ModelExchange>: refused for simulation, readable here
  const auto fmu = Fmu::open(path, options);
  ModelDescription md = fmu->model_description();
  auto clock = [&](const char* name) -> const ClockAttributes& {
    const Variable* v = md.find(std::string(name));
    EXPECT_NE(v, nullptr) << name;
    EXPECT_TRUE(v->clock.has_value()) << name;
    return *v->clock;
  };
  EXPECT_EQ(clock("inClock1").interval_variability, ClockKind::constant);
  EXPECT_EQ(clock("inClock1").interval_decimal, 1.0);
  EXPECT_EQ(clock("inClock2").interval_variability, ClockKind::triggered);
  EXPECT_EQ(clock("inClock3").interval_variability, ClockKind::countdown);
  EXPECT_EQ(clock("outClock").interval_variability, ClockKind::triggered);
  EXPECT_EQ(md.find(std::string("outClock"))->causality, Causality::output);

  auto refusal = [&](ModelDescription changed) {
    changed.rebuild_index();
    try {
      simulation::ModelClocks refused(changed, "Clocks.fmu");
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::invalid);
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // inClock3 (countdown) is clocked by inClock1: a schedule Scheduled
  // Execution gives it, Model Exchange has no rule for; lsdae refuses it.
  const std::string clocked_clock = refusal(md);
  EXPECT_NE(clocked_clock.find("Clock \"inClock3\""), std::string::npos) << clocked_clock;
  EXPECT_NE(clocked_clock.find("itself clocked"), std::string::npos) << clocked_clock;
  md.variables[*md.index_of(std::string("inClock3"))].clocks.clear();
  md.rebuild_index();
  const simulation::ModelClocks clocks(md, "Clocks.fmu");
  EXPECT_FALSE(clocks.empty());
  EXPECT_TRUE(clocks.holds(md.find(std::string("totalInClockTicks"))->value_reference));
  EXPECT_TRUE(clocks.holds(md.find(std::string("inClock1Ticks"))->value_reference));
  EXPECT_FALSE(clocks.holds(md.find(std::string("inClock3Ticks"))->value_reference));  // not clocked
  EXPECT_FALSE(clocks.next_tick().has_value());  // nothing is scheduled before Initialization Mode

  ModelDescription local = md;
  local.variables[*local.index_of(std::string("inClock2"))].causality = Causality::local;
  const std::string m1 = refusal(local);
  EXPECT_NE(m1.find("Clock \"inClock2\""), std::string::npos) << m1;
  EXPECT_NE(m1.find("causality \"local\""), std::string::npos) << m1;
  ModelDescription unknown_kind = md;
  unknown_kind.variables[*unknown_kind.index_of(std::string("inClock1"))].clock->interval_variability.reset();
  EXPECT_NE(refusal(unknown_kind).find("is not one of constant, fixed"), std::string::npos);
  ModelDescription dangling = md;
  const ValueReference input2 = md.find(std::string("input2"))->value_reference;
  dangling.variables[*dangling.index_of(std::string("totalInClockTicks"))].clocks = {input2};
  EXPECT_NE(refusal(dangling).find("is not the value reference of a Clock"), std::string::npos);
}

}  // namespace
}  // namespace lsdae::test
