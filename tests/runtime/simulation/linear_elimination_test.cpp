// tests/runtime/simulation/linear_elimination_test.cpp -- the run-time
// elimination of linear algebraic unknowns (structure/linear_elimination.h,
// runtime/simulation/eliminated_residual.h) on model FMUs unlike each other:
// the TransmissionLine DAE forms (directional derivatives, banded, thousands
// of linear unknowns at scale) and the unusual oscillator (no directional
// derivatives: the coefficients are taken by differences; scattered value
// references, residuals declared first, states out of order, `fixed` kinds).
//
//  - The reduced residual is the full one with the eliminated unknowns
//    solved: at the recovered point the eliminated rows vanish and the kept
//    rows equal the reduced residual (the one-evaluation variant is exact
//    because every entry of an eliminated column is constant).
//  - The reduced Jacobian columns equal finite differences of the reduced
//    residual (the Schur complement is applied right).
//  - A whole run with --eliminate auto follows the run without it to the
//    tolerance, in every continuous variable (the eliminated ones included:
//    they are recovered for output), and with fewer unknowns for IDA; the
//    ControlledMotor through its events; the PowerGrid case9 FMU's plan is
//    refused by the run (more colours), which then is the run without it.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <set>

#include "catalog.h"
#include "lsdae/fmu.h"
#include "lsdae/instance.h"
#include "lsdae/simulation.h"
#include "simulation/eliminated_residual.h"
#include "simulation/elimination_plan.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "structure/coloring.h"
#include "structure/pipeline.h"

namespace lsdae {
namespace {

struct Case {
  std::string fmu;
  std::size_t eliminated;  // unknowns the plan eliminates
  // Largest difference between the runs with and without elimination,
  // relative to the variable's largest magnitude: both are within the
  // tolerance of the exact solution, not of each other (IDA's steps differ;
  // an algebraic unknown tied to a state derivative, like the
  // TransmissionLine's L[k].v = L·der(L[k].i), is not error-controlled at
  // interpolated output rows without elimination: error_test_mask.h).
  double agreement;
  bool refused = false;  // the run refuses the plan (integration_session.cpp: colours)
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.fmu; }

class LinearElimination : public ::testing::TestWithParam<Case> {};

TEST_P(LinearElimination, ReducedResidualIsTheFullOneWithTheEliminatedUnknownsSolved) {
  auto fmu = Fmu::open(test::fmu_path(GetParam().fmu));
  fmu->load_binary();
  const simulation::ModelDae dae = simulation::build_model_dae(*fmu);
  const structure::StructureOutcome st = structure::run_structure(dae.input, nullptr);
  ASSERT_TRUE(st.index1);
  ASSERT_EQ(simulation::elimination_not_planned(dae, *st.index1), "");
  const structure::LinearElimination plan =
      simulation::plan_model_elimination(dae, st.analysis.system, *st.index1, st.iteration);
  ASSERT_EQ(plan.eliminated.size(), GetParam().eliminated);
  const structure::Coloring z_coloring = structure::color_columns(plan.z_columns);

  auto instance = fmu->instantiate("elimination");
  instance->enable_dae_mode();
  instance->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  instance->exit_initialization_mode();
  instance->update_discrete_states();
  instance->enter_continuous_time_mode();
  simulation::ModelResidual full(*instance, dae, st.analysis.system, *st.index1);
  simulation::EliminatedResidual reduced(full, plan, z_coloring, {}, {});
  const std::size_t n = full.size(), nr = reduced.size();
  ASSERT_EQ(nr + plan.eliminated.size(), n);

  // A point near the start values (where the FMU is valid), every unknown moved a little.
  std::vector<double> x(dae.state_vrs.size()), z(dae.algebraic_vrs.size());
  if (!x.empty()) instance->get_continuous_states(x);
  if (!z.empty()) instance->get_float64(dae.algebraic_vrs, z);
  std::vector<double> y(nr), yp(nr), r(nr);
  for (std::size_t i = 0; i < nr; ++i) {
    const structure::IdaUnknown& u = st.index1->unknowns[plan.kept[i]];
    const double v = u.kind == structure::UnknownKind::algebraic ? z[u.index] : x[u.index];
    const double s = std::sin(1.7 * static_cast<double>(i) + 0.4);
    y[i] = v * (1.0 + 0.01 * s) + 0.001 * std::cos(1.3 * static_cast<double>(i));
    yp[i] = 0.1 * s;
  }
  const double t = 1e-7;
  ASSERT_EQ(reduced.residual(t, y, yp, r), kernels::EvalStatus::ok);
  EXPECT_TRUE(reduced.prepared());
  std::vector<double> yf(n), ypf(n), rf(n);
  ASSERT_EQ(reduced.expand(t, y, yp, yf, ypf), kernels::EvalStatus::ok);
  ASSERT_EQ(full.residual(t, yf, ypf, rf), kernels::EvalStatus::ok);
  double scale = 1.0;
  for (const double v : rf) scale = std::max(scale, std::fabs(v));
  for (const double v : r) scale = std::max(scale, std::fabs(v));
  for (const std::size_t row : plan.eliminated_rows) EXPECT_NEAR(rf[row], 0.0, 1e-12 * scale) << "row " << row;
  for (std::size_t i = 0; i < nr; ++i) EXPECT_NEAR(r[i], rf[plan.kept_rows[i]], 1e-12 * scale) << "kept row " << i;

  if (!reduced.has_jacobian_columns()) return;
  // Each reduced column against central differences of the reduced residual.
  const double cj = 3.0;
  std::vector<double> jv(nr), plus(nr), minus(nr), yy = y, yyp = yp;
  for (std::size_t c = 0; c < nr; ++c) {
    const std::size_t columns[] = {c};
    ASSERT_EQ(reduced.jacobian_columns(t, y, yp, cj, columns, jv), kernels::EvalStatus::ok);
    const double h = 1e-6;
    yy[c] = y[c] + h, yyp[c] = yp[c] + cj * h;
    ASSERT_EQ(reduced.residual(t, yy, yyp, plus), kernels::EvalStatus::ok);
    yy[c] = y[c] - h, yyp[c] = yp[c] - cj * h;
    ASSERT_EQ(reduced.residual(t, yy, yyp, minus), kernels::EvalStatus::ok);
    yy[c] = y[c], yyp[c] = yp[c];
    for (std::size_t i = 0; i < nr; ++i) {
      const double fd = (plus[i] - minus[i]) / (2 * h);
      EXPECT_NEAR(jv[i], fd, 1e-6 * std::max(1.0, std::fabs(fd))) << "row " << i << ", column " << c;
      if (std::fabs(jv[i]) > 0) {
        EXPECT_TRUE(plan.reduced.contains(i, c)) << "a nonzero outside the reduced pattern: (" << i << ", " << c << ")";
      }
    }
  }
}

TEST_P(LinearElimination, RunFollowsTheRunWithoutElimination) {
  auto fmu = Fmu::open(test::fmu_path(GetParam().fmu));
  SimulationOptions off, on;
  off.eliminate_linear = false;
  on.eliminate_linear = true;
  // A plan the run refuses (a reduced Jacobian that needs more colours:
  // integration_session.cpp): the run is --eliminate off's.
  const bool refused = GetParam().refused;
  auto a = Simulation::create(fmu, off);
  auto b = Simulation::create(fmu, on);
  a->initialize();
  b->initialize();
  // Every continuous variable but the residuals (zero up to what Newton
  // leaves; with elimination: to rounding in the eliminated rows) and the
  // derivatives (interpolated one order less accurately between steps).
  const simulation::ModelDae dae = simulation::build_model_dae(*fmu);
  std::set<std::string> residuals;
  for (const auto& group : dae.input.residuals)
    for (const auto& f : group.formulations) residuals.insert(f.name);
  std::vector<std::string> names;
  for (const Variable& v : fmu->model_description().variables)
    if (v.type == VariableType::float64 && v.variability == Variability::continuous && v.dimensions.empty() &&
        !residuals.contains(v.name) && v.name.rfind("der(", 0) != 0)
      names.push_back(v.name);
  ASSERT_FALSE(names.empty());
  const double t0 = a->start_time(), t1 = a->stop_time();
  std::vector<double> largest(names.size(), 0.0), worst(names.size(), 0.0);
  for (int k = 1; k <= 40; ++k) {
    const double t = t0 + (t1 - t0) * k / 40.0;
    a->advance_to(t);
    b->advance_to(t);
    for (std::size_t i = 0; i < names.size(); ++i) {
      const double va = a->get(names[i]), vb = b->get(names[i]);
      largest[i] = std::max(largest[i], std::fabs(va));
      worst[i] = std::max(worst[i], std::fabs(va - vb));
    }
  }
  for (std::size_t i = 0; i < names.size(); ++i)
    EXPECT_LE(worst[i], GetParam().agreement * std::max(largest[i], 1e-9))
        << names[i] << " (largest |value| " << largest[i] << ")";
  EXPECT_EQ(a->statistics().eliminated, 0u);
  if (refused) {
    EXPECT_EQ(b->statistics().eliminated, 0u);
    EXPECT_EQ(b->statistics().steps, a->statistics().steps) << "the same run";
    return;
  }
  EXPECT_EQ(b->statistics().eliminated, GetParam().eliminated);
  EXPECT_LT(b->statistics().jacobian_nonzeros, a->statistics().jacobian_nonzeros);
  // The reduced Jacobian keeps its constant entries (classify_reduced_entries)
  // when the FMU has directional derivatives, and a run that evaluates every
  // entry at every Jacobian agrees with it to the tolerance (the same
  // numbers, taken once; summed over other colours they differ in rounding,
  // which moves Newton's iterates a little: case9 6e-7 relative).
  if (fmu->model_description().model_exchange->provides_directional_derivatives) {
    EXPECT_GT(b->statistics().constant_entries, 0u);
    EXPECT_LT(b->statistics().varying_colors, b->statistics().colors);
    SimulationOptions every = on;
    every.constant_jacobian_entries = false;
    auto c = Simulation::create(fmu, every);
    c->initialize();
    c->advance_to(t1);
    b->advance_to(t1);
    EXPECT_EQ(c->statistics().constant_entries, 0u);
    for (std::size_t i = 0; i < names.size(); ++i)
      EXPECT_NEAR(c->get(names[i]), b->get(names[i]), GetParam().agreement * std::max(largest[i], 1e-9)) << names[i];
  }
  std::cout << "[          ] " << GetParam().fmu << ": steps " << a->statistics().steps << " → "
            << b->statistics().steps << ", residual calls " << a->statistics().residual_calls << " → "
            << b->statistics().residual_calls << ", Jacobians " << a->statistics().jacobian_evaluations << " → "
            << b->statistics().jacobian_evaluations << "\n";
}

INSTANTIATE_TEST_SUITE_P(Models, LinearElimination,
                         ::testing::Values(Case{"TransmissionLine_dae_shapeA_10", 31, 1e-4},
                                           Case{"TransmissionLine_dae_shapeB_10", 31, 1e-4},
                                           Case{"UnusualOscillator_semi_explicit_dae_only", 2, 1e-5},
                                           Case{"UnusualOscillator_fully_implicit_dae_only", 2, 1e-5},
                                           // Through a time event and two state events (the
                                           // reduced system's steps scanned inside for crossings).
                                           Case{"ControlledMotor", 2, 1e-3},
                                           // The buses without a machine: a partial Kron reduction
                                           // (132 → 100 nonzeros) that the run refuses, its reduced
                                           // Jacobian needing 10 colours instead of 8.
                                           Case{"PowerGrid_case9_semi_explicit", 8, 1e-3, true}),
                         [](const auto& p) { return p.param.fmu; });

}  // namespace
}  // namespace lsdae
