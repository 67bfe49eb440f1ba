// structure/matching.cpp -- see matching.h.
#include "structure/matching.h"

#include <limits>

#include "structure/messages.h"

namespace lsdae::structure {

std::vector<std::size_t> Matching::unmatched_rows() const {
  std::vector<std::size_t> out;
  for (std::size_t r = 0; r < row_to_column.size(); ++r)
    if (row_to_column[r] == no_index) out.push_back(r);
  return out;
}

std::vector<std::size_t> Matching::unmatched_columns() const {
  std::vector<std::size_t> out;
  for (std::size_t c = 0; c < column_to_row.size(); ++c)
    if (column_to_row[c] == no_index) out.push_back(c);
  return out;
}

namespace {

constexpr std::size_t infinite = std::numeric_limits<std::size_t>::max();

void greedy(BipartiteView g, Matching& m) {
  for (std::size_t r = 0; r < g.rows(); ++r) {
    if (m.row_to_column[r] != no_index) continue;
    for (const std::size_t c : g.row(r)) {
      if (m.column_to_row[c] == no_index) {
        m.match(r, c);
        break;
      }
    }
  }
}

}  // namespace

void maximize_matching(BipartiteView g, Matching& m) {
  assert(m.row_to_column.size() == g.rows() && m.column_to_row.size() == g.cols());
  greedy(g, m);
  const std::size_t rows = g.rows();
  std::vector<std::size_t> dist(rows), queue, pos(rows);
  queue.reserve(rows);
  struct Frame {
    std::size_t row, via;
  };
  std::vector<Frame> stack;
  for (;;) {
    // BFS: layer the rows by alternating-path distance from the free rows.
    queue.clear();
    for (std::size_t r = 0; r < rows; ++r) {
      dist[r] = m.row_to_column[r] == no_index ? 0 : infinite;
      if (dist[r] == 0) queue.push_back(r);
    }
    std::size_t shortest = infinite;  // layer of the rows that reach a free column
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::size_t r = queue[head];
      if (dist[r] >= shortest) break;
      for (const std::size_t c : g.row(r)) {
        const std::size_t owner = m.column_to_row[c];
        if (owner == no_index) {
          shortest = std::min(shortest, dist[r]);
        } else if (dist[owner] == infinite) {
          dist[owner] = dist[r] + 1;
          queue.push_back(owner);
        }
      }
    }
    if (shortest == infinite) return;
    // DFS along the layers from every free row: vertex-disjoint shortest paths.
    for (std::size_t r = 0; r < rows; ++r) pos[r] = 0;
    for (std::size_t s = 0; s < rows; ++s) {
      if (m.row_to_column[s] != no_index || dist[s] != 0) continue;
      stack.clear();
      stack.push_back({s, no_index});
      while (!stack.empty()) {
        const std::size_t r = stack.back().row;
        const auto columns = g.row(r);
        if (pos[r] == columns.size() || dist[r] > shortest) {
          dist[r] = infinite;  // dead end for the rest of this phase
          stack.pop_back();
          continue;
        }
        const std::size_t c = columns[pos[r]++];
        const std::size_t owner = m.column_to_row[c];
        if (owner == no_index) {
          if (dist[r] != shortest) continue;
          std::size_t take = c;
          for (std::size_t level = stack.size(); level-- > 0;) {
            const std::size_t row = stack[level].row;
            if (m.row_to_column[row] != no_index) m.column_to_row[m.row_to_column[row]] = no_index;
            m.row_to_column[row] = take;
            m.column_to_row[take] = row;
            take = stack[level].via;
          }
          ++m.size;
          break;
        }
        if (dist[owner] != infinite && dist[owner] == dist[r] + 1) stack.push_back({owner, c});
      }
    }
  }
}

Matching maximum_matching(BipartiteView g) {
  Matching m(g.rows(), g.cols());
  maximize_matching(g, m);
  return m;
}

std::size_t structural_rank(BipartiteView g) { return maximum_matching(g).size; }

void AugmentingPathSearch::reserve(std::size_t rows, std::size_t cols) {
  column_mark_.resize(std::max(column_mark_.size(), cols), 0);
  stack_.reserve(rows);
  visited_rows_.reserve(rows);
  visited_columns_.reserve(cols);
}

std::string describe_unmatched(const Matching& m, const std::function<std::string(std::size_t)>& row_name,
                               const std::function<std::string(std::size_t)>& column_name,
                               std::size_t max_names, std::string_view hint) {
  if (m.perfect()) return {};
  std::vector<std::string> rows, cols;
  for (const std::size_t r : m.unmatched_rows()) {
    if (rows.size() == max_names) break;
    rows.push_back(row_name(r));
  }
  for (const std::size_t c : m.unmatched_columns()) {
    if (cols.size() == max_names) break;
    cols.push_back(column_name(c));
  }
  // Names beyond max_names are counted, not listed.
  return messages::structurally_singular(m.row_to_column.size(), m.column_to_row.size(), m.size, rows, cols,
                                         m.row_to_column.size() - m.size, m.column_to_row.size() - m.size, hint);
}

}  // namespace lsdae::structure
