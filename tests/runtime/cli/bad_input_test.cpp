// tests/runtime/cli/bad_input_test.cpp -- careless and hostile command
// lines for `lsdae simulate` (and the usage errors of every command): each is
// refused in lsdae's own words with a documented exit code, before any
// output is created or truncated, or -- for a write that fails mid-run --
// with exit code 9 and a result file that ends with its last complete row.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "broken_fmus.h"
#include "cli_fixture.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

constexpr int kUsage = 2, kOutput = 9;

std::vector<std::string> lines_of(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> out;
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string joined(const std::vector<std::string>& args) {
  std::string line = "lsdae";
  for (const auto& a : args) line += " " + a;
  return line;
}

class BadInputTest : public CliTest {
 protected:
  std::string hello() const { return catalog_entry("HelloWorld_ode").fmu.string(); }
  fs::path csv() const { return work_ / "result.csv"; }
  fs::path stats() const { return work_ / "stats.json"; }
  // `lsdae simulate <fmu> -o result.csv --stats stats.json <args...>`
  ProcessResult simulate(const std::string& fmu, const std::vector<std::string>& args) {
    std::vector<std::string> all{"simulate", fmu, "-o", csv().string(), "--stats", stats().string(), "--no-progress"};
    all.insert(all.end(), args.begin(), args.end());
    return lsdae(all);
  }
};

// ---- values that used to end in "simulated from 0 to 0", exit 0 -------------------

TEST_F(BadInputTest, AbsurdTimesAndLimitsAreUsageErrorsBeforeAnyOutput) {
  const std::string huge = "1" + std::string(300, '0');
  struct Case {
    std::vector<std::string> args;
    std::string fragment;
  };
  const std::vector<Case> cases = {
      {{"--stop", "1e17"}, "from t = 0 to 1e+17 every 0.01 makes 1e+19 output rows, more than --max-rows 100000000 → "
                           "choose a larger --output-interval (e.g. 2e+14 for 501 rows), or raise --max-rows"},
      {{"--stop", "inf"}, "simulate --stop: \"inf\" is not a finite number: the stop time must be a finite number → "
                          "e.g. --stop 10"},
      {{"--output-interval", "1e-300"}, "every 1e-300 makes 1e+300 output rows, more than --max-rows 100000000"},
      {{"--stop", "1e20", "--output-interval", "1"}, "from t = 0 to 1e+20 every 1 makes 1e+20 output rows"},
      {{"--stop", "1e400"}, "simulate --stop: \"1e400\" is beyond double precision"},
      {{"--start", "-inf"}, "simulate --start: \"-inf\" is not a finite number"},
      {{"--start", "nan"}, "simulate --start: \"nan\" is not a finite number"},
      {{"--start", "1e9", "--stop", "1000000001", "--output-interval", "1e-4"},
       "output interval 0.0001 is below what double-precision times near 1e+09 resolve → use an --output-interval of "
       "at least 0.001"},
      {{"--rtol", "0"}, "simulate --rtol: \"0\" is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. "
                        "--rtol 1e-6"},
      {{"--rtol", huge}, "(301 characters) is out of range: the relative tolerance must be from 1e-15 to 1"},
      {{"--atol", "-1"}, "simulate --atol: \"-1\" is out of range: the absolute tolerance must be greater than 0"},
      {{"--output-interval", "0"}, "the output interval must be greater than 0"},
      {{"--max-steps", "0"}, "simulate --max-steps: \"0\" is out of range: the most steps between two output rows "
                             "must be a whole number of at least 1 → e.g. --max-steps 1000000"},
      {{"--max-steps", "-5"}, "simulate --max-steps: \"-5\" is out of range"},
      {{"--max-steps", "2.5"}, "simulate --max-steps: \"2.5\" is not a whole number"},
      {{"--max-step", "-1"}, "simulate --max-step: \"-1\" is out of range: the largest step size (0: no limit) must "
                             "be at least 0 → e.g. --max-step 0.001"},
      {{"--max-step", "inf"}, "simulate --max-step: \"inf\" is not a finite number"},
      {{"--newton-dcj", "1"}, "simulate --newton-dcj: \"1\" is out of range: the cj band of IDA's Newton matrix must "
                              "be greater than 0 and less than 1 → e.g. --newton-dcj 0.4"},
      {{"--newton-dcj", "0"}, "simulate --newton-dcj: \"0\" is out of range"},
      {{"--threads", "0"}, "simulate --threads: \"0\" is out of range: the thread count must be a whole number from 1 "
                           "to 1024"},
      {{"--max-rows", "0"}, "simulate --max-rows: \"0\" is out of range"},
      {{"--jacobian", "chek"}, "simulate --jacobian: \"chek\" is not one of auto, fd, directional, check, trust → did you "
                               "mean `check`?"},
      {{"--klu-ordering", "metsi"}, "did you mean `metis`?"},
      {{"--projection-tolerance", "0x10"}, "simulate --projection-tolerance: \"0x10\" is not a number"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(joined(c.args));
    ProcessResult result = simulate(hello(), c.args);
    EXPECT_TRUE(ExitedWith(result, kUsage));
    EXPECT_EQ(result.err.rfind("lsdae: error: simulate", 0), 0u) << result.err;
    EXPECT_TRUE(Mentions(result, c.fragment));
    EXPECT_LT(result.err.size(), 500u) << "one line, not a 300-digit number: " << result.err;
    EXPECT_FALSE(fs::exists(csv())) << "refused before the results file is created";
    EXPECT_FALSE(fs::exists(stats()));
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(BadInputTest, MaxRowsIsTheBoundOnOutputRows) {
  // HelloWorld from 0 to 1 every 0.001: 1001 rows.
  ProcessResult refused = simulate(hello(), {"--output-interval", "0.001", "--max-rows", "1000"});
  EXPECT_TRUE(ExitedWith(refused, kUsage));
  EXPECT_TRUE(Mentions(refused, "makes 1001 output rows, more than --max-rows 1000"));
  EXPECT_FALSE(fs::exists(csv()));
  ProcessResult allowed = simulate(hello(), {"--output-interval", "0.001", "--max-rows", "1001"});
  ASSERT_TRUE(ExitedWith(allowed, 0));
  EXPECT_EQ(lines_of(csv()).size(), 1002u);
  EXPECT_TRUE(Mentions(allowed, "1001 rows in "));
}

TEST_F(BadInputTest, AnIntervalLongerThanTheRunStillReachesTheStop) {
  // ⌈1/1e12 − 1e-9⌉ was 0 intervals: one row at t = 0 and "completed".
  ProcessResult result = simulate(hello(), {"--output-interval", "1e12"});
  ASSERT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "simulated HelloWorld_ode.fmu from 0 to 1:"));
  auto rows = lines_of(csv());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[2].rfind("1,4.05", 0), 0u) << rows[2];
}

// ---- usage errors in lsdae's shape, with a suggestion --------------------------------

TEST_F(BadInputTest, UsageErrorsSayWhatWasMeant) {
  const std::string fmu = hello();
  struct Case {
    std::vector<std::string> args;
    std::string fragment;
  };
  const std::vector<Case> cases = {
      {{}, "lsdae: error: no command given → e.g. `lsdae simulate model.fmu` (commands: info, validate, simulate"},
      {{"simulat", fmu}, "lsdae: error: unknown command \"simulat\" → did you mean `simulate`? (commands: info, "
                         "validate, simulate, sweep, plot, report)"},
      {{"-v", "valdate", fmu}, "unknown command \"valdate\" → did you mean `validate`?"},
      {{"simulate", fmu, "--stopp", "2"}, "lsdae: error: simulate: unknown option \"--stopp\" → did you mean "
                                          "`--stop`? (`lsdae simulate --help` lists the options)"},
      {{"simulate", "--stopp=2", fmu}, "simulate: unknown option \"--stopp\" → did you mean `--stop`?"},
      {{"info", fmu, "--jsn"}, "info: unknown option \"--jsn\" → did you mean `--json`?"},
      {{"validate", fmu, "--no-lod"}, "validate: unknown option \"--no-lod\" → did you mean `--no-load`?"},
      {{"--json", "info", fmu}, "option \"--json\" belongs to `lsdae info`, `lsdae validate` → put it after the "
                                "command"},
      {{"--frobnicate"}, "unknown option \"--frobnicate\""},
      {{"simulate", fmu, "--stop"}, "simulate: --stop needs a value"},
      {{"simulate", fmu, fmu}, "simulate: unexpected argument \"" + fmu + "\" → `lsdae simulate` takes one FMU"},
      {{"simulate"}, "simulate: no FMU given → `lsdae simulate model.fmu [options]`"},
      {{"info"}, "info: no FMU given"},
      // lsdae_fuzz_cli found this one aborting lsdae (std::out_of_range out of CLI11).
      {{"simulate", fmu, "--no-progress=99999999999999999999"},
       "simulate: flag \"--no-progress\" takes no value → value seen \"99999999999999999999\""},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(joined(c.args));
    ProcessResult result = lsdae(c.args);
    EXPECT_TRUE(ExitedWith(result, kUsage));
    EXPECT_TRUE(Mentions(result, c.fragment));
    EXPECT_EQ(result.err.rfind("lsdae: error: ", 0), 0u) << result.err;
    EXPECT_EQ(result.output().find("Run with --help"), std::string::npos) << "CLI11's own text leaked";
    EXPECT_EQ(result.output().find("The following argument"), std::string::npos) << "CLI11's own text leaked";
  }
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(BadInputTest, GlobalFlagsWorkAfterTheCommandToo) {
  ProcessResult result = lsdae({"validate", hello(), "-v"});
  EXPECT_TRUE(ExitedWith(result, 0));
  EXPECT_TRUE(Mentions(result, "valid (0 errors"));
}

// ---- outputs: never the FMU, checked before the run, failures are exit 9 -----------

TEST_F(BadInputTest, TheFmuIsNeverOverwritten) {
  const fs::path fmu = work_ / "model.fmu";
  fs::copy_file(hello(), fmu);
  const std::string original = read_file(fmu);
  fs::create_symlink(fmu, work_ / "link.fmu");
  for (const fs::path& target : {fmu, work_ / "." / "model.fmu", work_ / "link.fmu"}) {
    SCOPED_TRACE(target.string());
    ProcessResult result = lsdae({"simulate", fmu.string(), "-o", target.string()});
    EXPECT_TRUE(ExitedWith(result, kUsage));
    EXPECT_TRUE(Mentions(result, "simulate -o \"" + target.string() + "\": this is the FMU being simulated; writing "
                                 "there would destroy it → choose another file name"));
    EXPECT_EQ(read_file(fmu), original) << "the FMU was modified";
  }
  ProcessResult as_stats = lsdae({"simulate", fmu.string(), "-o", csv().string(), "--stats", fmu.string()});
  EXPECT_TRUE(ExitedWith(as_stats, kUsage));
  EXPECT_TRUE(Mentions(as_stats, "simulate --stats"));
  EXPECT_EQ(read_file(fmu), original);
  EXPECT_FALSE(fs::exists(csv()));

  // An unpacked FMU is read in place and never modified.
  const fs::path folder = work_ / "unpacked";
  fs::copy(catalog_entry("HelloWorld_ode").unpacked_dir, folder, fs::copy_options::recursive);
  const std::string description = read_file(folder / "modelDescription.xml");
  ProcessResult inside = lsdae({"simulate", folder.string(), "-o", (folder / "modelDescription.xml").string()});
  EXPECT_TRUE(ExitedWith(inside, kUsage));
  EXPECT_TRUE(Mentions(inside, "lies inside the unpacked FMU"));
  EXPECT_EQ(read_file(folder / "modelDescription.xml"), description);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// -o or --stats naming the --input table (another spelling too) replaced it
// with the results, exit 0: refused before the run (runtime/common/output_clash.h).
TEST_F(BadInputTest, TheInputTableIsNeverOverwritten) {
  const fs::path table = work_ / "in.csv";
  std::ofstream(table) << "time,u\n0,1\n1,2\n";
  const std::string original = read_file(table);
  for (const auto& [option, target] : {std::pair{"-o", table.string()}, std::pair{"-o", (work_ / "." / "in.csv").string()},
                                       std::pair{"--stats", table.string()}}) {
    SCOPED_TRACE(target);
    std::vector<std::string> args{"simulate", hello(), "--input", table.string(), option, target};
    if (std::string(option) == "--stats") args.insert(args.end(), {"-o", csv().string()});
    ProcessResult result = lsdae(args);
    EXPECT_TRUE(ExitedWith(result, kUsage));
    EXPECT_TRUE(Mentions(result, "simulate " + std::string(option) + " \"" + target +
                                     "\": this is the --input table; writing there would destroy it"));
    EXPECT_EQ(read_file(table), original) << "the input table was modified";
  }
  EXPECT_FALSE(fs::exists(csv()));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(BadInputTest, AnOutputThatCannotBeCreatedStopsBeforeTheRun) {
  ProcessResult stats_dir = lsdae({"simulate", hello(), "-o", csv().string(), "--stats", "/nonexistent-lsdae/s.json"});
  EXPECT_TRUE(ExitedWith(stats_dir, kOutput));
  EXPECT_TRUE(Mentions(stats_dir, "lsdae: error: simulate --stats \"/nonexistent-lsdae/s.json\": the folder "
                                  "\"/nonexistent-lsdae\" does not exist → create it first, or choose another path "
                                  "(nothing was run)"));
  EXPECT_FALSE(fs::exists(csv())) << "checked before the results were created";
  EXPECT_FALSE(Mentions(stats_dir, "simulated"));

  ProcessResult results_dir = lsdae({"simulate", hello(), "-o", "/nonexistent-lsdae/r.csv"});
  EXPECT_TRUE(ExitedWith(results_dir, kOutput));
  EXPECT_TRUE(Mentions(results_dir, "simulate -o \"/nonexistent-lsdae/r.csv\": the folder"));

  ProcessResult folder = lsdae({"simulate", hello(), "-o", work_.string()});
  EXPECT_TRUE(ExitedWith(folder, kOutput));
  EXPECT_TRUE(Mentions(folder, "\": is a folder → give a file name"));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(BadInputTest, ResultsAndStatisticsOnTheSameFileOrBothOnStdout) {
  ProcessResult both_stdout = lsdae({"simulate", hello(), "-o", "-", "--stats", "-"});
  EXPECT_TRUE(ExitedWith(both_stdout, kUsage));
  EXPECT_TRUE(Mentions(both_stdout, "simulate: -o - and --stats - both write to standard output → send one of them "
                                    "to a file"));
  EXPECT_EQ(both_stdout.out, "") << "nothing on stdout";
  ProcessResult same = lsdae({"simulate", hello(), "-o", csv().string(), "--stats", (work_ / "." / "result.csv").string()});
  EXPECT_TRUE(ExitedWith(same, kUsage));
  EXPECT_TRUE(Mentions(same, "simulate: -o and --stats both name"));
  EXPECT_FALSE(fs::exists(csv()));
}

TEST_F(BadInputTest, StatsDashIsStandardOutput) {
  ProcessResult result = lsdae({"simulate", hello(), "-o", csv().string(), "--stats", "-", "--no-progress"});
  ASSERT_TRUE(ExitedWith(result, 0));
  Json j;
  ASSERT_NO_THROW(j = JsonReader::parse(result.out)) << "stdout is the statistics and nothing else: " << result.out;
  EXPECT_TRUE(j["completed"].boolean);
  EXPECT_EQ(j["rows_written"].number, 101);
  EXPECT_EQ(lines_of(csv()).size(), 102u);
  EXPECT_TRUE(Mentions(result, "101 rows in " + csv().string()));
}

TEST_F(BadInputTest, AStatisticsWriteThatFailsIsExitNineAndTheResultsStay) {
  ProcessResult result = lsdae({"simulate", hello(), "-o", csv().string(), "--stats", "/dev/full"});
  EXPECT_TRUE(ExitedWith(result, kOutput));
  EXPECT_TRUE(Mentions(result, "lsdae: error: statistics: writing \"/dev/full\" failed: No space left on device → "
                               "free disk space and run again (the results are complete: 101 rows in " +
                                   csv().string() + ")"));
  EXPECT_EQ(lines_of(csv()).size(), 102u);
}

TEST_F(BadInputTest, ResultsOnAFullDiskAreExitNine) {
  ProcessResult result = lsdae({"simulate", hello(), "-o", "/dev/full", "--stats", stats().string()});
  EXPECT_TRUE(ExitedWith(result, kOutput));
  EXPECT_TRUE(Mentions(result, "lsdae: error: results: writing \"/dev/full\" failed after 0 rows: No space left on "
                               "device"));
  EXPECT_TRUE(Mentions(result, "→ free disk space"));
  EXPECT_FALSE(Mentions(result, "simulated"));
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

TEST_F(BadInputTest, AFileSizeLimitMidRunKeepsWholeRows) {
  // The file-size limit (ulimit -f) stands in for a disk that fills up mid-run:
  // set in this process just for the spawn, the child inherits it. An unpacked
  // FMU: nothing is extracted, so only the results meet the limit.
  const CatalogEntry& line = catalog_entry("TransmissionLine_dae_shapeA_10");
  constexpr rlim_t kLimit = 20000;
  struct rlimit saved {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
  ASSERT_TRUE(saved.rlim_max == RLIM_INFINITY || saved.rlim_max >= kLimit);
  struct rlimit small = saved;
  small.rlim_cur = kLimit;
  std::optional<ChildProcess> child;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  child.emplace(std::vector<std::string>{LSDAE_BINARY, "simulate", line.unpacked_dir.string(), "-o", csv().string(),
                                         "--stats", stats().string(), "--no-progress"},
                std::map<std::string, std::string>{{"TMPDIR", tmp_.string()}}, work_);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
  ProcessResult result = child->wait();

  ASSERT_TRUE(ExitedWith(result, kOutput));
  std::smatch m;
  const std::string err = result.err;
  ASSERT_TRUE(std::regex_search(err, m, std::regex("results: writing \"[^\"]+\" failed after ([0-9]+) rows: File too "
                                                   "large; the file ends with the last complete row → raise the "
                                                   "file-size limit")))
      << err;
  const std::size_t reported = std::stoul(m[1].str());
  EXPECT_TRUE(Mentions(result, "(stopped at t = "));
  EXPECT_TRUE(Mentions(result, std::to_string(reported) + " rows kept in " + csv().string()));

  const std::string text = read_file(csv());
  EXPECT_LE(text.size(), kLimit);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n') << "the file ends with a complete row";
  const auto rows = lines_of(csv());
  EXPECT_EQ(rows.size(), reported + 1) << "the header and the rows reported";
  EXPECT_GT(reported, 5u);
  const auto fields = [](const std::string& row) { return std::count(row.begin(), row.end(), ','); };
  for (const auto& row : rows) EXPECT_EQ(fields(row), fields(rows[0])) << row;

  Json j = JsonReader::parse(read_file(stats()));
  EXPECT_FALSE(j["completed"].boolean);
  EXPECT_EQ(j["rows_written"].number, static_cast<double>(reported));
  EXPECT_NE(j["error"].string.find("File too large"), std::string::npos);
  EXPECT_EQ(leftovers(), std::vector<std::string>{});
}

// ---- a refused command line leaves earlier results as they were ----------------------

TEST_F(BadInputTest, RefusedRunsLeaveEarlierResultsUntouched) {
  const std::vector<std::vector<std::string>> refused = {
      {"--set", "nope=1"},
      {"--set", "x"},
      {"--output-vars", "zz*"},
      {"--stop", "1e20", "--output-interval", "1"},
      {"--jacobian", "directional", "--set", "nope=2"},
  };
  for (const auto& args : refused) {
    SCOPED_TRACE(joined(args));
    write_file(csv(), "earlier results\n");
    write_file(stats(), "{\"earlier\": true}\n");
    ProcessResult result = simulate(hello(), args);
    EXPECT_TRUE(ExitedWith(result, kUsage));
    EXPECT_EQ(read_file(csv()), "earlier results\n") << "the results file was truncated";
    EXPECT_EQ(read_file(stats()), "{\"earlier\": true}\n") << "the statistics file was truncated";
  }
}

// ---- --jacobian check gives a verdict ------------------------------------------------

TEST_F(BadInputTest, JacobianCheckSaysOkOrDiffer) {
  // BouncingBall: the two agree exactly (a difference of 0 used to be a warning).
  for (const char* model : {"BouncingBall_ode", "HelloWorld_ode"}) {
    SCOPED_TRACE(model);
    ProcessResult ok = lsdae({"simulate", catalog_entry(model).fmu.string(), "-o", csv().string(), "--jacobian",
                              "check", "--no-progress"});
    ASSERT_TRUE(ExitedWith(ok, 0));
    EXPECT_TRUE(Mentions(ok, "re:lsdae: jacobian check at t = 0: finite differences and directional derivatives "
                             "agree to [0-9.e+-]+ \\(relative; threshold 1e-05\\): OK"));
    EXPECT_FALSE(Mentions(ok, "warning"));
  }
  // Robertson: finite differences are far off on y2's quadratic term at y2 = 0.
  ProcessResult differ = lsdae({"simulate", catalog_entry("Robertson_semi_explicit_shapeA").fmu.string(), "-o",
                                csv().string(), "--jacobian", "check", "--no-progress"});
  ASSERT_TRUE(ExitedWith(differ, 0));
  EXPECT_TRUE(Mentions(differ, "re:lsdae: warning: jacobian check at t = 0: finite differences and directional "
                               "derivatives differ: largest relative difference [0-9.e+-]+ \\(threshold 1e-05\\) at "
                               "row \"der\\(y2\\) - f\", column \"y2\": finite differences [0-9.e+-]+, directional"));
}

// ---- plurals ---------------------------------------------------------------------------

TEST_F(BadInputTest, CountsTakeTheRightNumber) {
  ProcessResult events = lsdae({"simulate", catalog_entry("TimeEvent_ode").fmu.string(), "-o", csv().string()});
  ASSERT_TRUE(ExitedWith(events, 0));
  EXPECT_TRUE(Mentions(events, "; 1 event; "));
  EXPECT_FALSE(Mentions(events, "1 events"));
  ProcessResult one = lsdae({"simulate", hello(), "-o", csv().string()});
  ASSERT_TRUE(ExitedWith(one, 0));
  EXPECT_TRUE(Mentions(one, "(directional, 1 colour, 1 nonzero, 1 thread)"));

  // No manifest: the broken reference is the one and only error.
  FmuImage image = FmuImage::from_directory(catalog_entry("HelloWorld_ode").unpacked_dir);
  image.replace(kModelDescription, "derivative=\"1\"", "derivative=\"999\"");
  const fs::path broken = work_ / "one_error.fmu", untouched = work_ / "invalid.csv";
  image.write(broken);
  ProcessResult invalid = lsdae({"simulate", broken.string(), "-o", untouched.string()});
  EXPECT_TRUE(ExitedWith(invalid, 1));
  EXPECT_TRUE(Mentions(invalid, "one_error.fmu: the FMU is invalid (1 error):"));
  EXPECT_FALSE(fs::exists(untouched));
}

}  // namespace
}  // namespace lsdae::test
