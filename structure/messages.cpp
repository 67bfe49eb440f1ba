// structure/messages.cpp -- see messages.h.
#include "structure/messages.h"

#include <cmath>
#include <cstdio>

namespace lsdae::structure::messages {

namespace {

std::string num(std::size_t value) { return std::to_string(value); }

std::string message_real(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.3g", value);
  return buffer;
}

// "1 residual" / "6 residuals".
std::string count(std::size_t n, std::string_view singular, std::string_view plural) {
  return num(n) + " " + std::string(n == 1 ? singular : plural);
}

}  // namespace

std::string quoted(std::string_view name) {
  std::string out = "\"";
  for (const char c : name) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string quoted_list(const std::vector<std::string>& names, std::size_t more) {
  std::string out;
  for (const auto& name : names) {
    if (!out.empty()) out += ", ";
    out += quoted(name);
  }
  if (more > 0) out += " … and " + num(more) + " more";
  return out;
}

std::string times(std::size_t count) {
  if (count == 1) return "once";
  if (count == 2) return "twice";
  return num(count) + " times";
}

std::string column_out_of_range(std::size_t row, std::size_t column, std::size_t cols) {
  return "structure: pattern row " + num(row) + ": column " + num(column) + " is out of range (the pattern has " +
         count(cols, "column", "columns") + ") → pass column indices below " + num(cols);
}

std::string bad_column_block(std::size_t begin, std::size_t end, std::size_t cols) {
  return "structure: column block [" + num(begin) + ", " + num(end) + ") is not inside [0, " + num(cols) +
         ") → pass begin <= end <= " + num(cols);
}

std::string empty_residual_group(std::size_t group) {
  return "structure: residual group " + num(group) +
         " has no formulation → every <Residual> needs at least one <Formulation>";
}

std::string dependency_out_of_range(std::string_view row, std::string_view block_noun, std::size_t index,
                                    std::size_t count_in_block) {
  return "structure: " + quoted(row) + ": dependency on " + std::string(block_noun) + " " + num(index) +
         " is out of range (the model has " + num(count_in_block) + ") → check the mapping of its dependencies";
}

std::string derivative_in_state_equation(std::string_view row, std::string_view derivative) {
  return "structure: state equation " + quoted(row) + " depends on the derivative " + quoted(derivative) +
         "; in the semi-explicit form f(x, z, t) depends on states and algebraic variables only → drop "
         "derivatives from the <ContinuousStateDerivative> dependencies";
}

std::string invariant_group_out_of_range(std::string_view invariant, std::size_t group, std::size_t groups) {
  return "structure: invariant " + quoted(invariant) + " names residual group " + num(group) +
         ", but the model has " + count(groups, "residual group", "residual groups") +
         " → pass a group below " + num(groups) + " or none";
}

std::string dense_row_warning(std::string_view row, std::size_t columns, std::size_t unknowns) {
  return "structure: " + quoted(row) + " declares no dependencies, so it is taken to depend on all " +
         num(columns) + " variables: a dense row couples it to all " + num(unknowns) +
         " unknowns in matching and BLT, hides its structure from index reduction, and puts every Jacobian "
         "column in conflict with every other in its row (at least " + num(unknowns) +
         " residual evaluations per Jacobian) → declare `dependencies` on it";
}

std::string derivative_substituted_note(std::string_view row, std::string_view derivative) {
  return "structure: semi-explicit residual " + quoted(row) + " lists the derivative " + quoted(derivative) +
         "; the FMU computes it as f(x, z), so its dependencies are used instead";
}

std::string structurally_singular(std::size_t rows, std::size_t unknowns, std::size_t rank,
                                  const std::vector<std::string>& row_names,
                                  const std::vector<std::string>& column_names, std::size_t free_rows,
                                  std::size_t free_columns, std::string_view hint) {
  std::string out = "structure: system is ";
  out += rows == unknowns ? "structurally singular: " : "unbalanced: ";
  out += count(rows, "residual", "residuals") + ", " + count(unknowns, "unknown", "unknowns") +
         ", structural rank " + num(rank);
  if (free_rows > 0)
    out += "; unmatched residuals: " + quoted_list(row_names, free_rows - std::min(free_rows, row_names.size()));
  if (free_columns > 0)
    out += "; unmatched variables: " +
           quoted_list(column_names, free_columns - std::min(free_columns, column_names.size()));
  if (!hint.empty())
    out += " → " + std::string(hint);
  else if (rows == unknowns)
    out += " → no differentiation can make these residuals determine these variables: check that each "
           "unmatched variable appears in some residual and that no residual repeats another";
  else if (rows > unknowns)
    out += " → there are more residuals than unknowns: a residual is redundant or an algebraic variable is "
           "missing from <AlgebraicVariables>";
  else
    out += " → there are more unknowns than residuals: a residual is missing or a variable listed as "
           "algebraic is not";
  return out;
}

std::string index1_singular_hint() {
  return "the chosen dummy states leave the index-1 system structurally singular: choose them with "
         "select_dummy_derivatives, which only returns regular selections";
}

std::string matching_not_perfect(std::string_view algorithm, std::size_t rows, std::size_t cols,
                                 std::size_t matched) {
  return "structure: " + std::string(algorithm) + " needs a perfect matching, got " + num(matched) + " of " +
         num(rows) + " rows and " + num(cols) + " columns → run the matching diagnostic first";
}

std::string pantelides_unbalanced(std::size_t groups, std::size_t unknowns) {
  return "structure: Pantelides needs as many residual groups as unknowns, got " + num(groups) + " and " +
         num(unknowns) + " → check the balance (extended_matching) first";
}

std::string pantelides_runaway(std::string_view algorithm, std::size_t limit, std::string_view residual,
                               std::size_t order) {
  return "structure: " + std::string(algorithm) + " stopped: residual " + quoted(residual) +
         " would be differentiated to order " + num(order) + ", beyond the limit of " + num(limit) +
         " → the equations keep competing for the same variables, so the system is structurally singular or "
         "its dependencies are incomplete; check the dependencies of " + quoted(residual) +
         " and of the equations sharing its variables";
}

std::string missing_derivatives(std::size_t structural_index, const std::vector<MissingDerivative>& missing,
                                const std::vector<DifferentiationCount>& classic, std::size_t more_classic) {
  std::string out = "structure: the DAE is of higher index";
  if (structural_index > 0) out += " (structural index " + num(structural_index) + ")";
  out += " and the FMU does not provide the derivative formulations index reduction needs: ";
  for (std::size_t k = 0; k < missing.size(); ++k) {
    const auto& m = missing[k];
    if (k > 0) out += "; ";
    out += "residual " + quoted(m.residual) + " must be differentiated to order " + num(m.order_needed) +
           ", but its <Residual> holds " + count(m.formulations, "<Formulation>", "<Formulation>s");
    if (m.last_has_no_unknown && m.formulations > 1)
      out += " (and the last, " + quoted(m.last_formulation) +
             ", depends on no derivative or algebraic variable)";
    if (!m.last_not_differentiable.empty()) out += " (" + m.last_not_differentiable + ")";
  }
  if (!classic.empty()) {
    out += "; a complete reduction (classic Pantelides) differentiates ";
    for (std::size_t k = 0; k < classic.size(); ++k) {
      if (k > 0) out += ", ";
      out += quoted(classic[k].residual) + " " + times(classic[k].times);
    }
    if (more_classic > 0) out += " … and " + num(more_classic) + " more";
  }
  out += " → export each needed derivative as a further <Formulation> of the same <Residual>, original "
         "first, with its own dependencies (FMI-LS-DAE draft 0.1, 4.2.1, case 3), or export the model in an "
         "index-1 form";
  return out;
}

std::string declared_index_disagrees(std::string_view formulation, int declared, std::size_t computed) {
  return "structure: formulation " + quoted(formulation) + " declares index=\"" + std::to_string(declared) +
         "\", the structural analysis finds " + num(computed) +
         " → the FMU's index attribute and its dependencies disagree; the analysis follows the dependencies";
}

std::string formulation_unused(std::string_view formulation, std::string_view group, std::size_t used) {
  return "structure: formulation " + quoted(formulation) + " of " + quoted(group) +
         " is not needed: the residual needs " + (used == 0 ? std::string("no differentiation")
                                                            : "differentiation to order " + num(used)) +
         "; it is ignored";
}

std::string constraint_without_state(std::string_view constraint) {
  return "structure: constraint " + quoted(constraint) +
         " depends on no state, directly or through the equations it is coupled to, so no dummy state can "
         "keep it satisfied → check its dependencies; the projection method does not need this choice";
}

std::string constraint_with_unknowns(std::string_view constraint, std::size_t closure_rows) {
  return "structure: constraint " + quoted(constraint) + " depends on derivatives or algebraic variables; the "
         "dummy-derivative selection uses its Schur complement through " +
         count(closure_rows, "active equation", "active equations");
}

std::string too_few_candidates(const std::vector<std::string>& constraints, std::size_t candidates) {
  return "structure: the constraints " + quoted_list(constraints) + " (" + num(constraints.size()) +
         ") involve only " + count(candidates, "state", "states") +
         ", so not every constraint can be given a dummy state → some of them are redundant; drop the "
         "duplicates or use the projection method";
}

std::string constraints_dependent(const std::vector<std::string>& constraints, std::size_t rank,
                                  double largest_norm) {
  std::string out = "structure: the constraints " + quoted_list(constraints) + " have rank " + num(rank) +
                    " < " + num(constraints.size()) + " with respect to the states at this point";
  if (!std::isnan(largest_norm)) out += " (largest column norm " + message_real(largest_norm) + ")";
  return out + " → they are redundant or degenerate here: remove duplicated invariants, or re-select at a "
               "nearby point";
}

std::string closure_singular(const std::vector<std::string>& rows) {
  return "structure: the active equations " + quoted_list(rows) +
         " are numerically singular with respect to the unknowns they solve for at this point → the "
         "index-1 system is singular here; check the Jacobian values or choose another point";
}

std::string selection_not_finite(std::string_view row, std::string_view column, double value) {
  return "structure: the Jacobian value d" + quoted(row) + "/d" + quoted(column) + " is " + message_real(value) +
         " → the callback must return finite values";
}

std::string selection_shape(std::size_t rows, std::size_t cols, std::size_t row_heights,
                            std::size_t column_heights, std::size_t priorities) {
  return "structure: column selection got a " + num(rows) + " x " + num(cols) + " matrix with " +
         num(row_heights) + " row heights, " + num(column_heights) + " column heights and " + num(priorities) +
         " priorities → pass one height per row, one height and priority per column, and no more rows than "
         "columns";
}

std::string selection_failed_precondition(std::string_view error) {
  return "structure: cannot build the dummy-derivative system from a failed selection (" + std::string(error) +
         ") → check DummySelection::success first";
}

std::string index1_not_square(std::size_t rows, std::size_t unknowns) {
  return "structure: the index-1 system has " + num(rows) + " rows for " + num(unknowns) +
         " unknowns → this is a bug in lsdae::structure; please report it with the model";
}

std::string selection_does_not_fit(const std::vector<std::string>& constraints, std::size_t needed,
                                   std::size_t given) {
  return "structure: " + (constraints.empty() ? std::string("the plan") : "the constraints " + quoted_list(constraints, 0)) +
         " need " + num(needed) + " dummy states, the selection to check gives " + num(given) +
         " → check a selection made on the same plan";
}

std::string dummy_fallback_to_projection(std::string_view error) {
  return std::string(error) + " (the dummy-derivative selection failed; lsdae uses the projection method "
                              "instead)";
}

std::string dummy_plan_unusable(std::string_view error) {
  return std::string(error) + " (dummy derivatives are unavailable; the projection method still works)";
}

std::string coloring_conflict(std::size_t row, std::size_t column_a, std::size_t column_b, std::size_t color) {
  return "structure: colouring is not valid: row " + num(row) + " has columns " + num(column_a) + " and " +
         num(column_b) + " both of colour " + num(color) + " → columns that share a row need different colours";
}

std::string coloring_size(std::size_t seen, std::size_t cols) {
  return "structure: colouring has " + num(seen) + " entries for " + num(cols) +
         " columns → give one colour per column";
}

std::string coloring_uncolored(std::size_t column) {
  return "structure: colouring leaves column " + num(column) + " without a colour → colour every column";
}

}  // namespace lsdae::structure::messages
