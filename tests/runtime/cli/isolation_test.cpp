// tests/runtime/cli/isolation_test.cpp -- FMUs that crash, exit, hang, return
// NaN or fmi3Discard, or print to stdout, and signals that arrive while an
// FMU call runs: `lsdae simulate` and `lsdae validate` run the binary in a
// supervised child (lsdae/supervise.h) and must say what happened (signal,
// fmi3 function, instance, time), keep the rows, remove the extraction
// folder and exit with the documented code.
//
// The FMUs are built here: a hand-written C binary (faulty_fmu.c) told by
// resources/fault.txt what to do wrong, with a model description (and, for
// the DAE variant, an LS-DAE manifest of shape A) written below.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "broken_fmus.h"
#include "cli_fixture.h"
#include "lsdae/lsdae.h"
#include "lsdae/supervise.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kDaeDescription = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Faulty" instantiationToken="{faulty-c-fmu-1}"
  generationTool="hand-written C (lsdae tests)">
  <ModelExchange modelIdentifier="Faulty"/>
  <DefaultExperiment startTime="0" stopTime="1" stepSize="0.1"/>
  <ModelVariables>
    <Float64 name="k" valueReference="42" causality="parameter" variability="fixed" start="1"/>
    <Float64 name="z" valueReference="3" causality="local" variability="continuous" initial="approx" start="0"/>
    <Float64 name="x" valueReference="17" causality="local" variability="continuous" initial="exact" start="1"/>
    <Float64 name="der(x)" valueReference="18" causality="local" variability="continuous" derivative="17"/>
    <Float64 name="g" valueReference="25" causality="local" variability="continuous"/>
    <Float64 name="y" valueReference="30" causality="output" variability="continuous"/>
    <Float64 name="time" valueReference="9000" causality="independent" variability="continuous"/>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="30" dependencies="17"/>
    <ContinuousStateDerivative valueReference="18" dependencies="17"/>
    <InitialUnknown valueReference="30" dependencies="17"/>
    <InitialUnknown valueReference="18" dependencies="17"/>
  </ModelStructure>
</fmiModelDescription>
)xml";

constexpr const char* kDaeManifest = R"xml(<?xml version="1.0" encoding="UTF-8"?>
<fmiLayeredStandardManifest xmlns:fmi-ls="http://fmi-standard.org/fmi-ls-manifest"
  fmi-ls:fmi-ls-name="org.fmi-standard.fmi-ls-dae" fmi-ls:fmi-ls-version="0.1.0"
  fmi-ls:fmi-ls-description="Layered standard for DAE support in FMI">
  <AlgebraicVariables>
    <AlgebraicVariable valueReference="3"/>
  </AlgebraicVariables>
  <ModelStructure>
    <ContinuousStateDerivative valueReference="18" dependencies="17" dependenciesKind="constant"/>
    <Residual>
      <Formulation valueReference="25" dependencies="3 17" dependenciesKind="constant constant"/>
    </Residual>
  </ModelStructure>
</fmiLayeredStandardManifest>
)xml";

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// Every line after the header is a complete row "time,x,y" of numbers.
::testing::AssertionResult AllRowsComplete(const std::string& csv) {
  if (!csv.empty() && csv.back() != '\n') return ::testing::AssertionFailure() << "the file ends inside a row";
  const std::regex row("^-?[0-9.e+-]+(,(-?[0-9.e+-]+|nan|-nan|inf|-inf))*$");
  auto all = lines(csv);
  if (all.empty()) return ::testing::AssertionFailure() << "no header";
  for (std::size_t i = 1; i < all.size(); ++i)
    if (!std::regex_match(all[i], row)) return ::testing::AssertionFailure() << "line " << i + 1 << ": " << all[i];
  return ::testing::AssertionSuccess();
}

// "(N rows kept in <file>" from the message, or -1.
long rows_kept(const ProcessResult& result) {
  std::smatch m;
  const std::string text = result.output();
  if (std::regex_search(text, m, std::regex("([0-9]+) rows? kept in "))) return std::stol(m[1]);
  return -1;
}

class IsolationTest : public CliTest {
 protected:
  enum class Form { ode, dae };

  // An FMU whose binary does `fault` (a line of resources/fault.txt).
  fs::path faulty_fmu(const std::string& fault, Form form = Form::ode) {
    FmuImage image;
    image.put(kModelDescription, form == Form::dae ? kDaeDescription : kFaultyOdeDescription);
    if (form == Form::dae) image.put(kManifest, kDaeManifest);
    image.put(binary_member("Faulty"), read_file(LSDAE_FAULTY_FMU), true);
    image.put("resources/fault.txt", fault + "\n");
    fs::path fmu = work_ / "faulty.fmu";
    image.write(fmu);
    return fmu;
  }

  fs::path csv_file() const { return work_ / "out.csv"; }
  fs::path stats_file() const { return work_ / "stats.json"; }

  std::vector<std::string> simulate_args(const fs::path& fmu, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"simulate", fmu.string(), "-o", csv_file().string(), "--stats", stats_file().string(),
                                  "--no-progress"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  }

  // The rows in the result file equal the count in the message and in the statistics.
  void expect_rows_kept(const ProcessResult& result, std::size_t at_least, std::size_t at_most) {
    const std::string csv = read_text(csv_file());
    EXPECT_TRUE(AllRowsComplete(csv));
    const std::size_t rows = lines(csv).size() - 1;
    EXPECT_GE(rows, at_least) << result.describe();
    EXPECT_LE(rows, at_most) << result.describe();
    EXPECT_EQ(rows_kept(result), static_cast<long>(rows)) << result.describe();
    Json stats = JsonReader::parse(read_text(stats_file()));
    EXPECT_FALSE(stats["completed"].boolean);
    EXPECT_EQ(stats["rows_written"].number, static_cast<double>(rows));
  }
};

TEST_F(IsolationTest, ABehavingFmuSimulatesInTheChild) {
  auto result = lsdae(simulate_args(faulty_fmu("none GetFloat64")));
  ASSERT_TRUE(ExitedWith(result, 0));
  auto rows = lines(read_text(csv_file()));
  ASSERT_EQ(rows.size(), 13u) << "header, 11 output rows and one more at the event at t = 0.5";
  EXPECT_EQ(rows[0], "time,x,y");
  EXPECT_EQ(rows.back().rfind("1,0.3678", 0), 0u) << rows.back() << " (x = exp(-1))";
  EXPECT_TRUE(JsonReader::parse(read_text(stats_file()))["completed"].boolean);
  EXPECT_TRUE(leftovers().empty());
}

// ---- crashes ---------------------------------------------------------------------

TEST_F(IsolationTest, ASegfaultInGetFloat64IsNamedAndKeepsTheRows) {
  auto result = lsdae(simulate_args(faulty_fmu("segv GetFloat64 0.5")));
  ASSERT_TRUE(ExitedWith(result, 10));
  EXPECT_TRUE(Mentions(result, "lsdae: error: faulty.fmu: the FMU crashed in fmi3GetFloat64 (instance \"lsdae\", "
                               "t = 0.5): the process running it was killed by SIGSEGV (Segmentation fault)"));
  EXPECT_TRUE(Mentions(result, "5 rows kept in " + csv_file().string() + ", up to t = 0.4)"));
  expect_rows_kept(result, 5, 5);
  EXPECT_NE(JsonReader::parse(read_text(stats_file()))["error"].string.find("SIGSEGV"), std::string::npos);
  EXPECT_TRUE(leftovers().empty()) << "the extraction folder must be removed";
}

TEST_F(IsolationTest, ExitInAResidualCallIsACrash) {
  auto result = lsdae(simulate_args(faulty_fmu("exit GetFloat64 0.3", Form::dae)));
  ASSERT_TRUE(ExitedWith(result, 10));
  EXPECT_TRUE(Mentions(result, "re:the FMU ended the process running it in fmi3GetFloat64 \\(instance \"lsdae\", "
                               "t = 0\\.3[0-9]*\\): exit status 1 \\(it called exit\\(\\)\\)"));
  expect_rows_kept(result, 3, 4);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(IsolationTest, AbortInAResidualCallIsACrash) {
  auto result = lsdae(simulate_args(faulty_fmu("abort GetFloat64 0.3", Form::dae)));
  ASSERT_TRUE(ExitedWith(result, 10));
  EXPECT_TRUE(Mentions(result, "re:the FMU crashed in fmi3GetFloat64 \\(instance \"lsdae\", t = 0\\.3[0-9]*\\): the "
                               "process running it was killed by SIGABRT \\(Aborted\\) \\(abort\\(\\) or a failed "
                               "assertion\\)"));
  expect_rows_kept(result, 3, 4);
  EXPECT_TRUE(leftovers().empty());
}

// An FMU that aborts in fmi3FreeInstance / fmi2FreeInstance after a correct
// simulation (kit config free_fault=abort; issue 32's commercial FMI 2.0 FMU):
// the result and statistics files are those of the completed run -- the same
// bytes as the FMU without the fault gives -- and lsdae says the run completed
// and the FMU crashed while being freed, exit 13, isolated or not.
TEST_F(IsolationTest, ACrashWhileTheFmuIsFreedKeepsTheCompletedRun) {
  const fs::path reference_csv = work_ / "reference.csv";
  for (const std::string version : {"", "_fmi2"}) {
    const std::string fmu = std::string(LSDAE_FMU_DIR) + "/BouncingBall" + version + "_abort_at_free.fmu";
    const std::string clean = std::string(LSDAE_FMU_DIR) + "/BouncingBall" + (version.empty() ? "_ode" : version) + ".fmu";
    auto good = lsdae({"simulate", clean, "-o", reference_csv.string(), "--no-progress"});
    ASSERT_TRUE(ExitedWith(good, 0));
    for (const bool isolated : {true, false}) {
      SCOPED_TRACE(fmu + (isolated ? "" : " --no-isolate"));
      std::vector<std::string> extra;
      if (!isolated) extra.push_back("--no-isolate");
      auto result = lsdae(simulate_args(fmu, extra));
      ASSERT_TRUE(ExitedWith(result, kExitCompletedThenCrashed));
      EXPECT_TRUE(Mentions(result, "the run completed and its results are complete; then the FMU failed while being "
                                   "freed"));
      if (isolated)
        EXPECT_TRUE(Mentions(result, std::string("killed by SIGABRT (Aborted) in ") +
                                         (version.empty() ? "fmi3FreeInstance" : "fmi2FreeInstance")));
      else
        EXPECT_TRUE(Mentions(result, "signal 6 (Aborted)"));
      EXPECT_EQ(read_text(csv_file()), read_text(reference_csv)) << "the complete results of the run";
      Json stats = JsonReader::parse(read_text(stats_file()));
      EXPECT_TRUE(stats["completed"].boolean);
      EXPECT_TRUE(leftovers().empty()) << "the extraction folder must be removed";
    }
  }
}

TEST_F(IsolationTest, ValidateReportsACrashInInstantiateAsABinaryError) {
  fs::path fmu = faulty_fmu("segv InstantiateModelExchange");
  auto result = lsdae({"validate", fmu.string()});
  ASSERT_TRUE(ExitedWith(result, 5));
  EXPECT_TRUE(Mentions(result, "faulty.fmu: binaries/x86_64-linux/Faulty.so: error: the FMU crashed in "
                               "fmi3InstantiateModelExchange (instance \"lsdae-validate\"): the process running it "
                               "was killed by SIGSEGV"));
  EXPECT_TRUE(Mentions(result, "INVALID (1 error"));
  EXPECT_TRUE(leftovers().empty());

  auto json = lsdae({"validate", "--json", fmu.string()});
  ASSERT_TRUE(ExitedWith(json, 5));
  Json j = JsonReader::parse(json.out);
  EXPECT_EQ(j["binary"].string, "failed");
  EXPECT_NE(j["diagnostics"].array.at(0)["message"].string.find("SIGSEGV"), std::string::npos);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(IsolationTest, ValidateStopsABinaryThatHangsWhileInstantiating) {
  auto result = lsdae({"validate", "--call-timeout", "1", faulty_fmu("hang InstantiateModelExchange").string()});
  ASSERT_TRUE(ExitedWith(result, 11));
  EXPECT_TRUE(Mentions(result, "fmi3InstantiateModelExchange (instance \"lsdae-validate\") did not return within 1 s"));
  EXPECT_TRUE(leftovers().empty());
}

// ---- watchdogs ---------------------------------------------------------------------

TEST_F(IsolationTest, AnEndlessLoopInUpdateDiscreteStatesHitsTheCallTimeout) {
  const auto started = std::chrono::steady_clock::now();
  auto result = lsdae(simulate_args(faulty_fmu("hang UpdateDiscreteStates 0.4"), {"--call-timeout", "1"}));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_TRUE(ExitedWith(result, 11));
  EXPECT_TRUE(Mentions(result, "lsdae: error: faulty.fmu: fmi3UpdateDiscreteStates (instance \"lsdae\", t = 0.5) did "
                               "not return within 1 s: the process running the FMU was stopped"));
  EXPECT_TRUE(Mentions(result, "--call-timeout"));
  // Rows 0 ... 0.4, and the row just before the event at t = 0.5.
  expect_rows_kept(result, 6, 6);
  EXPECT_LT(seconds, 10.0);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(IsolationTest, TheRunTimeoutStopsASlowRun) {
  const auto started = std::chrono::steady_clock::now();
  auto result = lsdae(simulate_args(faulty_fmu("slow GetContinuousStateDerivatives 0 20"), {"--timeout", "1"}));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ASSERT_TRUE(ExitedWith(result, 11));
  EXPECT_TRUE(Mentions(result, "the run took longer than its limit of 1 s"));
  EXPECT_TRUE(Mentions(result, "raise --timeout"));
  expect_rows_kept(result, 1, 11);
  EXPECT_LT(seconds, 10.0);
  EXPECT_TRUE(leftovers().empty());
}

// The time limit (and a stop signal) used to be looked at only between two
// output points: a run with one long interval -- tiny steps, an event storm --
// went on long past --timeout in-process (here 1000 steps of 20 ms each
// instead of 1 s), and an isolated one was killed after the grace period.
// Now the run is cancelled at its next step.
TEST_F(IsolationTest, TheRunTimeoutStopsInsideALongOutputInterval) {
  for (const char* isolation : {"--no-isolate", "--call-timeout=60"}) {
    const auto started = std::chrono::steady_clock::now();
    auto result = lsdae(simulate_args(faulty_fmu("slow GetContinuousStateDerivatives 0 20"),
                                      {"--timeout", "1", "--stop", "1", "--output-interval", "1", "--max-step",
                                       "0.001", isolation}));
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    ASSERT_TRUE(ExitedWith(result, 11)) << isolation;
    EXPECT_TRUE(Mentions(result, "the run took longer than its limit of 1 s")) << isolation;
    EXPECT_TRUE(Mentions(result, "1 row kept")) << isolation;
    EXPECT_EQ(lines(read_text(csv_file())).size(), 2u) << isolation << ": the header and the start";
    Json stats = JsonReader::parse(read_text(stats_file()));
    EXPECT_TRUE(stats["interrupted"].boolean) << isolation;
    EXPECT_GT(stats["reached_time"].number, 0.0) << isolation << ": the steps taken before the stop";
    EXPECT_LT(stats["reached_time"].number, 1.0) << isolation;
    EXPECT_LT(seconds, 8.0) << isolation;
    EXPECT_TRUE(leftovers().empty());
  }
}

TEST_F(IsolationTest, TimeLimitsAreCheckedAsOptions) {
  const std::string fmu = faulty_fmu("none GetFloat64").string();
  // "0x10" and "1e400" were accepted by the first checker (strtod: hexadecimal, infinity).
  for (const char* bad : {"-1", "inf", "nan", "soon", "0x10", "1e400"}) {
    for (const char* option : {"--call-timeout", "--timeout"}) {
      auto result = lsdae({"simulate", fmu, "-o", csv_file().string(), option, bad});
      EXPECT_TRUE(ExitedWith(result, 2)) << option << ' ' << bad;
      EXPECT_TRUE(Mentions(result, "a time limit in seconds (0: no limit)")) << option << ' ' << bad;
      EXPECT_TRUE(Mentions(result, std::string("→ e.g. ") + option + " 30")) << option << ' ' << bad;
    }
  }
  EXPECT_TRUE(leftovers().empty());
}

// ---- events that never stop --------------------------------------------------------

// From t = 0.5 the FMU announces its next time event 1e-14 s ahead at every
// event. The chattering guard counted only events at exactly one time, so
// this ran event after event until IDA's step limit; now 1000 events in a
// row, each within 1e-12·max(1, |t|) s of the last, end the run (exit code 6)
// with the time and what to check, and the rows up to there are kept.
TEST_F(IsolationTest, EventsEachAHairAfterTheLastAreChattering) {
  auto result = lsdae(simulate_args(faulty_fmu("chatter UpdateDiscreteStates 0.5 1e-14")));
  ASSERT_TRUE(ExitedWith(result, 6)) << result.err;
  EXPECT_TRUE(Mentions(result, "re:more than 1000 events in a row at t = 0\\.5[0-9]*, each within 1e-12 s of the last "
                               "→ the FMU's event indicators or time events chatter"))
      << result.err;
  EXPECT_TRUE(AllRowsComplete(read_text(csv_file())));
  EXPECT_GE(lines(read_text(csv_file())).size(), 6u) << "the rows before t = 0.5 are kept";
  EXPECT_TRUE(leftovers().empty());
}

// ---- numbers the solver cannot use -------------------------------------------------

TEST_F(IsolationTest, ANaNResidualIsNamedWithItsTime) {
  auto result = lsdae(simulate_args(faulty_fmu("nan GetFloat64 0.5", Form::dae)));
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "re:the FMU returned NaN for the residual \"g\" at t = 0\\.5"));
  EXPECT_FALSE(Mentions(result, "raise --max-steps"));
  expect_rows_kept(result, 6, 6);
  auto rows = lines(read_text(csv_file()));
  ASSERT_EQ(rows.size(), 7u) << "header, the rows 0 ... 0.4 and the one before the event at t = 0.5";
  EXPECT_EQ(rows.back(), "0.5,nan,nan") << "what the FMU returned there";
  EXPECT_TRUE(AllRowsComplete(read_text(csv_file())));
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(IsolationTest, ANaNResidualBetweenOutputPointsIsNamedToo) {
  // Not at an event restart: inside a step, where IDA would otherwise end with "raise --max-steps".
  auto result = lsdae(simulate_args(faulty_fmu("nan GetFloat64 0.55", Form::dae)));
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "re:→ the FMU returned NaN for the residual \"g\" at t = 0\\.5[0-9]* \\([0-9]+ "
                               "non-finite evaluations, the last at t = 0\\.5[0-9]*\\)"));
  EXPECT_FALSE(Mentions(result, "raise --max-steps"));
  expect_rows_kept(result, 7, 7);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(IsolationTest, ANaNDerivativeIsNamedWithItsTime) {
  auto result = lsdae(simulate_args(faulty_fmu("nan GetContinuousStateDerivatives 0.5")));
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "re:the FMU returned NaN for der\\(x\\) \\(from fmi3GetContinuousStateDerivatives\\) "
                               "at t = 0\\.5"));
  EXPECT_FALSE(Mentions(result, "raise --max-steps"));
  expect_rows_kept(result, 6, 6);  // 0 ... 0.4 and the row before the event at t = 0.5
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(IsolationTest, DiscardForeverNamesTheFunctionAndTheCount) {
  auto result = lsdae(simulate_args(faulty_fmu("discard GetFloat64 0.55", Form::dae)));
  ASSERT_TRUE(ExitedWith(result, 7));
  EXPECT_TRUE(Mentions(result, "re:fmi3GetFloat64 \\(instance \"lsdae\"\\) returned fmi3Discard [0-9]+ times since "
                               "t = 0\\.5 \\(the last at t = 0\\.5[0-9]*\\)"));
  EXPECT_FALSE(Mentions(result, "raise --max-steps"));
  expect_rows_kept(result, 7, 7);  // 0 ... 0.5, with two rows at the event at t = 0.5
  EXPECT_TRUE(leftovers().empty());
}

// ---- stdout --------------------------------------------------------------------------

TEST_F(IsolationTest, WhatTheFmuPrintsNeverMixesWithResultsOnStdout) {
  for (const char* isolation : {"--call-timeout=60", "--no-isolate"}) {
    auto result = lsdae({"simulate", faulty_fmu("print GetFloat64 0 30").string(), "-o", "-", isolation});
    ASSERT_TRUE(ExitedWith(result, 0)) << isolation;
    auto rows = lines(result.out);
    ASSERT_EQ(rows.size(), 13u) << isolation << ": only the header and the rows on stdout:\n" << result.out;
    EXPECT_EQ(rows[0], "time,x,y");
    EXPECT_TRUE(AllRowsComplete(result.out)) << isolation;
    EXPECT_NE(result.err.find("faulty FMU chatter"), std::string::npos) << isolation << ": the chatter goes to stderr";
    EXPECT_TRUE(leftovers().empty());
  }
}

// ---- signals -------------------------------------------------------------------------

std::string signal_name(int signo) {
  return signo == SIGINT ? "SIGINT" : signo == SIGTERM ? "SIGTERM" : "SIGHUP";
}

class SignalDuringCallTest : public IsolationTest, public ::testing::WithParamInterface<int> {
 protected:
  // Starts `lsdae simulate` on `fault` and waits until the FMU is inside the faulty call.
  std::unique_ptr<ChildProcess> start_and_wait(const std::string& fault, std::vector<std::string> extra = {}) {
    const fs::path ready = work_ / "ready";
    std::vector<std::string> argv{LSDAE_BINARY};
    for (auto& a : simulate_args(faulty_fmu(fault), extra)) argv.push_back(a);
    auto child = std::make_unique<ChildProcess>(
        argv, std::map<std::string, std::string>{{"TMPDIR", tmp_.string()}, {"FAULTY_FMU_READY", ready.string()}},
        work_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!fs::exists(ready) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_TRUE(fs::exists(ready)) << "the FMU never reached the faulty call";
    return child;
  }
};

TEST_P(SignalDuringCallTest, StopsAHangingCallAndCleansUp) {
  const int signo = GetParam();
  auto child = start_and_wait("hang UpdateDiscreteStates 0.4");
  EXPECT_EQ(leftovers().size(), 2u) << "the extraction folder and the child's TMPDIR exist while the FMU runs";
  child->send(signo);
  ProcessResult result = child->wait(std::chrono::seconds(30));
  ASSERT_TRUE(ExitedWith(result, 130));
  EXPECT_TRUE(Mentions(result, "lsdae: faulty.fmu: interrupted by " + signal_name(signo) +
                                   " (" + strsignal(signo) + ") in fmi3UpdateDiscreteStates (instance \"lsdae\", t = "
                                   "0.5); the call did not return, so the process running the FMU was stopped"));
  expect_rows_kept(result, 6, 6);
  EXPECT_TRUE(JsonReader::parse(read_text(stats_file()))["interrupted"].boolean);
  EXPECT_TRUE(leftovers().empty()) << "the extraction folder must be removed";
}

TEST_P(SignalDuringCallTest, IsHonouredDuringTheLastOutputInterval) {
  const int signo = GetParam();
  // Output points 0, 0.25, 0.5, 0.75, 1; from t = 0.75 on every derivative
  // takes 20 ms. Signal once the row for t = 0.75 is written.
  auto child = start_and_wait("slow GetContinuousStateDerivatives 0.75 20", {"--output-interval", "0.25"});
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (lines(read_text(csv_file())).size() < 6 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_EQ(lines(read_text(csv_file())).size(), 6u) << "the header and the rows up to t = 0.75";
  child->send(signo);
  ProcessResult result = child->wait(std::chrono::seconds(30));
  ASSERT_TRUE(ExitedWith(result, 130)) << "a stop in the last interval must not end with exit 0";
  EXPECT_TRUE(Mentions(result, "re:lsdae: (interrupted at t = |faulty.fmu: interrupted by " + signal_name(signo) +
                                   ")"));
  // The rows 0 ... 0.75 and the row just before the event at t = 0.5; t = 1 too if the interval was finished.
  const std::size_t rows = lines(read_text(csv_file())).size() - 1;
  EXPECT_TRUE(rows == 5 || rows == 6) << rows;
  EXPECT_TRUE(AllRowsComplete(read_text(csv_file())));
  Json stats = JsonReader::parse(read_text(stats_file()));
  EXPECT_TRUE(stats["interrupted"].boolean);
  EXPECT_EQ(stats["rows_written"].number, static_cast<double>(rows));
  EXPECT_TRUE(leftovers().empty());
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalDuringCallTest, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& param) { return signal_name(param.param); });

TEST_F(SignalDuringCallTest, TwoSignalsStopAtOnce) {
  auto child = start_and_wait("hang UpdateDiscreteStates 0.4");
  const auto sent = std::chrono::steady_clock::now();
  child->send(SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  child->send(SIGINT);
  ProcessResult result = child->wait(std::chrono::seconds(30));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  ASSERT_TRUE(ExitedWith(result, 130));
  EXPECT_LT(seconds, 1.5) << "the second signal must not wait for the grace period";
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SignalDuringCallTest, WithoutIsolationTwoSignalsEndTheProcessAndCleanUp) {
  auto child = start_and_wait("hang UpdateDiscreteStates 0.4", {"--no-isolate"});
  child->send(SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  child->send(SIGTERM);
  ProcessResult result = child->wait(std::chrono::seconds(30));
  ASSERT_TRUE(ExitedWith(result, 130));
  EXPECT_TRUE(Mentions(result, "a second stop signal: ending at once"));
  EXPECT_TRUE(leftovers().empty()) << "the extraction folder must be removed";
}

// ---- the C interface: lsdae_run_isolated ------------------------------------------------

// The work of a C program: open, simulate to the stop time reading y at each output point.
struct CWork {
  std::string fmu;
  int rows = 0;
};

int c_body(void* user) {
  auto* work = static_cast<CWork*>(user);
  lsdae_simulation* sim = nullptr;
  lsdae_status status = lsdae_open(work->fmu.c_str(), nullptr, &sim);
  if (status != LSDAE_OK) return status;
  status = lsdae_initialize(sim);
  for (int k = 1; status == LSDAE_OK && k <= 10 && !lsdae_stop_requested(); ++k) {
    double y = 0;
    status = lsdae_advance_to(sim, 0.1 * k, nullptr);
    if (status == LSDAE_OK) status = lsdae_get(sim, "y", &y);
    ++work->rows;
  }
  lsdae_free(sim);
  return status;
}

// TMPDIR pointed at the test's folder for the duration (the child's folders land there).
class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const fs::path& dir) {
    if (const char* old = std::getenv("TMPDIR")) old_ = old;
    setenv("TMPDIR", dir.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (old_) setenv("TMPDIR", old_->c_str(), 1);
    else unsetenv("TMPDIR");
  }

 private:
  std::optional<std::string> old_;
};

TEST_F(IsolationTest, TheCInterfaceRunsWorkInAWatchedChild) {
  ScopedTmpdir tmpdir(tmp_);
  CWork good{faulty_fmu("none GetFloat64").string()};
  EXPECT_EQ(lsdae_run_isolated(c_body, &good, nullptr), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(good.rows, 0) << "the child's memory does not come back";

  CWork crash{faulty_fmu("segv GetFloat64 0.5").string()};
  EXPECT_EQ(lsdae_run_isolated(c_body, &crash, nullptr), LSDAE_ERR_FMU_CRASH);
  const std::string message = lsdae_last_error(nullptr);
  EXPECT_NE(message.find("the FMU crashed in fmi3GetFloat64 (instance \"lsdae\", t = 0.5)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("SIGSEGV"), std::string::npos) << message;
  EXPECT_TRUE(leftovers().empty()) << "the child unpacked the FMU: its folder must be gone";

  lsdae_isolation isolation;
  lsdae_isolation_init(&isolation);
  isolation.call_timeout = 0.5;
  CWork hang{faulty_fmu("hang UpdateDiscreteStates 0.4").string()};
  EXPECT_EQ(lsdae_run_isolated(c_body, &hang, &isolation), LSDAE_ERR_TIMEOUT);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("fmi3UpdateDiscreteStates"), std::string::npos);
  EXPECT_TRUE(leftovers().empty());

  CWork failing{(work_ / "missing.fmu").string()};
  EXPECT_EQ(lsdae_run_isolated(c_body, &failing, nullptr), LSDAE_ERR_USAGE) << "the body's own status";
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("missing.fmu"), std::string::npos)
      << "the message of the call that failed in the child comes back: " << lsdae_last_error(nullptr);

  // A status the body makes up itself (no call failed): the status, no message.
  auto interrupted = [](void*) { return static_cast<int>(LSDAE_ERR_INTERRUPTED); };
  EXPECT_EQ(lsdae_run_isolated(interrupted, nullptr, nullptr), LSDAE_ERR_INTERRUPTED)
      << "130 is a status too: " << lsdae_last_error(nullptr);
  auto solver = [](void*) { return static_cast<int>(LSDAE_ERR_SOLVER); };
  EXPECT_EQ(lsdae_run_isolated(solver, nullptr, nullptr), LSDAE_ERR_SOLVER);
  EXPECT_STREQ(lsdae_last_error(nullptr), "");

  isolation.call_timeout = -1;
  EXPECT_EQ(lsdae_run_isolated(c_body, &good, &isolation), LSDAE_ERR_USAGE);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("isolation.call_timeout"), std::string::npos);
}

}  // namespace
}  // namespace lsdae::test
