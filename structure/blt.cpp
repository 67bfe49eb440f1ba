// structure/blt.cpp -- see blt.h.
#include "structure/blt.h"

#include <algorithm>
#include <map>

#include "structure/error.h"
#include "structure/messages.h"

namespace lsdae::structure {

std::size_t Blt::largest_block() const {
  std::size_t largest = 0;
  for (std::size_t b = 0; b < blocks(); ++b) largest = std::max(largest, block_size(b));
  return largest;
}

std::vector<std::pair<std::size_t, std::size_t>> Blt::size_histogram() const {
  std::map<std::size_t, std::size_t> counts;
  for (std::size_t b = 0; b < blocks(); ++b) ++counts[block_size(b)];
  return {counts.begin(), counts.end()};
}

Blt block_lower_triangular(BipartiteView g, const Matching& m) {
  const std::size_t n = g.rows();
  if (!m.perfect() || m.row_to_column.size() != n || m.column_to_row.size() != g.cols())
    throw StructureError(messages::matching_not_perfect("BLT", n, g.cols(), m.size));

  Blt blt;
  blt.row_order.reserve(n);
  blt.column_order.reserve(n);
  blt.block_of_row.assign(n, no_index);
  std::vector<std::size_t> index(n, no_index), low(n, 0);
  std::vector<bool> on_stack(n, false);
  std::vector<std::size_t> component;  // Tarjan's stack
  struct Frame {
    std::size_t row, pos;
  };
  std::vector<Frame> calls;
  std::size_t counter = 0;

  for (std::size_t root = 0; root < n; ++root) {
    if (index[root] != no_index) continue;
    index[root] = low[root] = counter++;
    component.push_back(root);
    on_stack[root] = true;
    calls.push_back({root, 0});
    while (!calls.empty()) {
      Frame& top = calls.back();
      const std::size_t v = top.row;
      const auto columns = g.row(v);
      if (top.pos < columns.size()) {
        const std::size_t w = m.column_to_row[columns[top.pos++]];
        if (w == v) continue;
        if (index[w] == no_index) {
          index[w] = low[w] = counter++;
          component.push_back(w);
          on_stack[w] = true;
          calls.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      calls.pop_back();
      if (!calls.empty()) low[calls.back().row] = std::min(low[calls.back().row], low[v]);
      if (low[v] != index[v]) continue;
      // v is the root of a component: pop it.
      const std::size_t block = blt.blocks();
      const std::size_t first = blt.row_order.size();
      std::size_t w;
      do {
        w = component.back();
        component.pop_back();
        on_stack[w] = false;
        blt.block_of_row[w] = block;
        blt.row_order.push_back(w);
      } while (w != v);
      std::sort(blt.row_order.begin() + static_cast<std::ptrdiff_t>(first), blt.row_order.end());
      blt.block_ptr.push_back(blt.row_order.size());
    }
  }
  for (const std::size_t r : blt.row_order) blt.column_order.push_back(m.row_to_column[r]);
  return blt;
}

}  // namespace lsdae::structure
