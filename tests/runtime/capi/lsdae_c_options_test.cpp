// tests/runtime/capi/lsdae_c_options_test.cpp -- the lsdae_options fields of
// lsdae/lsdae.h (runtime/capi/options.h): defaults, translation, rejection of
// bad values with LSDAE_ERR_USAGE and a message naming the field and value,
// and each option reaching the simulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "capi/options.h"
#include "catalog.h"
#include "lsdae/lsdae.h"

namespace {

const double nan = std::numeric_limits<double>::quiet_NaN();
const double inf = std::numeric_limits<double>::infinity();

lsdae_options defaults() {
  lsdae_options options;
  lsdae_options_init(&options);
  return options;
}

// Opens `model` with `options`; fails the test (with the message) otherwise.
lsdae_simulation* open(const std::string& model, const lsdae_options& options) {
  lsdae_simulation* sim = nullptr;
  EXPECT_EQ(lsdae_open(lsdae::test::fmu_path(model).c_str(), &options, &sim), LSDAE_OK) << lsdae_last_error(nullptr);
  return sim;
}

std::string report(lsdae_simulation* sim) {
  const char* text = lsdae_structure_report(sim);
  EXPECT_NE(text, nullptr) << lsdae_last_error(sim);
  return text != nullptr ? text : "";
}

TEST(CApiOptions, InitGivesTheSimulationDefaults) {
  const lsdae_options options = defaults();
  EXPECT_EQ(options.constraints, LSDAE_CONSTRAINTS_DEFAULT);
  EXPECT_TRUE(std::isnan(options.projection_tolerance));
  EXPECT_EQ(options.klu_ordering, nullptr);
  EXPECT_EQ(options.row_order, LSDAE_ROW_ORDER_DEFAULT);
  EXPECT_EQ(options.reselect, 1);
  EXPECT_TRUE(std::isnan(options.max_step));
  EXPECT_EQ(options.max_steps, 100000);
  EXPECT_EQ(options.eliminate, 1) << "--eliminate auto, the default";
  EXPECT_TRUE(std::isnan(options.newton_dcj));
  const lsdae::SimulationOptions o = lsdae::capi::to_simulation_options(&options), d;
  EXPECT_EQ(o.constraints, d.constraints);
  EXPECT_EQ(o.projection_tolerance, d.projection_tolerance);
  EXPECT_EQ(o.klu_ordering, d.klu_ordering);
  EXPECT_EQ(o.match_rows, d.match_rows);
  EXPECT_EQ(o.reselect, d.reselect);
  EXPECT_EQ(o.max_step, d.max_step);
  EXPECT_EQ(o.threads, d.threads);
  EXPECT_EQ(o.max_steps, d.max_steps);
  EXPECT_EQ(o.eliminate_linear, d.eliminate_linear);
  EXPECT_EQ(o.newton_dcj, d.newton_dcj);
  EXPECT_FALSE(o.stop_time.has_value());
}

TEST(CApiOptions, EachFieldIsTranslated) {
  lsdae_options options = defaults();
  options.constraints = LSDAE_CONSTRAINTS_PROJECTION;
  options.projection_tolerance = 1e-9;
  options.klu_ordering = "metis";
  options.row_order = LSDAE_ROW_ORDER_DECLARED;
  options.reselect = 0;
  options.max_step = 0.25;
  options.max_steps = 250;
  lsdae::SimulationOptions o = lsdae::capi::to_simulation_options(&options);
  EXPECT_EQ(o.max_steps, 250);
  EXPECT_EQ(o.constraints, lsdae::ConstraintMethod::projection);
  EXPECT_EQ(o.projection_tolerance, 1e-9);
  EXPECT_EQ(o.klu_ordering, "metis");
  EXPECT_FALSE(o.match_rows);
  EXPECT_FALSE(o.reselect);
  EXPECT_EQ(o.max_step, 0.25);

  options.constraints = LSDAE_CONSTRAINTS_DUMMY_DERIVATIVES;
  options.row_order = LSDAE_ROW_ORDER_MATCHED;
  options.reselect = 1;
  options.klu_ordering = "colamd";
  options.max_step = inf;
  o = lsdae::capi::to_simulation_options(&options);
  EXPECT_EQ(o.constraints, lsdae::ConstraintMethod::dummy_derivatives);
  EXPECT_TRUE(o.match_rows);
  EXPECT_TRUE(o.reselect);
  EXPECT_EQ(o.klu_ordering, "colamd");
  EXPECT_EQ(o.max_step, 0.0) << "+inf is no limit";
  options.max_step = 0.0;
  EXPECT_EQ(lsdae::capi::to_simulation_options(&options).max_step, 0.0);
}

// An int a C caller may store in an enum field, outside the enum's values.
template <typename E>
void store(E& field, int value) {
  static_assert(sizeof(E) == sizeof(int));
  std::memcpy(&field, &value, sizeof value);
}

struct BadOption {
  const char* label;
  void (*spoil)(lsdae_options&);
  const char* expected;  // in the message: the field and the value seen
};

class CApiBadOption : public testing::TestWithParam<BadOption> {};

TEST_P(CApiBadOption, IsAUsageErrorNamingFieldAndValue) {
  lsdae_options options = defaults();
  GetParam().spoil(options);
  lsdae_simulation* sim = nullptr;
  EXPECT_EQ(lsdae_open(lsdae::test::fmu_path("HelloWorld_ode").c_str(), &options, &sim), LSDAE_ERR_USAGE);
  EXPECT_EQ(sim, nullptr);
  const std::string message = lsdae_last_error(nullptr);
  EXPECT_EQ(message.rfind("lsdae_open: options.", 0), 0u) << message;
  EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
  EXPECT_NE(message.find(" → "), std::string::npos) << "says what to do: " << message;
}

INSTANTIATE_TEST_SUITE_P(
    Fields, CApiBadOption,
    testing::Values(
        BadOption{"klu_ordering", [](lsdae_options& o) { o.klu_ordering = "nested_dissection"; },
                  "klu_ordering = \"nested_dissection\" is not one of amd, colamd, metis"},
        BadOption{"klu_ordering_empty", [](lsdae_options& o) { o.klu_ordering = ""; }, "klu_ordering = \"\""},
        BadOption{"constraints", [](lsdae_options& o) { store(o.constraints, 4); },
                  "constraints = 4 is not one of LSDAE_CONSTRAINTS_DEFAULT"},
        BadOption{"row_order", [](lsdae_options& o) { o.row_order = static_cast<lsdae_row_order>(3); },
                  "row_order = 3"},
        BadOption{"reselect", [](lsdae_options& o) { o.reselect = 2; }, "reselect = 2 is not 0 or 1"},
        BadOption{"eliminate", [](lsdae_options& o) { o.eliminate = -1; }, "eliminate = -1"},
        BadOption{"projection_tolerance", [](lsdae_options& o) { o.projection_tolerance = -1e-6; },
                  "projection_tolerance = -1e-06 is out of range"},
        BadOption{"projection_tolerance_zero", [](lsdae_options& o) { o.projection_tolerance = 0.0; },
                  "projection_tolerance = 0"},
        BadOption{"projection_tolerance_inf", [](lsdae_options& o) { o.projection_tolerance = inf; },
                  "projection_tolerance = inf is not a finite number"},
        BadOption{"max_step", [](lsdae_options& o) { o.max_step = -0.5; }, "max_step = -0.5"},
        BadOption{"newton_dcj", [](lsdae_options& o) { o.newton_dcj = 1.0; },
                  "newton_dcj = 1 is out of range: the cj band of IDA's Newton matrix must be greater than 0 and "
                  "less than 1 → e.g. options.newton_dcj = 0.4"},
        BadOption{"newton_dcj_inf", [](lsdae_options& o) { o.newton_dcj = -inf; }, "newton_dcj = -inf"},
        BadOption{"threads", [](lsdae_options& o) { o.threads = -2; }, "threads = -2 is out of range: the thread count must be a whole number from 1 to 1024"},
        // <= 0 is refused, as `lsdae simulate --max-steps 0` is (it used to mean the default here).
        BadOption{"max_steps_zero", [](lsdae_options& o) { o.max_steps = 0; }, "max_steps = 0 is out of range"},
        BadOption{"max_steps_negative", [](lsdae_options& o) { o.max_steps = -5; }, "max_steps = -5"},
        // The table's range everywhere: --rtol 5 was refused by the command line and taken from C.
        BadOption{"rtol", [](lsdae_options& o) { o.rtol = 5; },
                  "rtol = 5 is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. options.rtol = 1e-6"},
        // Any other value used to mean automatic; now an enum field holds one of its values.
        BadOption{"jacobian", [](lsdae_options& o) { store(o.jacobian, 7); },
                  "jacobian = 7 is not one of LSDAE_JACOBIAN_AUTO, LSDAE_JACOBIAN_FINITE_DIFFERENCES"},
        BadOption{"linear_solver", [](lsdae_options& o) { o.linear_solver = "sparse"; },
                  "linear_solver = \"sparse\" is not one of klu, klu64, dense"},
        BadOption{"coloring", [](lsdae_options& o) { o.coloring = 3; }, "coloring = 3 is not 0 or 1"}),
    [](const auto& param_info) { return std::string(param_info.param.label); });

// One message per bad field, each naming its field as C spells it.
TEST(CApiOptions, EveryBadFieldIsNamedOnItsOwnLine) {
  lsdae_options options = defaults();
  options.rtol = 0;
  options.threads = 2000;
  lsdae_simulation* sim = nullptr;
  EXPECT_EQ(lsdae_open(lsdae::test::fmu_path("HelloWorld_ode").c_str(), &options, &sim), LSDAE_ERR_USAGE);
  const std::string message = lsdae_last_error(nullptr);
  EXPECT_EQ(message,
            "lsdae_open: options.rtol = 0 is out of range: the relative tolerance must be from 1e-15 to 1 → e.g. "
            "options.rtol = 1e-6\n"
            "lsdae_open: options.threads = 2000 is out of range: the thread count must be a whole number from 1 to "
            "1024 → e.g. options.threads = 4");
}

// --- each option reaches the simulation (Pendulum: index 3, reduced at run time) ---

TEST(CApiOptions, ProjectionMethodReachesTheSimulation) {
  lsdae_options options = defaults();
  options.constraints = LSDAE_CONSTRAINTS_PROJECTION;
  lsdae_simulation* sim = open("Pendulum_dae_shapeA", options);
  ASSERT_NE(sim, nullptr);
  EXPECT_NE(report(sim).find("index reduction: projection"), std::string::npos) << report(sim);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  double t = 0;
  for (int k = 1; k <= 200; ++k) ASSERT_EQ(lsdae_advance_to(sim, 0.01 * k, &t), LSDAE_OK) << lsdae_last_error(sim);
  lsdae_stats stats;
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  EXPECT_GT(stats.projections, 0);
  EXPECT_EQ(stats.reselections, 0) << "no dummy derivatives to re-select";
  lsdae_free(sim);
}

TEST(CApiOptions, ProjectionToleranceReachesTheSimulation) {
  auto projections = [](double tolerance) {
    lsdae_options options = defaults();
    options.constraints = LSDAE_CONSTRAINTS_PROJECTION;
    options.projection_tolerance = tolerance;
    lsdae_simulation* sim = open("Pendulum_dae_shapeA", options);
    if (sim == nullptr) return -1L;
    lsdae_stats stats{};
    double t = 0;
    if (lsdae_initialize(sim) != LSDAE_OK || lsdae_advance_to(sim, 2.0, &t) != LSDAE_OK ||
        lsdae_statistics(sim, &stats) != LSDAE_OK)
      ADD_FAILURE() << lsdae_last_error(sim);
    lsdae_free(sim);
    return stats.projections;
  };
  // The default, 10·atol = 1e-7 (DefaultExperiment tolerance 1e-8), is
  // exceeded a few times in 2 s; 1e-5 never is.
  EXPECT_GT(projections(nan), 0);
  EXPECT_EQ(projections(1e-5), 0) << "the constraints never drift by 1e-5";
}

TEST(CApiOptions, DummyDerivativesAreTheDefaultAndReselect) {
  lsdae_simulation* sim = open("Pendulum_dae_shapeA", defaults());
  ASSERT_NE(sim, nullptr);
  EXPECT_NE(report(sim).find("index reduction: dummy derivatives"), std::string::npos) << report(sim);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  double t = 0;
  ASSERT_EQ(lsdae_advance_to(sim, 2.0, &t), LSDAE_OK) << lsdae_last_error(sim);
  lsdae_stats stats;
  ASSERT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
  EXPECT_GT(stats.reselections, 0);
  EXPECT_EQ(stats.projections, 0);
  lsdae_free(sim);
}

TEST(CApiOptions, ReselectOffReachesTheSimulation) {
  lsdae_options options = defaults();
  options.reselect = 0;
  lsdae_simulation* sim = open("Pendulum_dae_shapeA", options);
  ASSERT_NE(sim, nullptr);
  ASSERT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
  double t = 0;
  EXPECT_EQ(lsdae_advance_to(sim, 2.0, &t), LSDAE_ERR_SOLVER) << "x as a dummy state is singular where the rod is vertical";
  EXPECT_LT(t, 1.0);
  lsdae_free(sim);
}

// --eliminate auto from C: the TransmissionLine's 241 linear algebraic
// unknowns leave IDA, and the run agrees with the one that keeps them.
TEST(CApiOptions, EliminateReachesTheSimulation) {
  auto run = [](int eliminate, lsdae_stats& stats) {
    lsdae_options options = defaults();
    options.eliminate = eliminate;
    lsdae_simulation* sim = open("TransmissionLine_dae_shapeA_80", options);
    EXPECT_NE(sim, nullptr);
    if (sim == nullptr) return 0.0;
    EXPECT_EQ(lsdae_initialize(sim), LSDAE_OK) << lsdae_last_error(sim);
    EXPECT_EQ(lsdae_advance_to(sim, 1e-6, nullptr), LSDAE_OK) << lsdae_last_error(sim);
    EXPECT_EQ(lsdae_statistics(sim, &stats), LSDAE_OK);
    double v = 0;
    EXPECT_EQ(lsdae_get(sim, "L[76].i", &v), LSDAE_OK) << lsdae_last_error(sim);
    lsdae_free(sim);
    return v;
  };
  lsdae_stats kept{}, eliminated{};
  const double a = run(0, kept), b = run(1, eliminated);
  EXPECT_EQ(kept.eliminated, 0u);
  EXPECT_EQ(eliminated.eliminated, 241u);
  EXPECT_EQ(eliminated.unknowns, kept.unknowns) << "the model's size is the whole DAE's";
  EXPECT_EQ(eliminated.klu_analyses_carried_over, 0) << "a fresh model: nothing to carry over";
  EXPECT_NEAR(a, b, 1e-5 * std::max(1.0, std::abs(a)));
}

TEST(CApiOptions, RowOrderReachesTheSimulation) {
  lsdae_simulation* matched = open("Pendulum_dae_shapeA", defaults());
  lsdae_options options = defaults();
  options.row_order = LSDAE_ROW_ORDER_DECLARED;
  lsdae_simulation* declared = open("Pendulum_dae_shapeA", options);
  ASSERT_NE(matched, nullptr);
  ASSERT_NE(declared, nullptr);
  EXPECT_NE(report(matched).find("(matched order)"), std::string::npos) << report(matched);
  EXPECT_NE(report(declared).find("(declared order)"), std::string::npos) << report(declared);
  lsdae_free(matched);
  lsdae_free(declared);
}

// The fill of the LU factors after one step of TransmissionLine, per ordering.
long klu_fill(const char* ordering) {
  lsdae_options options = defaults();
  options.klu_ordering = ordering;
  options.stop_time = 1e-9;
  lsdae_simulation* sim = open("TransmissionLine_dae_shapeA_40", options);
  if (sim == nullptr) return -1;
  lsdae_stats stats{};
  double t = 0;
  if (lsdae_initialize(sim) != LSDAE_OK || lsdae_advance_to(sim, 1e-9, &t) != LSDAE_OK ||
      lsdae_statistics(sim, &stats) != LSDAE_OK)
    ADD_FAILURE() << lsdae_last_error(sim);
  lsdae_free(sim);
  return stats.klu_lnz + stats.klu_unz;
}

TEST(CApiOptions, KluOrderingReachesTheSimulation) {
  const long amd = klu_fill("amd"), colamd = klu_fill("colamd");
  EXPECT_GT(amd, 0);
  EXPECT_EQ(klu_fill(nullptr), amd) << "NULL is amd";
  EXPECT_NE(colamd, amd) << "a different ordering, a different fill";
}

TEST(CApiOptions, MaxStepReachesTheSimulation) {
  auto steps = [](double max_step) {
    lsdae_options options = defaults();
    options.stop_time = 0.5;
    options.max_step = max_step;
    lsdae_simulation* sim = open("HelloWorld_ode", options);
    if (sim == nullptr) return -1L;
    lsdae_stats stats{};
    double t = 0;
    if (lsdae_initialize(sim) != LSDAE_OK || lsdae_advance_to(sim, 0.5, &t) != LSDAE_OK ||
        lsdae_statistics(sim, &stats) != LSDAE_OK)
      ADD_FAILURE() << lsdae_last_error(sim);
    lsdae_free(sim);
    return stats.steps;
  };
  const long unlimited = steps(nan);
  EXPECT_LT(unlimited, 200);
  EXPECT_EQ(steps(0.0), unlimited);
  EXPECT_GE(steps(1e-3), 500) << "0.5 s in steps of at most 1e-3 s";
}

// IDA's cj band (IDASetDeltaCjLSetup): a wider one, fewer linear-solver setups
// (HelloWorld_ode, 1 s: 26 at IDA's 0.25, 14 at 0.5).
TEST(CApiOptions, NewtonDcjReachesIda) {
  auto setups = [](double dcj) {
    lsdae_options options = defaults();
    options.newton_dcj = dcj;
    lsdae_simulation* sim = open("HelloWorld_ode", options);
    if (sim == nullptr) return -1L;
    lsdae_stats stats{};
    double t = 0;
    if (lsdae_initialize(sim) != LSDAE_OK || lsdae_advance_to(sim, 1.0, &t) != LSDAE_OK ||
        lsdae_statistics(sim, &stats) != LSDAE_OK)
      ADD_FAILURE() << lsdae_last_error(sim);
    lsdae_free(sim);
    return stats.linear_solver_setups;
  };
  const long by_default = setups(nan);
  EXPECT_GT(by_default, 0);
  EXPECT_EQ(setups(0.25), by_default) << "NaN is IDA's 0.25";
  EXPECT_LT(setups(0.5), by_default);
}

}  // namespace
