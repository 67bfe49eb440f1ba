// tests/runtime/sweep/sweep_cli_test.cpp -- `lsdae sweep` as a user runs it.
//
// The N-1 sweep of case39 (every branch outage, a fault at the branch's
// from-bus cleared by opening it) against the same scenarios run one by one
// with `lsdae simulate` (identical metrics, recomputed here from the result
// rows) and with --jobs 1 and 2 (identical rows); a Monte Carlo sweep over
// HelloWorld (x' = 1.4x, x(0) drawn: the outcome's distribution is known);
// --resume after the sweep was killed; bad input; the same rows with the
// model reused across scenarios (the default) and without (--no-reuse).
#include <gtest/gtest.h>
#include <signal.h>

#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

#include "broken_fmus.h"
#include "cli_fixture.h"
#include "summary_rows.h"
#include "sweep/csv_line.h"
#include "powergrid/scenarios/matpower_changes.h"
#include "sweep/scenario_sources.h"

namespace lsdae::test {
namespace {

constexpr int kUsage = 2;

std::filesystem::path sweep_fmu() {
  return std::filesystem::path(LSDAE_FMU_DIR) / "PowerGrid_case39_all_disturbances.fmu";
}
std::filesystem::path hello_fmu() { return std::filesystem::path(LSDAE_FMU_DIR) / "HelloWorld_ode.fmu"; }

// ../shared/data/grids/case39.m: required (a missing file fails the test).
std::filesystem::path case39() {
  const std::filesystem::path path = std::filesystem::path(LSDAE_GRID_CASES_DIR) / "case39.m";
  EXPECT_TRUE(std::filesystem::exists(path)) << path << " is missing: the N-1 tests need the shared grid data";
  return path;
}

// A change table over branches 1..n of case39 (46 branches), and one row
// that is not a branch outage (skipped with a note).
std::string chgtab(int first, int last) {
  std::string text = "function chgtab = contab_case39\n%% written by the test\ndefine_constants;\nchgtab = [\n";
  for (int b = first; b <= last; ++b)
    text += "\t" + std::to_string(b) + "\t0\tCT_TBRCH\t" + std::to_string(b) + "\tBR_STATUS\tCT_REP\t0;\n";
  text += "\t999\t0\tCT_TGEN\t1\tGEN_STATUS\tCT_REP\t0;\n];\n";
  return text;
}

class SweepCli : public CliTest {
 protected:
  ProcessResult run(const std::vector<std::string>& args, std::chrono::seconds timeout = std::chrono::seconds(600)) {
    std::vector<std::string> argv{LSDAE_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, {{"TMPDIR", tmp_.string()}}, work_, timeout);
  }
  std::filesystem::path write(const std::string& name, const std::string& text) {
    std::ofstream(work_ / name) << text;
    return work_ / name;
  }
};

const std::vector<std::string> kGridMetrics{"max:maxdev(gen[*].delta)", "tmax:maxdev(gen[*].delta)",
                                            "min:min(bus[*].Vr)", "final:gen[1].omega"};

std::vector<std::string> with_metrics(std::vector<std::string> args) {
  for (const auto& m : kGridMetrics) args.insert(args.end(), {"--metric", m});
  return args;
}

TEST_F(SweepCli, Case39BranchOutagesMatchSimulateAndJobs) {
  const auto table = write("contab_case39.m", chgtab(1, 46));
  const auto base = with_metrics({"sweep", sweep_fmu().string(), "--contingencies", table.string(), "--case",
                                  case39().string(), "--stop", "3", "--no-progress"});
  auto args2 = base;
  args2.insert(args2.end(), {"--jobs", "2", "--summary", (work_ / "jobs2.csv").string()});
  const ProcessResult r2 = run(args2);
  ASSERT_TRUE(r2.exit_code == 0 || r2.exit_code == 12) << r2.describe();
  EXPECT_TRUE(Mentions(r2, "1 entry skipped"));
  EXPECT_TRUE(Mentions(r2, "label 999"));
  auto args1 = base;
  args1.insert(args1.end(), {"--jobs", "1", "--summary", (work_ / "jobs1.csv").string()});
  const ProcessResult r1 = run(args1);
  ASSERT_EQ(r1.exit_code, r2.exit_code) << r1.describe();
  const auto jobs1 = rows_by_id(work_ / "jobs1.csv"), jobs2 = rows_by_id(work_ / "jobs2.csv");
  ASSERT_EQ(jobs1.size(), 46u);
  EXPECT_EQ(jobs1, jobs2);

  // The from-buses of case39's branches, for the simulate runs.
  const auto from = powergrid::read_branch_from_buses(case39());
  ASSERT_EQ(from.size(), 46u);
  int ok = 0;
  for (const auto& [id, row] : jobs1) {
    const int branch = std::stoi(id);
    const std::string result = (work_ / ("r" + id + ".csv")).string();
    const ProcessResult sim = run({"simulate", sweep_fmu().string(), "--stop", "3", "--no-progress", "--set",
                                   "fault.bus=" + std::to_string(from[static_cast<std::size_t>(branch - 1)]), "--set",
                                   "trip.branch=" + id, "--output-vars", "gen[*].delta,bus[*].Vr,gen[1].omega", "-o",
                                   result});
    if (row[1] == "failed") {
      EXPECT_NE(sim.exit_code, 0) << "branch " << id << ": the sweep failed, simulate did not";
      continue;
    }
    ASSERT_EQ(sim.exit_code, 0) << "branch " << id << ": " << sim.describe();
    ASSERT_EQ(row[1], "ok") << row[2];
    ++ok;
    // The metrics over simulate's rows, computed as the sweep defines them.
    const auto rows = read_csv(result);
    const auto& header = rows[0];
    std::vector<std::size_t> deltas, vrs;
    std::size_t omega = 0;
    for (std::size_t c = 0; c < header.size(); ++c) {
      if (std::regex_match(header[c], std::regex(R"(gen\[\d+\]\.delta)"))) deltas.push_back(c);
      if (std::regex_match(header[c], std::regex(R"(bus\[\d+\]\.Vr)"))) vrs.push_back(c);
      if (header[c] == "gen[1].omega") omega = c;
    }
    ASSERT_EQ(deltas.size(), 10u);
    double best = 0, at = 0, lowest = 0, last = 0;
    bool first = true;
    for (std::size_t r = 1; r < rows.size(); ++r) {
      std::vector<double> d;
      double sum = 0;
      for (std::size_t c : deltas) d.push_back(std::strtod(rows[r][c].c_str(), nullptr)), sum += d.back();
      const double mean = sum / static_cast<double>(d.size());
      double dev = 0;
      for (double x : d) dev = std::max(dev, std::fabs(x - mean));
      double low = HUGE_VAL;
      for (std::size_t c : vrs) low = std::min(low, std::strtod(rows[r][c].c_str(), nullptr));
      const double t = std::strtod(rows[r][0].c_str(), nullptr);
      if (first || dev > best) best = dev, at = t;
      if (first || low < lowest) lowest = low;
      last = std::strtod(rows[r][omega].c_str(), nullptr);
      first = false;
    }
    EXPECT_EQ(row[6], sweep::round_trip(best)) << "branch " << id;
    EXPECT_EQ(row[7], sweep::round_trip(at)) << "branch " << id;
    EXPECT_EQ(row[8], sweep::round_trip(lowest)) << "branch " << id;
    EXPECT_EQ(row[9], sweep::round_trip(last)) << "branch " << id;
    EXPECT_EQ(row[3], "3") << "branch " << id;
  }
  EXPECT_GT(ok, 30) << "most single outages of case39 are simulated to the end";
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SweepCli, StopWhenEndsUnstableScenariosEarly) {
  const auto table = write("c.m", chgtab(20, 24));
  const ProcessResult r = run(with_metrics({"sweep", sweep_fmu().string(), "--contingencies", table.string(),
                                            "--case", case39().string(), "--stop", "3", "--no-progress",
                                            "--stop-when", "maxdev(gen[*].delta) > 0.05", "--summary",
                                            (work_ / "s.csv").string()}));
  ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 12) << r.describe();
  const auto rows = rows_by_id(work_ / "s.csv");
  ASSERT_EQ(rows.size(), 5u);
  int stopped = 0;
  for (const auto& [id, row] : rows) {
    if (row[1] != "stopped-early") continue;
    ++stopped;
    EXPECT_NE(row[2].find("maxdev(gen[*].delta) > 0.05 at t = "), std::string::npos) << row[2];
    EXPECT_LT(std::stod(row[3]), 3.0);
    EXPECT_GT(std::stod(row[6]), 0.05);
  }
  EXPECT_GT(stopped, 0) << "a fault swings the rotor angles more than 0.05 rad from their centre";
}

TEST_F(SweepCli, MonteCarloDrawsAreTheSameForEveryJobCount) {
  auto mc = [&](const std::string& jobs, const std::string& summary) {
    return run({"sweep", hello_fmu().string(), "--monte-carlo", "120", "--draw", "x=uniform(1,2)", "--seed", "5",
                "--stop", "0.5", "--metric", "final:x", "--jobs", jobs, "--summary", (work_ / summary).string(), "--no-progress"});
  };
  const ProcessResult a = mc("1", "mc1.csv");
  ASSERT_TRUE(ExitedWith(a, 0));
  const ProcessResult b = mc("2", "mc2.csv");
  ASSERT_TRUE(ExitedWith(b, 0));
  const auto one = rows_by_id(work_ / "mc1.csv"), two = rows_by_id(work_ / "mc2.csv");
  ASSERT_EQ(one.size(), 120u);
  EXPECT_EQ(one, two);
  // x(0.5) = x0·e^0.7 with x0 ~ U(1, 2): every outcome is its own draw times
  // e^0.7, and the outcomes are uniform on [e^0.7, 2e^0.7].
  const std::vector<sweep::Draw> draws{sweep::parse_draw("x=uniform(1,2)")};
  double sum = 0;
  for (const auto& [id, row] : one) {
    const double x0 = sweep::monte_carlo_values(draws, std::stoi(id), 5)[0];
    const double final_x = std::stod(row[6]);
    EXPECT_NEAR(final_x / std::exp(0.7), x0, 1e-4 * x0) << "scenario " << id;
    sum += final_x / std::exp(0.7);
  }
  EXPECT_NEAR(sum / 120, 1.5, 4 * std::sqrt(1.0 / 12 / 120));
}

TEST_F(SweepCli, ResumeAfterAKillRunsOnlyWhatIsMissing) {
  // All 46 outages over 10 s with a tight tolerance: long enough (a second or
  // more) for the kill to come while the sweep runs.
  const auto table = write("c.m", chgtab(1, 46));
  const std::vector<std::string> args = with_metrics({"sweep", sweep_fmu().string(), "--contingencies",
                                                      table.string(), "--case", case39().string(), "--stop", "10",
                                                      "--rtol", "1e-9", "--no-progress"});
  auto full = args;
  full.insert(full.end(), {"--summary", (work_ / "full.csv").string()});
  ASSERT_TRUE(run(full).exit_code >= 0);
  const auto expected = rows_by_id(work_ / "full.csv");
  ASSERT_EQ(expected.size(), 46u);

  auto partial = args;
  partial.insert(partial.end(), {"--summary", (work_ / "part.csv").string()});
  std::vector<std::string> argv{LSDAE_BINARY};
  argv.insert(argv.end(), partial.begin(), partial.end());
  {
    ChildProcess child(argv, {{"TMPDIR", tmp_.string()}}, work_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    for (;;) {
      const std::string text = read_text(work_ / "part.csv");
      if (std::count(text.begin(), text.end(), '\n') >= 4) break;  // header and three rows
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the sweep wrote no rows";
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    child.send(SIGKILL);
    const ProcessResult killed = child.wait();
    EXPECT_EQ(killed.signal, SIGKILL) << killed.describe();
  }
  const std::size_t kept = rows_by_id(work_ / "part.csv").size();
  ASSERT_LT(kept, 46u) << "the kill came after the end: nothing to resume";
  // Without --resume the summary is not touched.
  ProcessResult refused = run(partial);
  EXPECT_TRUE(ExitedWith(refused, kUsage));
  EXPECT_TRUE(Mentions(refused, "--resume"));
  auto resume = partial;
  resume.push_back("--resume");
  const ProcessResult resumed = run(resume);
  ASSERT_TRUE(resumed.exit_code == 0 || resumed.exit_code == 12) << resumed.describe();
  EXPECT_TRUE(Mentions(resumed, std::to_string(kept) + " scenario"));
  EXPECT_EQ(rows_by_id(work_ / "part.csv"), expected);
}

TEST_F(SweepCli, BadInputIsRefusedBeforeAnythingRuns) {
  const auto unknown = write("t.csv", "id,x,nosuch.k\na,1,2\n");
  const std::string summary = (work_ / "sweep-summary.csv").string();
  ProcessResult r = run({"sweep", hello_fmu().string(), "--scenarios", unknown.string(), "--summary", summary});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "\"nosuch.k\" is not a variable of the model"));
  EXPECT_FALSE(std::filesystem::exists(work_ / "sweep-summary.csv"));

  // A name that exists but cannot be set, or a value common to every
  // scenario that its type refuses, used to fail every scenario (exit 12, a
  // summary of failed rows): a usage error before any run. (A bad value in
  // one table row stays that scenario's failure: below.)
  r = run({"sweep", hello_fmu().string(), "--grid", "y=1,2", "--metric", "final:x", "--summary", summary});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "--grid: \"y\" (causality output, variability continuous) cannot be set → set parameters, "
                          "inputs or variables with a start value"));
  EXPECT_FALSE(std::filesystem::exists(work_ / "sweep-summary.csv"));
  const auto derivative = write("d.csv", "id,der(x)\na,1\nb,\n");
  r = run({"sweep", hello_fmu().string(), "--scenarios", derivative.string(), "--metric", "final:x", "--summary",
           summary});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "d.csv\": \"der(x)\" (causality local, variability continuous) cannot be set"));
  EXPECT_FALSE(std::filesystem::exists(work_ / "sweep-summary.csv"));
  r = run({"sweep", hello_fmu().string(), "--grid", "x=1,2", "--set", "x=two", "--metric", "final:x", "--summary",
           summary});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "--set: \"x\" (Float64): \"two\" is not a decimal number"));
  EXPECT_FALSE(std::filesystem::exists(work_ / "sweep-summary.csv"));

  const auto malformed = write("bad.m", "chgtab = [\n1 0 CT_TBRCH 3 BR_STATUS CT_REP 0;\n2 0 CT_TBRCH 4;\n];\n");
  r = run({"sweep", sweep_fmu().string(), "--contingencies", malformed.string(), "--case", case39().string()});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "line 3: 4 fields"));

  r = run({"sweep", hello_fmu().string(), "--grid", "x=1,2", "--metric", "largest:x"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "--metric \"largest:x\": expected STAT:SELECTOR"));

  r = run({"sweep", hello_fmu().string(), "--grid", "x=1,2", "--metric", "min@soon:x"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "--metric \"min@soon:x\": the window's start \"soon\" is not a finite number"));
  r = run({"sweep", hello_fmu().string(), "--grid", "x=1,2", "--metric", "final@1:x"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "final takes no window"));

  r = run({"sweep", hello_fmu().string(), "--grid", "x=1,2", "--stop-when", "x ! 3"});
  EXPECT_TRUE(ExitedWith(r, kUsage));

  r = run({"sweep", hello_fmu().string()});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "no scenarios"));

  r = run({"sweep", sweep_fmu().string(), "--contingencies", malformed.string(), "--summary", summary});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "--case"));
  EXPECT_FALSE(std::filesystem::exists(work_ / "sweep-summary.csv"));
  EXPECT_TRUE(leftovers().empty());
}

// --summary naming the model itself, with --overwrite, replaced the FMU with
// the summary CSV (exit 0): refused as `simulate -o` naming the FMU is.
TEST_F(SweepCli, ASummaryOverTheModelIsRefused) {
  const std::filesystem::path copy = work_ / "model.fmu";
  std::filesystem::copy_file(hello_fmu(), copy);
  const auto size = std::filesystem::file_size(copy);
  const std::string other_spelling = (work_ / "." / "model.fmu").string();  // the same file by identity
  ProcessResult r = run({"sweep", copy.string(), "--grid", "x=1", "--summary", other_spelling, "--overwrite"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "/./model.fmu\": this is the model being swept; writing there would destroy it"));
  EXPECT_EQ(std::filesystem::file_size(copy), size);
  r = run({"sweep", copy.string(), "--grid", "x=1", "--summary", other_spelling, "--resume"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_EQ(std::filesystem::file_size(copy), size);
  // A file of an unpacked FMU folder (a copy of one), which lsdae never modifies.
  const std::filesystem::path folder = work_ / "unpacked";
  std::filesystem::copy(std::filesystem::path(LSDAE_FMU_DIR) / "HelloWorld_ode", folder,
                        std::filesystem::copy_options::recursive);
  const std::filesystem::path xml = folder / "modelDescription.xml";
  const auto xml_size = std::filesystem::file_size(xml);
  r = run({"sweep", folder.string(), "--grid", "x=1", "--summary", xml.string(), "--overwrite"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "modelDescription.xml\": this lies inside the unpacked FMU"));
  EXPECT_EQ(std::filesystem::file_size(xml), xml_size);
  EXPECT_TRUE(leftovers().empty());
}

// No output may be an input (runtime/common/output_clash.h): with --overwrite
// a summary named like the --scenarios table (or a symlink to it), the
// --contingencies table or the --case file replaced it and exited 0; so did
// a --results-dir file named like the table (scenario id = its name), and a
// summary inside --results-dir named like a scenario's file was written
// over by that scenario's rows.
TEST_F(SweepCli, NoOutputIsAnInputOfTheSweep) {
  const std::filesystem::path table = write("runs.csv", "id,x\nruns,1\nb,2\n");
  const auto size = std::filesystem::file_size(table);  // a summary's header alone is longer
  std::filesystem::create_symlink(table, work_ / "link.csv");
  for (const std::string& summary : {table.string(), (work_ / "link.csv").string()}) {
    SCOPED_TRACE(summary);
    const ProcessResult r = run({"sweep", hello_fmu().string(), "--scenarios", table.string(), "--summary", summary,
                                 "--overwrite", "--no-progress"});
    EXPECT_TRUE(ExitedWith(r, kUsage));
    EXPECT_TRUE(Mentions(r, "--summary \"" + summary + "\": this is the --scenarios table; writing there would "
                            "destroy it → choose another file name, e.g. --summary sweep-summary.csv"));
    EXPECT_EQ(std::filesystem::file_size(table), size);
  }
  // A scenario's result file named like the table: <folder of the table>/runs.csv.
  ProcessResult r = run({"sweep", hello_fmu().string(), "--scenarios", table.string(), "--summary",
                         (work_ / "s.csv").string(), "--results-dir", (work_ / ".").string(), "--no-progress"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "--results-dir \"" + (work_ / "." / "runs.csv").string() + "\": this is the --scenarios table"));
  EXPECT_EQ(std::filesystem::file_size(table), size);
  EXPECT_FALSE(std::filesystem::exists(work_ / "s.csv"));
  // The summary where scenario b's result file goes.
  const std::filesystem::path res = work_ / "res";
  std::filesystem::create_directory(res);
  r = run({"sweep", hello_fmu().string(), "--scenarios", table.string(), "--summary", (res / "b.csv").string(),
           "--results-dir", res.string(), "--no-progress"});
  EXPECT_TRUE(ExitedWith(r, kUsage));
  EXPECT_TRUE(Mentions(r, "\" both name \"" + (res / "b.csv").string() + "\" → give the summary a file outside the "
                          "results folder"));
  EXPECT_FALSE(std::filesystem::exists(res / "b.csv"));
  // A scenario source's files: the change table and the case.
  const std::filesystem::path contab = write("contab.m", chgtab(1, 2));
  const std::filesystem::path case_copy = work_ / "case39.m";
  std::filesystem::copy_file(case39(), case_copy);
  const auto case_size = std::filesystem::file_size(case_copy), contab_size = std::filesystem::file_size(contab);
  for (const auto& [summary, option] : {std::pair{contab, "--contingencies"}, std::pair{case_copy, "--case"}}) {
    r = run({"sweep", sweep_fmu().string(), "--contingencies", contab.string(), "--case", case_copy.string(),
             "--stop", "0.2", "--summary", summary.string(), "--overwrite", "--no-progress"});
    EXPECT_TRUE(ExitedWith(r, kUsage));
    EXPECT_TRUE(Mentions(r, "\": this is the " + std::string(option) + " file; writing there would destroy it"));
  }
  EXPECT_EQ(std::filesystem::file_size(case_copy), case_size);
  EXPECT_EQ(std::filesystem::file_size(contab), contab_size);
  EXPECT_TRUE(leftovers().empty());
}

// Each worker keeps its model from one scenario to the next (reset between
// them); --no-reuse makes a new one per scenario. The rows must not tell
// them apart, in worker processes and in this one (--no-isolate), also for
// the scenario after a failed one.
TEST_F(SweepCli, RowsWithAndWithoutReuseAreEqual) {
  const auto table = write("contab_case39.m", chgtab(20, 31));
  const auto base = with_metrics({"sweep", sweep_fmu().string(), "--contingencies", table.string(), "--case",
                                  case39().string(), "--stop", "2", "--no-progress"});
  auto rows_with = [&](const std::vector<std::string>& base_args, const std::vector<std::string>& extra,
                       const std::string& summary) {
    auto args = base_args;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--summary", (work_ / summary).string()});
    const ProcessResult r = run(args);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 12) << r.describe();
    return std::make_pair(r.exit_code, rows_by_id(work_ / summary));
  };
  const auto reused = rows_with(base, {"--jobs", "2"}, "reused.csv");
  ASSERT_EQ(reused.second.size(), 12u);
  EXPECT_EQ(rows_with(base, {"--jobs", "2", "--no-reuse"}, "fresh.csv"), reused);
  EXPECT_EQ(rows_with(base, {"--no-isolate"}, "in-process.csv"), reused);
  EXPECT_EQ(rows_with(base, {"--no-isolate", "--no-reuse"}, "in-process-fresh.csv"), reused);

  // A failing scenario between good ones: the next one runs on the reset model.
  const auto csv = write("t.csv", "id,x\na,1\nbad,oops\nb,2\nc,0.25\n");
  const std::vector<std::string> hello_base{"sweep", hello_fmu().string(), "--scenarios", csv.string(), "--stop",
                                            "0.4", "--metric", "final:x", "--metric", "max:spread(*)",
                                            "--no-progress"};
  const auto hello_reused = rows_with(hello_base, {"--jobs", "1"}, "h-reused.csv");
  EXPECT_EQ(hello_reused.first, 12);
  ASSERT_EQ(hello_reused.second.size(), 4u);
  EXPECT_EQ(hello_reused.second.at("b")[1], "ok");
  EXPECT_EQ(rows_with(hello_base, {"--jobs", "1", "--no-reuse"}, "h-fresh.csv"), hello_reused);
  EXPECT_EQ(rows_with(hello_base, {"--no-isolate"}, "h-in-process.csv"), hello_reused);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SweepCli, ResultFilesAreWhatSimulateWrites) {
  const auto dir = work_ / "results";
  const ProcessResult r = run({"sweep", hello_fmu().string(), "--grid", "x=1,2.5", "--stop", "0.3", "--metric",
                               "final:x", "--results-dir", dir.string(), "--summary", (work_ / "s.csv").string(),
                               "--no-progress", "--jobs", "2"});
  ASSERT_TRUE(ExitedWith(r, 0));
  for (const std::string x : {"1", "2.5"}) {
    const std::string id = x == "1" ? "1" : "2";
    const ProcessResult sim = run({"simulate", hello_fmu().string(), "--stop", "0.3", "--set", "x=" + x, "-o",
                                   (work_ / ("sim" + id + ".csv")).string(), "--no-progress"});
    ASSERT_TRUE(ExitedWith(sim, 0));
    ASSERT_TRUE(std::filesystem::exists(dir / (id + ".csv")));
    EXPECT_EQ(read_text(dir / (id + ".csv")), read_text(work_ / ("sim" + id + ".csv"))) << "scenario " << id;
  }
  // Ids that would share a file name are refused before anything runs.
  const auto table = write("t.csv", "id,x\na/b,1\na_b,2\n");
  const ProcessResult clash = run({"sweep", hello_fmu().string(), "--scenarios", table.string(), "--results-dir",
                                   dir.string(), "--summary", (work_ / "s2.csv").string()});
  EXPECT_TRUE(ExitedWith(clash, kUsage));
  EXPECT_TRUE(Mentions(clash, "give the same file name \"a_b.csv\""));
}

TEST_F(SweepCli, ACrashingOrHangingFmuCostsItsScenariosNotTheSweep) {
  auto faulty = [&](const std::string& fault) {
    FmuImage image;
    image.put("modelDescription.xml", kFaultyOdeDescription);
    image.put(binary_member("Faulty"), read_file(LSDAE_FAULTY_FMU), true);
    image.put("resources/fault.txt", fault + "\n");
    const auto path = work_ / "faulty.fmu";
    image.write(path);
    return path;
  };
  ProcessResult r = run({"sweep", faulty("segv GetFloat64 0.5").string(), "--grid", "k=1,2,3", "--jobs", "2",
                         "--metric", "max:y", "--summary", (work_ / "crash.csv").string(), "--no-progress"});
  EXPECT_TRUE(ExitedWith(r, 12));
  auto rows = rows_by_id(work_ / "crash.csv");
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& [id, row] : rows) {
    EXPECT_EQ(row[1], "failed");
#if defined(__SANITIZE_ADDRESS__)
    // Under AddressSanitizer its SEGV handler reports the crash and ends the
    // worker with an exit status instead of the signal: the row still fails.
    EXPECT_FALSE(row[2].empty()) << "a failed row says what happened";
#else
    EXPECT_NE(row[2].find("killed by signal 11"), std::string::npos) << row[2];
#endif
  }
  r = run({"sweep", faulty("hang GetFloat64 0.2").string(), "--grid", "k=1,2", "--jobs", "2", "--scenario-timeout",
           "1", "--metric", "max:y", "--summary", (work_ / "hang.csv").string(), "--no-progress"},
          std::chrono::seconds(60));
  EXPECT_TRUE(ExitedWith(r, 12));
  rows = rows_by_id(work_ / "hang.csv");
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& [id, row] : rows) EXPECT_NE(row[2].find("longer than the per-scenario limit of 1 s"), std::string::npos);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SweepCli, AFailedScenarioIsRecordedAndTheExitCodeSaysSo) {
  const auto table = write("t.csv", "id,x\ngood,1\nbad,oops\nalso-good,2\n");
  const ProcessResult r = run({"sweep", hello_fmu().string(), "--scenarios", table.string(), "--stop", "0.2",
                               "--metric", "final:x", "--jobs", "2", "--no-progress", "--summary",
                               (work_ / "sweep-summary.csv").string()});
  EXPECT_TRUE(ExitedWith(r, 12));
  const auto rows = rows_by_id(work_ / "sweep-summary.csv");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows.at("good")[1], "ok");
  EXPECT_EQ(rows.at("also-good")[1], "ok");
  EXPECT_EQ(rows.at("bad")[1], "failed");
  EXPECT_NE(rows.at("bad")[2].find("oops"), std::string::npos);
}

// The metric functions a grid engineer asks for, against a hand computation
// over each scenario's result file: the largest rotor-angle separation from
// the centre of inertia (δ_COI = Σ H_k δ_k / Σ H_k, the FMU's gen[k].H) and
// the lowest bus voltage magnitude sqrt(Vr² + Vi²), with the time of it.
TEST_F(SweepCli, CentreOfInertiaAndVoltageMagnitudeMatchAHandComputation) {
  const auto table = write("contab.m", chgtab(20, 23));
  const auto dir = work_ / "coi";
  const ProcessResult r =
      run({"sweep", sweep_fmu().string(), "--contingencies", table.string(), "--case", case39().string(), "--stop",
           "2", "--no-progress", "--metric", "max:maxdev(gen[*].delta, gen[*].H)", "--metric",
           "min:min(hypot(bus[*].Vr, bus[*].Vi))", "--metric", "tmin:min(hypot(bus[*].Vr, bus[*].Vi))", "--metric",
           "max:maxdev(gen[*].delta)", "--metric", "min@1.2:min(hypot(bus[*].Vr, bus[*].Vi))", "--metric",
           "tmin@1.2:min(hypot(bus[*].Vr, bus[*].Vi))", "--metric", "max@5:maxdev(gen[*].delta)", "--results-dir",
           dir.string(), "--output-vars",
           "gen[*].delta,gen[*].H,bus[*].Vr,bus[*].Vi", "--summary", (work_ / "coi.csv").string()});
  ASSERT_TRUE(ExitedWith(r, 0));
  const auto rows = rows_by_id(work_ / "coi.csv");
  ASSERT_EQ(rows.size(), 4u);
  for (const auto& [id, row] : rows) {
    ASSERT_EQ(row[1], "ok") << id << ": " << row[2];
    const auto result = read_csv(dir / (id + ".csv"));
    ASSERT_GT(result.size(), 100u);
    std::map<std::string, std::size_t> column;
    for (std::size_t c = 0; c < result[0].size(); ++c) column[result[0][c]] = c;
    // The machines and buses in the file's (ModelVariables) order.
    std::vector<std::pair<std::size_t, std::size_t>> machines, buses;  // (delta, H), (Vr, Vi)
    for (std::size_t c = 0; c < result[0].size(); ++c) {
      const std::string& name = result[0][c];
      if (std::regex_match(name, std::regex(R"(gen\[\d+\]\.delta)")))
        machines.emplace_back(c, column.at(name.substr(0, name.size() - 5) + "H"));
      if (std::regex_match(name, std::regex(R"(bus\[\d+\]\.Vr)")))
        buses.emplace_back(c, column.at(name.substr(0, name.size() - 1) + "i"));
    }
    ASSERT_EQ(machines.size(), 10u);
    ASSERT_EQ(buses.size(), 39u);
    double coi_dev = 0, lowest = 0, lowest_at = 0, mean_dev = 0;
    double after = HUGE_VAL, after_at = 0;  // the windowed metrics: samples at t >= 1.2
    for (std::size_t k = 1; k < result.size(); ++k) {
      const auto value = [&](std::size_t c) { return std::strtod(result[k][c].c_str(), nullptr); };
      double weighted = 0, weights = 0, sum = 0;
      for (const auto& [d, h] : machines) weighted += value(h) * value(d), weights += value(h), sum += value(d);
      const double coi = weighted / weights, mean = sum / 10.0;
      double dev = 0, plain = 0;
      for (const auto& [d, h] : machines) {
        dev = std::max(dev, std::fabs(value(d) - coi));
        plain = std::max(plain, std::fabs(value(d) - mean));
      }
      double low = HUGE_VAL;
      for (const auto& [vr, vi] : buses) low = std::min(low, std::hypot(value(vr), value(vi)));
      if (k == 1 || dev > coi_dev) coi_dev = dev;
      if (k == 1 || plain > mean_dev) mean_dev = plain;
      if (k == 1 || low < lowest) lowest = low, lowest_at = value(0);
      if (value(0) >= 1.2 && low < after) after = low, after_at = value(0);
    }
    EXPECT_EQ(row[6], sweep::round_trip(coi_dev)) << id;
    EXPECT_EQ(row[7], sweep::round_trip(lowest)) << id;
    EXPECT_EQ(row[8], sweep::round_trip(lowest_at)) << id;
    EXPECT_EQ(row[9], sweep::round_trip(mean_dev)) << id;
    // STAT@FROM: the samples at t >= FROM only; a window the run (2 s) never reaches leaves it empty.
    EXPECT_EQ(row[10], sweep::round_trip(after)) << id;
    EXPECT_EQ(row[11], sweep::round_trip(after_at)) << id;
    EXPECT_EQ(row[12], "") << id;
    EXPECT_GT(after, lowest) << id << ": the fault's dip is before the window";
    EXPECT_NE(coi_dev, mean_dev) << id << ": the inertias differ, so must the two separations";
    EXPECT_LT(lowest, 0.9) << id << ": the fault pulls a voltage down";
  }
  EXPECT_TRUE(leftovers().empty());
}

}  // namespace
}  // namespace lsdae::test
