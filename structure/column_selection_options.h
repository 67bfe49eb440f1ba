// structure/column_selection_options.h -- the options and the result of the
// column selection (column_selection.h), without Eigen: for the headers that
// carry them (dummy_derivatives.h's SelectionOptions), so that the many files
// including those do not parse Eigen's dense and sparse modules (about a second
// of CPU per compile at -O2; only column_selection.cpp and
// dummy_derivative_selection.cpp call the selection itself).
#ifndef LSDAE_STRUCTURE_COLUMN_SELECTION_OPTIONS_H
#define LSDAE_STRUCTURE_COLUMN_SELECTION_OPTIONS_H

#include <cstddef>
#include <vector>

namespace lsdae::structure {

struct ColumnSelectionOptions {
  double preference_tolerance = 0.5;
  double hierarchy_tolerance = 1e-3;
  double rank_tolerance = 1e-10;
};

struct ColumnSelection {
  bool success = false;
  std::vector<std::size_t> columns;  // the selected columns, ascending
  std::size_t rank = 0;              // pivots found (== rows on success)
  double rcond = 0.0;                // of the selected submatrix (0 on failure)
  double largest_norm = 0.0;         // largest column norm of the input
};

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_COLUMN_SELECTION_OPTIONS_H
