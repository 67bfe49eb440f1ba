// tests/structure/blt_test.cpp -- structure/blt.h
#include "structure/blt.h"

#include <btf.h>
#include <gtest/gtest.h>

#include <random>

#include "structure/error.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;

// Every row depends only on its own block and earlier blocks.
bool lower_triangular(const Pattern& p, const Matching& m, const Blt& blt) {
  for (std::size_t r = 0; r < p.rows(); ++r)
    for (const std::size_t c : p.row(r))
      if (blt.block_of_row[m.column_to_row[c]] > blt.block_of_row[r]) return false;
  return true;
}

TEST(Blt, ChainGivesOneByOneBlocksInSolveOrder) {
  // r0: x0 ; r1: x0, x1 ; r2: x1, x2  → solve r0, r1, r2.
  const Pattern p = Pattern::from_rows(3, {{0}, {0, 1}, {1, 2}});
  const Matching m = maximum_matching(p);
  const Blt blt = block_lower_triangular(p, m);
  EXPECT_EQ(blt.blocks(), 3u);
  EXPECT_EQ(blt.row_order, (V{0, 1, 2}));
  EXPECT_EQ(blt.column_order, (V{0, 1, 2}));
  EXPECT_EQ(blt.largest_block(), 1u);
}

TEST(Blt, ReversedDependenciesReverseTheOrder) {
  const Pattern p = Pattern::from_rows(3, {{0, 1}, {1, 2}, {2}});
  const Blt blt = block_lower_triangular(p, maximum_matching(p));
  EXPECT_EQ(blt.row_order, (V{2, 1, 0}));
}

TEST(Blt, AlgebraicLoopIsOneBlock) {
  // r0: x0, x1 ; r1: x0, x1 (a 2x2 loop) ; r2: x1, x2.
  const Pattern p = Pattern::from_rows(3, {{0, 1}, {0, 1}, {1, 2}});
  const Matching m = maximum_matching(p);
  const Blt blt = block_lower_triangular(p, m);
  ASSERT_EQ(blt.blocks(), 2u);
  EXPECT_EQ(blt.block_size(0), 2u);
  EXPECT_EQ(blt.block_size(1), 1u);
  EXPECT_EQ(blt.row_order, (V{0, 1, 2}));
  const auto hist = blt.size_histogram();
  ASSERT_EQ(hist.size(), 2u);
  EXPECT_EQ(hist[0], (std::pair<std::size_t, std::size_t>{1, 1}));
  EXPECT_EQ(hist[1], (std::pair<std::size_t, std::size_t>{2, 1}));
}

TEST(Blt, NeedsAPerfectMatching) {
  const Pattern p = Pattern::from_rows(2, {{0}, {0}});
  EXPECT_THROW((void)block_lower_triangular(p, maximum_matching(p)), StructureError);
}

TEST(Blt, BlockCountAgreesWithSuiteSparseStrongcomp) {
  std::mt19937 rng(7);
  int tested = 0;
  for (int trial = 0; trial < 400 && tested < 150; ++trial) {
    const std::size_t n = 2 + rng() % 30;
    std::vector<std::vector<std::size_t>> lists(n);
    for (std::size_t r = 0; r < n; ++r) {
      lists[r].push_back(r);  // structurally nonsingular
      for (int k = 0; k < 2; ++k)
        if (rng() % 3 == 0) lists[r].push_back(rng() % n);
    }
    const Pattern p = Pattern::from_rows(n, lists);
    const Matching m = maximum_matching(p);
    if (!m.perfect()) continue;
    ++tested;
    const Blt blt = block_lower_triangular(p, m);
    ASSERT_TRUE(lower_triangular(p, m, blt)) << "trial " << trial;
    // btf_strongcomp on A*Q with Q the matching's column permutation (rows in place).
    std::vector<int> ap, ai, q(n), perm(n), r(n + 1), work(4 * n);
    for (const std::size_t v : p.col_ptr()) ap.push_back(static_cast<int>(v));
    for (const std::size_t v : p.row_idx()) ai.push_back(static_cast<int>(v));
    for (std::size_t k = 0; k < n; ++k) q[k] = static_cast<int>(m.row_to_column[k]);
    const int blocks = btf_strongcomp(static_cast<int>(n), ap.data(), ai.data(), q.data(), perm.data(), r.data(),
                                      work.data());
    ASSERT_EQ(blt.blocks(), static_cast<std::size_t>(blocks)) << "trial " << trial;
  }
  EXPECT_GE(tested, 100);
}

TEST(Blt, LongChainIsIterative) {
  const std::size_t n = 300000;
  PatternBuilder b(n, n);
  b.add_row({0, n - 1});  // closes one big cycle: a single block of n rows
  for (std::size_t k = 1; k < n; ++k) b.add_row({k - 1, k});
  const Pattern p = std::move(b).build();
  const Matching m = maximum_matching(p);
  ASSERT_TRUE(m.perfect());
  const Blt blt = block_lower_triangular(p, m);
  EXPECT_EQ(blt.blocks(), 1u);
  EXPECT_EQ(blt.largest_block(), n);
}

}  // namespace
}  // namespace lsdae::structure
