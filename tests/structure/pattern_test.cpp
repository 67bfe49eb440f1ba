// tests/structure/pattern_test.cpp -- structure/pattern.h
#include "structure/pattern.h"

#include <gtest/gtest.h>

#include "structure/error.h"

namespace lsdae::structure {
namespace {

using V = std::vector<std::size_t>;

V span_vec(std::span<const std::size_t> s) { return {s.begin(), s.end()}; }

TEST(Pattern, RowsAreSortedAndUniqueColumnsTransposeExactly) {
  const Pattern p = Pattern::from_rows(5, {{3, 1, 1}, {}, {4, 0, 3}});
  EXPECT_EQ(p.rows(), 3u);
  EXPECT_EQ(p.cols(), 5u);
  EXPECT_EQ(p.nnz(), 5u);
  EXPECT_EQ(span_vec(p.row(0)), (V{1, 3}));
  EXPECT_TRUE(p.row(1).empty());
  EXPECT_EQ(span_vec(p.row(2)), (V{0, 3, 4}));
  EXPECT_EQ(span_vec(p.column(0)), (V{2}));
  EXPECT_EQ(span_vec(p.column(1)), (V{0}));
  EXPECT_TRUE(p.column(2).empty());
  EXPECT_EQ(span_vec(p.column(3)), (V{0, 2}));
  EXPECT_EQ(p.col_ptr(), (V{0, 1, 2, 2, 4, 5}));
  EXPECT_EQ(p.row_ptr(), (V{0, 2, 2, 5}));
  EXPECT_TRUE(p.contains(2, 4));
  EXPECT_FALSE(p.contains(1, 4));
  EXPECT_EQ(p.max_row_nnz(), 3u);
}

TEST(Pattern, ColumnOutOfRangeNamesRowAndColumn) {
  try {
    (void)Pattern::from_rows(4, {{0, 1}, {2, 7}});
    FAIL() << "expected StructureError";
  } catch (const StructureError& e) {
    EXPECT_STREQ(e.what(),
                 "structure: pattern row 1: column 7 is out of range (the pattern has 4 columns) → pass column "
                 "indices below 4");
  }
}

TEST(Pattern, BuilderLeavesNoPartialRowAfterAnError) {
  PatternBuilder b(3);
  b.add_row({0, 2});
  EXPECT_THROW(b.add_row({1, 3}), StructureError);
  b.add_row({1});
  const Pattern p = std::move(b).build();
  EXPECT_EQ(p.rows(), 2u);
  EXPECT_EQ(span_vec(p.row(1)), (V{1}));
}

TEST(Pattern, ColumnBlocksAreZeroCopyRowRangesAndReindexedCopies) {
  // Three blocks of widths 2 | 2 | 1 (like ẋ | x | z with n = 2, m = 1).
  const Pattern p = Pattern::from_rows(5, {{0, 2, 4}, {1, 3}, {2, 3, 4}});
  EXPECT_EQ(span_vec(p.row_range(0, 2, 4)), (V{2}));
  EXPECT_EQ(span_vec(p.row_range(2, 2, 4)), (V{2, 3}));
  EXPECT_TRUE(p.row_range(2, 0, 2).empty());
  const Pattern x = p.column_block(2, 4);
  EXPECT_EQ(x.cols(), 2u);
  EXPECT_EQ(span_vec(x.row(0)), (V{0}));
  EXPECT_EQ(span_vec(x.row(1)), (V{1}));
  EXPECT_EQ(span_vec(x.row(2)), (V{0, 1}));
  EXPECT_EQ(span_vec(x.column(1)), (V{1, 2}));
  EXPECT_THROW((void)p.column_block(3, 6), StructureError);
}

TEST(Pattern, SelectRowsAndTranspose) {
  const Pattern p = Pattern::from_rows(3, {{0}, {1, 2}, {0, 2}});
  const Pattern s = p.select_rows(V{2, 0, 2});
  EXPECT_EQ(s.rows(), 3u);
  EXPECT_EQ(span_vec(s.row(0)), (V{0, 2}));
  EXPECT_EQ(span_vec(s.row(1)), (V{0}));
  const Pattern t = p.transposed();
  EXPECT_EQ(t.rows(), 3u);
  EXPECT_EQ(span_vec(t.row(2)), (V{1, 2}));
  EXPECT_EQ(t.transposed(), p);
}

TEST(Pattern, EmptyPatternIsConsistent) {
  const Pattern p;
  EXPECT_EQ(p.rows(), 0u);
  EXPECT_EQ(p.cols(), 0u);
  EXPECT_EQ(p.max_row_nnz(), 0u);
  const Pattern q = Pattern::from_rows(0, {});
  EXPECT_EQ(q, p);
}

}  // namespace
}  // namespace lsdae::structure
