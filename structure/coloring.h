// structure/coloring.h -- distance-2 column colouring of a sparsity pattern:
// columns that share a row get different colours, so one residual evaluation
// (or one directional derivative) per colour recovers every Jacobian entry.
//
// Reference: A. R. Curtis, M. J. D. Powell, J. K. Reid, "On the estimation of
// sparse Jacobian matrices", J. Inst. Math. Appl. 13, 1974 (CPR grouping);
// T. F. Coleman, J. J. Moré, "Estimation of sparse Jacobian matrices and graph
// coloring problems", SIAM J. Numer. Anal. 20(1), 1983 (the orderings below
// as greedy colourings of the column intersection graph). Colouring is the
// greedy "smallest colour not used by a neighbour" over a vertex ORDERING:
//   natural           column order;
//   largest_first     by degree in the column intersection graph, descending
//                     (Welsh–Powell); ties: lower column first;
//   smallest_last     Matula–Beck: repeatedly remove a column of smallest
//                     degree in the remaining graph, colour in reverse removal
//                     order;
//   incidence_degree  Coleman–Moré: next the column with the most already
//                     ordered neighbours.
// smallest_last and incidence_degree keep bucket lists: ties go to the column
// most recently moved into the bucket, initially the one that comes first in
// largest-first order. Everything is deterministic.
//
// `default_ordering` is smallest-last: on the TransmissionLine N = 1280
// iteration matrix every ordering reaches the lower bound (4) in the FMU's
// variable order, but once that order is lost (columns shuffled) natural
// needs 6, largest-first 5, smallest-last and incidence-degree 4; on shuffled
// grids smallest-last has the fewest colours on average (docs/algorithms-jacobian.md
// has the table; tests/structure/coloring_test.cpp repeats the counts).
//
// The column intersection graph is never built: neighbours are enumerated
// through the rows (CSC then CSR) with a marker array. Cost:
// O(Σ_rows k_r²) time for k_r nonzeros in row r, O(rows + cols + nnz) memory.
// A dense row makes that quadratic in its length -- as it makes the
// Jacobian cost one evaluation per column anyway.
// Lower bound on any valid colouring: the longest row (max_row_nnz()).
#ifndef LSDAE_STRUCTURE_COLORING_H
#define LSDAE_STRUCTURE_COLORING_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "structure/pattern.h"

namespace lsdae::structure {

enum class ColumnOrdering : std::uint8_t { natural, largest_first, smallest_last, incidence_degree };
const char* to_string(ColumnOrdering ordering) noexcept;  // "natural", "largest-first", ...
inline constexpr ColumnOrdering all_orderings[] = {ColumnOrdering::natural, ColumnOrdering::largest_first,
                                                   ColumnOrdering::smallest_last, ColumnOrdering::incidence_degree};
inline constexpr ColumnOrdering default_ordering = ColumnOrdering::smallest_last;

struct Coloring {
  ColumnOrdering ordering = default_ordering;
  std::size_t colors = 0;
  std::vector<std::size_t> color;          // per column, in [0, colors)
  std::vector<std::size_t> group_ptr{0};   // colors + 1 offsets into group_columns
  std::vector<std::size_t> group_columns;  // columns of colour 0, then 1, ... (ascending within a colour)

  std::span<const std::size_t> group(std::size_t c) const {
    return {group_columns.data() + group_ptr[c], group_ptr[c + 1] - group_ptr[c]};
  }
  friend bool operator==(const Coloring&, const Coloring&) = default;
};

// The order in which greedy colouring visits the columns.
std::vector<std::size_t> column_ordering(const Pattern& pattern, ColumnOrdering ordering);
// Distinct neighbours of every column in the column intersection graph.
std::vector<std::size_t> column_degrees(const Pattern& pattern);

Coloring color_columns(const Pattern& pattern, ColumnOrdering ordering = default_ordering);
// All orderings; the fewest colours wins; ties go to default_ordering, then
// to the earlier in all_orderings. The others are not tried when the default
// ordering reaches the lower bound (the longest row): none could win.
Coloring color_columns_best(const Pattern& pattern);
// The colouring of every ordering, in the order of all_orderings (each equal
// to color_columns(pattern, that ordering)); the column degrees are counted
// once for all of them.
std::vector<Coloring> color_columns_all(const Pattern& pattern);

// Whether `color` (one entry per column) is a valid distance-2 colouring of
// the pattern. On failure `why` (if given) names the row, the two columns and
// the colour they share, or the size/range problem.
bool verify_coloring(const Pattern& pattern, std::span<const std::size_t> color, std::string* why = nullptr);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_COLORING_H
