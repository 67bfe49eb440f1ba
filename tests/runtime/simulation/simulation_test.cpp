// tests/runtime/simulation/simulation_test.cpp -- lsdae::Simulation end to end
// on the model FMUs, against their independent reference solutions.
#include "lsdae/simulation.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>

#include "catalog.h"
#include "reference_csv.h"
#include "lsdae/error.h"
#include "simulation/instance_count.h"
#include "simulation/integration_session.h"

namespace lsdae {
namespace {

using test::Csv;
using test::read_csv;
using test::reference;

class HelloWorld : public ::testing::TestWithParam<std::string> {};

TEST_P(HelloWorld, MatchesTheExactSolution) {
  auto sim = Simulation::create(Fmu::open(test::fmu_path(GetParam())));
  sim->initialize();
  for (double t : {0.25, 0.5, 1.0}) {
    sim->advance_to(t);
    EXPECT_NEAR(sim->get("x"), std::exp(1.4 * t), 1e-5 * std::exp(1.4 * t)) << "t = " << t;
  }
  if (GetParam() != "HelloWorld_ode") {
    EXPECT_NEAR(sim->get("y"), 1.4 * std::exp(1.4), 1e-4);
    EXPECT_NEAR(sim->get("z"), -0.2 * std::exp(1.4), 1e-4);
  }
}

INSTANTIATE_TEST_SUITE_P(Forms, HelloWorld,
                         ::testing::Values("HelloWorld_fully_implicit_shapeA", "HelloWorld_semi_explicit_shapeA",
                                           "HelloWorld_semi_explicit_shapeB", "HelloWorld_fully_implicit_shapeA_switch",
                                           "HelloWorld_ode"));

class TransmissionLine10 : public ::testing::TestWithParam<std::string> {};

TEST_P(TransmissionLine10, FollowsTheReferenceTrajectory) {
  Csv ref = read_csv(reference("transmission_line/reference/N10_trajectory.csv"));
  ASSERT_GT(ref.rows.size(), 1000u);
  auto sim = Simulation::create(Fmu::open(test::fmu_path(GetParam())));
  sim->initialize();
  double worst = 0;
  std::string where;
  for (std::size_t r = 1; r < ref.rows.size(); r += 50) {
    sim->advance_to(ref.rows[r][0]);
    for (std::size_t c = 1; c < ref.names.size(); ++c) {
      double scale = ref.names[c].find(".i") != std::string::npos ? 0.02 : 1.0;  // currents ~ 1/50 of voltages
      double error = std::fabs(sim->get(ref.names[c]) - ref.rows[r][c]) / scale;
      if (error > worst) {
        worst = error;
        where = ref.names[c] + " at t = " + std::to_string(ref.rows[r][0]);
      }
    }
  }
  EXPECT_LT(worst, 1e-5) << where;
}

INSTANTIATE_TEST_SUITE_P(Forms, TransmissionLine10,
                         ::testing::Values("TransmissionLine_dae_shapeA_10", "TransmissionLine_dae_shapeB_10",
                                           "TransmissionLine_dae_openmodelica_10", "TransmissionLine_ode_10"));

TEST(Simulation, FiniteDifferenceJacobiansCostOneResidualPerColour) {
  SimulationOptions options;
  options.jacobian = JacobianMode::finite_differences;
  options.constant_jacobian_entries = false;  // every entry at every Jacobian: the colouring's own cost
  options.eliminate_linear = false;           // the full DAE's iteration matrix
  options.stop_time = 1e-6;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_20")), options);
  sim->initialize();
  sim->advance_to(1e-6);
  const SimulationStats& s = sim->statistics();
  EXPECT_EQ(s.jacobian_method, "finite differences");
  EXPECT_EQ(s.colors, 4u) << "TransmissionLine DAE iteration matrix: four colours";
  EXPECT_GT(s.jacobian_evaluations, 0);
  EXPECT_EQ(s.jacobian_residual_calls, s.jacobian_evaluations * static_cast<long>(s.colors));
  EXPECT_EQ(s.directional_calls, 0);
  EXPECT_EQ(s.unknowns, 5u * 20 + 3);
  EXPECT_EQ(s.differential, 2u * 20 + 2);
}

// With the constant entries (the TransmissionLine declares every coefficient
// constant or fixed) a Jacobian costs its varying colours -- none here -- and
// the constants cost their passes once: one per colour for ∂G/∂y, one per
// colour of the columns with a ∂G/∂y' part. Directional derivatives only:
// finite-difference Jacobians evaluate every entry every time.
TEST(Simulation, ConstantEntriesAreEvaluatedOnceAndTheRestPerVaryingColour) {
  {
    SimulationOptions options;
    options.jacobian = JacobianMode::finite_differences;
    options.stop_time = 1e-6;
    auto sim = Simulation::create(Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_20")), options);
    sim->initialize();
    sim->advance_to(1e-6);
    const SimulationStats& s = sim->statistics();
    EXPECT_EQ(s.varying_colors, s.colors);
    EXPECT_EQ(s.constant_entries, 0u);
    EXPECT_EQ(s.constant_calls, 0);
  }
  for (JacobianMode mode : {JacobianMode::directional}) {
    SimulationOptions options;
    options.jacobian = mode;
    options.eliminate_linear = false;  // the full DAE's four colours
    options.stop_time = 1e-6;
    auto sim = Simulation::create(Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_20")), options);
    sim->initialize();
    sim->advance_to(1e-6);
    const SimulationStats& s = sim->statistics();
    EXPECT_EQ(s.colors, 4u);
    EXPECT_EQ(s.varying_colors, 0u) << "a linear model: every entry constant";
    EXPECT_EQ(s.constant_entries, s.jacobian_nonzeros);
    EXPECT_GT(s.jacobian_evaluations, 1);
    EXPECT_EQ(s.constant_evaluations, 1);
    EXPECT_EQ(s.constant_calls, 4 + 4);
    const long calls = mode == JacobianMode::directional ? s.directional_calls : s.jacobian_residual_calls;
    EXPECT_EQ(calls, s.constant_calls + s.jacobian_evaluations * static_cast<long>(s.varying_colors));
  }
}

// The claims check (runtime/simulation/jacobian_claims.h) on the kit's
// models/claims FMUs, in the counters. A pattern that hides d der(y2)/d y3:
// the entry is added to IDA's pattern, and the statistics count it, so the
// lying FMU's iteration matrix has the honest build's nonzeros.
TEST(SimulationClaims, AHiddenDependencyIsCountedInTheJacobianNonzeros) {
  auto stats = [](const char* fmu) {
    SimulationOptions options;
    options.stop_time = 1e-2;
    auto sim = Simulation::create(Fmu::open(test::fmu_path(fmu)), options);
    sim->initialize();
    sim->advance_to(1e-2);
    return sim->statistics();
  };
  const SimulationStats honest = stats("Robertson_semi_explicit_shapeA");
  const SimulationStats hiding = stats("Robertson_claims_hidden");
  EXPECT_EQ(hiding.jacobian_nonzeros, honest.jacobian_nonzeros);
  EXPECT_EQ(hiding.jacobian_method, "finite differences");
}

// Directional derivatives wrong in one column only (d der(y2)/d y2 × 0.5):
// finite differences for the colour holding that column, the FMU's
// directional derivatives for the others, in every Jacobian of the run; the
// constant entries of the other columns are kept (taken once by their right
// derivatives), the wrong column's vary.
TEST(SimulationClaims, WrongDerivativesInOneColumnTakeFiniteDifferencesForItsColourOnly) {
  SimulationOptions options;
  options.stop_time = 10;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("Robertson_claims_partial_factor")), options);
  sim->initialize();
  sim->advance_to(10);
  const SimulationStats& s = sim->statistics();
  ASSERT_GT(s.colors, 1u);
  ASSERT_GT(s.jacobian_evaluations, 10);
  EXPECT_EQ(s.jacobian_method, "directional");
  EXPECT_GT(s.constant_entries, 0u) << "the right columns' constant entries are kept";
  EXPECT_LT(s.varying_colors, s.colors);
  EXPECT_GT(s.constant_calls, 0);
  EXPECT_EQ(s.constant_evaluations, 1);
  EXPECT_EQ(s.jacobian_residual_calls, s.jacobian_evaluations) << "one finite-difference colour per Jacobian";
  EXPECT_EQ(s.directional_calls,
            s.constant_calls + s.jacobian_evaluations * static_cast<long>(s.varying_colors - 1));
}

// The recheck where IDA integrates the reduced system of a linear
// elimination: HelloWorld's d r[1] / d der(x) with the wrong sign from
// t = 0.5 on (every entry evaluated at every Jacobian, so that the wrong one
// is used). The claims are checked on the full system at the expanded point,
// the elimination is given up, and the run ends at the reference; before,
// the recheck was off there.
TEST(SimulationClaims, DerivativesThatGoWrongAreCaughtOnAnEliminatedSystem) {
  SimulationOptions options;
  options.stop_time = 1;
  options.eliminate_linear = true;
  options.constant_jacobian_entries = false;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("HelloWorld_claims_partial_late")), options);
  sim->initialize();
  EXPECT_GT(sim->statistics().eliminated, 0u) << "the run starts eliminating";
  sim->advance_to(1);
  const SimulationStats& s = sim->statistics();
  EXPECT_EQ(s.eliminated, 0u) << "given up at the recheck";
  EXPECT_GT(s.jacobian_residual_calls, 0) << "the wrong column's colour by finite differences";
  EXPECT_NEAR(sim->get("x"), 4.0551999668446745, 1e-5) << "models/hello_world/reference/hello_world.csv at t = 1";
  options.jacobian_claims = JacobianClaims::refuse;
  auto refusing = Simulation::create(Fmu::open(test::fmu_path("HelloWorld_claims_partial_late")), options);
  refusing->initialize();
  try {
    refusing->advance_to(1);
    ADD_FAILURE() << "a false claim found during the run must stop --jacobian check";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("checked again"), std::string::npos) << e.what();
    EXPECT_GT(refusing->time(), 0.5);
  }
}

// Directional derivatives right at the start (and at the check's moved
// point) and wrong from t = 1 on: IDA's Newton iteration fails with fresh
// Jacobians, the claims are checked again there, the wrong column's colour
// goes to finite differences, and the run ends; --jacobian check stops there.
TEST(SimulationClaims, DerivativesThatGoWrongDuringTheRunAreCaughtWhereNewtonFails) {
  SimulationOptions options;
  options.stop_time = 400;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("Robertson_claims_partial_late")), options);
  sim->initialize();
  sim->advance_to(400);
  const SimulationStats& s = sim->statistics();
  EXPECT_GT(s.jacobian_residual_calls, 0) << "the wrong column's colour by finite differences after the recheck";
  EXPECT_GT(s.directional_calls, s.jacobian_residual_calls);
  EXPECT_LT(s.steps, 2000);
  options.jacobian_claims = JacobianClaims::refuse;
  auto refusing = Simulation::create(Fmu::open(test::fmu_path("Robertson_claims_partial_late")), options);
  refusing->initialize();
  try {
    refusing->advance_to(400);
    ADD_FAILURE() << "a false claim found during the run must stop --jacobian check";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("checked again"), std::string::npos) << e.what();
    EXPECT_GT(refusing->time(), 1.0);
  }
}

// --jacobian auto takes the FMU's directional derivatives only where they are
// right and cheaper (jacobian_claims.h, directional_costs_more): a variant
// whose every directional call computes the partials 20000 times gets finite
// differences, and the same answer; the honest build and a forced
// `directional` keep them. Counted (which calls the run made), not timed.
TEST(SimulationClaims, CostlyDirectionalDerivativesGiveWayToFiniteDifferences) {
  auto run = [](const std::string& name, JacobianMode mode) {
    SimulationOptions options;
    options.jacobian = mode;
    options.stop_time = 40;
    auto sim = Simulation::create(Fmu::open(test::fmu_path(name)), options);
    sim->initialize();
    sim->advance_to(40);
    return std::make_tuple(sim->statistics().directional_calls, sim->statistics().jacobian_residual_calls,
                           sim->get("y1"));
  };
  const auto [costly_dd, costly_fd, costly_y1] = run("Robertson_costly_directional", JacobianMode::automatic);
  EXPECT_EQ(costly_dd, 0u) << "finite differences for the whole run";
  EXPECT_GT(costly_fd, 0u);
  const auto [honest_dd, honest_fd, honest_y1] = run("Robertson_semi_explicit_shapeA", JacobianMode::automatic);
  EXPECT_GT(honest_dd, 0u) << "cheap directional derivatives are kept";
  EXPECT_NEAR(costly_y1, honest_y1, 1e-4 * std::fabs(honest_y1));
  const auto [forced_dd, forced_fd, forced_y1] = run("Robertson_costly_directional", JacobianMode::directional);
  EXPECT_GT(forced_dd, 0u) << "--jacobian directional uses them regardless";
}

TEST(Simulation, TwoThreadsTakeTheSameStepsAsOne) {
  // Every unknown its own colour (--no-coloring) on the smallest line whose
  // Jacobian makes enough work for a second instance
  // (simulation/instance_count.h: 6403 colours × 16 646 nonzeros).
  auto run = [](std::size_t threads, JacobianMode mode) {
    SimulationOptions options;
    options.threads = threads;
    options.jacobian = mode;
    options.uncolored_jacobian = true;
    options.rtol = 1e-4;  // 17 steps and Jacobians, every one compared
    options.stop_time = 1e-11;
    auto sim = Simulation::create(Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_1280")), options);
    sim->initialize();
    sim->advance_to(1e-11);
    const SimulationStats& s = sim->statistics();
    return std::make_tuple(s.steps, sim->get("v_load"), s.threads, s.jacobian_evaluations);
  };
  // Directional only: finite differences take the same parallel pass, and
  // system/threads_test compares both (this line's Jacobians take seconds).
  for (JacobianMode mode : {JacobianMode::directional}) {
    auto one = run(1, mode), two = run(2, mode);
    if (omp_get_num_procs() >= 2) {
      EXPECT_EQ(std::get<2>(two), 2u) << "two instances evaluate the colours";
    }
    EXPECT_GE(std::get<3>(one), 2u) << "more than one Jacobian compared";
    EXPECT_EQ(std::get<0>(one), std::get<0>(two));
    EXPECT_EQ(std::get<1>(one), std::get<1>(two)) << "bitwise: colours write disjoint columns";
  }
}

// --threads N makes extra FMU instances only where a Jacobian makes enough
// work (colours × nonzeros) for the hand-over, at most one per 64 colours and
// never more than the processors (simulation/instance_count.h, "What a
// thread costs"): counted by the FMU's live instances and the statistics,
// never timed.
TEST(Simulation, ThreadsMakeNoMoreInstancesThanTheVaryingColoursCanUse) {
  using simulation::instances_for;
  using simulation::kJacobianWorkForThreads;
  // What a Jacobian evaluates in parallel: `colours`, each costing `nonzeros`.
  auto W = [](std::size_t colours, std::size_t nonzeros) {
    simulation::ParallelWork work;
    work.colours = colours;
    work.evaluation_cost = nonzeros;
    return work;
  };
  // The rule on the reference numbers of instance_count.h.
  EXPECT_EQ(instances_for(16, W(3, 236372), 2), 1u) << "case13659pegase: 3 varying colours, 2 instances were 9 % slower";
  EXPECT_EQ(instances_for(16, W(3, 236372), 16), 1u) << "... also on 16 processors";
  EXPECT_EQ(instances_for(2, W(112, 127184), 2), 1u) << "PsseGrid ACTIVSg2000: 112 varying colours, 2 instances not faster";
  EXPECT_EQ(instances_for(16, W(0, 123), 16), 1u) << "TransmissionLine: every entry constant, no colour varies";
  EXPECT_EQ(instances_for(16, W(803, 2086), 16), 1u) << "TransmissionLine N = 160, --no-coloring: 1.5-2.5x slower with 2";
  EXPECT_EQ(instances_for(16, W(3203, 8326), 2), 1u) << "N = 640, --no-coloring: 1.1-1.5x slower with 2";
  EXPECT_EQ(instances_for(16, W(6403, 16646), 2), 2u) << "N = 1280, --no-coloring: 0.55x with 2 where a core was free";
  EXPECT_EQ(instances_for(16, W(6403, 16646), 16), 16u) << "... and 0.18x with 16 on 16 cores";
  // Just below and at the work threshold (colours × nonzeros per Jacobian).
  const std::size_t colours = 1000, at = kJacobianWorkForThreads / colours;
  ASSERT_EQ(colours * at, kJacobianWorkForThreads);
  EXPECT_EQ(instances_for(16, W(colours, at - 1), 16), 1u) << "just below: the hand-over costs more";
  EXPECT_EQ(instances_for(16, W(colours, at), 16), 15u) << "at it: one per 64 colours";
  EXPECT_EQ(instances_for(16, W(colours, at), 2), 2u) << "... never more than the processors";
  // Enough work, and the colours decide: 64 for each instance.
  const std::size_t heavy = kJacobianWorkForThreads;  // nonzeros enough for any colour count
  EXPECT_EQ(instances_for(16, W(127, heavy), 16), 1u);
  EXPECT_EQ(instances_for(16, W(128, heavy), 16), 2u) << "64 colours for each instance";
  EXPECT_EQ(instances_for(16, W(100000, heavy), 16), 16u);
  EXPECT_EQ(instances_for(3, W(100000, heavy), 16), 3u) << "never more than asked for";
  EXPECT_EQ(instances_for(1, W(100000, heavy), 16), 1u);
  EXPECT_EQ(instances_for(0, W(100000, heavy), 16), 1u);

  // A run counts its instances: the statistics and the FMU's live instances agree.
  const auto cores = static_cast<std::size_t>(std::max(1, omp_get_num_procs()));
  // (create() makes the instances; `run`: a short run too, for the colours the statistics count.)
  auto instances = [](const std::string& name, std::size_t threads, JacobianMode mode, bool constants = true,
                      bool colouring = true, bool run = true) {
    SimulationOptions options;
    options.threads = threads;
    options.jacobian = mode;
    options.constant_jacobian_entries = constants;
    options.uncolored_jacobian = !colouring;
    options.stop_time = 1e-9;
    auto fmu = Fmu::open(test::fmu_path(name));
    auto sim = Simulation::create(fmu, options);
    const std::size_t live = fmu->live_instances();
    if (run) {
      sim->initialize();
      sim->advance_to(1e-9);
    }
    const SimulationStats& s = sim->statistics();
    EXPECT_EQ(live, s.threads) << name << ": one instance per Jacobian thread";
    return std::make_pair(s.threads, s);
  };
  // A linear line: every entry constant, no colour varies, one instance.
  EXPECT_EQ(instances("TransmissionLine_dae_shapeA_40", 16, JacobianMode::directional).first, 1u);
  // The same by finite differences (no constant entries): 3 colours vary, too few.
  auto [fd, fd_stats] = instances("TransmissionLine_dae_shapeA_40", 16, JacobianMode::finite_differences);
  ASSERT_EQ(fd_stats.varying_colors, 3u);
  EXPECT_EQ(fd, 1u);
  // A grid: a few varying colours (of more), one instance.
  auto [grid, grid_stats] = instances("PowerGrid_case9_semi_explicit", 16, JacobianMode::directional);
  ASSERT_GT(grid_stats.varying_colors, 0u);
  ASSERT_LT(grid_stats.varying_colors, grid_stats.colors) << "the constant entries leave fewer colours";
  EXPECT_EQ(grid, 1u);
  // Every unknown its own colour (--no-coloring), just below the work
  // threshold: colours enough for 50 instances, work for none.
  auto [below, below_stats] =
      instances("TransmissionLine_dae_shapeA_640", 16, JacobianMode::directional, true, false, false);
  ASSERT_EQ(below_stats.unknowns, 3203u) << "one colour each";
  ASSERT_LT(below_stats.unknowns * below_stats.jacobian_nonzeros, kJacobianWorkForThreads);
  EXPECT_EQ(below, 1u);
  // ... and the next line above it: one instance per processor.
  auto [above, above_stats] =
      instances("TransmissionLine_dae_shapeA_1280", 16, JacobianMode::directional, true, false, false);
  ASSERT_GE(above_stats.unknowns * above_stats.jacobian_nonzeros, kJacobianWorkForThreads);
  EXPECT_EQ(above, instances_for(16, W(above_stats.unknowns, above_stats.jacobian_nonzeros), cores));
  EXPECT_EQ(above, std::min<std::size_t>(16, cores));
  // One thread asked for: one instance.
  EXPECT_EQ(instances("TransmissionLine_dae_shapeA_1280", 1, JacobianMode::directional, true, false, false).first, 1u);
}

// Asking for threads classifies the Jacobian entries and colours the varying
// columns once, in create() (instance_count.h), and the first make() takes
// that result (IntegrationSession::take_declared): the run is the run of
// --threads 1 -- the same kinds, colouring and counters -- also where the
// claims check distrusts declared constants (Robertson_claims_constant: the
// colouring is made again for the checked kinds) or takes one colour by
// finite differences (Robertson_claims_partial_factor), and where it keeps
// them (case9: the colouring handed over). Small models: one instance either way.
TEST(Simulation, ThreadsTakeTheKindsCountedInCreateWithoutChangingTheRun) {
  auto run = [](const std::string& name, std::size_t threads) {
    SimulationOptions options;
    options.threads = threads;
    options.stop_time = 1.0;
    auto sim = Simulation::create(Fmu::open(test::fmu_path(name)), options);
    sim->initialize();
    sim->advance_to(1.0);
    return sim->statistics();
  };
  for (const char* name : {"Robertson_claims_constant", "Robertson_claims_partial_factor", "PowerGrid_case9_semi_explicit"}) {
    const SimulationStats one = run(name, 1), two = run(name, 2);
    EXPECT_EQ(two.threads, 1u) << name;
    EXPECT_EQ(one.constant_entries, two.constant_entries) << name;
    EXPECT_EQ(one.varying_colors, two.varying_colors) << name;
    EXPECT_EQ(one.steps, two.steps) << name;
    EXPECT_EQ(one.residual_calls, two.residual_calls) << name;
    EXPECT_EQ(one.jacobian_evaluations, two.jacobian_evaluations) << name;
    EXPECT_EQ(one.directional_calls, two.directional_calls) << name;
    EXPECT_EQ(one.jacobian_residual_calls, two.jacobian_residual_calls) << name;
    EXPECT_EQ(one.constant_calls, two.constant_calls) << name;
  }
}

// --eliminate auto's cost model (integration_session.h): a few unknowns
// among many are not worth the reduced residual's extra work.
TEST(Simulation, EliminationPaysOnlyForAShareOfTheUnknowns) {
  EXPECT_FALSE(simulation::elimination_pays(10, 35502)) << "case13659pegase: 0.03 %, measured 1.33x slower";
  EXPECT_TRUE(simulation::elimination_pays(3841, 6403)) << "TransmissionLine N = 1280: 60 %, measured 1.75x faster";
  EXPECT_FALSE(simulation::elimination_pays(0, 0));
  SimulationOptions options;
  options.eliminate_linear = true;
  options.stop_time = 1e-7;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("PowerGrid_case9_semi_explicit")), options);
  sim->initialize();
  sim->advance_to(1e-7);
  EXPECT_EQ(sim->statistics().eliminated, 0u)
      << "8 of 24 could go (the network's linear unknowns), but the reduced Jacobian needs 10 colours, not 8";
  auto line = Simulation::create(Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_10")), options);
  line->initialize();
  line->advance_to(1e-7);
  EXPECT_EQ(line->statistics().eliminated, 31u) << "31 of 53, 4 colours -> 3";
}

TEST(Simulation, DirectionalAndFiniteDifferenceJacobiansAgree) {
  SimulationOptions options;
  options.jacobian = JacobianMode::directional;
  // (Not Robertson: y2 stays below 4e-5 but declares no nominal, so its
  // increment of 1.5e-8 meets the 3e7·y2² term -- finite differences are
  // inaccurate there, which is what --jacobian check is for.)
  for (const char* name : {"TransmissionLine_dae_shapeA_10", "HelloWorld_ode", "CoupledMasses_semi_explicit_shapeA",
                           "CauerLowPass_dae_shapeA"}) {
    auto sim = Simulation::create(Fmu::open(test::fmu_path(name)), options);
    sim->initialize();
    JacobianCheck c = sim->check_jacobian();
    EXPECT_LT(c.max_rel_difference, 1e-5) << name << ": row " << c.row << ", column " << c.column << ": fd "
                                          << c.finite_difference << " vs dd " << c.directional;
  }
}

TEST(Simulation, ParametersAreSetBeforeInitialization) {
  auto sim = Simulation::create(Fmu::open(test::fmu_path("HelloWorld_semi_explicit_shapeA")));
  sim->set("x", 2.0);  // a state's start value
  EXPECT_THROW(sim->set("no_such", 1.0), Error);
  EXPECT_THROW(sim->set("der(x)", 1.0), Error) << "calculated: not settable";
  sim->initialize();
  sim->advance_to(1.0);
  EXPECT_NEAR(sim->get("x"), 2.0 * std::exp(1.4), 1e-4);
  EXPECT_THROW(sim->set("x", 1.0), Error) << "after initialize()";
}

TEST(Simulation, ASolverFailureKeepsTheLastPoint) {
  SimulationOptions options;
  options.max_steps = 20;  // far too few for one output interval of the line
  options.output_interval = 4e-6;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_10")), options);
  sim->initialize();
  try {
    sim->advance_to(4e-6);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::solver);
    std::string message = e.what();
    EXPECT_EQ(message.rfind("ida: at t = ", 0), 0u) << message;
    EXPECT_NE(message.find("IDA_TOO_MUCH_WORK"), std::string::npos) << message;
    EXPECT_NE(message.find("--max-steps"), std::string::npos) << message;
  }
  EXPECT_GT(sim->time(), 0.0);
  EXPECT_LT(sim->time(), 4e-6);
  EXPECT_TRUE(std::isfinite(sim->get("v_load"))) << "the state reached is still readable";
}

TEST(Simulation, OptionsAreChecked) {
  auto fmu = Fmu::open(test::fmu_path("HelloWorld_ode"));
  SimulationOptions bad;
  bad.stop_time = -1;
  EXPECT_THROW(Simulation::create(fmu, bad), Error);
  bad = {};
  bad.klu_ordering = "random";
  EXPECT_THROW(Simulation::create(fmu, bad), Error);
  // Every KLU ordering gives the same solution (to solver accuracy).
  std::vector<double> v;
  for (const char* ordering : {"amd", "colamd", "metis"}) {
    SimulationOptions o;
    o.klu_ordering = ordering;
    auto sim = Simulation::create(Fmu::open(test::fmu_path("TransmissionLine_dae_shapeA_10")), o);
    sim->initialize();
    sim->advance_to(2e-6);
    v.push_back(sim->get("C[5].v"));
  }
  EXPECT_NEAR(v[0], v[1], 1e-7);
  EXPECT_NEAR(v[0], v[2], 1e-7);
}

// Targets summed by the caller (t += dt) land a rounding error past the time
// event at t = 1, right after IDA restarted there; IDA refuses a tout that
// close to its t0, so advance_to must take the point it has.
TEST(Simulation, SummedTargetsJustPastAnEventAreReached) {
  auto sim = Simulation::create(Fmu::open(test::fmu_path("TimeEvent_ode")));
  sim->initialize();
  double t = sim->start_time();
  int rows = 0;
  while (t < sim->stop_time() && rows < 10000) {
    t += 0.01;
    const double reached = sim->advance_to(t);
    ASSERT_EQ(reached, std::min(t, sim->stop_time())) << "at row " << rows;
    ++rows;
  }
  EXPECT_EQ(sim->statistics().time_events, 1);
  EXPECT_EQ(sim->time(), sim->stop_time());
}

// A time event exactly at the stop time: IDA was restarted there with
// IDACalcIC's tout1 equal to t0 and refused ("tout1 too close to t0"), so the
// run failed at its last instant (seen with the Feedthrough Reference-FMU and
// an input table ending at the stop time). The post-event point is the last one.
TEST(Simulation, ATimeEventAtTheStopTimeEndsTheRun) {
  SimulationOptions options;
  options.stop_time = 1.0;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("TimeEvent_ode")), options);
  sim->set("t_switch", 1.0);
  sim->initialize();
  EXPECT_EQ(sim->advance_to(1.0), 1.0);
  EXPECT_EQ(sim->statistics().time_events, 1);
  EXPECT_EQ(sim->get("u"), 1.0) << "the event's new value";
  EXPECT_NEAR(sim->get("x"), std::exp(-1.0 / 0.5), 1e-6);
}

// A ball put at rest by an event (h = v = 0, where the right-hand side jumps:
// any v != 0 means falling) stays there. IDA restarted from the pre-event
// derivative der(v) = -g, which IDACalcIC could not correct with a Jacobian
// taken by differences across the jump: the first step predicted v < 0, the
// ball fell through the floor at once, and 100,000 events followed 1.5e-14 s
// apart until IDA's step limit (e = 0.3, rtol 1e-10, a row every 2 ms). The
// restart now takes the FMU's own derivatives at the re-initialized states.
TEST(Simulation, ABallPutAtRestByAnEventStaysThere) {
  SimulationOptions options;
  options.stop_time = 3.0;
  options.rtol = 1e-10;
  options.output_interval = 0.002;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("BouncingBall_ode")), options);
  sim->set("e", 0.3);
  sim->initialize();
  for (int k = 1; k <= 1500; ++k) sim->advance_to(0.002 * k);
  EXPECT_NEAR(sim->time(), 3.0, 1e-12);
  EXPECT_EQ(sim->get("h"), 0.0);
  EXPECT_EQ(sim->get("v"), 0.0);
  EXPECT_LE(sim->statistics().state_events, 10) << "the bounces and the rest, not a chatter";
}

// A Zeno point: BouncingBall with v_min = 0 (kit, e = 0.7) bounces ever
// faster, the intervals between its state events shrinking geometrically
// (x 0.7) towards t_inf = 2.5586339656 s. lsdae handled 56 impacts, missed the
// 57th (a flight of 2.5e-9 s, below what the root finding resolves) and let
// the ball fall through the floor with exit 0 (h(3) = -0.956). The Zeno guard
// (simulation/event_loop.h) stops the run before t_inf, with the ball still
// on or above the floor and the rows before kept.
TEST(Simulation, AZenoPointStopsTheRunInsteadOfPassingIt) {
  SimulationOptions options;
  options.stop_time = 3.0;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("BouncingBall_zeno")), options);
  sim->initialize();
  std::string message;
  try {
    sim->advance_to(3.0);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::fmu_call);
    message = e.what();
  }
  ASSERT_NE(message.find("(a Zeno point)"), std::string::npos) << "no Zeno message; the run reached t = " << sim->time()
                                                              << " with h = " << sim->get("h") << ": " << message;
  EXPECT_NE(message.find("state events accumulate at t = 2.5586"), std::string::npos) << message;
  EXPECT_NE(message.find("v_min"), std::string::npos) << message;
  const double t_inf = 2.5586339656;
  EXPECT_LT(sim->time(), t_inf);
  EXPECT_GT(sim->time(), t_inf - 1e-4) << "stopped at the accumulation, not at the first bounces";
  EXPECT_GE(sim->get("h"), -1e-12) << "the ball is not below the floor";
  EXPECT_GE(sim->statistics().state_events, 10);
  EXPECT_LE(sim->statistics().state_events, 120);
}

// The guard leaves a sequence the model ends itself alone: the kit's
// BouncingBall with its v_min (the Reference-FMUs' rule) comes to rest at the
// 11th impact, t = 2.4991 s, its intervals shrinking by 0.7 until then.
TEST(Simulation, ABallThatComesToRestIsNoZenoPoint) {
  SimulationOptions options;
  options.stop_time = 3.0;
  auto sim = Simulation::create(Fmu::open(test::fmu_path("BouncingBall_ode")), options);
  sim->initialize();
  EXPECT_EQ(sim->advance_to(3.0), 3.0);
  EXPECT_EQ(sim->get("h"), 0.0);
  EXPECT_EQ(sim->get("v"), 0.0);
}

}  // namespace
}  // namespace lsdae
