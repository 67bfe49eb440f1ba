// tests/structure/messages_test.cpp -- structure/messages.h (the helpers; each
// message's full text is asserted by the test of the module that raises it).
#include "structure/messages.h"

#include <gtest/gtest.h>

#include <limits>

namespace lsdae::structure::messages {
namespace {

TEST(Messages, QuotedEscapesQuotesAndBackslashes) {
  EXPECT_EQ(quoted("r[3]"), "\"r[3]\"");
  EXPECT_EQ(quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(quoted(""), "\"\"");
}

TEST(Messages, QuotedListCountsWhatIsLeftOut) {
  EXPECT_EQ(quoted_list({}), "");
  EXPECT_EQ(quoted_list({"a"}), "\"a\"");
  EXPECT_EQ(quoted_list({"a", "b"}, 3), "\"a\", \"b\" … and 3 more");
}

TEST(Messages, Times) {
  EXPECT_EQ(times(1), "once");
  EXPECT_EQ(times(2), "twice");
  EXPECT_EQ(times(7), "7 times");
}

TEST(Messages, EveryMessageHasTheHouseShape) {
  // where → what → what to do: "structure: ... → ...".
  const std::vector<std::string> all{
      column_out_of_range(1, 2, 3),
      bad_column_block(1, 5, 3),
      empty_residual_group(2),
      dependency_out_of_range("r", "state", 3, 2),
      derivative_in_state_equation("der(x) - f", "der(y)"),
      invariant_group_out_of_range("i", 4, 2),
      dense_row_warning("r", 5, 3),
      structurally_singular(2, 2, 1, {"a"}, {"b"}, 1, 1),
      structurally_singular(3, 2, 2, {"a"}, {}, 1, 0),
      matching_not_perfect("BLT", 2, 2, 1),
      pantelides_unbalanced(2, 3),
      pantelides_runaway("Pantelides", 3, "c", 4),
      missing_derivatives(2, {{"r3", 1, 1, "r3", true}}, {}, 0),
      declared_index_disagrees("c1", 3, 2),
      constraint_without_state("c"),
      too_few_candidates({"a", "b"}, 1),
      constraints_dependent({"a"}, 0, 0.0),
      closure_singular({"r"}),
      selection_not_finite("r", "x", std::numeric_limits<double>::infinity()),
      selection_shape(1, 2, 1, 2, 2),
      selection_failed_precondition("x"),
      index1_not_square(2, 3),
      coloring_conflict(0, 1, 2, 0),
      coloring_size(1, 2),
      coloring_uncolored(3),
  };
  for (const auto& m : all) {
    EXPECT_EQ(m.rfind("structure: ", 0), 0u) << m;
    EXPECT_NE(m.find(" → "), std::string::npos) << m;
  }
  EXPECT_EQ(missing_derivatives(0, {{"c0", 2, 2, "c1", true}}, {}, 0).find("(structural index"), std::string::npos);
  EXPECT_NE(missing_derivatives(0, {{"c0", 2, 2, "c1", true}}, {}, 0)
                .find("(and the last, \"c1\", depends on no derivative or algebraic variable)"),
            std::string::npos);
}

}  // namespace
}  // namespace lsdae::structure::messages
