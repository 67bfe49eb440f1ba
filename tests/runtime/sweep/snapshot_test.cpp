// tests/runtime/sweep/snapshot_test.cpp -- Simulation's snapshots
// (lsdae/simulation.h; runtime/simulation/run_snapshot.h) on the case39 FMU
// an N-1 sweep runs: a run paused before the fault, kept, and continued by
// other contingencies (the fault bus and the tripped branch set at their
// events: tunable parameters) gives, bit for bit, the rows and counters of a
// fresh run of each contingency; so does a second-level snapshot before the
// clearing shared by the outages at one bus; the snapshots of a run share
// the Jacobian entries' kinds, colouring and constants (snapshot_bytes).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <unistd.h>
#include <string>
#include <utility>
#include <vector>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/simulation.h"
#include "lsdae/sweep.h"
#include "powergrid/scenarios/matpower_changes.h"
#include "sweep/scenario_runner.h"

namespace lsdae {
namespace {

const std::string kFmu = "PowerGrid_case39_all_disturbances";
constexpr double kInterval = 0.01;
constexpr int kPoints = 250;  // 2.5 s

SimulationOptions options() {
  SimulationOptions o;
  o.stop_time = kInterval * kPoints;
  o.output_interval = kInterval;
  return o;
}

// The rows of one run, written as text with round-trip precision: every
// Float64 variable that is not a parameter (states, derivatives, bus
// voltages, residuals, the switches), then the counters that a fresh run and
// a restored one share (not KLU's analyses: a restored run's new integrator
// adopts one where the original re-factored at the restart). The restored
// run's integrator is made from what the session learned before the
// snapshot (runtime/simulation/session_learned.h), so it takes the
// per-segment constant entries at the event as the fresh run does, not all
// of them again: directional_calls and constant_calls agree too (they
// differed by 5 on case39 before).
class Rows {
 public:
  explicit Rows(Simulation& sim) : sim_(sim) {
    for (const Variable& v : sim.fmu().model_description().variables)
      if (v.type == VariableType::float64 && !v.is_array() && v.causality != Causality::parameter &&
          v.causality != Causality::calculated_parameter)
        vrs_.push_back(v.value_reference);
    values_.resize(vrs_.size());
  }
  void row() {
    sim_.get(vrs_, values_);
    char buffer[40];
    std::snprintf(buffer, sizeof buffer, "%.17g", sim_.time());
    text += buffer;
    for (double v : values_) {
      std::snprintf(buffer, sizeof buffer, ",%.17g", v);
      text += buffer;
    }
    text += "\n";
  }
  // Output points k.. to the stop time, or until a pause (false: paused, the point k not written).
  bool run_from(int& k) {
    for (; k <= kPoints; ++k) {
      sim_.advance_to(kInterval * k);
      if (sim_.paused_at_event()) return false;
      row();
    }
    const SimulationStats& s = sim_.statistics();
    text += "steps " + std::to_string(s.steps) + " residual_calls " + std::to_string(s.residual_calls) +
            " jacobian_evaluations " + std::to_string(s.jacobian_evaluations) + " nonlinear_iterations " +
            std::to_string(s.nonlinear_iterations) +
            " error_test_failures " + std::to_string(s.error_test_failures) + " setups " +
            std::to_string(s.linear_solver_setups) + " lnz " + std::to_string(s.klu_lnz) + " time_events " +
            std::to_string(s.time_events) + " directional_calls " + std::to_string(s.directional_calls) +
            " constant_calls " + std::to_string(s.constant_calls) + " constant_evaluations " +
            std::to_string(s.constant_evaluations) + "\n";
    return true;
  }
  std::string text;

 private:
  Simulation& sim_;
  std::vector<ValueReference> vrs_;
  std::vector<double> values_;
};

std::string fresh(long bus, long branch) {
  auto sim = Simulation::create(Fmu::open(test::fmu_path(kFmu)), options());
  sim->set("fault.bus", std::to_string(bus));
  sim->set("trip.branch", std::to_string(branch));
  sim->initialize();
  Rows rows(*sim);
  rows.row();
  int k = 1;
  EXPECT_TRUE(rows.run_from(k));
  return rows.text;
}

struct Outage {
  long bus, branch;
};

TEST(SimulationSnapshot, ContingenciesFromSharedStretchesEqualFreshRunsBitwise) {
  // Two outages at bus 16 (rows 26 and 27 of case39's branches start there)
  // and one at bus 2 (row 3): the fault-on stretch is shared by the first two.
  const std::vector<Outage> outages = {{16, 26}, {16, 27}, {2, 3}};
  std::vector<std::string> expected;
  for (const Outage& o : outages) expected.push_back(fresh(o.bus, o.branch));
  ASSERT_NE(expected[0], expected[1]);
  ASSERT_NE(expected[0], expected[2]);

  auto sim = Simulation::create(Fmu::open(test::fmu_path(kFmu)), options());
  ASSERT_TRUE(sim->can_snapshot());
  // The shared start: any fault bus announces the fault at 1 s; no trip yet.
  sim->set("fault.bus", "5");
  sim->set("trip.branch", "0");
  sim->pause_before_event_at(1.0);
  sim->initialize();
  Rows base(*sim);
  base.row();
  int k_fault = 1;
  ASSERT_FALSE(base.run_from(k_fault));
  EXPECT_EQ(sim->time(), 1.0);
  const Simulation::SnapshotId pre_fault = sim->snapshot();
  // What one snapshot holds of its own: the point (2 doubles per unknown),
  // the counters, the verdicts; the kinds, the varying colouring and the
  // run-long constants are held once for all the snapshots of the run.
  const std::size_t unknowns = sim->statistics().unknowns, own = sim->snapshot_bytes(pre_fault);
  const std::size_t held = sim->snapshots_bytes();
  EXPECT_GE(own, 2 * unknowns * sizeof(double));
  EXPECT_LE(own, 2 * unknowns * sizeof(double) + 2048);
  EXPECT_GT(held - own, own) << "the kinds, the colouring and the constants: more than a point on case39";

  std::optional<Simulation::SnapshotId> fault_on;  // of bus 16, with its rows and next output point
  std::string fault_on_text;
  int fault_on_k = 0;
  for (std::size_t c = 0; c < outages.size(); ++c) {
    SCOPED_TRACE("outage " + std::to_string(c));
    sim->reset();
    Rows rows(*sim);
    rows.text = base.text;
    int k = k_fault;
    if (c == 1) {  // the second outage at bus 16: from the snapshot before its clearing
      sim->restore(*fault_on);
      rows.text = fault_on_text;
      k = fault_on_k;
    } else {
      sim->restore(pre_fault);
      sim->set("fault.bus", std::to_string(outages[c].bus));
      sim->pause_before_event_at(1.1);
      ASSERT_FALSE(rows.run_from(k));
      if (c == 0) {
        fault_on = sim->snapshot();
        // Taken by a run restored from the first: it shares all of theirs
        // (before, each snapshot had its own copy of the kinds and the colouring).
        EXPECT_EQ(sim->snapshots_bytes(), held + sim->snapshot_bytes(*fault_on));
        EXPECT_EQ(sim->snapshot_bytes(*fault_on), own);
        fault_on_text = rows.text;
        fault_on_k = k;
      }
    }
    sim->set("trip.branch", std::to_string(outages[c].branch));
    ASSERT_TRUE(rows.run_from(k));
    EXPECT_EQ(rows.text, expected[c]);
  }
  sim->release_snapshot(pre_fault);
  EXPECT_EQ(sim->snapshot_bytes(pre_fault), 0u);
  EXPECT_EQ(sim->snapshots_bytes(), held) << "the fault-on snapshot alone holds what they shared";
  sim->reset();
  EXPECT_THROW(sim->restore(pre_fault), Error);
}

// The sweep's use of them (docs/sweeps.md, "Shared stretches"): 12 outages
// of case39 (branches 20-31: several share a from-bus) as the contingency
// source makes them with --clear-after, with the screening's metrics and
// stop tests, give the rows of the same sweep with share_stretches off --
// and all but the first start from a snapshot.
TEST(SweepSharedStretches, ContingencyRowsEqualRowsRunFromTheStart) {
  const auto dir = std::filesystem::temp_directory_path() / ("lsdae_stretches_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto table = dir / "contab.m";
  {
    std::ofstream out(table);
    out << "chgtab = [\n";
    for (int b = 20; b <= 31; ++b) out << b << " 0 CT_TBRCH " << b << " BR_STATUS CT_REP 0;\n";
    out << "];\n";
  }
  const auto from = powergrid::read_branch_from_buses(std::string(LSDAE_GRID_CASES_DIR) + "/case39.m");
  const std::vector<sweep::Scenario> scenarios =
      powergrid::contingency_scenarios(powergrid::read_chgtab(table.string()), from, {1.0, 0.1, true}, 1.0);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(scenarios.size(), 12u);
  ASSERT_EQ(scenarios[3].stages.size(), 2u);

  sweep::SweepOptions o;
  o.simulation.stop_time = 4;
  o.simulation.output_interval = 0.05;
  o.metrics = {"max:maxdev(gen[*].delta, gen[*].H)", "min:min(hypot(bus[*].Vr, bus[*].Vi))", "tmax:max(gen[*].omega)"};
  o.stop_when = {"maxdev(gen[*].delta, gen[*].H) > 3.14159"};
  o.settle = sweep::Settle{0.3, 2, 1.1};
  sweep::SweepOptions off = o;
  off.share_stretches = false;
  auto fmu = Fmu::open(test::fmu_path(kFmu));
  const auto plan = sweep::SweepPlan::compile(fmu, o), plan_off = sweep::SweepPlan::compile(fmu, off);
  sweep::ScenarioRunner shared(*plan), from_start(*plan_off);
  std::set<std::string> statuses;
  for (const sweep::Scenario& s : scenarios) {
    sweep::SummaryRow a = sweep::run_scenario(*plan, s, shared), b = sweep::run_scenario(*plan_off, s, from_start);
    a.wall_time = b.wall_time = 0;
    EXPECT_EQ(a.to_csv(), b.to_csv()) << "outage " << s.id;
    statuses.insert(sweep::to_string(b.status));
  }
  EXPECT_EQ(shared.resumed(), scenarios.size() - 1) << "every outage after the first starts from a snapshot";
  EXPECT_EQ(shared.started_over(), 0u) << "and none had to be run again from its start";
  EXPECT_EQ(from_start.resumed(), 0u);
  EXPECT_GE(statuses.size(), 1u);
}

}  // namespace
}  // namespace lsdae
