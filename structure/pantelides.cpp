// structure/pantelides.cpp -- see pantelides.h.
#include "structure/pantelides.h"

#include <algorithm>
#include <deque>

#include "structure/error.h"
#include "structure/messages.h"

namespace lsdae::structure {

Pattern unknown_incidence(const DaeSystem& system) {
  const ColumnLayout& layout = system.layout;
  const Pattern& f = system.formulations;
  PatternBuilder builder(layout.unknowns(), f.rows(), f.nnz());
  std::vector<std::size_t> row;
  for (std::size_t r = 0; r < f.rows(); ++r) {
    row.clear();
    // Columns are sorted (ẋ block, x block, z block) and unknown numbering is
    // monotone on ẋ and z, so the filtered row stays sorted.
    for (const std::size_t c : f.row(r)) {
      const std::size_t u = layout.unknown_of_column(c);
      if (u != no_index) row.push_back(u);
    }
    builder.add_row(row);
  }
  return std::move(builder).build();
}

Matching extended_matching(const DaeSystem& system) {
  const ColumnLayout& layout = system.layout;
  const std::size_t n = layout.states;
  PatternBuilder builder(layout.unknowns(), system.groups());
  std::vector<std::size_t> row;
  for (std::size_t g = 0; g < system.groups(); ++g) {
    row.clear();
    for (const std::size_t c : system.formulations.row(system.group_ptr[g])) {
      const VarRef v = layout.var(c);
      row.push_back(v.block == Block::algebraic ? n + v.index : v.index);
    }
    builder.add_row(row);
  }
  const Pattern merged = std::move(builder).build();
  return maximum_matching(merged);
}

PantelidesResult pantelides(const DaeSystem& system, const PantelidesOptions& options) {
  const std::size_t groups = system.groups();
  const std::size_t unknowns = system.layout.unknowns();
  if (groups != unknowns) throw StructureError(messages::pantelides_unbalanced(groups, unknowns));

  PantelidesResult result;
  result.unknowns = unknown_incidence(system);
  result.level.assign(groups, 0);
  result.active.assign(system.group_ptr.begin(), system.group_ptr.end() - 1);
  result.matching = maximum_matching(result.active_view());
  // The view reads `active` through a span: advancing a group is visible to it.
  const BipartiteView view = result.active_view();
  Matching& m = result.matching;

  std::vector<bool> failed(groups, false);
  std::deque<std::size_t> work;
  for (const std::size_t g : m.unmatched_rows()) work.push_back(g);
  AugmentingPathSearch search(groups, unknowns);
  std::vector<std::size_t> subset;

  while (!work.empty()) {
    const std::size_t g = work.front();
    work.pop_front();
    while (m.row_to_column[g] == no_index && !failed[g]) {
      if (search.augment(view, m, g)) break;
      subset.assign(search.visited_rows().begin(), search.visited_rows().end());
      bool advanced = false;
      for (const std::size_t h : subset) {
        if (result.level[h] + 1 >= system.formulation_count(h)) continue;
        if (result.differentiations == options.max_differentiations) {
          result.runaway = messages::pantelides_runaway("Pantelides", options.max_differentiations,
                                                        system.group_name(h), result.level[h] + 1);
          return result;
        }
        m.unmatch_row(h);
        ++result.level[h];
        ++result.active[h];
        ++result.differentiations;
        advanced = true;
        if (h != g) work.push_back(h);
      }
      if (advanced) continue;
      // Nothing in the singular subset can be differentiated any further.
      for (const std::size_t h : subset) {
        if (failed[h]) continue;
        failed[h] = true;
        result.missing.push_back({h, result.level[h] + 1});
      }
    }
  }
  std::sort(result.missing.begin(), result.missing.end(),
            [](const MissingFormulation& a, const MissingFormulation& b) { return a.group < b.group; });
  result.success = result.missing.empty() && m.perfect();
  return result;
}

}  // namespace lsdae::structure
