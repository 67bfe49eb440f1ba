// tests/structure/coloring_test.cpp -- structure/coloring.h
#include "structure/coloring.h"

#include <gtest/gtest.h>

#include <random>

#include "structure/iteration_pattern.h"
#include "structure/pantelides.h"
#include "test_models.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;

Pattern tridiagonal(std::size_t n) {
  PatternBuilder b(n, n);
  for (std::size_t k = 0; k < n; ++k) {
    std::vector<std::size_t> row{k};
    if (k > 0) row.push_back(k - 1);
    if (k + 1 < n) row.push_back(k + 1);
    b.add_row(row);
  }
  return std::move(b).build();
}

Pattern transmission_line_iteration(std::size_t segments) {
  const DaeSystem s = build_system(test::transmission_line(segments));
  return iteration_pattern(s, make_projection_system(s, pantelides(s)));
}

// Columns renumbered by a Fisher–Yates shuffle driven by mt19937 (exact on every platform).
Pattern shuffled_columns(const Pattern& p, unsigned seed) {
  std::vector<std::size_t> perm(p.cols());
  for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::mt19937 rng(seed);
  for (std::size_t i = perm.size(); i > 1; --i) std::swap(perm[i - 1], perm[rng() % i]);
  PatternBuilder b(p.cols(), p.rows());
  std::vector<std::size_t> row;
  for (std::size_t r = 0; r < p.rows(); ++r) {
    row.clear();
    for (const std::size_t c : p.row(r)) row.push_back(perm[c]);
    b.add_row(row);
  }
  return std::move(b).build();
}

std::vector<std::size_t> colors_per_ordering(const Pattern& p) {
  std::vector<std::size_t> out;
  for (const ColumnOrdering o : all_orderings) {
    const Coloring c = color_columns(p, o);
    EXPECT_TRUE(verify_coloring(p, c.color)) << to_string(o);
    out.push_back(c.colors);
  }
  return out;
}

TEST(Coloring, TridiagonalNeedsThree) {
  const Pattern p = tridiagonal(100);
  EXPECT_EQ(colors_per_ordering(p), (V{3, 3, 3, 3}));
  const Coloring c = color_columns(p, ColumnOrdering::natural);
  EXPECT_EQ(c.color[0], 0u);
  EXPECT_EQ(c.color[1], 1u);
  EXPECT_EQ(c.color[2], 2u);
  EXPECT_EQ(c.color[3], 0u);
  ASSERT_EQ(c.group_ptr.size(), 4u);
  EXPECT_EQ(c.group(0).size(), 34u);
  EXPECT_EQ(c.group(0)[1], 3u);
}

TEST(Coloring, DiagonalNeedsOneAndADenseRowNeedsAll) {
  PatternBuilder diag(5);
  for (std::size_t k = 0; k < 5; ++k) diag.add_row({k});
  EXPECT_EQ(color_columns(std::move(diag).build()).colors, 1u);
  const Pattern dense = Pattern::from_rows(6, {{0, 1, 2, 3, 4, 5}, {0}});
  EXPECT_EQ(colors_per_ordering(dense), (V{6, 6, 6, 6}));
}

TEST(Coloring, TransmissionLine1280NeedsFourColoursTheLowerBound) {
  // The measurement: the DAE form's iteration matrix for N = 1280,
  // columns in the FMU's variable order. Every ordering reaches the longest
  // row (res.KVL[k]: v_{k-1}, C[k].v, R[k].v, L[k].v).
  const Pattern p = transmission_line_iteration(1280);
  EXPECT_EQ(p.cols(), 6403u);
  EXPECT_EQ(p.max_row_nnz(), 4u);
  EXPECT_EQ(colors_per_ordering(p), (V{4, 4, 4, 4}));
}

TEST(Coloring, OrderingsDifferOnceTheColumnOrderIsLost) {
  // The same pattern with shuffled columns: why smallest-last is the default.
  const Pattern p = shuffled_columns(transmission_line_iteration(1280), 1);
  EXPECT_EQ(colors_per_ordering(p), (V{6, 5, 4, 4}));
  EXPECT_EQ(color_columns(p).colors, 4u);
  EXPECT_EQ(color_columns(p).ordering, default_ordering);
}

TEST(Coloring, SmallestLastHasTheFewestColoursOnShuffledGrids) {
  // 5-point Laplacian on a 40 x 40 grid with columns shuffled by ten seeds:
  // total colours per ordering. Smallest-last is not best on every seed
  // (incidence-degree sometimes is), but on the sum, as on the shuffled
  // transmission line, it is: hence the default.
  const std::size_t m = 40;
  PatternBuilder b(m * m);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t k = 0; k < m; ++k) {
      std::vector<std::size_t> row{i * m + k};
      if (i > 0) row.push_back((i - 1) * m + k);
      if (i + 1 < m) row.push_back((i + 1) * m + k);
      if (k > 0) row.push_back(i * m + k - 1);
      if (k + 1 < m) row.push_back(i * m + k + 1);
      b.add_row(row);
    }
  const Pattern grid = std::move(b).build();
  V total(4, 0);
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const V colors = colors_per_ordering(shuffled_columns(grid, seed));
    for (std::size_t o = 0; o < 4; ++o) total[o] += colors[o];
  }
  EXPECT_EQ(total, (V{98, 98, 58, 60}));
}

TEST(Coloring, BestOfAllTakesTheFewest) {
  const Pattern p = shuffled_columns(transmission_line_iteration(100), 3);
  const Coloring best = color_columns_best(p);
  std::size_t fewest = p.cols();
  for (const ColumnOrdering o : all_orderings) fewest = std::min(fewest, color_columns(p, o).colors);
  EXPECT_EQ(best.colors, fewest);
  EXPECT_TRUE(verify_coloring(p, best.color));
  // On a tie the default ordering is kept.
  EXPECT_EQ(color_columns_best(transmission_line_iteration(100)).ordering, default_ordering);
}

// color_columns_best stops after the default ordering when it reaches the
// longest row: the choice is still the fewest colours, ties to the default,
// and the colouring is exactly the chosen ordering's.
TEST(Coloring, BestIsTheFewestWithOrWithoutTheLowerBound) {
  for (const unsigned seed : {1u, 2u, 3u, 4u}) {
    const Pattern p = shuffled_columns(transmission_line_iteration(40), seed);
    const Coloring best = color_columns_best(p);
    std::size_t fewest = p.cols();
    ColumnOrdering first_fewest = default_ordering;
    for (const ColumnOrdering o : all_orderings) {
      const std::size_t colors = color_columns(p, o).colors;
      if (colors < fewest) fewest = colors, first_fewest = o;
    }
    if (color_columns(p, default_ordering).colors == fewest) first_fewest = default_ordering;
    EXPECT_EQ(best.colors, fewest) << seed;
    EXPECT_EQ(best.ordering, first_fewest) << seed;
    EXPECT_EQ(best.color, color_columns(p, best.ordering).color) << seed;
  }
  const Pattern t = tridiagonal(9);  // the default reaches the bound, 3
  EXPECT_EQ(t.max_row_nnz(), 3u);
  EXPECT_EQ(color_columns_best(t).colors, 3u);
  EXPECT_EQ(color_columns_best(t).ordering, default_ordering);
}

// color_columns_all counts the degrees once for every ordering: each of its
// colourings is the one color_columns gives for that ordering, column by column.
TEST(Coloring, AllOrderingsAtOnceEqualEachOneAlone) {
  for (const unsigned seed : {1u, 5u}) {
    const Pattern p = shuffled_columns(transmission_line_iteration(60), seed);
    const std::vector<Coloring> all = color_columns_all(p);
    ASSERT_EQ(all.size(), std::size(all_orderings));
    for (std::size_t k = 0; k < all.size(); ++k) {
      const Coloring alone = color_columns(p, all_orderings[k]);
      EXPECT_EQ(all[k].ordering, all_orderings[k]);
      EXPECT_EQ(all[k].colors, alone.colors) << to_string(all_orderings[k]);
      EXPECT_EQ(all[k].color, alone.color) << to_string(all_orderings[k]);
      EXPECT_EQ(all[k].group_columns, alone.group_columns) << to_string(all_orderings[k]);
    }
  }
}

TEST(Coloring, OrderingsArePermutations) {
  const Pattern p = shuffled_columns(transmission_line_iteration(20), 2);
  for (const ColumnOrdering o : all_orderings) {
    std::vector<std::size_t> order = column_ordering(p, o);
    std::sort(order.begin(), order.end());
    for (std::size_t k = 0; k < order.size(); ++k) ASSERT_EQ(order[k], k) << to_string(o);
  }
  EXPECT_EQ(column_degrees(tridiagonal(5)), (V{2, 3, 4, 3, 2}));
  // Largest-first on the tridiagonal: degree 4 first, then 3s, then 2s, ties by index.
  EXPECT_EQ(column_ordering(tridiagonal(5), ColumnOrdering::largest_first), (V{2, 1, 3, 0, 4}));
}

TEST(VerifyColoring, NamesTheConflict) {
  const Pattern p = Pattern::from_rows(3, {{0, 1}, {1, 2}});
  std::string why;
  EXPECT_TRUE(verify_coloring(p, V{0, 1, 0}, &why));
  EXPECT_FALSE(verify_coloring(p, V{0, 1, 1}, &why));
  EXPECT_EQ(why,
            "structure: colouring is not valid: row 1 has columns 1 and 2 both of colour 1 → columns that share a "
            "row need different colours");
  EXPECT_FALSE(verify_coloring(p, V{0, 1}, &why));
  EXPECT_EQ(why, "structure: colouring has 2 entries for 3 columns → give one colour per column");
  EXPECT_FALSE(verify_coloring(p, V{0, no_index, 1}, &why));
  EXPECT_EQ(why, "structure: colouring leaves column 1 without a colour → colour every column");
}

TEST(Coloring, OrderingNames) {
  EXPECT_STREQ(to_string(ColumnOrdering::smallest_last), "smallest-last");
  EXPECT_STREQ(to_string(ColumnOrdering::incidence_degree), "incidence-degree");
  EXPECT_EQ(default_ordering, ColumnOrdering::smallest_last);
}

}  // namespace
}  // namespace lsdae::structure
