// tests/kernels/constant_claims_test.cpp -- kernels/constant_claims.h on the
// Robertson residual (Hairer & Wanner's stiff test, as the FMI project's
// Roberts writes it), whose rate entries are 0 at the start y = (1, 0, 0):
// a claim that they are constant is false, and only a point away from the
// start shows it. Then kernels/derivative_claims.h on the same residual with
// directional derivatives that are wrong in one entry, and with a pattern
// that leaves one dependency out.
#include "kernels/constant_claims.h"
#include "kernels/derivative_claims.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae::kernels {
namespace {

// G = (y1' + 0.04 y1 − 1e4 y2 y3, y2' − 0.04 y1 + 1e4 y2 y3 + 3e7 y2², y1 + y2 + y3 − 1).
class Robertson : public ResidualFunction {
 public:
  std::size_t size() const override { return 3; }
  EvalStatus residual(double, std::span<const double> y, std::span<const double> yp, std::span<double> r) override {
    ++calls;
    r[0] = yp[0] + 0.04 * y[0] - 1e4 * y[1] * y[2];
    r[1] = yp[1] - 0.04 * y[0] + 1e4 * y[1] * y[2] + 3e7 * y[1] * y[1];
    r[2] = y[0] + y[1] + y[2] - 1.0;
    return EvalStatus::ok;
  }
  std::size_t calls = 0;
};

struct Case {
  structure::Pattern pattern = structure::Pattern::from_rows(3, {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}});
  structure::Coloring coloring = structure::color_columns(pattern);
  ConstantEntries entries;
  Case() {
    entries.lifetime.assign(pattern.nnz(), EntryLifetime::run);  // everything claimed constant
    entries.derivative_part.assign(pattern.nnz(), false);
    for (std::size_t c = 0; c < 2; ++c)  // (0,0) and (1,1) have a y' part
      for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p)
        if (pattern.row_idx()[p] == c) entries.derivative_part[p] = true;
  }
  std::size_t entry(std::size_t row, std::size_t col) const {
    for (std::size_t p = pattern.col_ptr()[col]; p < pattern.col_ptr()[col + 1]; ++p)
      if (pattern.row_idx()[p] == row) return p;
    return pattern.nnz();
  }
};

TEST(ConstantClaims, FindsExactlyTheRobertsonRatesThatVary) {
  Case k;
  Robertson f;
  const std::vector<double> y{1.0, 0.0, 0.0}, yp{-0.04, 0.04, 0.0};
  const ClaimCheck check = check_constant_claims(f, k.pattern, k.coloring, k.entries, {1e-5, y, yp, {}});
  ASSERT_TRUE(check.perturbed);
  // Varying: d r0/d y2, d r0/d y3, d r1/d y2, d r1/d y3 (0-based: rows 0, 1; columns 1, 2).
  std::vector<std::size_t> want{k.entry(0, 1), k.entry(1, 1), k.entry(0, 2), k.entry(1, 2)};
  std::sort(want.begin(), want.end());
  std::vector<std::size_t> have;
  for (const FalseClaim& c : check.false_claims) {
    have.push_back(c.entry);
    EXPECT_FALSE(c.derivative_part);
    EXPECT_EQ(c.at_point, 0.0 * c.at_point);  // all four are 0 at the start
    EXPECT_GT(std::fabs(c.at_perturbed), 1.0);
  }
  EXPECT_EQ(have, want);
  EXPECT_EQ(check.residual_calls, f.calls);
  EXPECT_GT(check.checked, 9u);  // nine y parts and two y' parts
}

TEST(ConstantClaims, TrueClaimsPassAndNothingClaimedCostsNothing) {
  Case k;
  Robertson f;
  // Only the entries that are constant claimed: none reported.
  for (std::size_t p : {k.entry(0, 1), k.entry(1, 1), k.entry(0, 2), k.entry(1, 2)})
    k.entries.lifetime[p] = EntryLifetime::varying;
  const std::vector<double> y{0.9, 1e-5, 0.1}, yp{-0.01, 1e-6, 0.01};
  ClaimCheck check = check_constant_claims(f, k.pattern, k.coloring, k.entries, {0.0, y, yp, {}});
  EXPECT_TRUE(check.perturbed);
  EXPECT_TRUE(check.false_claims.empty());
  EXPECT_EQ(check.checked, 6u);  // five y parts; the y' part of (0, 0) ((1, 1) is not claimed)
  k.entries.lifetime.assign(k.pattern.nnz(), EntryLifetime::varying);
  f.calls = 0;
  check = check_constant_claims(f, k.pattern, k.coloring, k.entries, {0.0, y, yp, {}});
  EXPECT_EQ(f.calls, 0u);
  EXPECT_EQ(check.checked, 0u);
}

// r0 = ((1e3 y1 + y3) − 1e3 y2) − y3: large terms cancelling (a bus's current balance at a solved
// point); d r0/d y3 is exactly 0, claimed constant, and its central difference is rounding noise of
// ε·1e3/h that differs between points (3.3e-11 at P0, -2.3e-11 at P1) while |G±| ≈ 0 at P0. Not a
// false claim (issue 31: four such entries of ACTIVSg2000 were reported, 7e-12 apart); a real one
// beside it still is.
class Cancelling : public ResidualFunction {
 public:
  std::size_t size() const override { return 3; }
  EvalStatus residual(double, std::span<const double> y, std::span<const double> yp, std::span<double> r) override {
    r[0] = ((1e3 * y[0] + y[2]) - 1e3 * y[1]) - y[2];
    r[1] = yp[1] - y[0] * y[0];  // d r1/d y1 = 2 y1: not constant
    r[2] = y[2] - 0.3;
    return EvalStatus::ok;
  }
};

TEST(ConstantClaims, RoundingOfCancellingTermsIsNotAVaryingEntry) {
  const structure::Pattern pattern = structure::Pattern::from_rows(3, {{0, 1, 2}, {0, 1}, {2}});
  const structure::Coloring coloring = structure::color_columns(pattern);
  ConstantEntries entries;
  entries.lifetime.assign(pattern.nnz(), EntryLifetime::run);
  entries.derivative_part.assign(pattern.nnz(), false);
  Cancelling f;
  const std::vector<double> y{0.7, 0.7, 0.3}, yp{0.0, 0.49, 0.0};
  const ClaimCheck check = check_constant_claims(f, pattern, coloring, entries, {0.0, y, yp, {}});
  ASSERT_TRUE(check.perturbed);
  ASSERT_EQ(check.false_claims.size(), 1u) << "only d r1/d y1 varies";
  EXPECT_EQ(check.false_claims[0].row, 1u);
  EXPECT_EQ(check.false_claims[0].column, 0u);
}

// Robertson with exact directional derivatives, but d r1/d y2 scaled by
// `factor` (as the kit's Robertson_claims_partial_factor does).
class RobertsonWithDerivatives : public Robertson {
 public:
  explicit RobertsonWithDerivatives(double factor) : factor_(factor) {}
  bool has_jacobian_columns() const override { return true; }
  EvalStatus jacobian_columns_split(double, std::span<const double> y, std::span<const double>, double y_seed,
                                    double yp_seed, std::span<const std::size_t> columns,
                                    std::span<double> jv) override {
    const double j[3][3] = {{0.04, -1e4 * y[2], -1e4 * y[1]},
                            {-0.04, factor_ * (1e4 * y[2] + 6e7 * y[1]), 1e4 * y[1]},
                            {1.0, 1.0, 1.0}};
    std::fill(jv.begin(), jv.end(), 0.0);
    for (std::size_t c : columns)
      for (std::size_t r = 0; r < 3; ++r) jv[r] += y_seed * j[r][c] + (r == c && r < 2 ? yp_seed : 0.0);
    return EvalStatus::ok;
  }
  EvalStatus jacobian_columns(double t, std::span<const double> y, std::span<const double> yp, double cj,
                              std::span<const std::size_t> columns, std::span<double> jv) override {
    return jacobian_columns_split(t, y, yp, 1.0, cj, columns, jv);
  }

 private:
  double factor_;
};

// At the start y2 = y3 = 0 the scaled entry is 0 either way: only the moved
// point shows it. Exactly that entry, and only with the wrong factor.
TEST(DerivativeClaims, AWrongDirectionalDerivativeIsFoundAtTheMovedPoint) {
  Case k;
  const std::vector<double> y{1.0, 0.0, 0.0}, yp{-0.04, 0.04, 0.0};
  RobertsonWithDerivatives wrong(0.5);
  const DerivativeCheck check = check_derivative_claims(wrong, k.pattern, k.coloring, {1e-5, y, yp, {}}, true);
  ASSERT_EQ(check.wrong.size(), 1u);
  EXPECT_EQ(check.wrong[0].row, 1u);
  EXPECT_EQ(check.wrong[0].column, 1u);
  EXPECT_FALSE(check.wrong[0].derivative_part);
  EXPECT_NEAR(check.wrong[0].claimed, 0.5 * check.wrong[0].measured, 1e-6 * std::fabs(check.wrong[0].measured));
  EXPECT_TRUE(check.hidden.empty());
  EXPECT_EQ(check.residual_calls, wrong.calls);
  RobertsonWithDerivatives right(1.0);
  const DerivativeCheck fine = check_derivative_claims(right, k.pattern, k.coloring, {1e-5, y, yp, {}}, true);
  EXPECT_TRUE(fine.wrong.empty());
  EXPECT_TRUE(fine.hidden.empty());
  EXPECT_GT(fine.directional_calls, 0u);
}

// A pattern without d r1/d y3 (the kit's Robertson_claims_hidden): found,
// with its value, without directional derivatives.
TEST(DerivativeClaims, ADependencyThePatternLeavesOutIsFound) {
  const structure::Pattern pattern = structure::Pattern::from_rows(3, {{0, 1, 2}, {0, 1}, {0, 1, 2}});
  const structure::Coloring coloring = structure::color_columns(pattern);
  Robertson f;
  const std::vector<double> y{0.9, 1e-5, 0.1}, yp{-0.01, 1e-6, 0.01};
  const DerivativeCheck check = check_derivative_claims(f, pattern, coloring, {0.0, y, yp, {}}, false);
  EXPECT_TRUE(check.wrong.empty());
  ASSERT_FALSE(check.hidden.empty());
  EXPECT_EQ(check.hidden[0].row, 1u);
  EXPECT_EQ(check.hidden[0].column, 2u);
  // 1e4·y2, at most 1.7e-4 of the row's diagonal 1e4·y3 + 6e7·y2: just above
  // the check's 1e-4 of the row scale at the moved point (y2 = 0.0618).
  EXPECT_GE(check.hidden[0].measured, 1e4 * y[1]);
  EXPECT_EQ(check.directional_calls, 0u);
}

}  // namespace
}  // namespace lsdae::kernels
