// tests/runtime/sweep/sweep_mpi_cli_test.cpp -- `lsdae sweep` under mpirun as
// a cluster user runs it (built only when MPI was found; every test runs
// mpirun, RUN_SERIAL).
//
// - A Monte Carlo sweep over HelloWorld (x' = 1.4x, x(0) drawn: every outcome
//   is its own draw times e^0.7) gives the same rows, but for the wall time,
//   without mpirun, with --jobs 2, and under mpirun -np 1, 2 and 3: the seed
//   decides the draws, not the rank that runs them.
// - Reuse under MPI, counted: each rank keeps one model for its scenarios
//   (the summary line's "models made" and per-rank counts), --no-reuse makes
//   one per scenario.
// - A scenario whose FMU crashes (the hand-written faulty FMU of
//   tests/runtime/cli, SIGSEGV in fmi3SetFloat64, which only the scenario
//   that sets k calls) is a failed row under MPI; the other scenarios run,
//   on a new worker process, and no rank dies.
// - A stop signal to mpirun keeps the rows written so far and leaves no
//   temporary folder behind.
#include <gtest/gtest.h>
#include <signal.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include "broken_fmus.h"
#include "cli_fixture.h"
#include "summary_rows.h"
#include "sweep/csv_line.h"
#include "sweep/scenario_sources.h"

namespace lsdae::test {
namespace {

std::filesystem::path hello_fmu() { return std::filesystem::path(LSDAE_FMU_DIR) / "HelloWorld_ode.fmu"; }

struct ReuseLine {
  long models = -1, scenarios = -1, processes = -1;
  std::map<int, std::pair<long, long>> per_rank;  // rank → (scenarios, models)
};

// "lsdae: sweep: 3 models made for 60 scenarios in 3 worker processes (rank 0: 20 on 1 model, ...)"
ReuseLine reuse_line(const ProcessResult& r) {
  ReuseLine line;
  std::smatch m;
  const std::string err = r.err;
  if (std::regex_search(err, m, std::regex(R"(sweep: (\d+) models? made for (\d+) scenarios? in (\d+) worker process)"))) {
    line.models = std::stol(m[1]);
    line.scenarios = std::stol(m[2]);
    line.processes = std::stol(m[3]);
  }
  const std::regex rank(R"(rank (\d+): (\d+) on (\d+) models?)");
  for (auto it = std::sregex_iterator(err.begin(), err.end(), rank); it != std::sregex_iterator(); ++it)
    line.per_rank[std::stoi((*it)[1])] = {std::stol((*it)[2]), std::stol((*it)[3])};
  return line;
}

class SweepMpi : public CliTest {
 protected:
  std::vector<std::string> mpirun(int ranks) {
    return {LSDAE_MPIEXEC, "--oversubscribe", "--allow-run-as-root", "-np", std::to_string(ranks), LSDAE_BINARY};
  }
  // `lsdae args` under `launcher` (empty: no mpirun).
  ProcessResult run(std::vector<std::string> launcher, const std::vector<std::string>& args,
                    std::chrono::seconds timeout = std::chrono::seconds(300)) {
    if (launcher.empty()) launcher.push_back(LSDAE_BINARY);
    launcher.insert(launcher.end(), args.begin(), args.end());
    std::map<std::string, std::string> env{{"TMPDIR", tmp_.string()}};
#if defined(__SANITIZE_ADDRESS__)
    // Open MPI 4.1 leaves its own allocations at MPI_Finalize, in MCA
    // components it has dlclose()d (no suppression can name them): leak
    // checking is off for the programs under mpirun, as for the other MPI
    // tests (tests/runtime/sweep/CMakeLists.txt). The test's ENVIRONMENT
    // property does not reach processes started here, so it is said here.
    env["ASAN_OPTIONS"] = "detect_leaks=0";
#endif
    return run_process(launcher, env, work_, timeout);
  }
};

TEST_F(SweepMpi, MonteCarloRowsAreTheSameOnEveryRankCount) {
  const std::vector<std::string> mc{"sweep",    hello_fmu().string(), "--monte-carlo", "60", "--draw", "x=uniform(1,2)",
                                    "--seed",   "5",                  "--stop",        "0.5", "--metric", "final:x",
                                    "--no-progress"};
  auto sweep = [&](const std::vector<std::string>& launcher, std::vector<std::string> extra, const std::string& name) {
    std::vector<std::string> args = mc;
    args.insert(args.end(), extra.begin(), extra.end());
    args.insert(args.end(), {"--summary", (work_ / name).string()});
    const ProcessResult r = run(launcher, args);
    EXPECT_TRUE(ExitedWith(r, 0)) << name;
    return std::make_pair(rows_by_id(work_ / name), r);
  };
  const auto [alone, alone_run] = sweep({}, {}, "alone.csv");
  ASSERT_EQ(alone.size(), 60u);
  EXPECT_EQ(sweep({}, {"--jobs", "2"}, "jobs2.csv").first, alone);
  EXPECT_EQ(sweep(mpirun(1), {}, "np1.csv").first, alone);
  EXPECT_EQ(sweep(mpirun(2), {}, "np2.csv").first, alone);
  const auto [np3, np3_run] = sweep(mpirun(3), {}, "np3.csv");
  EXPECT_EQ(np3, alone);

  // The draws are the seed's: x(0.5) = x0·e^0.7 with x0 scenario k's draw.
  const std::vector<sweep::Draw> draws{sweep::parse_draw("x=uniform(1,2)")};
  for (const auto& [id, row] : alone) {
    const double x0 = sweep::monte_carlo_values(draws, std::stoi(id), 5)[0];
    EXPECT_NEAR(std::stod(row[6]) / std::exp(0.7), x0, 1e-4 * x0) << "scenario " << id;
  }

  // Reuse under MPI: one model per rank that got work (each rank's worker
  // kept it), 60 scenarios in all. The scenarios are short: on a busy
  // machine a rank may get none (then it made no model and no process).
  const ReuseLine three = reuse_line(np3_run);
  EXPECT_EQ(three.scenarios, 60) << np3_run.err;
  ASSERT_EQ(three.per_rank.size(), 3u) << np3_run.err;
  long total = 0, ranks_with_work = 0;
  for (const auto& [rank, counts] : three.per_rank) {
    EXPECT_EQ(counts.second, counts.first > 0 ? 1 : 0) << "rank " << rank << ": " << np3_run.err;
    total += counts.first;
    ranks_with_work += counts.first > 0 ? 1 : 0;
  }
  EXPECT_EQ(total, 60);
  EXPECT_GE(ranks_with_work, 1);
  EXPECT_EQ(three.models, ranks_with_work) << np3_run.err;
  EXPECT_EQ(three.processes, ranks_with_work) << np3_run.err;
  const ReuseLine one = reuse_line(alone_run);
  EXPECT_EQ(one.models, 1) << alone_run.err;
  EXPECT_EQ(one.scenarios, 60) << alone_run.err;
}

// A system of FMUs swept under MPI: the rows of the seed-003 masses equal
// the one-process sweep's, and an HDF5 summary written by rank 0 holds every
// row (a resume from it finds nothing left to run).
TEST_F(SweepMpi, ASystemSweepsUnderMpiIntoCsvAndHdf5Summaries) {
  const std::string system = (std::filesystem::path(LSDAE_SYSTEM_DIR) / "coupled_masses.ssp").string();
  const std::vector<std::string> grid{"sweep", system, "--grid", "mass1.F0=0.5,1,1.5,2,2.5,3", "--stop", "1",
                                      "--metric", "max:mass1.s", "--metric", "final:mass2.F", "--no-progress"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = grid;
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
  };
  ASSERT_TRUE(ExitedWith(run({}, with({"--summary", (work_ / "alone.csv").string()})), 0));
  const ProcessResult np2 = run(mpirun(2), with({"--summary", (work_ / "np2.csv").string()}));
  ASSERT_TRUE(ExitedWith(np2, 0)) << np2.err;
  const auto alone = rows_by_id(work_ / "alone.csv");
  ASSERT_EQ(alone.size(), 6u);
  EXPECT_EQ(rows_by_id(work_ / "np2.csv"), alone);
  // One model per rank that got work (scenarios this short may all go to
  // one rank on a busy machine).
  const ReuseLine line = reuse_line(np2);
  EXPECT_EQ(line.scenarios, 6) << np2.err;
  for (const auto& [rank, counts] : line.per_rank)
    EXPECT_EQ(counts.second, counts.first > 0 ? 1 : 0) << "rank " << rank << ": " << np2.err;

  const ProcessResult h5 = run(mpirun(2), with({"--summary", (work_ / "np2.h5").string()}));
  ASSERT_TRUE(ExitedWith(h5, 0)) << h5.err;
  const ProcessResult resumed = run({}, with({"--summary", (work_ / "np2.h5").string(), "--resume"}));
  ASSERT_TRUE(ExitedWith(resumed, 0)) << resumed.err;
  EXPECT_TRUE(Mentions(resumed, "re:resuming: 6 scenarios already in [^ ]*np2\\.h5, 0 to run")) << resumed.err;
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SweepMpi, NoReuseMakesAModelPerScenarioUnderMpi) {
  const ProcessResult r =
      run(mpirun(2), {"sweep", hello_fmu().string(), "--grid", "x=1,1.5,2,2.5,3,3.5,4,4.5", "--stop", "0.2", "--metric",
                      "final:x", "--no-reuse", "--no-progress", "--summary", (work_ / "fresh.csv").string()});
  ASSERT_TRUE(ExitedWith(r, 0));
  const ReuseLine line = reuse_line(r);
  EXPECT_EQ(line.scenarios, 8) << r.err;
  EXPECT_EQ(line.models, 8) << r.err;
  // One worker process per rank that got work, kept; the scenarios are short,
  // so on a busy machine rank 0 may run them all before rank 1 asks.
  long ranks_with_work = 0;
  for (const auto& [rank, counts] : line.per_rank) ranks_with_work += counts.first > 0 ? 1 : 0;
  EXPECT_GE(ranks_with_work, 1) << r.err;
  EXPECT_EQ(line.processes, ranks_with_work) << "one worker process per rank that got work, kept: " << r.err;
  EXPECT_EQ(rows_by_id(work_ / "fresh.csv").size(), 8u);
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SweepMpi, ACrashingScenarioIsAFailedRowAndTheOthersRun) {
  FmuImage image;
  image.put("modelDescription.xml", kFaultyOdeDescription);
  image.put(binary_member("Faulty"), read_file(LSDAE_FAULTY_FMU), true);
  image.put("resources/fault.txt", "segv SetFloat64\n");
  const auto fmu = work_ / "faulty.fmu";
  image.write(fmu);
  // Only "crash" sets k (an empty cell sets nothing), so only it calls fmi3SetFloat64.
  std::ofstream(work_ / "table.csv") << "id,k\na,\nb,\ncrash,2\nc,\nd,\ne,\nf,\ng,\n";
  const ProcessResult r = run(mpirun(2), {"sweep", fmu.string(), "--scenarios", (work_ / "table.csv").string(),
                                          "--metric", "max:y", "--no-progress", "--summary",
                                          (work_ / "crash.csv").string()});
  EXPECT_TRUE(ExitedWith(r, 12)) << "some scenario failed";
  const auto rows = rows_by_id(work_ / "crash.csv");
  ASSERT_EQ(rows.size(), 8u) << r.describe();
  for (const auto& [id, row] : rows) {
    if (id == "crash") {
      EXPECT_EQ(row[1], "failed");
#if defined(__SANITIZE_ADDRESS__)
      EXPECT_FALSE(row[2].empty()) << "a failed row says what happened";
#else
      EXPECT_NE(row[2].find("killed by signal 11"), std::string::npos) << row[2];
#endif
    } else {
      EXPECT_EQ(row[1], "ok") << id << ": " << row[2];
      EXPECT_NEAR(std::stod(row[6]), 2.0, 1e-9) << id;  // max of y = 2x, x(0) = 1 decaying
    }
  }
  // Both ranks lived: every rank reported; the crashed worker was replaced
  // (or the crash was its rank's last scenario), never once per scenario.
  const ReuseLine line = reuse_line(r);
  EXPECT_EQ(line.per_rank.size(), 2u) << r.err;
  EXPECT_EQ(line.scenarios, 8) << r.err;
  EXPECT_GE(line.processes, 2) << r.err;
  EXPECT_LE(line.processes, 3) << r.err;
  EXPECT_LE(line.models, 3) << r.err;
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(SweepMpi, AStopSignalKeepsTheRowsAndTheFolderIsRemoved) {
  // 20 slow scenarios on 2 ranks: the faulty FMU sleeps 5 ms in every
  // fmi3GetContinuousStateDerivatives.
  FmuImage image;
  image.put("modelDescription.xml", kFaultyOdeDescription);
  image.put(binary_member("Faulty"), read_file(LSDAE_FAULTY_FMU), true);
  image.put("resources/fault.txt", "slow GetContinuousStateDerivatives 0 5\n");
  const auto fmu = work_ / "slow.fmu";
  image.write(fmu);
  std::vector<std::string> argv = mpirun(2);
  argv.insert(argv.end(), {"sweep", fmu.string(), "--grid", "k=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20",
                           "--metric", "max:y", "--no-progress", "--summary", (work_ / "stopped.csv").string()});
  ChildProcess child(argv, {{"TMPDIR", tmp_.string()}}, work_);
  // Wait for a few rows, then stop the job as a user's Ctrl-C would.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  std::size_t lines = 0;
  while (std::chrono::steady_clock::now() < deadline) {
    const std::string text = read_text(work_ / "stopped.csv");
    lines = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    if (lines >= 3) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_GE(lines, 3u) << "no rows came";
  child.send(SIGINT);
  const ProcessResult r = child.wait(std::chrono::seconds(60));
  EXPECT_FALSE(r.timed_out) << r.describe();
  // Rank 0 stopped handing out scenarios and said so (mpirun's own exit
  // status after a SIGINT is 1, whatever the ranks return).
  EXPECT_NE(r.exit_code, 0) << r.describe();
  EXPECT_TRUE(Mentions(r, "sweep interrupted")) << "the ranks stopped, they were not killed";
  const auto rows = rows_by_id(work_ / "stopped.csv");
  EXPECT_GE(rows.size(), 2u);
  EXPECT_LT(rows.size(), 20u) << "the sweep was stopped";
  for (const auto& [id, row] : rows) EXPECT_EQ(row[1], "ok") << id << ": " << row[2];
  // Give Open MPI's orted a moment to finish removing what it made.
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_TRUE(leftovers().empty()) << "the unpacked FMU must go with the job";
}

}  // namespace
}  // namespace lsdae::test
