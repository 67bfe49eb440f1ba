// structure/classic_pantelides.cpp -- see classic_pantelides.h.
#include "structure/classic_pantelides.h"

#include <algorithm>
#include <span>

#include "structure/blt.h"
#include "structure/matching.h"
#include "structure/messages.h"
#include "structure/structural_index.h"

namespace lsdae::structure {

namespace {

struct Graph {
  const std::vector<std::vector<std::size_t>>* rows;
  std::span<const std::size_t> row(std::size_t r) const { return (*rows)[r]; }
};

}  // namespace

ClassicPantelidesResult classic_pantelides(const DaeSystem& system, std::size_t max_order) {
  const ColumnLayout& layout = system.layout;
  const std::size_t n = layout.states;
  const std::size_t groups = system.groups();
  if (max_order == no_index) max_order = groups + 1;

  ClassicPantelidesResult out;
  std::vector<std::size_t>& var_to_diff = out.var_to_diff;
  std::vector<std::size_t>& eq_to_diff = out.eq_to_diff;
  std::vector<std::vector<std::size_t>> eqs;
  std::vector<std::size_t> eq_order;   // differentiation order of each equation
  std::vector<bool> algebraic;         // never-differentiated algebraic z_j (until it gets a derivative)

  var_to_diff.assign(layout.columns(), no_index);
  for (std::size_t i = 0; i < n; ++i) var_to_diff[n + i] = i;  // x_i → ẋ_i
  algebraic.assign(layout.columns(), false);
  for (std::size_t c = layout.begin(Block::algebraic); c < layout.end(Block::algebraic); ++c) algebraic[c] = true;
  for (std::size_t g = 0; g < groups; ++g) {
    const auto row = system.formulations.row(system.group_ptr[g]);
    eqs.emplace_back(row.begin(), row.end());
    eq_order.push_back(0);
  }
  eq_to_diff.assign(groups, no_index);

  Matching m(groups, layout.columns());
  AugmentingPathSearch search(groups, layout.columns());
  const Graph graph{&eqs};
  auto highest = [&](std::size_t v) { return var_to_diff[v] == no_index; };
  std::vector<std::size_t> rows, cols;

  for (std::size_t k = 0; k < groups; ++k) {
    std::size_t i = k;
    while (!search.augment(graph, m, i, highest)) {
      rows.assign(search.visited_rows().begin(), search.visited_rows().end());
      cols.assign(search.visited_columns().begin(), search.visited_columns().end());
      if (eq_order[i] + 1 > max_order) {
        out.runaway = messages::pantelides_runaway("classic Pantelides", max_order, system.group_name(k),
                                                   eq_order[i] + 1);
        out.variables = var_to_diff.size();
        out.equations = eqs.size();
        return out;
      }
      // Differentiate the visited variables ...
      for (const std::size_t v : cols) {
        var_to_diff[v] = var_to_diff.size();
        var_to_diff.push_back(no_index);
        algebraic.push_back(false);
        algebraic[v] = false;
        m.column_to_row.push_back(no_index);
      }
      // ... and the visited equations.
      for (const std::size_t e : rows) {
        std::vector<std::size_t> d(eqs[e]);
        for (const std::size_t v : eqs[e]) d.push_back(var_to_diff[v]);
        std::sort(d.begin(), d.end());
        d.erase(std::unique(d.begin(), d.end()), d.end());
        eq_to_diff[e] = eqs.size();
        eqs.push_back(std::move(d));
        eq_order.push_back(eq_order[e] + 1);
        eq_to_diff.push_back(no_index);
        m.row_to_column.push_back(no_index);
      }
      // Lift the matching: der(v) is solved by der(the equation that solved v).
      for (const std::size_t v : cols) {
        const std::size_t dv = var_to_diff[v];
        const std::size_t de = eq_to_diff[m.column_to_row[v]];
        m.row_to_column[de] = dv;
        m.column_to_row[dv] = de;
      }
      i = eq_to_diff[i];
    }
  }

  // The final system: each group's highest derivative, over the highest variables.
  out.differentiations.assign(groups, 0);
  std::vector<std::size_t> final_eq(groups);
  for (std::size_t g = 0; g < groups; ++g) {
    std::size_t e = g;
    while (eq_to_diff[e] != no_index) {
      e = eq_to_diff[e];
      ++out.differentiations[g];
    }
    final_eq[g] = e;
  }
  std::vector<std::size_t> column_of(var_to_diff.size(), no_index), highest_vars;
  for (std::size_t v = 0; v < var_to_diff.size(); ++v) {
    if (!highest(v)) continue;
    column_of[v] = highest_vars.size();
    highest_vars.push_back(v);
  }
  PatternBuilder builder(highest_vars.size(), groups);
  std::vector<std::size_t> row;
  for (std::size_t g = 0; g < groups; ++g) {
    row.clear();
    for (const std::size_t v : eqs[final_eq[g]])
      if (column_of[v] != no_index) row.push_back(column_of[v]);
    builder.add_row(row);
  }
  const Pattern final_pattern = std::move(builder).build();
  Matching final_matching(groups, highest_vars.size());
  for (std::size_t g = 0; g < groups; ++g) {
    const std::size_t v = m.row_to_column[final_eq[g]];
    if (v != no_index && column_of[v] != no_index) final_matching.match(g, column_of[v]);
  }
  out.variables = var_to_diff.size();
  out.equations = eqs.size();
  if (!final_matching.perfect()) return out;  // unbalanced: more variables than equations

  std::vector<bool> algebraic_column(highest_vars.size());
  for (std::size_t c = 0; c < highest_vars.size(); ++c) algebraic_column[c] = algebraic[highest_vars[c]];
  const Blt blt = block_lower_triangular(final_pattern, final_matching);
  IndexEstimate estimate = estimate_index(final_pattern, final_matching, blt, out.differentiations, algebraic_column);
  out.structural_index = estimate.structural_index;
  out.group_index = std::move(estimate.group_index);
  out.success = true;
  return out;
}

}  // namespace lsdae::structure
