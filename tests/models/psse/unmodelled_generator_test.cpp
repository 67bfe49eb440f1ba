// tests/models/psse/unmodelled_generator_test.cpp -- a generator without a
// machine record under --skip-unsupported (case_builder.h, docs/psse.md
// "Generators without a machine record"), run as a user runs it: lsdae-grid,
// then lsdae simulate.
//
// The case (data/ThreeBusUnmodelled.raw/.dyr): a GENCLS machine at 201, a
// 150 MW load at 203, and at 202 an 80 MW generator with no record (ZSORCE
// j0.25 on its 100 MVA base = SBASE) that reaches the network through branch
// 202-203 (j0.12) only, so its current is I = (V202 − V203)/j0.12 and the EMF
// behind its ZSORCE E = V202 + j0.25 I, both from the recorded voltages.
// Checked: by default (source) E stays at its power-flow value through a
// fault at 203 while I moves; with --unmodelled-generators current |I| and
// its angle to V202 stay while E moves; both start at rest; a trip of the held
// generator removes its current; an island whose only source is the held
// generator stays energized as a source and is de-energized as a current.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "run_process.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;
using C = std::complex<double>;

const fs::path kCase = fs::path(LSDAE_PSSE_TEST_DATA) / "ThreeBusUnmodelled";

struct Rows {
  std::map<std::string, std::size_t> column;
  std::vector<std::vector<double>> rows;
  // The last row at time t (after an event, its post-event row).
  const std::vector<double>& at(double t) const {
    const std::vector<double>* found = nullptr;
    for (const auto& r : rows)
      if (std::fabs(r[0] - t) < 1e-9) found = &r;
    if (found == nullptr) throw std::runtime_error("no row at t = " + std::to_string(t));
    return *found;
  }
  double get(const std::vector<double>& row, const std::string& name) const { return row[column.at(name)]; }
  C bus(const std::vector<double>& row, int b) const {
    const std::string n = "bus[" + std::to_string(b) + "].";
    return {get(row, n + "Vr"), get(row, n + "Vi")};
  }
  C current(const std::vector<double>& row) const { return (bus(row, 202) - bus(row, 203)) / C(0, 0.12); }
  C emf(const std::vector<double>& row) const { return bus(row, 202) + C(0, 0.25) * current(row); }
};

Rows read_csv(const fs::path& path) {
  std::ifstream in(path);
  Rows t;
  std::string line;
  std::getline(in, line);
  std::stringstream header(line);
  std::size_t c = 0;
  for (std::string name; std::getline(header, name, ',');) t.column[name] = c++;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) row.push_back(std::stod(cell));
    t.rows.push_back(row);
  }
  return t;
}

class Unmodelled : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("lsdae_unmodelled_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  // lsdae-grid with `options` (its report kept in grid_), then lsdae simulate to 3 s with rows
  // at `times`.
  Rows run(const std::vector<std::string>& options, const std::string& times,
           const std::string& vars = "bus[202].Vr,bus[202].Vi,bus[203].Vr,bus[203].Vi") {
    const fs::path fmu = dir_ / "case.fmu", out = dir_ / "result.csv";
    std::vector<std::string> grid = {LSDAE_GRID_BINARY, kCase.string() + ".raw", kCase.string() + ".dyr",
                                     "--skip-unsupported", "--stop-time", "3", "-o", fmu.string()};
    grid.insert(grid.end(), options.begin(), options.end());
    const ProcessResult g = run_process(grid, {}, dir_);
    EXPECT_EQ(g.exit_code, 0) << g.describe();
    grid_ = g.output();
    const ProcessResult s = run_process({LSDAE_BINARY, "simulate", fmu.string(), "--rtol", "1e-8", "--output-times",
                                         times, "--output-vars", vars, "-o", out.string(), "--no-progress"},
                                        {}, dir_);
    EXPECT_EQ(s.exit_code, 0) << s.describe();
    return read_csv(out);
  }
  // lsdae-grid's "largest derivative" at t = 0.
  double largest_derivative() const {
    const auto at = grid_.find("at rest at t = 0: largest derivative ");
    if (at == std::string::npos) return 1e300;
    return std::stod(grid_.substr(at + 37));
  }

  fs::path dir_;
  std::string grid_;
};

constexpr const char* kFault = "203:1:1.1:0:0.05";
constexpr const char* kTimes = "0.5,0.9,1.05,1.5,3";

TEST_F(Unmodelled, SourceKeepsItsEmfWhileItsCurrentMoves) {
  const Rows r = run({"--fault", kFault}, kTimes);
  EXPECT_NE(grid_.find("1 in-service generators without a machine model (80.0 MW) held as constant EMFs behind "
                       "their ZSORCE"),
            std::string::npos)
      << grid_;
  EXPECT_LT(largest_derivative(), 1e-8) << grid_;
  const auto& start = r.at(0.0);
  const C e0 = r.emf(start), i0 = r.current(start);
  EXPECT_NEAR(std::abs(i0), 0.8315, 1e-4);  // 80 + j25.5 MVA at 1.01 p.u.
  EXPECT_LT(std::abs(r.current(r.at(0.9)) - i0), 1e-9) << "flat start";
  for (double t : {0.5, 0.9, 1.05, 1.5, 3.0}) EXPECT_LT(std::abs(r.emf(r.at(t)) - e0), 1e-8) << "t = " << t;
  EXPECT_GT(std::abs(r.current(r.at(1.05))), 2.0) << "the fault draws on the source";
}

TEST_F(Unmodelled, CurrentKeepsItsCurrentWhileItsEmfMoves) {
  const Rows r = run({"--fault", kFault, "--unmodelled-generators", "current"}, kTimes);
  EXPECT_NE(grid_.find("held as constant-current sources at their power-flow injection"), std::string::npos) << grid_;
  EXPECT_LT(largest_derivative(), 1e-8) << grid_;
  const auto& start = r.at(0.0);
  const C i0 = r.current(start), v0 = r.bus(start, 202);
  for (double t : {0.5, 0.9, 1.05, 1.5, 3.0}) {
    const auto& row = r.at(t);
    EXPECT_NEAR(std::abs(r.current(row)), std::abs(i0), 1e-6) << "t = " << t;
    EXPECT_NEAR(std::arg(r.current(row) / r.bus(row, 202)), std::arg(i0 / v0), 1e-6) << "t = " << t;
  }
  EXPECT_GT(std::abs(r.emf(r.at(1.05)) - r.emf(start)), 0.5) << "no voltage behind it";
}

// gentrip of the held generator: its current leaves the network (V202 = V203), either way.
TEST_F(Unmodelled, TripRemovesItsCurrent) {
  for (const char* how : {"source", "current"}) {
    const Rows r = run({"--gentrip", "202-1@1", "--unmodelled-generators", how}, "0.5,1.5");
    EXPECT_GT(std::abs(r.current(r.at(0.5))), 0.8) << how;
    EXPECT_LT(std::abs(r.current(r.at(1.5))), 1e-9) << how;
  }
}

// 202-203 opened: 202 is an island whose only source is the held generator. As a constant EMF
// it is a source (PSS/E's island logic counts every in-service plant): 202 stays at E with no
// current; as a constant-current source it is not: 202 is de-energized.
TEST_F(Unmodelled, IslandOfTheHeldGeneratorAlone) {
  const std::string vars = "bus[202].Vr,bus[202].Vi,bus[203].Vr,bus[203].Vi,islands.dead_buses";
  const Rows source = run({"--trip", "202-203-1@1"}, "0.5,1.5", vars);
  const C e0 = source.emf(source.at(0.0));
  const auto& after = source.at(1.5);
  EXPECT_EQ(source.get(after, "islands.dead_buses"), 0.0);
  EXPECT_LT(std::abs(source.bus(after, 202) - e0), 1e-9) << "no current: the bus at the EMF";
  const Rows current = run({"--trip", "202-203-1@1", "--unmodelled-generators", "current"}, "0.5,1.5", vars);
  const auto& dead = current.at(1.5);
  EXPECT_EQ(current.get(dead, "islands.dead_buses"), 1.0);
  EXPECT_LT(std::abs(current.bus(dead, 202)), 1e-9);
}

// A generator without a machine record and without ZSORCE cannot be a constant EMF behind it.
TEST_F(Unmodelled, ZeroZsorceIsRefusedWithTheWayOut) {
  std::ifstream in(kCase.string() + ".raw");
  std::stringstream text;
  text << in.rdbuf();
  std::string raw = text.str();
  const std::string held = "100.000, 0.00000E+0, 2.50000E-1";
  const auto at = raw.find(held);
  ASSERT_NE(at, std::string::npos);
  raw.replace(at, held.size(), "100.000, 0.00000E+0, 0.00000E+0");
  const fs::path copy = dir_ / "zero.raw";
  std::ofstream(copy) << raw;
  const ProcessResult g = run_process({LSDAE_GRID_BINARY, copy.string(), kCase.string() + ".dyr",
                                       "--skip-unsupported", "--check"},
                                      {}, dir_);
  EXPECT_EQ(g.exit_code, 1) << g.describe();
  EXPECT_NE(g.output().find("zero.raw:12: generator 202 '1' has no machine model and its ZSORCE (ZR + jZX) is 0"),
            std::string::npos)
      << g.output();
  EXPECT_NE(g.output().find("--unmodelled-generators current"), std::string::npos) << g.output();
}

}  // namespace
}  // namespace lsdae::test
