// tests/runtime/simulation/constant_jacobian_test.cpp -- the constant Jacobian
// entries (kernels/compressed_jacobian.h, runtime/simulation/
// jacobian_constancy.h) on every model FMU of the catalog (the kit models and
// the PowerGrid FMUs): the iteration matrix assembled with the constants
// evaluated once equals the one evaluated entry by entry, at the point where
// the constants were taken AND at a second point with another cj, where they
// are re-used.
//
// Directional derivatives: equal to rounding. Bitwise is not to be had:
// a constant entry a + cj·b is summed by lsdae where the FMU summed
// ∂G/∂x·1 + ∂G/∂ẋ·cj in its own order, and a colour that subtracts known
// constants cancels them in floating point. The bound is 8 ε times the sum of
// the row's absolute entries (what the subtraction and one re-association can
// lose); the test also reports how many entries came out bitwise equal.
// Finite differences: both are difference quotients whose error is
// O(√ε · row scale); they must agree to 1e-6 of the row's scale.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <set>

#include "catalog.h"
#include "kernels/compressed_jacobian.h"
#include "kernels/constant_claims.h"
#include "kernels/derivative_claims.h"
#include "lsdae/fmu.h"
#include "lsdae/instance.h"
#include "simulation/model_dae.h"
#include "simulation/model_residual.h"
#include "simulation/jacobian_constancy.h"
#include "structure/coloring_varying.h"
#include "structure/pipeline.h"

namespace lsdae {
namespace {

struct Problem {
  std::shared_ptr<Fmu> fmu;
  simulation::ModelDae dae;
  structure::StructureOutcome structure;
  std::unique_ptr<Instance> instance;
  std::unique_ptr<simulation::ModelResidual> residual;
};

std::vector<std::string> catalog_names() {
  std::vector<std::string> names;
  for (const auto& f : test::catalog()) names.push_back(f.name);
  return names;
}

// A point near the FMU's start values: every unknown moved a little, so no
// entry sits at a special value; y' nonzero.
void make_point(Problem& p, double spread, std::vector<double>& y, std::vector<double>& yp) {
  Instance& inst = *p.instance;
  const std::size_t n = p.dae.state_vrs.size(), m = p.dae.algebraic_vrs.size();
  std::vector<double> x(n), xdot(n, 0.0), z(m);
  if (n > 0) inst.get_continuous_states(x);
  if (m > 0) inst.get_float64(p.dae.algebraic_vrs, z);
  const auto& unknowns = p.structure.index1->unknowns;
  y.assign(unknowns.size(), 0.0);
  yp.assign(unknowns.size(), 0.0);
  for (std::size_t k = 0; k < unknowns.size(); ++k) {
    const auto& u = unknowns[k];
    double v = 0.0;
    switch (u.kind) {
      case structure::UnknownKind::differential:
      case structure::UnknownKind::dummy_state: v = x[u.index]; break;
      case structure::UnknownKind::dummy_derivative: v = xdot[u.index]; break;
      case structure::UnknownKind::algebraic: v = z[u.index]; break;
    }
    const double s = std::sin(0.7 * static_cast<double>(k) + spread);
    y[k] = v * (1.0 + 0.01 * spread * s) + 0.001 * spread * std::cos(1.3 * static_cast<double>(k));
    yp[k] = 0.1 * spread * s;
  }
}

class ConstantJacobian : public ::testing::TestWithParam<std::string> {};

// FMUs of models/claims that declare varying entries constant on purpose
// (issue 32): the runtime's check (kernels/constant_claims.h, as
// IntegrationSession::make runs it) must find false entries in exactly
// these, and none in any other FMU of the catalog (a true claim demoted
// would move the counters). With the false entries demoted, the assembled
// matrix equals the entry-by-entry one.
const std::set<std::string> kFalseConstantClaims = {"Robertson_claims_constant", "Robertson_claims_constant_nodd"};
// FMUs with wrong directional derivatives, and with a pattern that leaves
// out a dependency, on purpose: the runtime's check of those claims
// (kernels/derivative_claims.h, as IntegrationSession::make runs it) must
// find them in exactly these and in no other FMU of the catalog (a true
// claim found false would move the run to finite differences). With wrong
// derivatives the runtime uses finite differences, and so does the test.
const std::set<std::string> kWrongPartials = {"Robertson_claims_partial_factor", "HelloWorld_claims_partial_sign",
                                              "Pendulum_claims_partial_sign"};
const std::set<std::string> kHiddenDependencies = {"Robertson_claims_hidden", "HelloWorld_claims_hidden"};

TEST_P(ConstantJacobian, AssembledMatrixEqualsTheEntryByEntryOne) {
  Problem p;
  p.fmu = Fmu::open(test::fmu_path(GetParam()));
  p.dae = simulation::build_model_dae(*p.fmu);
  structure::PipelineOptions options;
  options.best_ordering = true;
  p.structure = structure::run_structure(p.dae.input, nullptr, options);
  if (!p.structure.index1 || !p.structure.coloring) GTEST_SKIP() << "no index-1 system: " << p.structure.analysis.error;
  p.fmu->load_binary();
  p.instance = p.fmu->instantiate("constant-jacobian-test");
  if (p.fmu->manifest().present()) p.instance->enable_dae_mode();
  const double t0 = p.fmu->model_description().default_experiment.start_time.value_or(0.0);
  p.instance->enter_initialization_mode(std::nullopt, t0, std::nullopt);
  p.instance->exit_initialization_mode();
  p.instance->update_discrete_states();
  p.instance->enter_continuous_time_mode();
  p.residual = std::make_unique<simulation::ModelResidual>(*p.instance, p.dae, p.structure.analysis.system,
                                                         *p.structure.index1);

  const structure::Pattern& pattern = p.structure.iteration;
  const structure::Coloring& coloring = *p.structure.coloring;
  if (p.residual->has_jacobian_columns()) {
    // The FMU asked for a colour's rows only (jacobian_columns_at_rows),
    // the point written at the first colour only: bitwise the full call's
    // values at those rows, for each part and the iteration matrix.
    std::vector<double> y, yp, full(pattern.cols()), rows_only(pattern.cols());
    make_point(p, 1.0, y, yp);
    std::vector<std::size_t> rows;
    for (const auto& [ys, yps] : {std::pair{1.0, 0.0}, std::pair{0.0, 1.0}, std::pair{1.0, 37.5}}) {
      bool at_point = false;
      for (std::size_t g = 0; g < coloring.colors; ++g) {
        rows.clear();
        for (std::size_t c : coloring.group(g))
          for (std::size_t q = pattern.col_ptr()[c]; q < pattern.col_ptr()[c + 1]; ++q)
            rows.push_back(pattern.row_idx()[q]);
        if (rows.empty()) continue;
        if (p.residual->jacobian_columns_at_rows(t0, y, yp, ys, yps, coloring.group(g), rows, at_point, rows_only) !=
            kernels::EvalStatus::ok)
          break;
        at_point = true;
        ASSERT_EQ(p.residual->jacobian_columns_split(t0, y, yp, ys, yps, coloring.group(g), full),
                  kernels::EvalStatus::ok);
        for (std::size_t r : rows)
          ASSERT_EQ(std::memcmp(&rows_only[r], &full[r], sizeof(double)), 0)
              << GetParam() << ": colour " << g << ", row " << r << ", seeds " << ys << "/" << yps << ": "
              << rows_only[r] << " against " << full[r];
      }
    }
  }
  kernels::ConstantEntries entries =
      simulation::classify_jacobian_entries(p.dae, p.structure.analysis.system, *p.structure.index1, pattern);
  {
    // The runtime's check of the claims, at the first point below.
    std::vector<double> y, yp, r(pattern.cols());
    make_point(p, 1.0, y, yp);
    if (p.residual->residual(t0, y, yp, r) != kernels::EvalStatus::ok) make_point(p, 0.0, y, yp);
    const kernels::ClaimCheck check = kernels::check_constant_claims(*p.residual, pattern, coloring, entries,
                                                                     {t0, y, yp, {}});
    for (const kernels::FalseClaim& c : check.false_claims) {
      entries.lifetime[c.entry] = kernels::EntryLifetime::varying;
      if (kFalseConstantClaims.count(GetParam()) == 0) {
        ADD_FAILURE() << GetParam() << ": entry (" << c.row << ", " << c.column << ") declared constant is "
                      << c.at_point << " at one point and " << c.at_perturbed << " at another";
      }
    }
    if (kFalseConstantClaims.count(GetParam()) != 0) {
      EXPECT_FALSE(check.false_claims.empty()) << GetParam() << " declares varying entries constant on purpose";
    }
    const kernels::DerivativeCheck derivatives =
        kernels::check_derivative_claims(*p.residual, pattern, coloring, {t0, y, yp, {}}, true);
    EXPECT_EQ(!derivatives.wrong.empty(), kWrongPartials.count(GetParam()) != 0)
        << GetParam() << ": " << derivatives.wrong.size() << " wrong directional derivative(s) found, the first "
        << (derivatives.wrong.empty() ? std::string("-")
                                      : std::to_string(derivatives.wrong[0].row) + "/" +
                                            std::to_string(derivatives.wrong[0].column) + ": " +
                                            std::to_string(derivatives.wrong[0].claimed) + " against " +
                                            std::to_string(derivatives.wrong[0].measured));
    EXPECT_EQ(!derivatives.hidden.empty(), kHiddenDependencies.count(GetParam()) != 0)
        << GetParam() << ": " << derivatives.hidden.size() << " hidden dependenc(ies) found, the first "
        << (derivatives.hidden.empty() ? std::string("-")
                                       : std::to_string(derivatives.hidden[0].row) + "/" +
                                             std::to_string(derivatives.hidden[0].column) + ": " +
                                             std::to_string(derivatives.hidden[0].measured));
    if (!derivatives.wrong.empty()) p.residual->distrust_directional();
  }
  std::vector<bool> constant(pattern.nnz());
  for (std::size_t q = 0; q < constant.size(); ++q)
    constant[q] = entries.lifetime[q] != kernels::EntryLifetime::varying;
  // Both colourings, whichever would be chosen: the subtracting one is what
  // the large grids use (case13659pegase: 3 colours against 50).
  for (const auto choice : {structure::VaryingChoice::exclusive, structure::VaryingChoice::subtract}) {
    const structure::VaryingColoring varying = structure::color_varying_columns(pattern, constant, choice);
    std::string why;
    ASSERT_TRUE(structure::verify_varying_coloring(pattern, constant, varying.coloring, &why)) << why;
    if (GetParam().rfind("TransmissionLine", 0) == 0 || GetParam().rfind("PowerGrid", 0) == 0) {
      EXPECT_GT(varying.constant_entries, 0u) << "the kit declares these models' constant coefficients";
    }

    const bool directional = p.residual->has_jacobian_columns();
    kernels::ResidualFunction* pool[] = {p.residual.get()};
    kernels::CompressedJacobian plain(pattern, coloring, 1), split(pattern, coloring, 1);
    split.set_constant_entries(entries, varying.coloring);
    const std::size_t N = pattern.cols();
    std::size_t bitwise = 0, compared = 0;
    // Two points: the constants are taken at the first and re-used at the second.
    for (const auto& [spread, cj] : {std::pair{1.0, 1e3}, std::pair{2.0, 37.5}}) {
      std::vector<double> y, yp, r(N), weights(N, 1e6);
      make_point(p, spread, y, yp);
      if (p.residual->residual(t0, y, yp, r) != kernels::EvalStatus::ok) {
        make_point(p, 0.0, y, yp);
        ASSERT_EQ(p.residual->residual(t0, y, yp, r), kernels::EvalStatus::ok);
      }
      kernels::JacobianPoint point{t0, y, yp, r, cj, 1.0 / cj, weights, {}};
      for (const bool use_directional : {true, false}) {
        if (use_directional && !directional) continue;
        std::vector<double> want(pattern.nnz()), have(pattern.nnz());
        ASSERT_EQ(use_directional ? plain.evaluate_directional(pool, point, want)
                                  : plain.evaluate_finite_differences(pool, point, want),
                  kernels::EvalStatus::ok);
        ASSERT_EQ(use_directional ? split.evaluate_directional(pool, point, have)
                                  : split.evaluate_finite_differences(pool, point, have),
                  kernels::EvalStatus::ok);
        std::vector<double> row_scale(N, 0.0);
        for (std::size_t q = 0; q < pattern.nnz(); ++q) row_scale[pattern.row_idx()[q]] += std::fabs(want[q]);
        for (std::size_t c = 0; c < N; ++c)
          for (std::size_t q = pattern.col_ptr()[c]; q < pattern.col_ptr()[c + 1]; ++q) {
            const std::size_t row = pattern.row_idx()[q];
            const double bound = use_directional ? 8 * std::numeric_limits<double>::epsilon() * row_scale[row]
                                                 : 1e-6 * row_scale[row];
            ASSERT_LE(std::fabs(have[q] - want[q]), bound)
                << GetParam() << (use_directional ? " directional" : " finite differences") << ", cj " << cj
                << ": row " << row << ", column " << c << (constant[q] ? " (constant)" : " (varying)") << ": "
                << have[q] << " against " << want[q];
            if (use_directional) {
              ++compared;
              if (have[q] == want[q]) ++bitwise;
            }
          }
      }
    }
    // The constants were evaluated once; every Jacobian after that costs the varying colours.
    EXPECT_EQ(split.counters().constant_evaluations, varying.constant_entries > 0 ? 1u : 0u);
    EXPECT_EQ(split.varying_colors(), varying.constant_entries > 0 ? varying.coloring.colors : coloring.colors);
    std::cout << GetParam() << ": " << varying.constant_entries << " of " << pattern.nnz() << " entries constant, "
              << coloring.colors << " colours → " << split.varying_colors() << " ("
              << (varying.subtracts ? "subtracting" : "exclusive") << "); directional entries bitwise equal: "
              << bitwise << " of " << compared << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(Catalog, ConstantJacobian, ::testing::ValuesIn(catalog_names()),
                         [](const auto& name) { return name.param; });

}  // namespace
}  // namespace lsdae
