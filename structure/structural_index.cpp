// structure/structural_index.cpp -- see structural_index.h.
#include "structure/structural_index.h"

#include <algorithm>

#include "structure/messages.h"

namespace lsdae::structure {

IndexEstimate estimate_index(BipartiteView g, const Matching& m, const Blt& blt,
                             std::span<const std::size_t> differentiations,
                             const std::vector<bool>& algebraic_column) {
  IndexEstimate out;
  const std::size_t blocks = blt.blocks();
  std::vector<bool> need(blocks, false);
  for (std::size_t b = 0; b < blocks; ++b)
    for (std::size_t k = blt.block_ptr[b]; k < blt.block_ptr[b + 1]; ++k)
      if (algebraic_column[blt.column_order[k]]) need[b] = true;
  // Blocks depend on earlier blocks only: a backward sweep propagates.
  for (std::size_t b = blocks; b-- > 0;) {
    if (!need[b]) continue;
    for (std::size_t k = blt.block_ptr[b]; k < blt.block_ptr[b + 1]; ++k)
      for (const std::size_t c : g.row(blt.row_order[k])) need[blt.block_of_row[m.column_to_row[c]]] = true;
  }
  out.group_index.resize(g.rows());
  out.needs_extra.resize(g.rows());
  for (std::size_t r = 0; r < g.rows(); ++r) {
    out.needs_extra[r] = need[blt.block_of_row[r]];
    out.group_index[r] = differentiations[r] + (out.needs_extra[r] ? 1 : 0);
    out.structural_index = std::max(out.structural_index, out.group_index[r]);
  }
  return out;
}

IndexCheck check_declared_indices(const DaeSystem& system, std::span<const std::size_t> level,
                                                std::span<const std::size_t> group_index) {
  IndexCheck out;
  for (std::size_t g = 0; g < system.groups(); ++g) {
    for (std::size_t k = 0; k < system.formulation_count(g); ++k) {
      const std::size_t f = system.formulation(g, k);
      const auto& declared = system.declared_index[f];
      if (k > level[g]) {
        out.notes.push_back(messages::formulation_unused(system.formulation_names[f], system.group_name(g), level[g]));
        continue;
      }
      if (!declared) continue;
      const std::size_t computed = group_index[g] - k;
      if (*declared < 0 || static_cast<std::size_t>(*declared) != computed)
        out.warnings.push_back(messages::declared_index_disagrees(system.formulation_names[f], *declared, computed));
    }
  }
  return out;
}

}  // namespace lsdae::structure
