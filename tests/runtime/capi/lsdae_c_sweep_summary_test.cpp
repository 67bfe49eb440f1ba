// tests/runtime/capi/lsdae_c_sweep_summary_test.cpp -- runtime/capi/lsdae_c_sweep.cpp:
// lsdae_sweep's summary file, written and resumed as `lsdae sweep --summary`
// does it (sweep/summary_file.h): HDF5 for a .h5 name, read back with
// sweep::read_summary and equal to the CSV rows of the same sweep; resume
// (spec->resume = 1) skips the ids already in the file, CSV or HDF5, and runs
// the rest, also after the sweep was killed; a summary of other metrics, or
// not a summary, or a summary named like the scenario table, is refused.
//
// The model is BouncingBall_ode (a state event per bounce) swept over its
// restitution e and drop height h; a row that fails (a value that is not a
// number) and one that stops early (v < -5: the higher drop) are among them.
#include "lsdae/lsdae.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "catalog.h"
#include "lsdae/error.h"
#include "sweep/summary_file.h"

namespace {

namespace fs = std::filesystem;
using lsdae::sweep::Status;
using lsdae::sweep::SummaryRow;

const std::vector<std::string> kMetrics = {"min:v", "tmin:v", "final:h"};

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A row as text without its wall time (it differs from run to run) and with
// "no point sampled" and "no sample a number" alike (HDF5 stores both as NaN).
std::string comparable(SummaryRow row) {
  row.wall_time = 0;
  for (auto& m : row.metrics)
    if (!m) m = std::numeric_limits<double>::quiet_NaN();
  return row.to_csv();
}

std::map<std::string, std::string> by_id(const lsdae::sweep::SummaryTable& table) {
  std::map<std::string, std::string> out;
  for (const auto& row : table.rows) EXPECT_TRUE(out.emplace(row.id, comparable(row)).second) << "id " << row.id << " twice";
  return out;
}

// lsdae's own messages, kept to count what a resumed sweep ran.
std::vector<std::string>& logged() {
  static std::vector<std::string> lines;
  return lines;
}
void keep_log(lsdae_log_level, const char* instance, const char* message, void*) {
  if (instance == nullptr) logged().emplace_back(message);
}

class SweepSummaryCApi : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("lsdae_c_sweep_summary_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    table_ = (dir_ / "drops.csv").string();
    std::ofstream(table_) << "h,e,id\n1,0.5,soft\n1,0.9,hard\n1,nope,bad\n2.5,0.7,high\n0.6,0.7,low\n";
    lsdae_options_init(&options_);
    options_.stop_time = 1.5;
    lsdae_sweep_spec_init(&spec_);
    spec_.scenarios_csv = table_.c_str();
    use_metrics(kMetrics);
    spec_.stop_when = stop_when_;
    spec_.stop_when_count = 1;
    spec_.jobs = 2;
    logged().clear();
    ASSERT_EQ(lsdae_set_log_callback(keep_log, nullptr, LSDAE_LOG_INFO), LSDAE_OK);
  }
  void TearDown() override {
    lsdae_set_log_callback(nullptr, nullptr, LSDAE_LOG_WARNING);
    fs::remove_all(dir_);
  }

  void use_metrics(const std::vector<std::string>& metrics) {
    metric_texts_ = metrics;
    metric_pointers_.clear();
    for (const auto& m : metric_texts_) metric_pointers_.push_back(m.c_str());
    spec_.metrics = metric_pointers_.data();
    spec_.metric_count = metric_pointers_.size();
  }

  lsdae_status sweep(const fs::path& summary, int resume, std::size_t* failed = nullptr) {
    summary_ = summary.string();
    spec_.summary_csv = summary_.c_str();
    spec_.resume = resume;
    return lsdae_sweep(lsdae::test::fmu_path(model_).c_str(), &options_, &spec_, failed);
  }

  // The "resuming: ..." line of the last sweep, or "".
  static std::string resume_line() {
    for (const auto& line : logged())
      if (line.find("resuming:") != std::string::npos) return line;
    return {};
  }

  // A summary that already holds `soft` and `hard` with made-up values no
  // run gives (a rerun would replace them by real ones, or add a second row).
  static void write_two_finished(const fs::path& path) {
    auto file = lsdae::sweep::open_summary(path, kMetrics, false, "BouncingBall");
    for (const char* id : {"soft", "hard"}) {
      SummaryRow row;
      row.id = id;
      row.status = Status::ok;
      row.reached_time = 1.5;
      row.steps = 4242;
      row.wall_time = 0.125;
      row.metrics = {-12345.0, 0.5, 42.0};
      file->append(row);
    }
  }

  fs::path dir_;
  std::string model_ = "BouncingBall_ode", table_, summary_;
  lsdae_options options_{};
  lsdae_sweep_spec spec_{};
  const char* stop_when_[1] = {"v < -5"};
  std::vector<std::string> metric_texts_;
  std::vector<const char*> metric_pointers_;
};

TEST_F(SweepSummaryCApi, WritesHdf5EqualToTheCsvOfTheSameSweep) {
  std::size_t failed = 99;
  ASSERT_EQ(sweep(dir_ / "s.csv", 0, &failed), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(failed, 1u);
  failed = 99;
  ASSERT_EQ(sweep(dir_ / "s.H5", 0, &failed), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(read_bytes(dir_ / "s.H5").substr(0, 8), std::string("\x89HDF\r\n\x1a\n", 8)) << "the HDF5 signature";

  const auto csv = lsdae::sweep::read_summary(dir_ / "s.csv");
  const auto h5 = lsdae::sweep::read_summary(dir_ / "s.H5");
  EXPECT_EQ(h5.columns, csv.columns);
  EXPECT_EQ(h5.columns, lsdae::sweep::summary_header(kMetrics));
  const auto csv_rows = by_id(csv), h5_rows = by_id(h5);
  EXPECT_EQ(csv_rows.size(), 5u);
  EXPECT_EQ(h5_rows, csv_rows);
  // The rows are what the table asks for: one failed, one stopped early.
  std::map<std::string, Status> status;
  for (const auto& row : h5.rows) status[row.id] = row.status;
  EXPECT_EQ(status["bad"], Status::failed);
  EXPECT_EQ(status["high"], Status::stopped_early);
  EXPECT_EQ(status["soft"], Status::ok);
  for (const auto& row : h5.rows) {
    if (row.id == "bad") {
      EXPECT_NE(row.message.find("nope"), std::string::npos) << row.message;
    } else {
      ASSERT_EQ(row.metrics.size(), 3u);
      EXPECT_LT(*row.metrics[0], -3.0) << row.id << ": the ball falls";
      EXPECT_GT(row.wall_time, 0.0);
    }
  }
}

TEST_F(SweepSummaryCApi, ResumeSkipsTheScenariosInTheFile) {
  for (const char* name : {"part.csv", "part.hdf5"}) {
    SCOPED_TRACE(name);
    const fs::path path = dir_ / name;
    write_two_finished(path);
    if (lsdae::sweep::summary_format_for(path) == lsdae::sweep::SummaryFormat::csv)
      std::ofstream(path, std::ios::app) << "high,ok,,1.5,3";  // a row a kill cut short: dropped, run again
    logged().clear();
    std::size_t failed = 99;
    ASSERT_EQ(sweep(path, 1, &failed), LSDAE_OK) << lsdae_last_error(nullptr);
    EXPECT_EQ(failed, 1u) << "bad, run by this call";
    EXPECT_NE(resume_line().find("2 scenarios already in " + path.string() + ", 3 to run"), std::string::npos)
        << resume_line();
    const auto table = lsdae::sweep::read_summary(path);
    ASSERT_EQ(table.rows.size(), 5u);
    std::set<std::string> ids;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
      const SummaryRow& row = table.rows[r];
      EXPECT_TRUE(ids.insert(row.id).second) << row.id << " twice";
      const bool kept = row.id == "soft" || row.id == "hard";
      EXPECT_EQ(kept, r < 2) << row.id << ": the rows of the file first, in their order";
      if (kept) {
        EXPECT_EQ(row.steps, 4242) << row.id << " was run again";
        EXPECT_EQ(*row.metrics[0], -12345.0);
      } else if (row.id != "bad") {
        EXPECT_NE(row.steps, 4242);
        EXPECT_GT(*row.metrics[0], -100.0);
      }
    }
    EXPECT_EQ(ids, (std::set<std::string>{"soft", "hard", "bad", "high", "low"}));

    // Everything is there now: nothing runs, nothing is added.
    const std::string before = read_bytes(path);
    logged().clear();
    failed = 99;
    ASSERT_EQ(sweep(path, 1, &failed), LSDAE_OK) << lsdae_last_error(nullptr);
    EXPECT_EQ(failed, 0u);
    EXPECT_NE(resume_line().find("5 scenarios already in " + path.string() + ", 0 to run"), std::string::npos)
        << resume_line();
    EXPECT_EQ(lsdae::sweep::read_summary(path).rows.size(), 5u);
    if (lsdae::sweep::summary_format_for(path) == lsdae::sweep::SummaryFormat::csv) {
      EXPECT_EQ(read_bytes(path), before);
    }

    // resume = 0 (lsdae_sweep_spec_init's) starts the file again.
    ASSERT_EQ(sweep(path, 0, &failed), LSDAE_OK) << lsdae_last_error(nullptr);
    for (const auto& row : lsdae::sweep::read_summary(path).rows) EXPECT_NE(row.steps, 4242) << row.id;
  }
}

// A pipeline killed in the middle of lsdae_sweep (SIGKILL: no clean-up at
// all) leaves the rows that had finished, readable; resume = 1 runs the rest
// and the file ends as the uninterrupted sweep's. The sweep runs in a child
// of this test (fork, then lsdae_sweep, as a pipeline would call it). The
// model is HelloWorld_ode (x' = 1.4x, a few milliseconds per scenario with
// a fine output grid): smooth, so no draw can make a scenario slow.
TEST_F(SweepSummaryCApi, AKilledSweepKeepsItsRowsAndResumes) {
  constexpr std::size_t kDraws = 400;
  const char* draws[] = {"x=uniform(0.5,2)"};
  model_ = "HelloWorld_ode";
  use_metrics({"final:x", "tmax:y", "min:z"});
  spec_.scenarios_csv = nullptr;
  spec_.stop_when_count = 0;
  spec_.monte_carlo = kDraws;
  spec_.draws = draws;
  spec_.draw_count = 1;
  spec_.seed = 20;
  spec_.jobs = 1;
  options_.stop_time = 1;
  options_.rtol = 1e-10;
  options_.output_interval = 0.0005;
  for (const char* name : {"part.h5", "part.csv"}) {
    SCOPED_TRACE(name);
    ASSERT_EQ(sweep(dir_ / (std::string("full-") + name), 0), LSDAE_OK) << lsdae_last_error(nullptr);
    const auto expected = by_id(lsdae::sweep::read_summary(dir_ / (std::string("full-") + name)));
    ASSERT_EQ(expected.size(), kDraws);

    const fs::path part = dir_ / name;
    summary_ = part.string();
    spec_.summary_csv = summary_.c_str();
    spec_.resume = 0;
    // A process killed with SIGKILL cannot remove its unpacked FMU: the
    // child unpacks it in this test's folder (removed at the end), not /tmp.
    const fs::path scratch = dir_ / (std::string("tmp-") + name);
    fs::create_directories(scratch);
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      ::setenv("TMPDIR", scratch.c_str(), 1);
      _exit(lsdae_sweep(lsdae::test::fmu_path(model_).c_str(), &options_, &spec_, nullptr));
    }
    std::size_t rows = 0;
    bool ended_first = false;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (rows < 3 && std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (::waitpid(child, &status, WNOHANG) == child) {
        ended_first = true;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      try {
        rows = lsdae::sweep::read_summary(part).rows.size();
      } catch (const lsdae::Error&) {
        rows = 0;  // not there yet, or met in the middle of a flush
      }
    }
    if (!ended_first) {
      ::kill(child, SIGKILL);
      int status = 0;
      ::waitpid(child, &status, 0);
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << status;
    }
    ASSERT_FALSE(ended_first) << "the sweep ended before it could be killed";
    ASSERT_GE(rows, 3u) << "no rows within 120 s";
    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(scratch)) left.push_back(entry.path().filename().string().substr(0, 6));
    EXPECT_EQ(left, std::vector<std::string>{"lsdae-"}) << "the killed sweep's unpacked FMU, and only it";

    const auto kept = by_id(lsdae::sweep::read_summary(part));
    ASSERT_GE(kept.size(), 3u);
    ASSERT_LT(kept.size(), kDraws) << "the kill came after the end: nothing to resume";
    for (const auto& [id, row] : kept) EXPECT_EQ(row, expected.at(id)) << id;

    logged().clear();
    std::size_t failed = 99;
    ASSERT_EQ(sweep(part, 1, &failed), LSDAE_OK) << lsdae_last_error(nullptr);
    EXPECT_EQ(failed, 0u);
    EXPECT_NE(resume_line().find(std::to_string(kept.size()) + " scenarios already in " + part.string() + ", " +
                                 std::to_string(kDraws - kept.size()) + " to run"),
              std::string::npos)
        << resume_line();
    EXPECT_EQ(by_id(lsdae::sweep::read_summary(part)), expected);
  }
}

TEST_F(SweepSummaryCApi, ResumeOfAMissingFileStartsIt) {
  std::size_t failed = 99;
  ASSERT_EQ(sweep(dir_ / "new.h5", 1, &failed), LSDAE_OK) << lsdae_last_error(nullptr);
  EXPECT_EQ(failed, 1u);
  EXPECT_EQ(lsdae::sweep::read_summary(dir_ / "new.h5").rows.size(), 5u);
  EXPECT_EQ(resume_line(), "");
}

TEST_F(SweepSummaryCApi, RefusesToResumeASummaryOfOtherMetrics) {
  for (const char* name : {"other.csv", "other.h5"}) {
    SCOPED_TRACE(name);
    const fs::path path = dir_ / name;
    write_two_finished(path);
    if (lsdae::sweep::summary_format_for(path) == lsdae::sweep::SummaryFormat::csv)
      std::ofstream(path, std::ios::app) << "high,ok,,1.5";  // a row a kill cut short: kept, as all the rest
    const std::string before = read_bytes(path);
    use_metrics({"min:v", "max:h"});
    EXPECT_EQ(sweep(path, 1), LSDAE_ERR_USAGE);
    const std::string message = lsdae_last_error(nullptr);
    EXPECT_EQ(message.rfind("lsdae_sweep: spec->resume: \"" + path.string() + "\" has the columns "
                            "id,status,message,reached_time,steps,wall_time_s,min:v,tmin:v,final:h, this sweep "
                            "writes id,status,message,reached_time,steps,wall_time_s,min:v,max:h → resume with the "
                            "same spec->metrics, or give another spec->summary_csv", 0),
              0u)
        << message;
    EXPECT_EQ(read_bytes(path), before) << "a refused resume leaves the file as it was";
    use_metrics(kMetrics);
  }
}

// A new summary (resume 0) named like the scenario table replaced it and
// returned LSDAE_OK: refused before anything is written, as `lsdae sweep
// --summary` is (runtime/common/output_clash.h).
TEST_F(SweepSummaryCApi, RefusesASummaryOverItsOwnTable) {
  const std::string before = read_bytes(table_);
  EXPECT_EQ(sweep(dir_ / "." / "drops.csv", 0), LSDAE_ERR_USAGE);
  EXPECT_NE(std::string(lsdae_last_error(nullptr))
                .find("lsdae_sweep: spec->summary_csv \"" + (dir_ / "." / "drops.csv").string() +
                      "\": this is the table of spec->scenarios_csv; writing there would destroy it"),
            std::string::npos)
      << lsdae_last_error(nullptr);
  EXPECT_EQ(read_bytes(table_), before);
}

TEST_F(SweepSummaryCApi, RefusesToResumeWhatIsNotASummary) {
  // CSV text under an HDF5 name: not HDF5 at all.
  std::ofstream(dir_ / "text.h5") << "id,status\n";
  EXPECT_EQ(sweep(dir_ / "text.h5", 1), LSDAE_ERR_OUTPUT);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("lsdae_sweep: spec->resume: \"" + (dir_ / "text.h5").string() +
                                                        "\" cannot be opened as HDF5"),
            std::string::npos)
      << lsdae_last_error(nullptr);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("set spec->resume = 0 to start it again"), std::string::npos);
  // A CSV file of other columns.
  std::ofstream(dir_ / "other.csv") << "name,value\na,1\n";
  EXPECT_EQ(sweep(dir_ / "other.csv", 1), LSDAE_ERR_USAGE);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("has the columns name,value"), std::string::npos)
      << lsdae_last_error(nullptr);
  // Neither 0 nor 1.
  EXPECT_EQ(sweep(dir_ / "s.csv", 2), LSDAE_ERR_USAGE);
  EXPECT_NE(std::string(lsdae_last_error(nullptr)).find("spec->resume is 2 → give 0"), std::string::npos)
      << lsdae_last_error(nullptr);
  EXPECT_FALSE(fs::exists(dir_ / "s.csv")) << "nothing written for a refused spec";
}

TEST_F(SweepSummaryCApi, ReadSummaryRefusesWhatIsNotASummary) {
  std::ofstream(dir_ / "t.csv") << "time,x\n0,1\n";
  try {
    lsdae::sweep::read_summary(dir_ / "t.csv");
    ADD_FAILURE() << "a result table read as a summary";
  } catch (const lsdae::Error& e) {
    EXPECT_EQ(e.kind(), lsdae::ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("its columns are time,x"), std::string::npos) << e.what();
  }
  EXPECT_THROW(lsdae::sweep::read_summary(dir_ / "none.h5"), lsdae::Error);
}

}  // namespace
