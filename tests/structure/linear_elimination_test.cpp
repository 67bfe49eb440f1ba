// tests/structure/linear_elimination_test.cpp -- structure/linear_elimination.cpp.
#include "structure/linear_elimination.h"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <random>

namespace lsdae::structure {
namespace {

std::vector<bool> all_constant(const Pattern& p) { return std::vector<bool>(p.nnz(), true); }

// A ladder in the style of an RL line, algebraic unknowns declared BEFORE
// the states they couple: unknown 2i is z_i (a branch voltage), 2i + 1 the
// state x_i. Row 2i: z_i − a·x_i − b·x_{i+1} (solves z_i), row 2i + 1: the
// state row ẋ_i − z_i (+ z_{i−1}).
Pattern ladder(std::size_t segments) {
  const std::size_t n = 2 * segments;
  std::vector<std::vector<std::size_t>> rows(n);
  for (std::size_t i = 0; i < segments; ++i) {
    rows[2 * i] = {2 * i, 2 * i + 1};
    if (i + 1 < segments) rows[2 * i].push_back(2 * i + 3);
    rows[2 * i + 1] = {2 * i + 1, 2 * i};
    if (i > 0) rows[2 * i + 1].push_back(2 * i - 2);
  }
  return Pattern::from_rows(n, rows);
}

std::vector<bool> even_algebraic(std::size_t n) {
  std::vector<bool> a(n);
  for (std::size_t k = 0; k < n; k += 2) a[k] = true;
  return a;
}

// Random values on the pattern; the dense Schur complement's nonzeros must
// lie in the reduced pattern (and, generically, fill it).
void expect_reduced_pattern_holds_schur_complement(const Pattern& p, const LinearElimination& e) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(0.5, 2.0);
  const auto n = static_cast<Eigen::Index>(p.rows());
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(n, n);
  for (std::size_t c = 0; c < p.cols(); ++c)
    for (const std::size_t r : p.column(c)) J(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(c)) = value(rng);
  for (std::size_t i = 0; i < e.eliminated.size(); ++i)  // a dominant diagonal for A
    J(static_cast<Eigen::Index>(e.eliminated_rows[i]), static_cast<Eigen::Index>(e.eliminated[i])) += 10.0;
  auto pick = [&](const std::vector<std::size_t>& rows, const std::vector<std::size_t>& cols) {
    Eigen::MatrixXd m(rows.size(), cols.size());
    for (std::size_t i = 0; i < rows.size(); ++i)
      for (std::size_t j = 0; j < cols.size(); ++j)
        m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) =
            J(static_cast<Eigen::Index>(rows[i]), static_cast<Eigen::Index>(cols[j]));
    return m;
  };
  const Eigen::MatrixXd A = pick(e.eliminated_rows, e.eliminated), B = pick(e.kept_rows, e.eliminated);
  const Eigen::MatrixXd Jer = pick(e.eliminated_rows, e.kept), Jrr = pick(e.kept_rows, e.kept);
  const Eigen::MatrixXd S = Jrr - B * A.fullPivLu().solve(Jer);
  ASSERT_EQ(e.reduced.rows(), e.kept_rows.size());
  ASSERT_EQ(e.reduced.cols(), e.kept.size());
  for (std::size_t i = 0; i < e.kept_rows.size(); ++i)
    for (std::size_t j = 0; j < e.kept.size(); ++j)
      if (std::abs(S(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j))) > 1e-12) {
        EXPECT_TRUE(e.reduced.contains(i, j)) << "Schur complement entry (" << i << ", " << j << ") outside the pattern";
      }
}

TEST(LinearElimination, LadderEliminatesEveryBranchWithoutGrowth) {
  const Pattern p = ladder(6);
  const LinearElimination e = plan_linear_elimination(p, all_constant(p), even_algebraic(p.rows()));
  ASSERT_EQ(e.eliminated.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(e.eliminated[i], 2 * i);
    EXPECT_EQ(e.eliminated_rows[i], 2 * i) << "the diagonal row solves it";
    EXPECT_EQ(e.reason[2 * i], EliminationReason::eliminated);
    EXPECT_EQ(e.reason[2 * i + 1], EliminationReason::not_algebraic);
    EXPECT_EQ(e.reduced_unknown[2 * i + 1], i);
    EXPECT_EQ(e.reduced_row[2 * i], no_index);
    EXPECT_EQ(e.eliminated_index[2 * i], i);
  }
  EXPECT_EQ(e.blocks, 6u);
  EXPECT_EQ(e.rejected_blocks, 0u);
  // State row i: x_i, x_{i+1} (through z_i), x_{i-1}, x_i (through z_{i-1}): tridiagonal.
  EXPECT_EQ(e.reduced.nnz(), 6u + 2u * 5u);
  EXPECT_LE(e.reduced.nnz(), p.nnz());
  EXPECT_EQ(e.z_columns.rows(), p.rows());
  EXPECT_EQ(e.z_columns.cols(), 6u);
  EXPECT_EQ(e.z_columns.nnz(), 6u + 6u + 5u);
  expect_reduced_pattern_holds_schur_complement(p, e);
}

TEST(LinearElimination, AVaryingEntryKeepsTheUnknownAndNamesTheRow) {
  const Pattern p = ladder(3);
  std::vector<bool> constant = all_constant(p);
  // z_1 (unknown 2) enters state row 3 through a varying entry.
  for (std::size_t q = p.col_ptr()[2]; q < p.col_ptr()[3]; ++q)
    if (p.row_idx()[q] == 3) constant[q] = false;
  const LinearElimination e = plan_linear_elimination(p, constant, even_algebraic(p.rows()));
  EXPECT_EQ(e.reason[2], EliminationReason::varying_entry);
  EXPECT_EQ(e.varying_row[2], 3u);
  EXPECT_EQ(e.eliminated, (std::vector<std::size_t>{0, 4}));
  EXPECT_EQ(e.kept, (std::vector<std::size_t>{1, 2, 3, 5}));
  EXPECT_EQ(e.kept_rows, (std::vector<std::size_t>{1, 2, 3, 5}));
  expect_reduced_pattern_holds_schur_complement(p, e);
}

// A network of buses in a ring, every bus with a machine: eliminating the
// buses (a Kron reduction) couples every machine with every other one.
TEST(LinearElimination, KronReductionOfANetworkIsRefusedByTheCostModel) {
  const std::size_t m = 60;  // buses 0..m-1, machine states m..2m-1
  std::vector<std::vector<std::size_t>> rows(2 * m);
  for (std::size_t i = 0; i < m; ++i) {
    rows[i] = {(i + m - 1) % m, i, (i + 1) % m, m + i};  // bus balance: neighbours and its machine
    rows[m + i] = {m + i, i};                              // machine: its state and its bus
  }
  const Pattern p = Pattern::from_rows(2 * m, rows);
  std::vector<bool> algebraic(2 * m, false);
  for (std::size_t i = 0; i < m; ++i) algebraic[i] = true;
  const LinearElimination e = plan_linear_elimination(p, all_constant(p), algebraic);
  EXPECT_FALSE(e.any());
  EXPECT_EQ(e.blocks, 0u);
  EXPECT_EQ(e.rejected_blocks, 1u);
  for (std::size_t i = 0; i < m; ++i) EXPECT_EQ(e.reason[i], EliminationReason::fill);
  EXPECT_EQ(e.reduced, p) << "nothing eliminated: the pattern is P";
  // With unlimited growth allowed the same block is eliminated, densely.
  EliminationOptions dense;
  dense.max_growth = 1e9;
  dense.work_per_entry = 1000000;
  const LinearElimination d = plan_linear_elimination(p, all_constant(p), algebraic, dense);
  ASSERT_EQ(d.eliminated.size(), m);
  EXPECT_EQ(d.reduced.nnz(), m * m);
  expect_reduced_pattern_holds_schur_complement(p, d);
}

TEST(LinearElimination, TwoUnknownsWithOneRowLeaveOneWithoutARow) {
  // Unknown 0 a state, 1 and 2 algebraic appearing only in row 0; rows 1
  // and 2 hold the state only (a structurally singular toy).
  const Pattern p = Pattern::from_rows(3, {{0, 1, 2}, {0}, {0}});
  const LinearElimination e = plan_linear_elimination(p, all_constant(p), {false, true, true});
  EXPECT_EQ(e.reason[1], EliminationReason::eliminated);
  EXPECT_EQ(e.eliminated_rows, (std::vector<std::size_t>{0}));
  EXPECT_EQ(e.reason[2], EliminationReason::no_row);
}

TEST(LinearElimination, SizeMismatchesThrow) {
  const Pattern p = ladder(2);
  EXPECT_THROW(plan_linear_elimination(p, std::vector<bool>(1), even_algebraic(4)), std::invalid_argument);
  EXPECT_THROW(plan_linear_elimination(p, all_constant(p), std::vector<bool>(3)), std::invalid_argument);
}

}  // namespace
}  // namespace lsdae::structure
