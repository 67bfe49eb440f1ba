// tests/kernels/constant_claims_test.cpp -- kernels/constant_claims.h on the
// Robertson residual (Hairer & Wanner's stiff test, as the FMI project's
// Roberts writes it), whose rate entries are 0 at the start y = (1, 0, 0):
// a claim that they are constant is false, and only a point away from the
// start shows it.
#include "kernels/constant_claims.h"

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

}  // namespace
}  // namespace lsdae::kernels
