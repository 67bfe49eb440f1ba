// tests/runtime/simulation/jacobian_constancy_test.cpp -- the lifetimes of
// the reduced Jacobian's entries under a linear elimination
// (classify_reduced_entries, jacobian_constancy.h), on a hand-made 4 × 4
// system whose reduced entries can be worked out by hand:
//
//   unknowns 0, 1 differential; 2, 3 algebraic (eliminated, each alone in
//   its block);
//   row 0: J(0,0) run with a ∂/∂y' part, J(0,2) run    (B reaches z2)
//   row 1: J(1,1) L,                     J(1,3) run    (B reaches z3)
//   row 2: J(2,0) run,                   J(2,2) run    (solves z2)
//   row 3: J(3,1) segment,               J(3,3) run    (solves z3)
//
// Reduced (2 × 2, diagonal): (0,0) = J(0,0) − J(0,2)·J(2,2)⁻¹·J(2,0): run,
// with a ∂/∂y' part; (1,1) = J(1,1) − J(1,3)·J(3,3)⁻¹·J(3,1): the wider of
// L and segment.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/compressed_jacobian.h"
#include "simulation/jacobian_constancy.h"
#include "structure/linear_elimination.h"
#include "structure/pattern.h"

namespace lsdae::simulation {
namespace {

using kernels::EntryLifetime;

struct Reduced {
  structure::LinearElimination plan;
  kernels::ConstantEntries entries;
};

Reduced reduce(EntryLifetime j11) {
  const structure::Pattern p = structure::Pattern::from_rows(4, {{0, 2}, {1, 3}, {0, 2}, {1, 3}});
  // CSC order: (0,0) (2,0) | (1,1) (3,1) | (0,2) (2,2) | (1,3) (3,3)
  kernels::ConstantEntries full;
  full.lifetime = {EntryLifetime::run, EntryLifetime::run, j11, EntryLifetime::segment,
                   EntryLifetime::run, EntryLifetime::run, EntryLifetime::run, EntryLifetime::run};
  full.derivative_part = {true, false, false, false, false, false, false, false};
  std::vector<bool> constant(p.nnz());
  for (std::size_t k = 0; k < constant.size(); ++k)
    constant[k] = full.lifetime[k] == EntryLifetime::run && !full.derivative_part[k];
  Reduced r;
  r.plan = structure::plan_linear_elimination(p, constant, {false, false, true, true});
  r.entries = classify_reduced_entries(full, p, r.plan);
  return r;
}

TEST(ReducedJacobianConstancy, AnEntryIsAsConstantAsEveryEntryThatMakesItUp) {
  const Reduced r = reduce(EntryLifetime::run);
  ASSERT_EQ(r.plan.eliminated, (std::vector<std::size_t>{2, 3}));
  ASSERT_EQ(r.plan.reduced.nnz(), 2u);  // (0,0) and (1,1), in CSC order
  ASSERT_EQ(r.entries.lifetime.size(), 2u);
  EXPECT_EQ(r.entries.lifetime[0], EntryLifetime::run);
  EXPECT_TRUE(r.entries.derivative_part[0]);
  EXPECT_EQ(r.entries.lifetime[1], EntryLifetime::segment) << "J(1,1) run, but J(3,1) tunable: segment";
  EXPECT_FALSE(r.entries.derivative_part[1]);
}

TEST(ReducedJacobianConstancy, OneVaryingEntryMakesTheReducedEntryVary) {
  const Reduced r = reduce(EntryLifetime::varying);
  ASSERT_EQ(r.entries.lifetime.size(), 2u);
  EXPECT_EQ(r.entries.lifetime[0], EntryLifetime::run);
  EXPECT_EQ(r.entries.lifetime[1], EntryLifetime::varying);
}

// A block of two eliminated unknowns solved together: row 0 reaches only z2
// through B, but A⁻¹ mixes z2 and z3, so J(3,1) (a row of the same block)
// enters the reduced entry (0,1) -- a fill entry absent from the full
// pattern -- and decides its lifetime.
TEST(ReducedJacobianConstancy, ABlockMixesTheColumnsOfAllItsRows) {
  // rows: 0: {0, 1, 2}; 1: {1}; 2: {2, 3}; 3: {1, 2, 3}
  const structure::Pattern p = structure::Pattern::from_rows(4, {{0, 1, 2}, {1}, {2, 3}, {1, 2, 3}});
  kernels::ConstantEntries full;
  full.lifetime.assign(p.nnz(), EntryLifetime::run);
  full.derivative_part.assign(p.nnz(), false);
  // CSC: col0 (0,0); col1 (0,1) (1,1) (3,1); col2 (0,2) (2,2) (3,2); col3 (2,3) (3,3)
  full.lifetime[3] = EntryLifetime::varying;  // J(3,1)
  std::vector<bool> constant(p.nnz());
  for (std::size_t k = 0; k < constant.size(); ++k) constant[k] = full.lifetime[k] == EntryLifetime::run;
  const structure::LinearElimination plan = structure::plan_linear_elimination(p, constant, {false, false, true, true});
  ASSERT_EQ(plan.eliminated, (std::vector<std::size_t>{2, 3}));
  const kernels::ConstantEntries reduced = classify_reduced_entries(full, p, plan);
  ASSERT_EQ(plan.reduced.nnz(), reduced.lifetime.size());
  for (std::size_t jr = 0; jr < plan.reduced.cols(); ++jr)
    for (std::size_t q = plan.reduced.col_ptr()[jr]; q < plan.reduced.col_ptr()[jr + 1]; ++q) {
      const std::size_t i = plan.kept_rows[plan.reduced.row_idx()[q]], j = plan.kept[jr];
      const EntryLifetime expected = (i == 0 && j == 1) ? EntryLifetime::varying : EntryLifetime::run;
      EXPECT_EQ(reduced.lifetime[q], expected) << "entry (" << i << ", " << j << ")";
    }
}

}  // namespace
}  // namespace lsdae::simulation
