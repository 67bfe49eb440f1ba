// tests/structure/matching_test.cpp -- structure/matching.h
#include "structure/matching.h"

#include <btf.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

// Counts every allocation of this test program, for the no-allocation test.
// GCC flags free() on memory from operator new once both are inlined into
// the library's allocators; here they are a matched pair by construction.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
namespace {
std::atomic<std::size_t> allocations{0};
}  // namespace

void* operator new(std::size_t size) {
  allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace lsdae::structure {
namespace {

bool valid(const Pattern& p, const Matching& m) {
  std::size_t size = 0;
  for (std::size_t r = 0; r < p.rows(); ++r) {
    const std::size_t c = m.row_to_column[r];
    if (c == no_index) continue;
    if (!p.contains(r, c) || m.column_to_row[c] != r) return false;
    ++size;
  }
  return size == m.size;
}

// Structural rank by SuiteSparse BTF's maxtrans (Duff's MC21), independent of ours.
std::size_t maxtrans_rank(const Pattern& p) {
  // maxtrans wants compressed columns of A; give it our CSC (rows of each column).
  std::vector<int> ap, ai;
  for (const std::size_t v : p.col_ptr()) ap.push_back(static_cast<int>(v));
  for (const std::size_t v : p.row_idx()) ai.push_back(static_cast<int>(v));
  std::vector<int> match(p.rows() + 1), work(5 * p.cols() + 1);
  double done = 0;
  return static_cast<std::size_t>(btf_maxtrans(static_cast<int>(p.rows()), static_cast<int>(p.cols()), ap.data(),
                                               ai.data(), 0.0, &done, match.data(), work.data()));
}

TEST(Matching, PerfectOnATriangularPattern) {
  const Pattern p = Pattern::from_rows(3, {{0}, {0, 1}, {0, 1, 2}});
  const Matching m = maximum_matching(p);
  EXPECT_TRUE(m.perfect());
  EXPECT_TRUE(valid(p, m));
  EXPECT_EQ(m.row_to_column, (std::vector<std::size_t>{0, 1, 2}));
}

TEST(Matching, GreedyFailureIsRepairedByAugmentingPaths) {
  // Greedy gives r0-c0 and r1 nothing; the maximum needs r0-c1, r1-c0.
  const Pattern p = Pattern::from_rows(2, {{0, 1}, {0}});
  const Matching m = maximum_matching(p);
  EXPECT_EQ(m.size, 2u);
  EXPECT_EQ(m.row_to_column, (std::vector<std::size_t>{1, 0}));
}

TEST(Matching, RectangularAndEmpty) {
  EXPECT_EQ(structural_rank(Pattern::from_rows(4, {{1, 2}, {2}})), 2u);
  EXPECT_EQ(structural_rank(Pattern::from_rows(1, {{0}, {0}, {0}})), 1u);
  EXPECT_EQ(structural_rank(Pattern::from_rows(3, {{}, {}})), 0u);
  EXPECT_EQ(structural_rank(Pattern()), 0u);
}

TEST(Matching, StructuralRankAgreesWithSuiteSparseMaxtrans) {
  std::mt19937 rng(20240611);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t rows = 1 + rng() % 40, cols = 1 + rng() % 40;
    const double density = 0.02 + 0.2 * static_cast<double>(rng() % 100) / 100.0;
    std::vector<std::vector<std::size_t>> lists(rows);
    for (auto& row : lists)
      for (std::size_t c = 0; c < cols; ++c)
        if (static_cast<double>(rng() % 1000) < 1000 * density) row.push_back(c);
    const Pattern p = Pattern::from_rows(cols, lists);
    const Matching m = maximum_matching(p);
    ASSERT_TRUE(valid(p, m)) << "trial " << trial;
    ASSERT_EQ(m.size, maxtrans_rank(p)) << "trial " << trial;
  }
}

TEST(Matching, LongChainNeedsNoRecursion) {
  // Row k < n-1 holds columns k and k+1, the last row only column 0. Greedy
  // matches row k to column k and leaves the last row: the one augmenting
  // path runs through the whole chain (depth n).
  const std::size_t n = 200000;
  PatternBuilder b(n, n);
  for (std::size_t k = 0; k + 1 < n; ++k) b.add_row({k, k + 1});
  b.add_row({0});
  const Pattern p = std::move(b).build();
  const Matching m = maximum_matching(p);
  EXPECT_EQ(m.size, n);
  EXPECT_EQ(m.row_to_column[n - 1], 0u);
  EXPECT_EQ(m.row_to_column[0], 1u);
  Matching single(n, n);
  for (std::size_t k = 0; k + 1 < n; ++k) single.match(k, k);
  AugmentingPathSearch search(n, n);
  EXPECT_TRUE(search.augment(p, single, n - 1));
  EXPECT_EQ(search.visited_rows().size(), n);
}

TEST(Matching, MaximizeKeepsAValidStartingMatching) {
  const Pattern p = Pattern::from_rows(3, {{0, 1}, {1, 2}, {0}});
  Matching m(3, 3);
  m.match(0, 0);
  maximize_matching(p, m);
  EXPECT_TRUE(m.perfect());
  EXPECT_TRUE(valid(p, m));
}

TEST(AugmentingPathSearch, FailureReportsTheSingularSubset) {
  // r0: {c0}, r1: {c0, c1}, r2: {c1}, r3: {c0, c1, c2}: r0, r1, r2 compete for c0, c1.
  const Pattern p = Pattern::from_rows(3, {{0}, {0, 1}, {1}, {0, 1, 2}});
  Matching m(4, 3);
  AugmentingPathSearch search(4, 3);
  EXPECT_TRUE(search.augment(p, m, 0));
  EXPECT_TRUE(search.augment(p, m, 1));
  EXPECT_FALSE(search.augment(p, m, 2));
  std::vector<std::size_t> rows(search.visited_rows().begin(), search.visited_rows().end());
  std::vector<std::size_t> cols(search.visited_columns().begin(), search.visited_columns().end());
  EXPECT_EQ(rows, (std::vector<std::size_t>{2, 1, 0}));
  EXPECT_EQ(cols, (std::vector<std::size_t>{1, 0}));
  EXPECT_TRUE(search.augment(p, m, 3));
  EXPECT_EQ(m.size, 3u);
  EXPECT_TRUE(valid(p, m));
}

TEST(AugmentingPathSearch, AllocatesNothingOnItsPreallocatedBuffers) {
  // A successful search along an alternating path of depth 1000, then a
  // failed one (the extra row competes for column 0 with nothing left).
  const std::size_t n = 1000;
  PatternBuilder b(n, n + 1);
  for (std::size_t k = 0; k + 1 < n; ++k) b.add_row({k, k + 1});
  b.add_row({0});
  b.add_row({0});
  const Pattern p = std::move(b).build();
  Matching m(n + 1, n);
  for (std::size_t k = 0; k + 1 < n; ++k) m.match(k, k);
  AugmentingPathSearch search(n + 1, n);
  const std::size_t before = allocations.load();
  const bool found = search.augment(p, m, n - 1);
  const bool none = search.augment(p, m, n);
  const std::size_t after = allocations.load();
  EXPECT_TRUE(found);
  EXPECT_FALSE(none);
  EXPECT_EQ(search.visited_rows().size(), 2u);  // row n, then row n - 1 that took column 0
  EXPECT_EQ(after, before);
}

TEST(AugmentingPathSearch, ColumnFilterHidesColumns) {
  const Pattern p = Pattern::from_rows(2, {{0, 1}});
  Matching m(1, 2);
  AugmentingPathSearch search;
  EXPECT_TRUE(search.augment(p, m, 0, [](std::size_t c) { return c == 1; }));
  EXPECT_EQ(m.row_to_column[0], 1u);
}

TEST(BipartiteView, RowMapSelectsAndReordersRows) {
  const Pattern p = Pattern::from_rows(2, {{0}, {1}, {0, 1}});
  const std::vector<std::size_t> map{2, 0};
  const BipartiteView v(p, map);
  EXPECT_EQ(v.rows(), 2u);
  EXPECT_EQ(v.row(0).size(), 2u);
  const Matching m = maximum_matching(v);
  EXPECT_EQ(m.row_to_column, (std::vector<std::size_t>{1, 0}));
}

TEST(DescribeUnmatched, NamesUnmatchedResidualsAndVariables) {
  // Six residuals; r[2] and r[3] share their only unknown, der(v2) appears nowhere.
  const std::vector<std::string> rows{"r[1]", "r[2]", "r[3]", "r[4]", "r[5]", "r[6]"};
  const std::vector<std::string> cols{"der(s1)", "der(s2)", "der(v1)", "der(v2)", "Fz", "Fa"};
  const Pattern p = Pattern::from_rows(6, {{0}, {1}, {1}, {2}, {4, 2}, {5}});
  const Matching m = maximum_matching(p);
  EXPECT_EQ(describe_unmatched(
                m, [&](std::size_t r) { return rows[r]; }, [&](std::size_t c) { return cols[c]; }),
            "structure: system is structurally singular: 6 residuals, 6 unknowns, structural rank 5; unmatched "
            "residuals: \"r[3]\"; unmatched variables: \"der(v2)\" → no differentiation can make these residuals "
            "determine these variables: check that each unmatched variable appears in some residual and that no "
            "residual repeats another");
  EXPECT_EQ(describe_unmatched(
                maximum_matching(Pattern::from_rows(1, {{0}})), [](std::size_t) { return "r"; },
                [](std::size_t) { return "x"; }),
            "");
}

TEST(DescribeUnmatched, UnbalancedAndCappedLists) {
  std::vector<std::vector<std::size_t>> lists(14, std::vector<std::size_t>{0});
  const Matching m = maximum_matching(Pattern::from_rows(2, lists));
  const std::string text = describe_unmatched(
      m, [](std::size_t r) { return "r" + std::to_string(r); }, [](std::size_t c) { return "v" + std::to_string(c); },
      3);
  EXPECT_EQ(text,
            "structure: system is unbalanced: 14 residuals, 2 unknowns, structural rank 1; unmatched residuals: "
            "\"r1\", \"r2\", \"r3\" … and 10 more; unmatched variables: \"v1\" → there are more residuals than "
            "unknowns: a residual is redundant or an algebraic variable is missing from <AlgebraicVariables>");
}

}  // namespace
}  // namespace lsdae::structure
