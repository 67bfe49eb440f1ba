// tests/structure/coloring_varying_test.cpp -- structure/coloring_varying.cpp.
#include "structure/coloring_varying.h"

#include <gtest/gtest.h>

#include <random>

namespace lsdae::structure {
namespace {

// An arrow: row 0 and column 0 full, plus the diagonal. With the first row
// constant (a network balance with known coefficients) the other columns
// need one colour instead of n − 1.
Pattern arrow(std::size_t n) {
  std::vector<std::vector<std::size_t>> rows(n);
  for (std::size_t j = 0; j < n; ++j) rows[0].push_back(j);
  for (std::size_t i = 1; i < n; ++i) rows[i] = {0, i};
  return Pattern::from_rows(n, rows);
}

std::vector<bool> row_constant(const Pattern& p, std::size_t row) {
  std::vector<bool> f(p.nnz(), false);
  for (std::size_t q = 0; q < p.nnz(); ++q) f[q] = p.row_idx()[q] == row;
  return f;
}

TEST(ColoringVarying, AConstantDenseRowNoLongerSeparatesTheColumns) {
  const Pattern p = arrow(50);
  EXPECT_EQ(color_columns_best(p).colors, 50u);
  // Row 0 and column 0 constant except their corner: only the diagonal varies.
  std::vector<bool> constant = row_constant(p, 0);
  for (std::size_t q = p.col_ptr()[0]; q < p.col_ptr()[1]; ++q) constant[q] = p.row_idx()[q] == 0 ? false : true;
  const VaryingColoring v = color_varying_columns(p, constant);
  EXPECT_EQ(v.exclusive_colors, 50u);
  EXPECT_EQ(v.subtract_colors, 1u) << "the varying entries form the diagonal";
  EXPECT_TRUE(v.subtracts);
  EXPECT_EQ(v.coloring.colors, 1u);
  EXPECT_EQ(v.varying_columns, 50u);
  EXPECT_EQ(v.constant_entries, 49u + 49u);
  std::string why;
  EXPECT_TRUE(verify_varying_coloring(p, constant, v.coloring, &why)) << why;
}

TEST(ColoringVarying, ColumnsWithoutVaryingEntriesAreLeftOut) {
  const Pattern p = arrow(6);
  std::vector<bool> constant(p.nnz(), false);
  for (std::size_t q = p.col_ptr()[3]; q < p.col_ptr()[4]; ++q) constant[q] = true;  // column 3 all constant
  const VaryingColoring v = color_varying_columns(p, constant);
  EXPECT_EQ(v.coloring.color[3], no_index);
  EXPECT_EQ(v.varying_columns, 5u);
  for (std::size_t c = 0; c < v.coloring.colors; ++c)
    for (std::size_t j : v.coloring.group(c)) EXPECT_NE(j, 3u);
  EXPECT_EQ(v.coloring.colors, 5u) << "the other five still share row 0";
  EXPECT_FALSE(v.subtracts) << "a tie goes to the exclusive colouring";
}

TEST(ColoringVarying, EverythingConstantNeedsNoColour) {
  const Pattern p = arrow(10);
  const VaryingColoring v = color_varying_columns(p, std::vector<bool>(p.nnz(), true));
  EXPECT_EQ(v.coloring.colors, 0u);
  EXPECT_EQ(v.varying_columns, 0u);
  EXPECT_TRUE(verify_varying_coloring(p, std::vector<bool>(p.nnz(), true), v.coloring));
}

TEST(ColoringVarying, RandomPatternsGiveValidColouringsNeverWorseThanTheFullOne) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t n = 30 + static_cast<std::size_t>(trial);
    std::vector<std::vector<std::size_t>> rows(n);
    for (std::size_t i = 0; i < n; ++i) {
      rows[i].push_back(i);
      for (int k = 0; k < 3; ++k) rows[i].push_back(rng() % n);
    }
    const Pattern p = Pattern::from_rows(n, rows);
    std::vector<bool> constant(p.nnz());
    for (std::size_t q = 0; q < p.nnz(); ++q) constant[q] = rng() % 3 != 0;
    const VaryingColoring v = color_varying_columns(p, constant);
    std::string why;
    ASSERT_TRUE(verify_varying_coloring(p, constant, v.coloring, &why)) << "trial " << trial << ": " << why;
    EXPECT_LE(v.coloring.colors, color_columns_best(p).colors) << "trial " << trial;
    EXPECT_EQ(v.coloring.colors, std::min(v.exclusive_colors, v.subtract_colors));
  }
}

TEST(ColoringVarying, VerifyNamesTheCollision) {
  const Pattern p = arrow(4);
  Coloring one;
  one.colors = 1;
  one.color.assign(4, 0);
  one.group_ptr = {0, 4};
  one.group_columns = {0, 1, 2, 3};
  std::string why;
  EXPECT_FALSE(verify_varying_coloring(p, std::vector<bool>(p.nnz(), false), one, &why));
  EXPECT_NE(why.find("row 0"), std::string::npos) << why;
  EXPECT_FALSE(verify_varying_coloring(p, std::vector<bool>(3, false), one, &why));
  EXPECT_NE(why.find("sizes differ"), std::string::npos) << why;
}

}  // namespace
}  // namespace lsdae::structure
