// tests/runtime/cli/cli_support_test.cpp -- the command line's checks in
// isolation: runtime/run/did_you_mean, option_values, simulate_options_check, run/output_plan
// and usage_errors (the program itself is run in bad_input_test.cpp).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "run/did_you_mean.h"
#include "run/output_plan.h"
#include "cli/option_values.h"
#include "cli/simulate_options_check.h"
#include "cli/usage_errors.h"
#include "lsdae/error.h"

namespace lsdae::cli {
namespace {

namespace fs = std::filesystem;

// The run layer's checks the command line relies on (run/did_you_mean.h, run/output_plan.h).
using run::check_run_length;
using run::closest_names;
using run::did_you_mean;
using run::edit_distance;
using run::kDefaultMaxRows;
using run::OutputControl;
using run::OutputPlan;

OutputPlan plan_output(double start, double stop, double interval, OutputControl control, std::int64_t max_rows) {
  control.max_rows = max_rows;
  return run::plan_output(start, stop, interval, control);
}

// ---- did_you_mean ---------------------------------------------------------------

TEST(EditDistance, CountsInsertionsDeletionsSubstitutionsAndTranspositions) {
  EXPECT_EQ(edit_distance("", ""), 0u);
  EXPECT_EQ(edit_distance("abc", ""), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("simulat", "simulate"), 1u);
  EXPECT_EQ(edit_distance("--stopp", "--stop"), 1u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("--rtlo", "--rtol"), 1u) << "a swap of two neighbours is one edit";
  EXPECT_EQ(edit_distance("ca", "abc"), 3u) << "optimal string alignment, not unrestricted Damerau";
  EXPECT_EQ(edit_distance("validate", "validate"), 0u);
}

TEST(ClosestNames, SuggestsOnlyWhatIsClose) {
  const std::vector<std::string> commands{"info", "validate", "simulate"};
  EXPECT_EQ(closest_names("simulat", commands), std::vector<std::string>{"simulate"});
  EXPECT_EQ(closest_names("valdiate", commands), std::vector<std::string>{"validate"});
  EXPECT_EQ(closest_names("inf", commands), std::vector<std::string>{"info"}) << "a prefix";
  EXPECT_TRUE(closest_names("frobnicate", commands).empty());
  EXPECT_TRUE(closest_names("", commands).empty());
  const std::vector<std::string> options{"--start", "--stop", "--stats", "--output", "--output-vars", "-o"};
  EXPECT_EQ(closest_names("--stopp", options), std::vector<std::string>{"--stop"});
  EXPECT_EQ(closest_names("--outp", options), (std::vector<std::string>{"--output", "--output-vars"}));
  EXPECT_EQ(closest_names("--strat", options), std::vector<std::string>{"--start"});
  EXPECT_TRUE(closest_names("--zzzzzz", options).empty());
}

TEST(DidYouMean, Phrasing) {
  EXPECT_EQ(did_you_mean("simulat", {"info", "simulate"}), "did you mean `simulate`?");
  EXPECT_EQ(did_you_mean("--o", {"--output", "--other"}), "did you mean `--output` or `--other`?");
  EXPECT_EQ(did_you_mean("--o", {"--a", "--ob", "--oc", "--od"}), "did you mean one of `--ob`, `--oc`, `--od`?");
  EXPECT_EQ(did_you_mean("zzz", {"info"}), "");
}

// ---- option_values ----------------------------------------------------------------

// The validator's message for `text` ("" when accepted); `text` as rewritten.
std::string check(const CLI::Validator& v, std::string& text) { return v(text); }
std::string check(const CLI::Validator& v, const char* literal) {
  std::string text = literal;
  return v(text);
}

TEST(RealValue, AcceptsFiniteDecimalsInRange) {
  const double inf = std::numeric_limits<double>::infinity();
  const CLI::Validator rtol = real_value({1e-15, 1.0, true, true, "the relative tolerance", "--rtol 1e-6"});
  for (const char* good : {"1e-6", "0.001", "1", "+0.5", "1E-15", ".5"}) EXPECT_EQ(check(rtol, good), "") << good;
  EXPECT_EQ(check(rtol, "0"), "\"0\" is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. --rtol 1e-6");
  EXPECT_NE(check(rtol, "2").find("is out of range"), std::string::npos);
  EXPECT_NE(check(rtol, "1e-16").find("is out of range"), std::string::npos);
  EXPECT_NE(check(rtol, "-1e-6").find("is out of range"), std::string::npos);
  for (const char* bad : {"", "abc", "1e-6x", "0x10", "1,5", " 1", "1 ", "--1", "e5"})
    EXPECT_NE(check(rtol, bad).find("is not a number"), std::string::npos) << "\"" << bad << "\"";
  for (const char* word : {"inf", "-inf", "nan", "NaN", "Infinity", "+INF"})
    EXPECT_NE(check(rtol, word).find("is not a finite number"), std::string::npos) << word;
  EXPECT_NE(check(rtol, "1e400").find("is beyond double precision"), std::string::npos);

  const CLI::Validator time = real_value({-inf, inf, true, true, "the stop time", "--stop 10"});
  EXPECT_EQ(check(time, "-5"), "");
  EXPECT_EQ(check(time, "1e300"), "");
  EXPECT_EQ(check(time, "inf"), "\"inf\" is not a finite number: the stop time must be a finite number → e.g. --stop 10");

  const CLI::Validator open_low = real_value({0.0, inf, false, true, "the output interval", "--output-interval 0.01"});
  EXPECT_NE(check(open_low, "0").find("must be greater than 0"), std::string::npos);
  EXPECT_EQ(check(open_low, "1e-300"), "") << "tiny but positive: the run-length check judges it";
}

TEST(RealValue, ShortensAHugeValueInTheMessage) {
  const CLI::Validator rtol = real_value({1e-15, 1.0, true, true, "the relative tolerance", "--rtol 1e-6"});
  const std::string huge = "1" + std::string(300, '0');
  const std::string message = check(rtol, huge.c_str());
  EXPECT_NE(message.find("(301 characters) is out of range"), std::string::npos) << message;
  EXPECT_LT(message.size(), 250u) << message;
}

TEST(CountValue, WholeNumbersInRangeAndRewritesExponents) {
  const CLI::Validator steps =
      count_value(1, std::numeric_limits<std::int64_t>::max(), "the most steps", "--max-steps 1000000");
  std::string text = "1e6";
  EXPECT_EQ(check(steps, text), "");
  EXPECT_EQ(text, "1000000") << "rewritten for CLI11's integer conversion";
  text = "+42";
  EXPECT_EQ(check(steps, text), "");
  EXPECT_EQ(text, "42");
  EXPECT_EQ(check(steps, "0"), "\"0\" is out of range: the most steps must be a whole number of at least 1 → e.g. "
                               "--max-steps 1000000");
  EXPECT_NE(check(steps, "-5").find("\"-5\" is out of range"), std::string::npos);
  EXPECT_NE(check(steps, "99999999999999999999").find("is out of range"), std::string::npos);
  for (const char* bad : {"1.5", "abc", "", "1e-3", "nan", "inf", "0x10"})
    EXPECT_NE(check(steps, bad).find("is not a whole number"), std::string::npos) << "\"" << bad << "\"";
  const CLI::Validator threads = count_value(1, 1024, "the thread count", "--threads 4");
  EXPECT_NE(check(threads, "2000").find("must be a whole number from 1 to 1024"), std::string::npos);
  EXPECT_NE(check(threads, "1e4").find("is out of range"), std::string::npos);
}

TEST(OneOf, NamesTheChoicesAndTheClosest) {
  const CLI::Validator jacobian = one_of({"auto", "fd", "directional", "check"});
  EXPECT_EQ(check(jacobian, "fd"), "");
  EXPECT_EQ(check(jacobian, "chek"), "\"chek\" is not one of auto, fd, directional, check → did you mean `check`?");
  EXPECT_EQ(check(jacobian, "magic"), "\"magic\" is not one of auto, fd, directional, check → use one of them");
  EXPECT_NE(check(jacobian, "Auto").find("did you mean `auto`?"), std::string::npos) << "case matters";
}

// ---- simulate_options_check: run length ----------------------------------------------

std::string refusal(double start, double stop, double interval, std::int64_t max_rows) {
  try {
    check_run_length(start, stop, interval, max_rows);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    return e.what();
  }
  return "";
}

TEST(RunLength, CountsIntervalsAndRefusesTooManyRows) {
  EXPECT_EQ(check_run_length(0, 1, 0.01, kDefaultMaxRows), 100);
  EXPECT_EQ(check_run_length(0, 1, 0.3, kDefaultMaxRows), 4) << "the last interval is shorter";
  EXPECT_EQ(check_run_length(0, 1, 1e12, kDefaultMaxRows), 1) << "an interval beyond the stop: one step to it";
  EXPECT_EQ(check_run_length(-2, 2, 1, 5), 4) << "5 rows allowed, 5 rows made";
  EXPECT_NE(refusal(-2, 2, 1, 4).find("makes 5 output rows, more than --max-rows 4"), std::string::npos);
  const std::string huge = refusal(0, 1e20, 1, kDefaultMaxRows);
  EXPECT_NE(huge.find("from t = 0 to 1e+20 every 1 makes 1e+20 output rows, more than --max-rows 100000000"),
            std::string::npos)
      << huge;
  EXPECT_NE(huge.find("→ choose a larger --output-interval (e.g. 2e+17 for 501 rows)"), std::string::npos) << huge;
  EXPECT_NE(refusal(0, 1, 1e-300, kDefaultMaxRows).find("1e+300 output rows"), std::string::npos);
  EXPECT_NE(refusal(0, 1e17, 0.01, kDefaultMaxRows).find("1e+19 output rows"), std::string::npos)
      << "the case that overflowed the row counter";
}

TEST(RunLength, RefusesNonFiniteValuesAndUnresolvableIntervals) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
  EXPECT_NE(refusal(0, inf, 1, kDefaultMaxRows).find("stop time inf is not a finite number"), std::string::npos);
  EXPECT_NE(refusal(-inf, 1, 1, kDefaultMaxRows).find("start time -inf is not a finite number"), std::string::npos);
  EXPECT_NE(refusal(0, 1, nan, kDefaultMaxRows).find("output interval nan"), std::string::npos);
  EXPECT_NE(refusal(-1.7e308, 1.7e308, 1e307, kDefaultMaxRows).find("overflows double precision"), std::string::npos);
  const std::string fine = refusal(1e9, 1e9 + 1, 1e-4, kDefaultMaxRows);
  EXPECT_NE(fine.find("output interval 0.0001 is below what double-precision times near 1e+09 resolve"),
            std::string::npos)
      << fine;
  EXPECT_EQ(check_run_length(1e9, 1e9 + 1, 1e-2, kDefaultMaxRows), 100);
}

// ---- simulate_options_check: output files ----------------------------------------------

class OutputFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("lsdae-cli-support-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "unpacked");
    std::ofstream(dir_ / "model.fmu") << "zip";
    std::ofstream(dir_ / "unpacked" / "modelDescription.xml") << "<xml/>";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The error check_output_files throws, as "<kind>: <message>"; "" when accepted.
  std::string refusal(const std::string& fmu, const std::string& results, const std::string& stats) {
    try {
      check_output_files({fmu, results, stats, {}});
    } catch (const Error& e) {
      return std::string(to_string(e.kind())) + ": " + e.what();
    }
    return "";
  }
  std::string p(const std::string& relative) const { return (dir_ / relative).string(); }

  fs::path dir_;
};

TEST_F(OutputFiles, TheFmuItselfIsNeverAnOutput) {
  EXPECT_EQ(refusal(p("model.fmu"), p("result.csv"), ""), "");
  EXPECT_NE(refusal(p("model.fmu"), p("model.fmu"), "").find("usage: simulate -o"), std::string::npos);
  EXPECT_NE(refusal(p("model.fmu"), p("model.fmu"), "").find("this is the FMU being simulated"), std::string::npos);
  EXPECT_NE(refusal(p("model.fmu"), p("./unpacked/../model.fmu"), "").find("this is the FMU"), std::string::npos)
      << "another spelling";
  fs::create_symlink(dir_ / "model.fmu", dir_ / "link.fmu");
  EXPECT_NE(refusal(p("model.fmu"), p("link.fmu"), "").find("this is the FMU"), std::string::npos) << "a symlink";
  fs::create_hard_link(dir_ / "model.fmu", dir_ / "hard.fmu");
  EXPECT_NE(refusal(p("model.fmu"), p("result.csv"), p("hard.fmu")).find("usage: simulate --stats"), std::string::npos)
      << "a hard link, as statistics";
}

TEST_F(OutputFiles, AnUnpackedFmuFolderIsNotWrittenInto) {
  EXPECT_NE(refusal(p("unpacked"), p("unpacked/modelDescription.xml"), "").find("lies inside the unpacked FMU"),
            std::string::npos);
  // A new file too: allowed once, the same command would be refused the next
  // time (the file then exists inside the folder), so it is refused from the start.
  EXPECT_NE(refusal(p("unpacked"), p("unpacked/result.csv"), "").find("lies inside the unpacked FMU"),
            std::string::npos);
}

TEST_F(OutputFiles, StandardOutputAndTheSameFileTwice) {
  EXPECT_NE(refusal(p("model.fmu"), "-", "-").find("usage: simulate: -o - and --stats - both write to standard output"),
            std::string::npos);
  EXPECT_EQ(refusal(p("model.fmu"), "-", p("s.json")), "");
  EXPECT_EQ(refusal(p("model.fmu"), p("r.csv"), "-"), "");
  EXPECT_NE(refusal(p("model.fmu"), p("r.csv"), p("./r.csv")).find("usage: simulate: -o and --stats both name"),
            std::string::npos)
      << "not yet existing, spelled differently";
}

TEST_F(OutputFiles, UncreatableOutputsAreOutputErrors) {
  const std::string missing = refusal(p("model.fmu"), p("r.csv"), "/nonexistent-lsdae-folder/s.json");
  EXPECT_EQ(missing.rfind("output: simulate --stats \"/nonexistent-lsdae-folder/s.json\": the folder "
                          "\"/nonexistent-lsdae-folder\" does not exist → create it first",
                          0),
            0u)
      << missing;
  EXPECT_NE(refusal(p("model.fmu"), p("unpacked"), "").find("output: simulate -o \"" + p("unpacked") + "\": is a folder"),
            std::string::npos);
  EXPECT_NE(refusal(p("model.fmu"), p("model.fmu/r.csv"), "").find("is not a folder"), std::string::npos);
  EXPECT_EQ(refusal(p("model.fmu"), "/dev/null", ""), "") << "a device that takes writes";
}

// ---- usage_errors ------------------------------------------------------------------

// A small app shaped like lsdae's: -v globally, `run FILE [--stop T] [--json]`.
std::string usage_error(const std::vector<std::string>& args) {
  CLI::App app{"test", "lsdae"};
  app.require_subcommand(1);
  bool verbose = false, json = false, color = true;
  double stop = 0;
  std::string file;
  app.add_flag("-v,--verbose", verbose);
  CLI::App* run = app.add_subcommand("run", "");
  run->fallthrough();
  run->add_option("fmu", file)->required();
  run->add_option("--stop", stop)->check(real_value({0, 10, true, true, "the stop time", "--stop 1"}));
  run->add_flag("--json", json);
  run->add_flag("!--no-color", color);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return describe_usage_error(app, args, e);
  } catch (const std::exception& e) {  // as runtime/cli/program.cpp does
    return "[flag] " + describe_flag_value_error(app, args, e);
  }
  return "";
}

TEST(UsageErrors, InLsdaesOwnWords) {
  EXPECT_EQ(usage_error({"run", "m.fmu", "--stop", "3", "-v"}), "");
  EXPECT_EQ(usage_error({}), "no command given → e.g. `lsdae simulate model.fmu` (commands: run; `lsdae --help` "
                             "explains them)");
  EXPECT_EQ(usage_error({"rn", "m.fmu"}), "unknown command \"rn\" → did you mean `run`? (commands: run)");
  EXPECT_EQ(usage_error({"run", "m.fmu", "--stopp", "2"}),
            "run: unknown option \"--stopp\" → did you mean `--stop`? (`lsdae run --help` lists the options)");
  EXPECT_EQ(usage_error({"run", "--stopp=2", "m.fmu"}),
            "run: unknown option \"--stopp\" → did you mean `--stop`? (`lsdae run --help` lists the options)");
  EXPECT_EQ(usage_error({"--json", "run", "m.fmu"}),
            "option \"--json\" belongs to `lsdae run` → put it after the command, e.g. `lsdae run model.fmu --json …`");
  EXPECT_EQ(usage_error({"run"}), "run: no FMU given → `lsdae run model.fmu [options]` (`lsdae run --help` lists the "
                                  "options)");
  EXPECT_EQ(usage_error({"run", "a.fmu", "b.fmu"}),
            "run: unexpected argument \"b.fmu\" → `lsdae run` takes one FMU, then options (`lsdae run --help` lists "
            "them)");
  EXPECT_EQ(usage_error({"run", "a.fmu", "--stop"}).rfind("run: --stop needs a value", 0), 0u);
  EXPECT_EQ(usage_error({"run", "a.fmu", "--stop", "11"}),
            "run --stop: \"11\" is out of range: the stop time must be from 0 to 10 → e.g. --stop 1");
  EXPECT_EQ(usage_error({"run", "a.fmu", "--stop", "-5"}).find("unknown option"), std::string::npos)
      << "a negative number is a value, not an option";
}

// `lsdae plot` and `lsdae report` take a result file, not an FMU: their usage
// errors said "takes one FMU" and "e.g. `lsdae plot model.fmu --vars VALUE`".
std::string result_command_usage_error(const std::vector<std::string>& args) {
  CLI::App app{"test", "lsdae"};
  app.require_subcommand(1);
  std::string result, vars;
  CLI::App* plot = app.add_subcommand("plot", "");
  plot->add_option("result", result)->required();
  plot->add_option("--vars", vars);
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return describe_usage_error(app, args, e);
  }
  return "";
}

TEST(UsageErrors, AResultFileCommandSpeaksOfItsResultFile) {
  EXPECT_EQ(result_command_usage_error({"plot", "r.csv", "--vars", "x"}), "");
  EXPECT_EQ(result_command_usage_error({"plot", "a.csv", "b.csv"}),
            "plot: unexpected argument \"b.csv\" → `lsdae plot` takes one result file, then options (`lsdae plot "
            "--help` lists them)");
  EXPECT_EQ(result_command_usage_error({"plot", "--vars", "x"}),
            "plot: no result file given → `lsdae plot result.csv [options]` (`lsdae plot --help` lists the options)");
  EXPECT_EQ(result_command_usage_error({"plot", "r.csv", "--vars"}),
            "plot: --vars needs a value → e.g. `lsdae plot result.csv --vars VALUE` (`lsdae plot --help` says which "
            "values)");
}

// Found by lsdae_fuzz_cli: CLI11 2.1 reads a flag's `=VALUE` with std::stoll, and a
// number beyond long long escaped parse() as std::out_of_range (lsdae aborted).
TEST(UsageErrors, AFlagGivenAHugeNumberIsAUsageError) {
  EXPECT_EQ(usage_error({"run", "m.fmu", "--no-color=99999999999999999999"}),
            "[flag] run: flag \"--no-color\" takes no value → value seen \"99999999999999999999\" → give "
            "\"--no-color\" alone, or \"--no-color=true\" / \"--no-color=false\"");
  EXPECT_EQ(usage_error({"run", "m.fmu", "--no-color=-18446744073709551616"}).rfind("[flag] run: flag \"--no-color\"", 0),
            0u);
  EXPECT_EQ(usage_error({"run", "m.fmu", "--no-color=1"}), "");
}

// plan_output: where the rows go (simulate_options_check.h).
TEST(PlanOutput, IntervalGridAsBefore) {
  const OutputPlan plan = plan_output(0, 1, 0.3, {}, kDefaultMaxRows);
  EXPECT_EQ(plan.points, 4);
  EXPECT_DOUBLE_EQ(plan.at(1), 0.3);
  EXPECT_EQ(plan.at(4), 1.0) << "the last point is the stop time exactly";
  EXPECT_TRUE(plan.records(2));
}

TEST(PlanOutput, ListedTimesEndAtTheStop) {
  OutputControl c;
  c.times = "0, 0.25,0.5";
  OutputPlan plan = plan_output(0, 2, 0.1, c, kDefaultMaxRows);
  EXPECT_EQ(plan.times, (std::vector<double>{0.25, 0.5, 2})) << "the start has its row already";
  c.times = "0.25,2";
  EXPECT_EQ(plan_output(0, 2, 0.1, c, kDefaultMaxRows).times, (std::vector<double>{0.25, 2}));
  c.times = "0.1,0.2,0.3";
  EXPECT_THROW(plan_output(0, 2, 0.1, c, 3), Error) << "four rows with the start, more than --max-rows 3";
  for (const char* bad : {"0.2,0.1", "0.1,0.1", "x", "1e999", "0x10", "", ",", "3"}) {
    c.times = bad;
    if (c.times.empty()) continue;  // "" means no list
    EXPECT_THROW(plan_output(0, 2, 0.1, c, kDefaultMaxRows), Error) << bad;
  }
}

TEST(PlanOutput, LogGridPerDecade) {
  OutputControl c;
  c.grid = "log";
  c.log_first = 1e-3;
  c.per_decade = 2;
  const OutputPlan plan = plan_output(10, 20, 0.1, c, kDefaultMaxRows);
  // offsets 1e-3, 3.16e-3, 1e-2, ..., 3.16 (below the span 10), then the stop
  ASSERT_EQ(plan.times.size(), 9u);
  EXPECT_EQ(plan.times.front(), 10 + 1e-3);
  EXPECT_EQ(plan.times.back(), 20.0);
  for (std::size_t k = 1; k < plan.times.size(); ++k) EXPECT_LT(plan.times[k - 1], plan.times[k]);
  c.log_first = 10;
  EXPECT_THROW(plan_output(10, 20, 0.1, c, kDefaultMaxRows), Error) << "the first time must lie inside the span";
  c.log_first = 1e-300;
  c.per_decade = 1000;
  EXPECT_THROW(plan_output(0, 1e10, 0.1, c, 1000), Error) << "310 decades × 1000 rows";
}

TEST(PlanOutput, StepsKeepTheGridForStopChecksOnly) {
  OutputControl c;
  c.steps = true;
  c.every = 5;
  const OutputPlan plan = plan_output(0, 1e9, 1, c, 10);
  EXPECT_FALSE(plan.records(1));
  EXPECT_EQ(plan.every, 5);
  c.times = "1";
  EXPECT_THROW(plan_output(0, 2, 0.1, c, kDefaultMaxRows), Error) << "two ways to place rows";
}

TEST(PlanOutput, DecimationKeepsEveryKthAndTheLast) {
  OutputControl c;
  c.every = 3;
  const OutputPlan plan = plan_output(0, 1, 0.1, c, kDefaultMaxRows);
  EXPECT_FALSE(plan.records(1));
  EXPECT_TRUE(plan.records(3));
  EXPECT_TRUE(plan.records(10));
}

}  // namespace
}  // namespace lsdae::cli
