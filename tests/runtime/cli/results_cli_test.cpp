// tests/runtime/cli/results_cli_test.cpp -- `lsdae simulate` result files and
// output control as a user meets them: the format follows the extension
// (or --format), an unknown one is refused before anything runs, the units
// line, and where rows go (--output-times, --output-grid log,
// --output-steps, --output-every, --output-roles, --max-rows).
// The files' contents, format by format: tests/runtime/results/.
#include <algorithm>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "cli_fixture.h"
#include "run_process.h"
#include "mini_json.h"

namespace lsdae::test {
namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
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

// The time column of a CSV result (the header skipped).
std::vector<double> times(const std::filesystem::path& csv, std::size_t header_lines = 1) {
  std::vector<double> out;
  auto rows = lines(read_text(csv));
  for (std::size_t k = header_lines; k < rows.size(); ++k) out.push_back(std::stod(rows[k].substr(0, rows[k].find(','))));
  return out;
}

class ResultsCliTest : public CliTest {
 protected:
  std::string robertson() { return catalog_entry("Robertson_semi_explicit_shapeB").fmu.string(); }
};

TEST_F(ResultsCliTest, TheFormatFollowsTheExtension) {
  const std::string fmu = catalog_entry("TimeEvent_ode").fmu.string();
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", fmu, "-o", (work_ / "r.h5").string(), "--no-progress"}), 0));
  EXPECT_EQ(read_text(work_ / "r.h5").substr(0, 8), std::string("\x89HDF\r\n\x1a\n", 8)) << "the HDF5 signature";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", fmu, "-o", (work_ / "r.MAT").string(), "--no-progress"}), 0));
  const std::string mat = read_text(work_ / "r.MAT");
  ASSERT_GT(mat.size(), 27u);
  EXPECT_EQ(mat.substr(20, 7), std::string("Aclass\0", 7)) << "a MAT v4 file starting with Aclass";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", fmu, "-o", (work_ / "r.out").string(), "--format", "hdf5"}), 0));
  EXPECT_EQ(read_text(work_ / "r.out").substr(1, 3), "HDF");
  EXPECT_TRUE(leftovers().empty());
}

TEST_F(ResultsCliTest, AnUnknownExtensionIsRefusedBeforeTheRun) {
  const std::string fmu = catalog_entry("TimeEvent_ode").fmu.string();
  { std::ofstream(work_ / "old.txt") << "keep me\n"; }
  auto result = lsdae({"simulate", fmu, "-o", (work_ / "old.txt").string()});
  ASSERT_TRUE(ExitedWith(result, 2));
  EXPECT_TRUE(Mentions(result, "\".txt\" names no result format"));
  EXPECT_TRUE(Mentions(result, "--format"));
  EXPECT_EQ(read_text(work_ / "old.txt"), "keep me\n") << "nothing was written";
  auto to_stdout = lsdae({"simulate", fmu, "-o", "-", "--format", "mat"});
  ASSERT_TRUE(ExitedWith(to_stdout, 2));
  EXPECT_TRUE(Mentions(to_stdout, "standard output"));
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", fmu, "-o", (work_ / "r.csv").string(), "--format", "xlsx"}), 2));
}

TEST_F(ResultsCliTest, CsvUnitsLine) {
  auto csv = work_ / "u.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "-o", csv.string(), "--csv-units", "--all"}), 0));
  auto rows = lines(read_text(csv));
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(rows[1].substr(0, 2), "s,") << "time is in seconds";
  EXPECT_EQ(std::count(rows[1].begin(), rows[1].end(), ','), std::count(rows[0].begin(), rows[0].end(), ','))
      << "one unit per column";
}

// --csv-events: the column after time marks the rows around each bounce
// (1 then 2, at the same time); without it the file has no such column.
TEST_F(ResultsCliTest, CsvEventColumn) {
  const auto ball = catalog_entry("BouncingBall_ode").fmu.string();
  auto csv = work_ / "e.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball, "--stop", "3", "-o", csv.string(), "--csv-events"}), 0));
  auto rows = lines(read_text(csv));
  ASSERT_GE(rows.size(), 3u);
  EXPECT_EQ(rows[0].rfind("time,event,", 0), 0u) << rows[0];
  std::size_t before = 0, after = 0;
  for (std::size_t k = 1; k < rows.size(); ++k) {
    const auto fields = rows[k].substr(0, rows[k].find(',', rows[k].find(',') + 1));
    const std::string mark = fields.substr(fields.find(',') + 1);
    if (mark == "1") {
      ++before;
      ASSERT_LT(k + 1, rows.size());
      EXPECT_EQ(rows[k + 1].substr(0, rows[k + 1].find(',')), rows[k].substr(0, rows[k].find(',')))
          << "the row after has the same time";
      EXPECT_EQ(rows[k + 1].substr(rows[k + 1].find(',') + 1, 2), "2,");
    }
    if (mark == "2") ++after;
  }
  EXPECT_GT(before, 0u) << "the ball bounces";
  EXPECT_EQ(before, after);
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", ball, "--stop", "3", "-o", csv.string()}), 0));
  EXPECT_EQ(lines(read_text(csv))[0].find("event"), std::string::npos) << "opt-in";
}

// A file-size limit hit while the HDF5 writer thread writes: exit 9 with
// the message naming the file and what to do. (The crash of libhdf5's
// at-exit clean-up after such a failure: results_test.cpp,
// Hdf5WriterThreadFailureIsAnOutputError.)
TEST_F(ResultsCliTest, Hdf5FileSizeLimitIsAnOutputErrorNotACrash) {
  const auto h5 = work_ / "limited.h5";
  // Room for the FMU's largest file (its binary: 0.3 MB, 9 MB under the
  // sanitizers) plus 1 MiB, not for the 15 MB of results; bash counts
  // 1024-byte blocks.
  const auto entry = catalog_entry("TransmissionLine_dae_shapeA_320");
  std::uintmax_t largest = 0;
  for (const auto& f : std::filesystem::recursive_directory_iterator(entry.unpacked_dir))
    if (f.is_regular_file()) largest = std::max(largest, f.file_size());
  const std::string limit = std::to_string(std::max<std::uintmax_t>(4096, largest / 1024 + 1024));
  const auto line = entry.fmu.string();
  auto result = run_process({"/bin/bash", "-c", "ulimit -f " + limit + "; exec \"$0\" \"$@\"", LSDAE_BINARY,
                             "simulate", line, "--all", "-o", h5.string(), "--no-progress"},
                            {{"TMPDIR", tmp_.string()}}, work_, std::chrono::seconds(300));
  EXPECT_TRUE(ExitedWith(result, 9)) << "the limit cannot hold this run";
  EXPECT_TRUE(Mentions(result, "limited.h5"));
  EXPECT_TRUE(Mentions(result, "ulimit -f"));
}

// The HDF5 chunks in the run statistics (--stats and the file's own
// attribute): every chunk counted once as compressed or stored raw; with
// --hdf5-compress-all none is raw to keep up. How many the default leaves raw
// depends on the machine's load: only the sum is fixed.
TEST_F(ResultsCliTest, Hdf5ChunkCountsInTheStatisticsAndCompressAll) {
  const auto line = catalog_entry("TransmissionLine_dae_shapeA_320").fmu.string();
  for (bool compress_all : {false, true}) {
    const auto h5 = work_ / "r.h5", stats = work_ / "s.json";
    std::vector<std::string> args{"simulate", line, "--all", "-o", h5.string(), "--stats", stats.string(), "--no-progress"};
    if (compress_all) args.push_back("--hdf5-compress-all");
    ASSERT_TRUE(ExitedWith(lsdae(args), 0)) << compress_all;
    Json j = JsonReader::parse(read_text(stats));
    const Json& r = j["results"];
    EXPECT_EQ(r["format"].string, "hdf5");
    const double chunks = r["chunks"].number;
    EXPECT_GT(chunks, 0) << compress_all;
    EXPECT_EQ(r["chunks_compressed"].number + r["chunks_raw_writer_behind"].number +
                  r["chunks_raw_incompressible"].number,
              chunks);
    if (compress_all) {
      EXPECT_EQ(r["chunks_raw_writer_behind"].number, 0);
      EXPECT_GT(r["chunks_compressed"].number, 0) << "the line's states compress";
    }
  }
}

TEST_F(ResultsCliTest, LogGridPutsRowsInRobertsonsTransient) {
  auto csv = work_ / "log.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--stop", "4e10", "--output-grid", "log", "-o", csv.string()}),
                         0));
  auto t = times(csv);
  // 1e-6 .. 4e10: 16.6 decades, 10 rows each, and the start and the stop.
  ASSERT_EQ(t.size(), 1u + 167u + 1u);
  EXPECT_EQ(t.front(), 0.0);
  EXPECT_EQ(t[1], 1e-6);
  EXPECT_EQ(t.back(), 4e10);
  std::size_t early = 0;
  for (double x : t) early += x > 0 && x < 1.0;
  EXPECT_GE(early, 50u) << "the transient (t < 1) has rows; a linear grid of 500 would have none";
  auto other = lsdae({"simulate", robertson(), "--output-grid", "log", "--output-first", "5", "--stop", "1",
                      "-o", csv.string()});
  ASSERT_TRUE(ExitedWith(other, 2));
  EXPECT_TRUE(Mentions(other, "--output-first"));
}

TEST_F(ResultsCliTest, ListedTimesGetRowsAndNothingElse) {
  auto csv = work_ / "times.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--stop", "10", "--output-times", "0.003, 0.5,2", "-o",
                                csv.string()}),
                         0));
  EXPECT_EQ(times(csv), (std::vector<double>{0, 0.003, 0.5, 2, 10})) << "and the start and the stop";
  for (const char* bad : {"0.5,0.1", "0.1,,2", "abc", "20", "-1", "nan"}) {
    auto result = lsdae({"simulate", robertson(), "--stop", "10", "--output-times", bad, "-o", csv.string()});
    EXPECT_TRUE(ExitedWith(result, 2)) << bad;
    EXPECT_TRUE(Mentions(result, "--output-times")) << bad;
  }
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--output-times", "0.5", "--output-steps"}), 2));
}

TEST_F(ResultsCliTest, StepsDecimationAndTheRowLimit) {
  auto grid = work_ / "grid.csv", steps = work_ / "steps.csv", every = work_ / "every.csv";
  auto stats = work_ / "s.json";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--stop", "4e10", "-o", grid.string()}), 0));
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--stop", "4e10", "--output-steps", "-o", steps.string(),
                                "--stats", stats.string()}),
                         0));
  auto s = times(steps);
  Json j = JsonReader::parse(read_text(stats));
  EXPECT_GT(s.size(), 100u);
  EXPECT_LE(static_cast<double>(s.size()), j["counters"]["steps"].number + 2) << "a row per step, the start, the stop";
  for (std::size_t k = 1; k < s.size(); ++k) ASSERT_LT(s[k - 1], s[k]) << k;
  EXPECT_LT(s[1], 1e-3) << "the first steps are tiny";
  EXPECT_EQ(s.back(), 4e10);
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--stop", "4e10", "--output-steps", "--output-every", "10",
                                "-o", every.string()}),
                         0));
  EXPECT_NEAR(static_cast<double>(times(every).size()), static_cast<double>(s.size()) / 10.0, 3.0);
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--stop", "4e10", "--output-every", "10", "-o",
                                every.string()}),
                         0));
  EXPECT_EQ(times(every).size(), 101u) << "every 10th of the 1000 points of stepSize 4e7, and the start";
  auto limited = lsdae({"simulate", robertson(), "--stop", "4e10", "--output-steps", "--max-rows", "20", "-o",
                        steps.string()});
  ASSERT_TRUE(ExitedWith(limited, 9));
  EXPECT_TRUE(Mentions(limited, "--max-rows 20"));
  EXPECT_EQ(times(steps).size(), 20u) << "the rows up to the limit are kept";
  // The defect of issue 18: a grid too long for 64-bit row counts is refused, not run.
  auto huge = lsdae({"simulate", robertson(), "--stop", "1e20", "--output-interval", "1", "--max-rows",
                     "1000000000000000", "-o", grid.string()});
  ASSERT_TRUE(ExitedWith(huge, 2));
  EXPECT_TRUE(Mentions(huge, "output rows"));
}

TEST_F(ResultsCliTest, RolesChooseTheColumns) {
  auto csv = work_ / "roles.csv";
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--output-roles", "states", "-o", csv.string()}), 0));
  const std::string states = lines(read_text(csv))[0];
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--output-roles", "algebraic", "-o", csv.string()}), 0));
  const std::string algebraic = lines(read_text(csv))[0];
  ASSERT_TRUE(ExitedWith(lsdae({"simulate", robertson(), "--output-roles", "states,algebraic", "-o", csv.string()}),
                         0));
  const std::string both = lines(read_text(csv))[0];
  EXPECT_NE(states, algebraic);
  EXPECT_GT(both.size(), std::max(states.size(), algebraic.size()));
  auto bad = lsdae({"simulate", robertson(), "--output-roles", "sates", "-o", csv.string()});
  ASSERT_TRUE(ExitedWith(bad, 2));
  EXPECT_TRUE(Mentions(bad, "states")) << "the closest role is suggested";
}

}  // namespace
}  // namespace lsdae::test
