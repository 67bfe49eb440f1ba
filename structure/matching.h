// structure/matching.h -- maximum bipartite matching between equations (rows)
// and variables (columns), structural rank, and the diagnostic that names what
// a maximum matching leaves unmatched.
//
// Algorithm: Hopcroft–Karp (J. E. Hopcroft, R. M. Karp, "An n^{5/2} algorithm
// for maximum matchings in bipartite graphs", SIAM J. Comput. 2(4), 1973),
// started from a greedy matching; O(nnz · sqrt(rows + cols)) time, O(rows +
// cols) workspace, both DFS and BFS iterative (no recursion: 10^6-long chains
// are fine). Written here rather than calling SuiteSparse BTF's maxtrans
// (Duff's MC21, O(n · nnz) worst case) because Pantelides needs what maxtrans
// does not expose: an augmenting-path search from ONE equation that reports the
// equations and variables it visited (its alternating tree), on a graph whose
// rows change as equations get differentiated, over a subset of the columns.
// The tests check the structural rank against maxtrans on random patterns.
//
// Determinism: rows are visited in ascending order and columns in the sorted
// order of the pattern, so the matching is a function of the pattern alone.
//
// Validation: none of these functions validate; they trust the caller
// (matching sizes equal to the graph's, row indices in range). Debug builds
// assert the preconditions.
#ifndef LSDAE_STRUCTURE_MATCHING_H
#define LSDAE_STRUCTURE_MATCHING_H

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "structure/pattern.h"

namespace lsdae::structure {

// Rows of a pattern, optionally through a row map (graph row r is pattern row
// row_map[r]), with all of the pattern's columns. Cheap to copy; the pattern
// and map must outlive it.
class BipartiteView {
 public:
  BipartiteView(const Pattern& pattern) : pattern_(&pattern) {}  // NOLINT: implicit on purpose
  BipartiteView(const Pattern& pattern, std::span<const std::size_t> row_map)
      : pattern_(&pattern), row_map_(row_map), mapped_(true) {}

  std::size_t rows() const { return mapped_ ? row_map_.size() : pattern_->rows(); }
  std::size_t cols() const { return pattern_->cols(); }
  std::span<const std::size_t> row(std::size_t r) const { return pattern_->row(mapped_ ? row_map_[r] : r); }

 private:
  const Pattern* pattern_;
  std::span<const std::size_t> row_map_;
  bool mapped_ = false;
};

// A matching: row_to_column[r] == c iff column_to_row[c] == r; no_index if free.
struct Matching {
  std::vector<std::size_t> row_to_column;
  std::vector<std::size_t> column_to_row;
  std::size_t size = 0;

  Matching() = default;
  Matching(std::size_t rows, std::size_t cols) : row_to_column(rows, no_index), column_to_row(cols, no_index) {}

  void match(std::size_t r, std::size_t c) {
    assert(row_to_column[r] == no_index && column_to_row[c] == no_index);
    row_to_column[r] = c;
    column_to_row[c] = r;
    ++size;
  }
  // Frees row r (and its column); no-op when r is free.
  void unmatch_row(std::size_t r) {
    if (row_to_column[r] == no_index) return;
    column_to_row[row_to_column[r]] = no_index;
    row_to_column[r] = no_index;
    --size;
  }
  bool perfect() const { return size == row_to_column.size() && size == column_to_row.size(); }
  std::vector<std::size_t> unmatched_rows() const;
  std::vector<std::size_t> unmatched_columns() const;
};

// Maximum matching of g (Hopcroft–Karp from a greedy start).
Matching maximum_matching(BipartiteView g);
// Grows m to a maximum matching of g (m must be a valid matching of g).
void maximize_matching(BipartiteView g, Matching& m);
// Size of a maximum matching.
std::size_t structural_rank(BipartiteView g);

// Augmenting-path search from one free row (MC21: iterative DFS with
// look-ahead, I. S. Duff, ACM TOMS 7(3), 1981), the step of Pantelides'
// algorithm. O(nnz of the rows it visits) per call. Reusable workspace: after construction no
// call allocates unless the graph grows. Columns for which `allowed(c)` is
// false are ignored (Pantelides ignores variables that are not the highest
// derivative present).
class AugmentingPathSearch {
 public:
  AugmentingPathSearch() = default;
  AugmentingPathSearch(std::size_t rows, std::size_t cols) { reserve(rows, cols); }
  void reserve(std::size_t rows, std::size_t cols);

  // Tries to match free row `start`. On success m grows by one (the path is
  // flipped) and true is returned. Either way visited_rows()/visited_columns()
  // hold the alternating tree explored; on failure they form a structurally
  // singular subset: |visited_rows| = |visited_columns| + 1, every visited row
  // has all its allowed columns among visited_columns, each matched to a
  // visited row. `graph.row(r)` must return a range of column indices.
  template <class Graph, class Allowed>
  bool augment(const Graph& graph, Matching& m, std::size_t start, Allowed allowed);
  template <class Graph>
  bool augment(const Graph& graph, Matching& m, std::size_t start) {
    return augment(graph, m, start, [](std::size_t) { return true; });
  }

  std::span<const std::size_t> visited_rows() const { return visited_rows_; }
  std::span<const std::size_t> visited_columns() const { return visited_columns_; }

 private:
  struct Frame {
    std::size_t row, pos, via;  // via: the column that led here (no_index at the root)
  };
  std::vector<unsigned> column_mark_;
  unsigned stamp_ = 0;
  std::vector<Frame> stack_;
  std::vector<std::size_t> visited_rows_, visited_columns_;
};

// The diagnostic for a matching that is not perfect (messages::structurally_singular):
// counts, structural rank, and the names of the unmatched rows and columns.
// Returns "" when m is perfect. `hint` replaces the default "what to do".
std::string describe_unmatched(const Matching& m, const std::function<std::string(std::size_t)>& row_name,
                               const std::function<std::string(std::size_t)>& column_name,
                               std::size_t max_names = 10, std::string_view hint = {});

// ---- template implementation ----------------------------------------------

template <class Graph, class Allowed>
bool AugmentingPathSearch::augment(const Graph& graph, Matching& m, std::size_t start, Allowed allowed) {
  if (column_mark_.size() < m.column_to_row.size()) column_mark_.resize(m.column_to_row.size(), 0);
  if (++stamp_ == 0) {  // wrapped: clear the marks once every 2^32 searches
    std::fill(column_mark_.begin(), column_mark_.end(), 0u);
    stamp_ = 1;
  }
  visited_rows_.clear();
  visited_columns_.clear();
  stack_.clear();
  // Each row on the stack takes the column below it: flip the path.
  auto flip = [&](std::size_t take) {
    for (std::size_t level = stack_.size(); level-- > 0;) {
      const std::size_t r = stack_[level].row;
      const std::size_t give = stack_[level].via;
      if (m.row_to_column[r] != no_index) m.column_to_row[m.row_to_column[r]] = no_index;
      m.row_to_column[r] = take;
      m.column_to_row[take] = r;
      take = give;
    }
    ++m.size;
  };
  // Cheap assignment (MC21's look-ahead): a row entered takes a free column
  // at once if it has one. Without it, chains of rows that each could take a
  // free neighbour would be searched to the bottom: quadratic in total.
  auto look_ahead = [&](std::size_t r) {
    for (const std::size_t c : graph.row(r))
      if (allowed(c) && m.column_to_row[c] == no_index) return c;
    return no_index;
  };
  stack_.push_back({start, 0, no_index});
  visited_rows_.push_back(start);
  if (const std::size_t c = look_ahead(start); c != no_index) {
    flip(c);
    return true;
  }
  while (!stack_.empty()) {
    Frame& top = stack_.back();
    const auto columns = graph.row(top.row);
    if (top.pos == columns.size()) {
      stack_.pop_back();
      continue;
    }
    const std::size_t c = columns[top.pos++];
    if (!allowed(c) || column_mark_[c] == stamp_) continue;
    column_mark_[c] = stamp_;
    visited_columns_.push_back(c);
    const std::size_t owner = m.column_to_row[c];
    assert(owner != no_index && "look-ahead found every column of this row matched");
    stack_.push_back({owner, 0, c});
    visited_rows_.push_back(owner);
    if (const std::size_t free = look_ahead(owner); free != no_index) {
      flip(free);
      return true;
    }
  }
  return false;
}

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_MATCHING_H
