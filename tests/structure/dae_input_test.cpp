// tests/structure/dae_input_test.cpp -- structure/dae_input.h
#include "structure/dae_input.h"

#include <gtest/gtest.h>

namespace lsdae::structure {
namespace {

TEST(DaeInput, VariableReferences) {
  EXPECT_EQ(derivative_of(3), (VarRef{Block::derivative, 3}));
  EXPECT_EQ(state(1), (VarRef{Block::state, 1}));
  EXPECT_EQ(algebraic(0), (VarRef{Block::algebraic, 0}));
  EXPECT_NE(state(1), derivative_of(1));
}

TEST(DaeInput, Defaults) {
  const DaeInput in;
  EXPECT_EQ(in.form, DaeForm::fully_implicit);
  const StateInput x;
  EXPECT_EQ(x.select, StateSelect::normal);
  EXPECT_FALSE(x.derivative_dependencies.has_value());  // absent: dense
}

TEST(DaeInput, EnumNames) {
  EXPECT_STREQ(to_string(DaeForm::semi_explicit), "semi-explicit");
  EXPECT_STREQ(to_string(DaeForm::fully_implicit), "fully implicit");
  EXPECT_STREQ(to_string(Block::derivative), "derivative");
  EXPECT_STREQ(to_string(Block::state), "state");
  EXPECT_STREQ(to_string(Block::algebraic), "algebraic");
  EXPECT_STREQ(to_string(StateSelect::avoid), "avoid");
  EXPECT_STREQ(to_string(StateSelect::prefer), "prefer");
}

}  // namespace
}  // namespace lsdae::structure
