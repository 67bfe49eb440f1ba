// structure/messages.h -- every diagnostic text of lsdae::structure, in one
// place, so tests assert on exact wording and the wording stays consistent.
//
// Shape (the house style): `where → what → value seen → what to do`, here
//     structure: <what, with the names and values seen> → <what to do>
// Names of variables and residuals are double-quoted (`quoted`); lists of
// names are cut after a maximum with "… and N more".
#ifndef LSDAE_STRUCTURE_MESSAGES_H
#define LSDAE_STRUCTURE_MESSAGES_H

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace lsdae::structure::messages {

// "\"name\"" with `"` and `\` escaped.
std::string quoted(std::string_view name);
// "\"a\", \"b\", … and 3 more": the names given (quoted) and `more` further ones.
std::string quoted_list(const std::vector<std::string>& names, std::size_t more = 0);
// "once", "twice", "3 times".
std::string times(std::size_t count);

// ---- patterns ---------------------------------------------------------------
std::string column_out_of_range(std::size_t row, std::size_t column, std::size_t cols);
std::string bad_column_block(std::size_t begin, std::size_t end, std::size_t cols);

// ---- DAE input ----------------------------------------------------------------
std::string empty_residual_group(std::size_t group);
std::string dependency_out_of_range(std::string_view row, std::string_view block_noun, std::size_t index,
                                    std::size_t count);
std::string derivative_in_state_equation(std::string_view row, std::string_view derivative);
std::string invariant_group_out_of_range(std::string_view invariant, std::size_t group, std::size_t groups);
std::string dense_row_warning(std::string_view row, std::size_t columns, std::size_t unknowns);
std::string derivative_substituted_note(std::string_view row, std::string_view derivative);

// ---- matching -------------------------------------------------------------------
// rows == unknowns: "structure: system is structurally singular: 6 residuals,
// 6 unknowns, structural rank 5; unmatched residuals: "r[3]"; unmatched
// variables: "der(v2)" → …"; otherwise "system is unbalanced: …".
// The name lists hold at most the names to print; free_* are the totals.
// `hint` replaces the default "what to do" when given.
std::string structurally_singular(std::size_t rows, std::size_t unknowns, std::size_t rank,
                                  const std::vector<std::string>& row_names,
                                  const std::vector<std::string>& column_names, std::size_t free_rows,
                                  std::size_t free_columns, std::string_view hint = {});
std::string index1_singular_hint();
std::string matching_not_perfect(std::string_view algorithm, std::size_t rows, std::size_t cols,
                                 std::size_t matched);

// ---- Pantelides ---------------------------------------------------------------
std::string pantelides_unbalanced(std::size_t groups, std::size_t unknowns);
std::string pantelides_runaway(std::string_view algorithm, std::size_t limit, std::string_view residual,
                               std::size_t order);

struct MissingDerivative {
  std::string residual;           // the group (its original formulation's name)
  std::size_t order_needed = 0;   // level of the formulation that would be needed
  std::size_t formulations = 0;   // how many the group has
  std::string last_formulation;   // its highest formulation
  bool last_has_no_unknown = false;  // that formulation lists no derivative or algebraic variable
  std::string last_not_differentiable = {};  // why the builder cannot differentiate the last further (may be empty)
};
struct DifferentiationCount {
  std::string residual;
  std::size_t times = 0;
};
// structural_index == 0: unknown (the classic analysis did not finish).
std::string missing_derivatives(std::size_t structural_index, const std::vector<MissingDerivative>& missing,
                                const std::vector<DifferentiationCount>& classic, std::size_t more_classic);
std::string declared_index_disagrees(std::string_view formulation, int declared, std::size_t computed);
std::string formulation_unused(std::string_view formulation, std::string_view group, std::size_t used);

// ---- dummy derivatives ----------------------------------------------------------
std::string constraint_without_state(std::string_view constraint);
std::string constraint_with_unknowns(std::string_view constraint, std::size_t closure_rows);
std::string too_few_candidates(const std::vector<std::string>& constraints, std::size_t candidates);
std::string constraints_dependent(const std::vector<std::string>& constraints, std::size_t rank,
                                  double largest_norm);
std::string closure_singular(const std::vector<std::string>& rows);
std::string selection_not_finite(std::string_view row, std::string_view column, double value);
std::string selection_shape(std::size_t rows, std::size_t cols, std::size_t row_heights,
                            std::size_t column_heights, std::size_t priorities);
std::string selection_failed_precondition(std::string_view error);
std::string index1_not_square(std::size_t rows, std::size_t unknowns);
std::string dummy_fallback_to_projection(std::string_view error);
// check_dummy_selection: the given dummy states do not give the component of
// `constraints` (empty: the whole plan) its `needed` candidates.
std::string selection_does_not_fit(const std::vector<std::string>& constraints, std::size_t needed,
                                   std::size_t given);
std::string dummy_plan_unusable(std::string_view error);

// ---- colouring ------------------------------------------------------------------
std::string coloring_conflict(std::size_t row, std::size_t column_a, std::size_t column_b, std::size_t color);
std::string coloring_size(std::size_t seen, std::size_t cols);
std::string coloring_uncolored(std::size_t column);

}  // namespace lsdae::structure::messages

#endif  // LSDAE_STRUCTURE_MESSAGES_H
