// tests/models/psse/ladder_exciter_test.cpp -- the validation ladder's cases
// with an exciter against the trajectories PSS/E computed
// (../shared/data/grids/psse: README.md, scenarios.json), each within HALF
// the tolerance PowerSimulationsDynamics.jl's test accepts for the same case.
//
// Protocol, as a user runs it: `lsdae-grid CASE.raw CASE.dyr --trip
// FROM-TO-CKT@1 --load-conversion 0,100,0,100` (the README: loads as constant
// impedance), `lsdae simulate --rtol 1e-6 --output-interval 0.005` over 20 s.
// The reference's times are rounded to 3 decimals and a repeated time keeps
// its first row (PSD's convention: the pre-event row at t = 1); ours at each
// reference time is the first row at that time (the pre-event row) or the
// linear interpolation between rows. Errors are infinity norms; each case
// prints them (docs/psse-exciters.md records them).
//
// Cases whose other models are not in this build (a governor, a stabilizer)
// are skipped with lsdae-grid's message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <numbers>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

#include "run_process.h"

namespace lsdae::test {
namespace {

namespace fs = std::filesystem;

struct Table {
  std::map<std::string, std::size_t> column;
  std::vector<std::vector<double>> rows;
  double at(const std::string& name, double t) const {  // first row at t, else interpolated
    const std::size_t c = column.at(name);
    auto it = std::lower_bound(rows.begin(), rows.end(), t - 1e-9,
                               [](const std::vector<double>& r, double v) { return r[0] < v; });
    if (it == rows.end()) return rows.back()[c];
    if (std::fabs((*it)[0] - t) < 1e-9 || it == rows.begin()) return (*it)[c];
    const auto& a = *(it - 1);
    const auto& b = *it;
    return a[c] + (t - a[0]) / (b[0] - a[0]) * (b[c] - a[c]);
  }
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream s(line);
  for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
  return cells;
}

Table read_result(const fs::path& path) {
  std::ifstream in(path);
  Table t;
  std::string line;
  std::getline(in, line);
  const auto names = split(line);
  for (std::size_t c = 0; c < names.size(); ++c) t.column[names[c]] = c;
  while (std::getline(in, line)) {
    std::vector<double> row;
    for (const auto& cell : split(line)) row.push_back(std::stod(cell));
    t.rows.push_back(row);
  }
  return t;
}

// PSS/E's CSV: no header; times rounded to 3 decimals, a repeated time keeps its first row.
std::vector<std::vector<double>> read_reference(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::vector<double>> rows;
  std::set<long> seen;
  for (std::string line; std::getline(in, line);) {
    if (line.empty()) continue;
    std::vector<double> row;
    for (const auto& cell : split(line)) row.push_back(std::stod(cell));
    row[0] = std::round(row[0] * 1000.0) / 1000.0;
    if (seen.insert(std::lround(row[0] * 1000.0)).second) rows.push_back(row);
  }
  return rows;
}

const fs::path kData = fs::path(LSDAE_GRID_CASES_DIR) / "psse";

class Ladder : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(kData / "SEXS")) GTEST_SKIP() << "no PSS/E ladder in " << kData;
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::replace(name.begin(), name.end(), '/', '_');  // a parameterized test's name
    dir_ = fs::temp_directory_path() / ("lsdae_ladder_" + std::to_string(::getpid()) + "_" + name);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    if (!dir_.empty()) fs::remove_all(dir_, ec);
  }

  // Builds and runs the case; false (and a skip) when lsdae-grid refuses a model this build lacks.
  bool run(const std::string& folder, const std::string& raw, const std::string& dyr, const std::string& trip,
           const std::string& rtol = "1e-6") {
    const fs::path fmu = dir_ / "case.fmu", out = dir_ / "result.csv";
    const ProcessResult grid = run_process({LSDAE_GRID_BINARY, (kData / folder / raw).string(),
                                            (kData / folder / dyr).string(), "-o", fmu.string(), "--trip", trip,
                                            "--load-conversion", "0,100,0,100", "--stop-time", "20", "--quiet"},
                                           {}, dir_);
    if (grid.exit_code == 1 && grid.output().find("not implement") != std::string::npos) {
      skipped_ = grid.output();
      return false;
    }
    EXPECT_EQ(grid.exit_code, 0) << grid.describe();
    const ProcessResult sim = run_process({LSDAE_BINARY, "simulate", fmu.string(), "--rtol", rtol,
                                           "--output-interval", "0.005", "--all", "-o", out.string(),
                                           "--no-progress"},
                                          {}, dir_);
    EXPECT_EQ(sim.exit_code, 0) << sim.describe();
    result_ = read_result(out);
    return grid.exit_code == 0 && sim.exit_code == 0;
  }

  // max over the reference rows (times in (from, to]) of |ours − theirs|.
  double error(const std::vector<std::vector<double>>& ref, const std::function<double(double)>& ours,
               std::size_t column, double scale = 1.0, double from = -1.0, double to = 1e9) const {
    double worst = 0;
    for (const auto& r : ref)
      if (r[0] > from && r[0] <= to) worst = std::max(worst, std::fabs(ours(r[0]) - scale * r[column]));
    return worst;
  }
  double v(int bus, double t) const {
    return std::hypot(result_.at("bus[" + std::to_string(bus) + "].Vr", t),
                      result_.at("bus[" + std::to_string(bus) + "].Vi", t));
  }
  std::complex<double> phasor(int bus, double t) const {
    return {result_.at("bus[" + std::to_string(bus) + "].Vr", t), result_.at("bus[" + std::to_string(bus) + "].Vi", t)};
  }
  static void report(const std::string& name, const std::map<std::string, double>& errors) {
    std::string line = name + ":";
    for (const auto& [k, e] : errors) {
      char text[48];
      std::snprintf(text, sizeof text, " %s %.2e", k.c_str(), e);
      line += text;
    }
    std::printf("%s\n", line.c_str());
    ::testing::Test::RecordProperty("errors", line);
  }

  fs::path dir_;
  Table result_;
  std::string skipped_;
};

constexpr double kDeg = std::numbers::pi / 180.0;

// SEXS (TE = 1 and TE = 0): V102, the 101–103 flows in both directions
// (MW, Mvar / 100: the PSD test's scaling), EFD; PSD: each <= 1e-2.
TEST_F(Ladder, Sexs) {
  for (const auto& [dyr, csv, efd] : {std::tuple{"ThreeBus_SEXS.dyr", "SEXS_RESULTS.csv", "exc[102_1].EFD"},
                                      std::tuple{"ThreeBus_SEXS_noTE.dyr", "SEXS_RESULTS_NoTE.csv", "exc[102_1].Efd"}}) {
    ASSERT_TRUE(run("SEXS", "ThreeBusMulti.raw", dyr, "101-102-1@1"));
    const auto ref = read_reference(kData / "SEXS" / csv);
    const std::complex<double> y = 1.0 / std::complex<double>(0.01, 0.12);  // branch 101-103 of ThreeBusMulti.raw
    auto flow = [&](int from, int to, double t) {
      const auto a = phasor(from, t), b = phasor(to, t);
      return a * std::conj((a - b) * y);
    };
    const std::string e(efd);
    std::map<std::string, double> err = {
        {"V102", error(ref, [&](double t) { return v(102, t); }, 1)},
        {"P13", error(ref, [&](double t) { return flow(101, 103, t).real(); }, 2, 0.01)},
        {"Q13", error(ref, [&](double t) { return flow(101, 103, t).imag(); }, 3, 0.01)},
        {"P31", error(ref, [&](double t) { return flow(103, 101, t).real(); }, 4, 0.01)},
        {"Q31", error(ref, [&](double t) { return flow(103, 101, t).imag(); }, 5, 0.01)},
        {"Efd", error(ref, [&](double t) { return result_.at(e, t); }, 6)}};
    // TE = 0: EFD is algebraic, and PSS/E's lags its own by one 5 ms step
    // after the trip (its 1.005 value is ours at 1.0+ to six digits): the
    // two samples after the event are held to PSD's tolerance, the rest to half.
    err["Efd after 1.01"] = error(ref, [&](double t) { return result_.at(e, t); }, 6, 1.0, 1.01);
    report(std::string("SEXS ") + dyr, err);
    for (const auto& [k, value] : err) EXPECT_LE(value, k == "Efd" ? 1e-2 : 5e-3) << dyr << " " << k;
  }
}

// ESAC1A without and with saturation: δ102 (rad) and V102; PSD: each <= 1e-2.
TEST_F(Ladder, Esac1a) {
  for (const auto& [dyr, csv] : {std::pair{"ThreeBus_ESAC1A.dyr", "TEST_ESAC1A.csv"},
                                 std::pair{"ThreeBus_ESAC1A_SAT.dyr", "TEST_ESAC1A_SAT.csv"}}) {
    ASSERT_TRUE(run("AC1A", "ThreeBusMulti.raw", dyr, "101-102-1@1"));
    const auto ref = read_reference(kData / "AC1A" / csv);
    const std::map<std::string, double> err = {
        {"delta", error(ref, [&](double t) { return result_.at("gen[102_1].delta", t); }, 1, kDeg)},
        {"V102", error(ref, [&](double t) { return v(102, t); }, 2)}};
    report(std::string("AC1A ") + dyr, err);
    for (const auto& [k, value] : err) EXPECT_LE(value, 5e-3) << dyr << " " << k;
  }
}

// EXST1 on GENSAL with HYGOV (TVC system): V2, V3, Δω2; PSD: each <= 1e-3.
// Also at rtol 2e-6 and 1e-5, where the field-voltage ceiling's switch was
// lost (kept from 1.46 s to 20 s at 2e-6: V2 0.54 p.u. from PSS/E's; never
// engaged at 1e-5: 7.3e-3): IDA's point and the event solve's lay on either
// side of the ceiling (docs/simulation/events.md, "An indicator on the other
// side at IDA's point").
class LadderExst1 : public Ladder, public ::testing::WithParamInterface<const char*> {};

TEST_P(LadderExst1, WithinHalfPsdTolerance) {
  if (!run("EXST1", "TVC_System_32.raw", "TVC_System.dyr", "1-4-1@1", GetParam())) GTEST_SKIP() << skipped_;
  const auto ref = read_reference(kData / "EXST1" / "results_PSSe.csv");
  const std::map<std::string, double> err = {
      {"V2", error(ref, [&](double t) { return v(2, t); }, 2)},
      {"V3", error(ref, [&](double t) { return v(3, t); }, 3)},
      {"dw", error(ref, [&](double t) { return result_.at("gen[2_1].dw", t); }, 5)},
      {"Efd (not in PSD's test)", error(ref, [&](double t) { return result_.at("exc[2_1].Efd", t); }, 6)}};
  report(std::string("EXST1 rtol ") + GetParam(), err);
  for (const auto& [k, value] : err)
    if (k.rfind("Efd", 0) != 0) {
      EXPECT_LE(value, 5e-4) << k;
    }
}

INSTANTIATE_TEST_SUITE_P(Rtol, LadderExst1, ::testing::Values("1e-6", "2e-6", "1e-5"),
                         [](const ::testing::TestParamInfo<const char*>& param) {
                           std::string name = std::string("rtol_") + param.param;
                           std::replace(name.begin(), name.end(), '-', 'm');
                           return name;
                         });

// The exciters inside the governor and stabilizer cases: TGOV1 and GAST with
// ESAC1A (δ <= 1e-2), HYGOV with SEXS (δ <= 1e-2; V, ω <= 1e-3), IEEEST with
// SEXS (EFD, V <= 1e-2). One test per case, so that ctest runs them side by side.
struct ControlCase {
  const char *name, *folder, *dyr, *csv;
  std::vector<std::tuple<std::string, std::size_t, double>> checks;  // quantity, column, half tolerance
};

class LadderControls : public Ladder, public ::testing::WithParamInterface<ControlCase> {};

TEST_P(LadderControls, WithinHalfPsdTolerance) {
  const ControlCase& c = GetParam();
  if (!run(c.folder, "ThreeBusMulti.raw", c.dyr, "101-102-1@1")) GTEST_SKIP() << skipped_;
  const auto ref = read_reference(kData / c.folder / c.csv);
  std::map<std::string, double> err;
  for (const auto& [q, column, half] : c.checks) {
    std::function<double(double)> ours;
    double scale = 1.0;
    if (q == "delta") ours = [&](double t) { return result_.at("gen[102_1].delta", t); }, scale = kDeg;
    if (q == "V102") ours = [&](double t) { return v(102, t); };
    if (q == "dw") ours = [&](double t) { return result_.at("gen[102_1].dw", t); };
    if (q == "Efd") ours = [&](double t) { return result_.at("exc[102_1].EFD", t); };
    err[q] = error(ref, ours, column, scale);
    EXPECT_LE(err[q], half) << c.dyr << " " << q;
  }
  report(std::string(c.folder) + " " + c.dyr, err);
}

INSTANTIATE_TEST_SUITE_P(
    Ladder, LadderControls,
    ::testing::Values(
        ControlCase{"TGOV1", "TGOV1", "ThreeBus_TGOV1.dyr", "TEST_TGOV1.csv", {{"delta", 1, 5e-3}}},
        ControlCase{"GAST", "GAST", "ThreeBus_GAST.dyr", "GAST_TEST.csv", {{"delta", 1, 5e-3}}},
        ControlCase{"HYGOV", "HYGOV", "ThreeBus_HYGOV.dyr", "HYGOV_RESULTS.csv",
                    {{"V102", 1, 5e-4}, {"delta", 2, 5e-3}, {"dw", 3, 5e-4}}},
        ControlCase{"IEEEST", "IEEEST", "ThreeBus_IEEEST.dyr", "IEEEST_SEXS_RESULTS_NOFILT.csv",
                    {{"Efd", 1, 5e-3}, {"V102", 2, 5e-3}}},
        ControlCase{"IEEEST_filter", "IEEEST", "ThreeBus_IEEEST_with_filter.dyr", "IEEEST_SEXS_RESULTS_FILT.csv",
                    {{"Efd", 1, 5e-3}, {"V102", 2, 5e-3}}}),
    [](const ::testing::TestParamInfo<ControlCase>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace lsdae::test
