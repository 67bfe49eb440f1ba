// tests/structure/column_selection_test.cpp -- structure/column_selection.h
#include "structure/column_selection.h"

#include <gtest/gtest.h>

#include "structure/error.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;
using M = Eigen::MatrixXd;

ColumnSelection select(const M& m, V row_h, V col_h, std::vector<int> prio, ColumnSelectionOptions o = {}) {
  return select_columns(m, row_h, col_h, prio, o);
}

TEST(SelectColumns, HierarchyPicksPositionThenVelocity) {
  // Pendulum constraints at the horizontal rest point: c0 (height 2) over
  // x, y, vx, vy = (2, 0, 0, 0); c1 (height 1) = (0, 0, 1, 0).
  M s(2, 4);
  s << 2, 0, 0, 0, 0, 0, 1, 0;
  const ColumnSelection sel = select(s, {2, 1}, {2, 2, 1, 1}, {1, 1, 1, 1});
  ASSERT_TRUE(sel.success);
  EXPECT_EQ(sel.columns, (V{0, 2}));
  EXPECT_EQ(sel.rank, 2u);
  EXPECT_DOUBLE_EQ(sel.rcond, 0.5);  // diag(2, 1): κ₁ = 2
  EXPECT_DOUBLE_EQ(sel.largest_norm, 2.0);
}

TEST(SelectColumns, FreshColumnsWinOverLargerOldOnes) {
  // Hanging pendulum moving fast: c1 = (vx, vy, x, y) = (4.43, 0, 0, -1): the
  // largest entry is on x, but x was constrained at position level already.
  M s(2, 4);
  s << 0, -2, 0, 0, 4.43, 0, 0, -1;
  const ColumnSelection sel = select(s, {2, 1}, {2, 2, 1, 1}, {1, 1, 1, 1});
  EXPECT_EQ(sel.columns, (V{1, 3}));
}

TEST(SelectColumns, HierarchyFallsBackWhenFreshColumnsAreNumericallyZero) {
  M s(2, 3);
  s << 1, 0, 0, 1, 1e-6, 3;
  EXPECT_EQ(select(s, {2, 1}, {2, 1, 2}, {1, 1, 1}).columns, (V{0, 2}));
  ColumnSelectionOptions strict;
  strict.hierarchy_tolerance = 1e-9;
  EXPECT_EQ(select(s, {2, 1}, {2, 1, 2}, {1, 1, 1}, strict).columns, (V{0, 1}));
}

TEST(SelectColumns, PreferenceWinsWithinTheTolerance) {
  M equal(1, 2);
  equal << 1, 1;
  EXPECT_EQ(select(equal, {1}, {1, 1}, {1, 2}).columns, (V{1}));
  M weaker(1, 2);
  weaker << 1, 0.4;
  EXPECT_EQ(select(weaker, {1}, {1, 1}, {1, 2}).columns, (V{0}));
  ColumnSelectionOptions loose;
  loose.preference_tolerance = 0.3;
  EXPECT_EQ(select(weaker, {1}, {1, 1}, {1, 2}, loose).columns, (V{1}));
}

TEST(SelectColumns, TiesGoToTheLowerIndexDespiteRounding) {
  M s(1, 3);
  s << 1.0 + 1e-15, 1.0, 1.0;
  EXPECT_EQ(select(s, {1}, {1, 1, 1}, {1, 1, 1}).columns, (V{0}));
  s << 1.0, 1.0 + 1e-15, 1.0;
  EXPECT_EQ(select(s, {1}, {1, 1, 1}, {1, 1, 1}).columns, (V{0}));
}

TEST(SelectColumns, RankDeficiencyFails) {
  M s(2, 2);
  s << 1, 2, 2, 4;
  const ColumnSelection sel = select(s, {1, 1}, {1, 1}, {1, 1});
  EXPECT_FALSE(sel.success);
  EXPECT_EQ(sel.rank, 1u);
  EXPECT_EQ(sel.rcond, 0.0);
  EXPECT_FALSE(select(M::Zero(1, 3), {1}, {1, 1, 1}, {1, 1, 1}).success);
}

TEST(SelectColumns, EmptyAndMalformed) {
  const ColumnSelection none = select(M(0, 3), {}, {1, 1, 1}, {1, 1, 1});
  EXPECT_TRUE(none.success);
  EXPECT_EQ(none.rcond, 1.0);
  EXPECT_THROW((void)select(M::Ones(2, 1), {1, 1}, {1}, {1}), StructureError);
  EXPECT_THROW((void)select(M::Ones(1, 2), {1}, {1}, {1, 1}), StructureError);
}

using SM = Eigen::SparseMatrix<double, Eigen::RowMajor>;

SM sparse(const M& m) { return m.sparseView(); }

TEST(SelectColumnsSparse, AgreesWithTheDenseRuleOnOneRowBlocks) {
  M p(2, 4);
  p << 0, -2, 0, 0, 4.43, 0, 0, -1;  // pendulum, hanging and fast
  EXPECT_EQ(select_columns_sparse(sparse(p), V{2, 1}, V{2, 2, 1, 1}, std::vector<int>{1, 1, 1, 1}).columns,
            (V{1, 3}));
  M h(2, 4);
  h << 2, 0, 0, 0, 0, 0, 1, 0;  // horizontal at rest
  const ColumnSelection sel = select_columns_sparse(sparse(h), V{2, 1}, V{2, 2, 1, 1}, std::vector<int>{1, 1, 1, 1});
  EXPECT_EQ(sel.columns, (V{0, 2}));
  EXPECT_DOUBLE_EQ(sel.rcond, 0.5);
  M w(1, 2);
  w << 1, 0.4;
  EXPECT_EQ(select_columns_sparse(sparse(w), V{1}, V{1, 1}, std::vector<int>{1, 2}).columns, (V{0}));
}

TEST(SelectColumnsSparse, CauerLoopConstraints) {
  // Rows r13..r16 over C1.v, C2.v, C3.v, C4.v, C5.v, L1.v, L2.v; avoid-states
  // (priority 2) C2.v, C4.v, L1.v, L2.v: the elimination keeps the draft's choice.
  M c(4, 7);
  c << -1, 0, 1, 0, 0, 1, 0,  //
      0, 1, 0, 0, 0, -1, 0,   //
      0, 0, -1, 0, 1, 0, 1,   //
      0, 0, 0, 1, 0, 0, -1;
  const std::vector<int> prio{1, 2, 1, 2, 1, 2, 2};
  EXPECT_EQ(select_columns_sparse(sparse(c), V{1, 1, 1, 1}, V(7, 1), prio).columns, (V{1, 3, 5, 6}));
  EXPECT_EQ(select_columns(c, V{1, 1, 1, 1}, V(7, 1), prio).columns, (V{1, 3, 5, 6}));
}

TEST(SelectColumnsSparse, LongBidiagonalChainIsLinearAndWellEstimated) {
  // d = 2000 rows v_k - v_{k+1} over k = 2001 columns.
  const std::size_t d = 2000;
  std::vector<Eigen::Triplet<double>> t;
  for (std::size_t i = 0; i < d; ++i) {
    t.emplace_back(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i), 1.0);
    t.emplace_back(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(i + 1), -1.0);
  }
  SM s(static_cast<Eigen::Index>(d), static_cast<Eigen::Index>(d + 1));
  s.setFromTriplets(t.begin(), t.end());
  const ColumnSelection sel = select_columns_sparse(s, V(d, 1), V(d + 1, 1), std::vector<int>(d + 1, 1));
  ASSERT_TRUE(sel.success);
  ASSERT_EQ(sel.columns.size(), d);
  EXPECT_EQ(sel.columns.front(), 0u);
  EXPECT_EQ(sel.columns.back(), d - 1);  // ties: the lower column, row by row
  // The selection is the upper bidiagonal [1 -1; ...; 1]: ‖A‖₁ = 2, ‖A⁻¹‖₁ = d.
  EXPECT_NEAR(sel.rcond, 1.0 / (2.0 * static_cast<double>(d)), 1e-12);
}

TEST(SelectColumnsSparse, RankDeficiencyFails) {
  M s(2, 3);
  s << 1, 2, 0, 2, 4, 0;
  const ColumnSelection sel = select_columns_sparse(sparse(s), V{1, 1}, V{1, 1, 1}, std::vector<int>{1, 1, 1});
  EXPECT_FALSE(sel.success);
  EXPECT_EQ(sel.rank, 1u);
  EXPECT_THROW((void)select_columns_sparse(sparse(M::Ones(2, 1)), V{1, 1}, V{1}, std::vector<int>{1}),
               StructureError);
}

}  // namespace
}  // namespace lsdae::structure
