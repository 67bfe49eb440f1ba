// structure/iteration_pattern.h -- the sparsity pattern of IDA's iteration
// matrix  J = ∂G/∂y + c·∂G/∂y'  for an index-1 system (index1_system.h).
//
// Rows: Index1System::rows. Columns: Index1System::unknowns. Row r has a
// nonzero in column k when its formulation depends on any DaeSystem column
// that maps to unknown k: for a differential state x_i both x_i and ẋ_i (y_k
// and y'_k) land in the same column; a dummy state x_s and its dummy
// derivative ẋ_s are two algebraic columns; z_j is one algebraic column. The
// pattern is exact for every value of c (no cancellation is assumed).
//
// This is the pattern to colour (coloring.h) and to give KLU.
// Cost: O(nnz of the rows) time and memory.
#ifndef LSDAE_STRUCTURE_ITERATION_PATTERN_H
#define LSDAE_STRUCTURE_ITERATION_PATTERN_H

#include "structure/dae_system.h"
#include "structure/index1_system.h"
#include "structure/pattern.h"

namespace lsdae::structure {

Pattern iteration_pattern(const DaeSystem& system, const Index1System& index1);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_ITERATION_PATTERN_H
