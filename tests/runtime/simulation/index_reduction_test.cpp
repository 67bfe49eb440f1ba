// tests/runtime/simulation/index_reduction_test.cpp -- issue 15: index
// reduction on FMUs lsdae's own models do not resemble (no directional
// derivatives, permuted states), invariants that keep a non-zero value, and
// the failure modes that must stop a run instead of exiting 0 with a wrong
// answer. References: models/cartesian_pendulum, models/energy_oscillator
// (exact solutions, numpy/scipy).
#include <gtest/gtest.h>

#include <array>
#include <cmath>

#include "catalog.h"
#include "lsdae/error.h"
#include "lsdae/simulation.h"
#include "reference_csv.h"

namespace lsdae {
namespace {

using test::read_csv;
using test::reference;

struct Swing {
  double position_error = 0, velocity_error = 0;  // largest |lsdae − reference| over r, u
  double pos_constraint = 0, vel_constraint = 0;   // largest |g_pos|, |g_vel| at the output rows
  long reselections = 0, steps = 0;
  std::string report;
};

Swing swing(const std::string& fmu, SimulationOptions o) {
  test::Csv ref = read_csv(reference("cartesian_pendulum/reference/CartesianPendulum.csv"));
  auto sim = Simulation::create(Fmu::open(test::fmu_path(fmu)), o);
  sim->initialize();
  Swing s;
  s.report = sim->structure_report();
  auto col = [&](const std::string& name) {
    for (std::size_t k = 0; k < ref.names.size(); ++k)
      if (ref.names[k] == name) return k;
    throw std::runtime_error("no column " + name);
  };
  for (const auto& row : ref.rows) {
    if (row[0] == 0.0) continue;
    sim->advance_to(row[0]);
    for (const char* r : {"r[1]", "r[2]"})
      s.position_error = std::max(s.position_error, std::fabs(sim->get(r) - row[col(r)]));
    for (const char* u : {"u[1]", "u[2]"})
      s.velocity_error = std::max(s.velocity_error, std::fabs(sim->get(u) - row[col(u)]));
    s.pos_constraint = std::max(s.pos_constraint, std::fabs(sim->get("pos_error")));
    s.vel_constraint = std::max(s.vel_constraint, std::fabs(sim->get("vel_error")));
  }
  s.reselections = sim->statistics().reselections;
  s.steps = sim->statistics().steps;
  return s;
}

// The FMU of issue 15: no directional derivatives, states r[2], u[1], r[1],
// u[2]; from horizontal at rest the structural choice (der(r[2]), der(u[1]))
// is singular. Before the fix the pendulum never moved and the run exited 0.
TEST(CartesianPendulum, DummyDerivativesFromFiniteDifferencesSwingWithTheReference) {
  Swing s = swing("CartesianPendulum_shapeA", {});
  EXPECT_LT(s.position_error, 1e-5);
  EXPECT_LT(s.velocity_error, 5e-5);
  EXPECT_LT(s.pos_constraint, 1e-6);
  EXPECT_LT(s.vel_constraint, 1e-6);
  EXPECT_GT(s.reselections, 10) << "the choice must switch each time the rod passes a diagonal";
  EXPECT_NE(s.report.find("finite differences"), std::string::npos) << s.report;
  EXPECT_NE(s.report.find("structural choice der(r[2]), der(u[1]): rcond 0 (singular), replaced"), std::string::npos)
      << s.report;
}

TEST(CartesianPendulum, FiniteDifferencesChooseWhatDirectionalDerivativesChoose) {
  SimulationOptions o;
  o.stop_time = 0.5;
  auto fd = Simulation::create(Fmu::open(test::fmu_path("CartesianPendulum_shapeA")), o);
  auto dd = Simulation::create(Fmu::open(test::fmu_path("CartesianPendulum_shapeA_partials")), o);
  fd->initialize();
  dd->initialize();
  fd->advance_to(0.5);
  dd->advance_to(0.5);
  EXPECT_EQ(fd->statistics().dummy_derivatives, dd->statistics().dummy_derivatives);
  EXPECT_NEAR(fd->get("r[1]"), dd->get("r[1]"), 1e-6);
}

// Failure mode: no selection is nonsingular at the start (r = 0: every
// constraint gradient vanishes). Error(structure), exit code 8.
TEST(CartesianPendulum, ASingularStartStopsWithTheConstraintsAndCandidates) {
  auto sim = Simulation::create(Fmu::open(test::fmu_path("CartesianPendulum_shapeA")), {});
  sim->set("r[1]", 0.0);
  try {
    sim->initialize();
    FAIL() << "initialize() must not accept a singular selection";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::structure);
    EXPECT_EQ(exit_code(e.kind()), 8);
    const std::string what = e.what();
    EXPECT_NE(what.find("no choice of dummy derivatives is nonsingular"), std::string::npos) << what;
    EXPECT_NE(what.find("\"g_pos\""), std::string::npos) << what;
    EXPECT_NE(what.find("candidate states r[2], u[1], r[1], u[2]"), std::string::npos) << what;
    EXPECT_NE(what.find("--constraints project"), std::string::npos) << what;
  }
}

// Failure mode: the kept selection (--no-reselect) becomes singular as the
// rod turns: the monitor stops the run (Error(solver), exit code 7) before
// IDA fails, with what was computed kept.
TEST(CartesianPendulum, AKeptSelectionThatTurnsSingularStopsTheRun) {
  SimulationOptions o;
  o.reselect = false;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("CartesianPendulum_shapeA")), o);
  sim->initialize();
  try {
    sim->advance_to(2.0);
    FAIL() << "the run must not go on with a singular selection";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::solver);
    EXPECT_EQ(exit_code(e.kind()), 7);
    const std::string what = e.what();
    EXPECT_NE(what.find("numerically singular"), std::string::npos) << what;
    EXPECT_NE(what.find("drop --no-reselect"), std::string::npos) << what;
  }
  EXPECT_GT(sim->time(), 0.1);
  EXPECT_LT(sim->time(), 1.0);
}

// An invariant keeps its value after initialization (E = 0.5 here), under
// every method; before the fix the projection moved the oscillator to E = 0.
double largest_energy_error(ConstraintMethod method, SimulationStats* stats = nullptr) {
  SimulationOptions o;
  o.constraints = method;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("EnergyOscillator_shapeB")), o);
  sim->initialize();
  double worst = 0;
  for (int k = 1; k <= 1000; ++k) {
    sim->advance_to(0.01 * k);
    worst = std::max(worst, std::fabs(sim->get("E") - 0.5));
    EXPECT_NEAR(sim->get("x"), std::cos(0.01 * k), 1e-5) << "t = " << 0.01 * k;
  }
  if (stats) *stats = sim->statistics();
  return worst;
}

TEST(EnergyOscillator, ProjectionKeepsTheInvariantAtItsInitialValue) {
  SimulationStats s;
  EXPECT_LT(largest_energy_error(ConstraintMethod::projection, &s), 1e-6);
  // With projection inside the step, the drift is what a corrector left
  // before its projection (rejected step attempts included).
  EXPECT_GT(s.largest_drift, 0.0);
  EXPECT_LT(s.largest_drift, 1e-4);
  EXPECT_GT(s.projections, 0);
}

// Issue 15's target for the projection method on the Cartesian pendulum
// without directional derivatives: the projection enters IDA's step, so it
// costs about what dummy derivatives cost (it used to restart IDA at every
// projection) and stays on the constraints.
TEST(CartesianPendulum, ProjectionInsideTheStepIsAccurateAndCheap) {
  SimulationOptions o;
  o.constraints = ConstraintMethod::projection;
  Swing p = swing("CartesianPendulum_shapeA", o);
  Swing d = swing("CartesianPendulum_shapeA", {});
  // Every step projected, J kept between steps (measured: 3.3e-6 over the
  // 10 s, |C| below 8e-9, 8868 steps against 8613; before: 6.2e-6 and 1e-7,
  // the constraints drifting to 10·atol between projections).
  EXPECT_LT(p.position_error, 5e-6);
  EXPECT_LT(p.velocity_error, 2.5e-5);
  EXPECT_LT(p.pos_constraint, 1e-7);
  EXPECT_LT(p.vel_constraint, 1e-7);
  EXPECT_LE(p.steps, d.steps + d.steps / 4) << "issue 15's bound is 2x; projecting costs about what dummies cost";
}

// The kit pendulum (directional derivatives, c0, c1 projected, c2 a row):
// projecting only when a constraint exceeded 10·atol accepted corrections of
// 16 in IDA's weighted norm and ended 9.7e-5 from the reference at t = 10
// (dummy derivatives: 6.7e-7). Projected at every step: 7.0e-6.
TEST(Pendulum, ProjectionAtEveryStepStaysNearTheReference) {
  test::Csv ref = read_csv(reference("pendulum/reference/Pendulum.csv"));
  SimulationOptions o;
  o.constraints = ConstraintMethod::projection;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("Pendulum_dae_shapeA")), o);
  sim->initialize();
  auto col = [&](const std::string& name) {
    for (std::size_t k = 0; k < ref.names.size(); ++k)
      if (ref.names[k] == name) return k;
    throw std::runtime_error("no column " + name);
  };
  double position_error = 0, constraint = 0;
  for (const auto& row : ref.rows) {
    if (row[0] == 0.0) continue;
    sim->advance_to(row[0]);
    for (const char* v : {"x", "y"}) position_error = std::max(position_error, std::fabs(sim->get(v) - row[col(v)]));
    constraint = std::max({constraint, std::fabs(sim->get("c0")), std::fabs(sim->get("c1"))});
  }
  EXPECT_NEAR(sim->time(), 10.0, 1e-12);
  EXPECT_LT(position_error, 2e-5);
  EXPECT_LT(constraint, 1e-7);
  EXPECT_GT(sim->statistics().projections, sim->statistics().steps / 2) << "projected at (almost) every step";
}

TEST(EnergyOscillator, DummyDerivativesKeepTheInvariantAtItsInitialValue) {
  EXPECT_LT(largest_energy_error(ConstraintMethod::dummy_derivatives), 1e-6);
}

TEST(EnergyOscillator, WithoutProjectionTheDriftIsMeasuredAndReported) {
  SimulationStats s;
  largest_energy_error(ConstraintMethod::none, &s);
  EXPECT_GT(s.largest_drift, 0.0);
  EXPECT_EQ(s.largest_drift_constraint, "E");
  EXPECT_EQ(s.projections, 0);
}

}  // namespace
// Issue 15, derivatives the FMU does not provide: Index2Example cases 1 and 2
// (FMI-LS-DAE draft 4.2.1) export r3 = x1 − x2 without its derivative;
// lsdae synthesizes d/dt(r3) = ẋ1 − ẋ2 by central differences of r3 and
// the run follows the exact solution (a straight line: the differences are
// exact to rounding), with dummy derivatives and with projection.
TEST(Index2Example, ASynthesizedDerivativeReducesTheIndex) {
  test::Csv ref = read_csv(reference("index2_example/reference/Index2Example.csv"));
  ASSERT_EQ(ref.rows.size(), 101u);
  for (const char* fmu : {"Index2Example_case1_shapeA", "Index2Example_case2_shapeA"}) {
    for (ConstraintMethod method : {ConstraintMethod::dummy_derivatives, ConstraintMethod::projection}) {
      SimulationOptions o;
      o.constraints = method;
      auto sim = Simulation::create(Fmu::open(test::fmu_path(fmu)), o);
      sim->initialize();
      const std::string report = sim->structure_report();
      EXPECT_NE(report.find("\"r3\" once: \"r3\" -> \"d/dt(r3)\""), std::string::npos) << report;
      EXPECT_NE(report.find("\"d/dt(r3)\" is not provided by the FMU: lsdae synthesizes it"), std::string::npos)
          << report;
      double worst = 0;
      for (const auto& row : ref.rows) {
        if (row[0] == 0.0) continue;
        sim->advance_to(row[0]);
        for (std::size_t k = 1; k < ref.names.size(); ++k)
          worst = std::max(worst, std::fabs(sim->get(ref.names[k]) - row[k]));
      }
      EXPECT_LT(worst, 1e-9) << fmu << " " << (method == ConstraintMethod::projection ? "project" : "dummy");
      EXPECT_EQ(sim->statistics().jacobian_method, "finite differences") << "synthesized rows have no partials";
    }
  }
}

// The synthesized row costs two evaluations of r3 per residual call; without
// synthesis (case 3 provides dr3) the same run needs none: the synthesized
// run must still agree with case 3, which uses the FMU's own dr3.
TEST(Index2Example, SynthesizedAndProvidedDerivativesAgree) {
  auto run = [](const char* fmu) {
    auto sim = Simulation::create(Fmu::open(test::fmu_path(fmu)), {});
    sim->initialize();
    sim->advance_to(1.0);
    return std::array<double, 3>{sim->get("x1"), sim->get("x2"), sim->get("y")};
  };
  const auto synthesized = run("Index2Example_case1_shapeA"), provided = run("Index2Example_case3_shapeA");
  for (std::size_t k = 0; k < 3; ++k) EXPECT_NEAR(synthesized[k], provided[k], 1e-10) << k;
}

// Index 3 from the position constraint alone needs d²/dt² g_pos, which lsdae
// does not synthesize (one level only, docs/algorithms.md): the run stops
// with the structural diagnostic (exit code 8), naming d/dt(g_pos)'s group.
TEST(CartesianPendulum, OnlyThePositionConstraintStopsWithTheMissingSecondDerivative) {
  try {
    auto sim = Simulation::create(Fmu::open(test::fmu_path("CartesianPendulum_shapeB_position")), {});
    sim->initialize();
    FAIL() << "an index-3 constraint without derivative formulations cannot be reduced";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::structure);
    EXPECT_EQ(exit_code(e.kind()), 8);
    const std::string what = e.what();
    EXPECT_NE(what.find("residual \"g_pos\" must be differentiated to order 2"), std::string::npos) << what;
  }
}

}  // namespace lsdae
