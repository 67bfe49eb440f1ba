// tests/models/powergrid/powergrid_fmu_test.cpp -- the PowerGrid FMUs of
// build/fmus/catalog.tsv and catalog_large.tsv, through their fmi3 functions:
//   * at the power-flow point every residual vanishes and the machines are at
//     rest (sizes and instantiation time printed),
//   * sampled dependencies and directional derivatives, also while the fault
//     is on and after the trip (the switched entries stay in the pattern) --
//     size-independent, so it covers the cases too large for the corpus tests,
//   * the time events switch the fault and the trip as the parameters say,
//   * disturbance parameters are validated with specific messages,
//   * every row of the independent fault reference satisfies the model,
//   * an undisturbed 10 s run stays flat and the fault run matches the
//     reference (trapezoidal rule, trapezoid.h) -- for the small cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "grid_fmu_session.h"
#include "powergrid/grid_data.h"
#include "trapezoid.h"

namespace lsdae::test {
namespace {

std::vector<CatalogEntry> grid_fmus() {
  std::vector<CatalogEntry> out;
  for (const char* file : {"/catalog.tsv", "/catalog_large.tsv"}) {
    std::ifstream in(std::string(LSDAE_FMU_DIR) + file);
    std::string line;
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::stringstream ss(line);
      std::string field;
      while (std::getline(ss, field, '\t')) f.push_back(field);
      f.resize(6);
      if (f[3] == "PowerGrid") out.push_back({f[0], f[1], f[2], f[3], f[4], f[5]});
    }
  }
  return out;
}

// The grid data shipped in the FMU (for sizes and coefficient magnitudes).
powergrid::GridData grid_of(const CatalogEntry& e) {
  std::ifstream cfg(e.stage_dir + "/resources/lsdae_model.cfg");
  std::string line;
  while (std::getline(cfg, line))
    if (line.rfind("grid=", 0) == 0) return powergrid::read_grid_data(e.stage_dir + "/resources/" + line.substr(5));
  throw std::runtime_error(e.name + ": no grid= in lsdae_model.cfg");
}

bool small(const ParsedFmu& fmu) { return fmu.algebraic.size() <= 200; }

class GridFmu : public ::testing::TestWithParam<CatalogEntry> {
 protected:
  void SetUp() override {
    fmu_ = parse_fmu(GetParam().stage_dir);
    grid_ = grid_of(GetParam());
  }
  ParsedFmu fmu_;
  powergrid::GridData grid_;
};

TEST_P(GridFmu, AtRestAtThePowerFlowPoint) {
  const auto t0 = std::chrono::steady_clock::now();
  GridFmuSession s(GetParam().name, GetParam().stage_dir, fmu_);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Eigen::VectorXd r = s.residual(Eigen::VectorXd::Zero(static_cast<Eigen::Index>(s.n_states())));
  std::size_t nnz = 0;
  for (const auto& g : fmu_.residual_groups) nnz += g.back().dependencies.size();
  for (const auto& u : fmu_.dae_derivatives) nnz += u.dependencies.size();
  std::printf("[ stats    ] %s: %zu buses, %zu machines; %zu variables, %zu states, %zu algebraic, %zu residuals, "
              "%zu dependency nonzeros; instantiated and initialized in %.3f s; largest |R| at t = 0: %.2e\n",
              GetParam().name.c_str(), grid_.bus_number.size(), grid_.machines.size(), fmu_.variables.size(),
              s.n_states(), s.n_algebraic(), s.residuals().size(), nnz, seconds, r.lpNorm<Eigen::Infinity>());
  EXPECT_EQ(s.n_states(), 2 * grid_.machines.size());
  EXPECT_EQ(s.n_algebraic(), 2 * grid_.bus_number.size());
  EXPECT_LT(r.lpNorm<Eigen::Infinity>(), 1e-9);
}

// Checks, for a sample of knowns at the session's current point, that an
// unknown changes only with a declared dependency and that directional
// derivatives match central differences. Returns the number of failures.
int check_columns(GridFmuSession& s, const ParsedFmu& fmu, const std::vector<fmi3ValueReference>& knowns,
                  double y_max, const std::string& where) {
  std::vector<fmi3ValueReference> unknowns;
  std::vector<std::set<fmi3ValueReference>> declared;
  auto add = [&](const XmlUnknown& u) {
    unknowns.push_back(u.vr);
    declared.emplace_back(u.dependencies.begin(), u.dependencies.end());
  };
  for (const auto& g : fmu.residual_groups) add(g.back());
  if (!fmu.fully_implicit)
    for (const auto& u : fmu.dae_derivatives) add(u);
  const auto states = fmu.states();
  int failures = 0;
  for (fmi3ValueReference k : knowns) {
    const bool is_state = std::count(states.begin(), states.end(), k) != 0;
    // OpenModelica form: a declared state stands for its derivative as well.
    const auto& kv = fmu.var(k);
    const fmi3ValueReference declared_as = fmu.state_stands_for_derivative && kv.derivative ? *kv.derivative : k;
    auto set_known = [&](double value) {
      if (is_state) {
        Eigen::VectorXd x = s.get(states);
        x[std::find(states.begin(), states.end(), k) - states.begin()] = value;
        s.set_states(x);
      } else {
        s.set({k}, Eigen::VectorXd::Constant(1, value));
      }
    };
    const double v = s.get(std::vector<fmi3ValueReference>{k})[0];
    const double h = 1e-4 * std::max(1.0, std::abs(v));
    const Eigen::VectorXd dd = s.directional(unknowns, k);
    const Eigen::VectorXd base = s.get(unknowns);
    set_known(v + h);
    const Eigen::VectorXd plus = s.get(unknowns);
    set_known(v - h);
    const Eigen::VectorXd minus = s.get(unknowns);
    set_known(v);
    for (std::size_t i = 0; i < unknowns.size(); ++i) {
      const auto ii = static_cast<Eigen::Index>(i);
      if ((plus[ii] != base[ii] || minus[ii] != base[ii]) && !declared[i].count(declared_as)) {
        if (++failures <= 10)
          ADD_FAILURE() << where << ": " << fmu.var(unknowns[i]).name << " changes with " << fmu.var(k).name
                        << ", which its dependencies do not list";
      }
      const double fd = (plus[ii] - minus[ii]) / (2 * h);
      if (std::abs(fd - dd[ii]) > 1e-6 * std::max(std::abs(fd), std::abs(dd[ii])) + 1e-10 * y_max) {
        if (++failures <= 10)
          ADD_FAILURE() << where << ": d " << fmu.var(unknowns[i]).name << " / d " << fmu.var(k).name
                        << ": directional " << dd[ii] << ", finite difference " << fd;
      }
    }
  }
  return failures;
}

TEST_P(GridFmu, SampledColumnsBeforeDuringAndAfterTheFault) {
  GridFmuSession s(GetParam().name, GetParam().stage_dir, fmu_);
  double y_max = 0;
  for (auto y : grid_.y.value) y_max = std::max(y_max, std::abs(y));
  // A deterministic sample of knowns, plus the voltages where the fault and the trip act.
  std::vector<fmi3ValueReference> knowns = fmu_.states();
  knowns.insert(knowns.end(), fmu_.algebraic.begin(), fmu_.algebraic.end());
  if (fmu_.fully_implicit) {
    const auto d = fmu_.derivatives();
    knowns.insert(knowns.end(), d.begin(), d.end());
  }
  std::vector<fmi3ValueReference> sample;
  const std::size_t stride = std::max<std::size_t>(1, knowns.size() / 60);
  for (std::size_t i = 0; i < knowns.size(); i += stride) sample.push_back(knowns[i]);
  const long fault_bus = std::lround(s.get("fault.bus"));
  const long trip_row = std::lround(s.get("trip.branch"));
  std::set<long> touched = {fault_bus};
  for (const auto& br : grid_.branches)
    if (br.case_row == trip_row) {
      touched.insert(grid_.bus_number[br.from]);
      touched.insert(grid_.bus_number[br.to]);
    }
  for (long bus : touched)
    for (const char* part : {"Vr", "Vi"}) {
      std::string name = "bus[" + std::to_string(bus) + "].";
      name += part;
      if (fmu_.by_name.count(name)) sample.push_back(fmu_.by_name.at(name));
    }
  // Move away from the operating point a little (no symmetric zeros).
  const Eigen::VectorXd z = s.get(fmu_.algebraic);
  s.set_algebraic(z * 1.01);

  const double t_on = s.get("fault.t_on"), t_off = s.get("fault.t_off");
  EXPECT_EQ(check_columns(s, fmu_, sample, y_max, "before the fault"), 0);
  s.set_time(t_on);
  s.handle_event();
  ASSERT_EQ(s.get("fault.active"), fault_bus != 0 ? 1.0 : 0.0);
  EXPECT_EQ(check_columns(s, fmu_, sample, y_max, "fault on"), 0);
  s.set_time(std::max(t_off, s.get("trip.time")));
  s.handle_event();
  ASSERT_EQ(s.get("fault.active"), 0.0);
  EXPECT_EQ(check_columns(s, fmu_, sample, y_max, "after clearing and trip"), 0);
}

TEST_P(GridFmu, TimeEventsSwitchTheDisturbances) {
  GridFmuSession s(GetParam().name, GetParam().stage_dir, fmu_);
  // An FMU built with a fault and no trip (trip_branch = 0: the fault is
  // cleared without opening a branch) has no trip event.
  const bool trips = std::lround(s.get("trip.branch")) != 0;
  const double t_on = s.get("fault.t_on"), t_off = s.get("fault.t_off");
  const double t_trip = trips ? s.get("trip.time") : std::numeric_limits<double>::infinity();
  ASSERT_TRUE(s.next_time_event());
  EXPECT_EQ(*s.next_time_event(), std::min(t_on, t_trip));
  EXPECT_EQ(s.get("fault.active"), 0.0);
  EXPECT_EQ(s.get("trip.open"), 0.0);
  s.set_time(t_on);
  s.handle_event();
  EXPECT_EQ(s.get("fault.active"), 1.0);
  ASSERT_TRUE(s.next_time_event());
  EXPECT_EQ(*s.next_time_event(), std::min(t_off, t_trip));
  s.set_time(trips ? std::max(t_off, t_trip) : t_off);
  s.handle_event();
  EXPECT_EQ(s.get("fault.active"), 0.0);
  EXPECT_EQ(s.get("trip.open"), trips ? 1.0 : 0.0);
  EXPECT_FALSE(s.next_time_event());
}

TEST_P(GridFmu, DisturbanceParametersAreValidated) {
  if (!small(fmu_)) GTEST_SKIP() << "checked on the small cases";
  struct Bad {
    std::vector<std::pair<std::string, double>> parameters;
    std::string message;
  };
  const std::string faults = std::to_string(std::lround(GridFmuSession(GetParam().name, GetParam().stage_dir, fmu_).get("fault.bus")));
  const Bad cases[] = {
      {{{"fault.bus", 1.5}}, "fault.bus = 1.5 is not a bus number → give a whole number (0 for none)"},
      {{{"fault.bus", 999}}, "fault.bus = 999: " + grid_.name + " has no such bus → choose a bus number of the case (0 for no fault)"},
      {{{"fault.bus", static_cast<double>(grid_.bus_number[0])}},
       "fault.bus = " + std::to_string(grid_.bus_number[0]) + ": not one of the buses this FMU can fault (fault_buses=" +
           faults + ") → rebuild it with fault_buses=" + std::to_string(grid_.bus_number[0]) + " (or all), or choose one of " + faults},
      {{{"fault.t_off", 0.5}}, "fault.t_off = 0.5 s is before fault.t_on = 1 s → clear the fault after it starts"},
      {{{"fault.X", 0.0}}, "fault.R = 0, fault.X = 0 → give the fault a finite, non-zero impedance (e.g. fault.X = 1e-4)"},
      {{{"trip.branch", 1e6}}, "trip.branch = 1000000: " + grid_.name +
                                   " has no in-service branch in that row of mpc.branch → choose an in-service branch (0 for no trip)"},
  };
  for (const Bad& bad : cases) {
    try {
      GridFmuSession s(GetParam().name, GetParam().stage_dir, fmu_, bad.parameters);
      ADD_FAILURE() << "no error for " << bad.message;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(bad.message), std::string::npos) << e.what();
    }
  }
  // No disturbance at all is fine, and announces no event.
  GridFmuSession quiet(GetParam().name, GetParam().stage_dir, fmu_, {{"fault.bus", 0}, {"trip.branch", 0}});
  EXPECT_FALSE(quiet.next_time_event());
}

// All rows (the corpus tests sample six): the fault-on rows included.
TEST_P(GridFmu, EveryReferenceRowSatisfiesTheModel) {
  if (GetParam().reference_csv.empty()) GTEST_SKIP() << "no reference";
  const ReferenceTable ref = read_reference(GetParam().reference_csv);
  std::map<std::string, std::size_t> column;
  for (std::size_t c = 0; c < ref.columns.size(); ++c) column[ref.columns[c]] = c;
  GridFmuSession s(GetParam().name, GetParam().stage_dir, fmu_);
  auto values = [&](const std::vector<fmi3ValueReference>& vrs, std::size_t row) {
    Eigen::VectorXd out(static_cast<Eigen::Index>(vrs.size()));
    for (std::size_t i = 0; i < vrs.size(); ++i) out[static_cast<Eigen::Index>(i)] = ref.rows[row][column.at(fmu_.var(vrs[i]).name)];
    return out;
  };
  double worst = 0;
  for (std::size_t row = 0; row < ref.rows.size(); ++row) {
    const double t = ref.rows[row][0];
    s.set_time(t);
    while (s.next_time_event() && t >= *s.next_time_event()) s.handle_event();
    s.set_states(values(s.states(), row));
    s.set_algebraic(values(fmu_.algebraic, row));
    const Eigen::VectorXd r = s.residual(values(s.derivatives(), row));
    worst = std::max(worst, r.lpNorm<Eigen::Infinity>());
    EXPECT_LT(r.lpNorm<Eigen::Infinity>(), 1e-8) << "t = " << t;
  }
  std::printf("[ stats    ] %s: %zu reference rows, largest |R| %.2e\n", GetParam().name.c_str(), ref.rows.size(), worst);
}

TEST_P(GridFmu, UndisturbedRunStaysFlatFor10s) {
  if (!small(fmu_)) GTEST_SKIP() << "dense test integrator: small cases only";
  GridFmuSession s(GetParam().name, GetParam().stage_dir, fmu_, {{"fault.bus", 0}, {"trip.branch", 0}});
  const Eigen::VectorXd x0 = s.get(s.states()), z0 = s.get(fmu_.algebraic);
  Trapezoid integrator(s, 0.01);
  integrator.initialize();
  double drift_x = 0, drift_z = 0;
  integrator.run(10.0, [&](double, const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
    drift_x = std::max(drift_x, (x - x0).lpNorm<Eigen::Infinity>());
    drift_z = std::max(drift_z, (z - z0).lpNorm<Eigen::Infinity>());
  });
  std::printf("[ stats    ] %s: undisturbed 0..10 s, h = 0.01: %d steps, %d Newton iterations; largest drift of "
              "the states %.2e, of the bus voltages %.2e p.u.\n",
              GetParam().name.c_str(), integrator.steps(), integrator.newton_iterations(), drift_x, drift_z);
  EXPECT_LT(drift_x, 1e-9);
  EXPECT_LT(drift_z, 1e-9);
}

TEST_P(GridFmu, FaultRunMatchesTheIndependentReference) {
  if (!small(fmu_) || GetParam().reference_csv.empty()) GTEST_SKIP() << "small cases with a fault reference only";
  const ReferenceTable ref = read_reference(GetParam().reference_csv);
  std::map<std::string, std::size_t> column;
  for (std::size_t c = 0; c < ref.columns.size(); ++c) column[ref.columns[c]] = c;
  GridFmuSession s(GetParam().name, GetParam().stage_dir, fmu_);
  std::vector<std::size_t> delta_columns, omega_columns;
  std::vector<Eigen::Index> delta_index, omega_index;
  const auto states = s.states();
  for (std::size_t i = 0; i < states.size(); ++i) {
    const std::string& name = fmu_.var(states[i]).name;
    (name.find(".delta") != std::string::npos ? delta_columns : omega_columns).push_back(column.at(name));
    (name.find(".delta") != std::string::npos ? delta_index : omega_index).push_back(static_cast<Eigen::Index>(i));
  }
  std::map<long, std::size_t> row_at;  // reference rows by time in ms
  for (std::size_t r = 0; r < ref.rows.size(); ++r) row_at[std::lround(ref.rows[r][0] * 1000)] = r;
  Trapezoid integrator(s, 1e-3);
  integrator.initialize();
  double err_delta = 0, err_omega = 0;
  integrator.run(10.0, [&](double t, const Eigen::VectorXd& x, const Eigen::VectorXd&) {
    const long ms = std::lround(t * 1000);
    if (std::abs(t * 1000 - static_cast<double>(ms)) > 1e-6 || !row_at.count(ms)) return;
    const auto& row = ref.rows[row_at[ms]];
    if (std::abs(row[0] - t) > 1e-9) return;
    for (std::size_t k = 0; k < delta_index.size(); ++k)
      err_delta = std::max(err_delta, std::abs(x[delta_index[k]] - row[delta_columns[k]]));
    for (std::size_t k = 0; k < omega_index.size(); ++k)
      err_omega = std::max(err_omega, std::abs(x[omega_index[k]] - row[omega_columns[k]]));
  });
  std::printf("[ stats    ] %s: fault run 0..10 s, h = 1e-3: %d steps, %d Newton iterations, %d Jacobians; largest "
              "difference to the reference: rotor angle %.2e rad, speed %.2e p.u.\n",
              GetParam().name.c_str(), integrator.steps(), integrator.newton_iterations(), integrator.jacobians(),
              err_delta, err_omega);
  EXPECT_LT(err_delta, 1e-3);
  EXPECT_LT(err_omega, 1e-5);
}

std::string test_name(const ::testing::TestParamInfo<CatalogEntry>& info) { return info.param.name; }
INSTANTIATE_TEST_SUITE_P(Catalog, GridFmu, ::testing::ValuesIn(grid_fmus()), test_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(GridFmu);

}  // namespace
}  // namespace lsdae::test
