// structure/structural_index.h -- the structural (differential) index of a
// DAE after Pantelides, per residual group and overall, and the cross-check of
// the `index` attributes the FMU declares.
//
// After Pantelides every group g has been differentiated c_g times and the
// active system is structurally index 1: it determines ẋ and z. Getting an
// ODE (the definition of the differential index) needs one more
// differentiation of exactly those equations that determine an algebraic
// variable z — the BLT blocks that contain a matched z — and of every block
// those blocks depend on (their derivatives need the derivatives of the
// unknowns solved upstream). So, with δ_g = 1 for such groups and 0 otherwise,
//     index of group g   = c_g + δ_g      (the DAE index of its ORIGINAL formulation)
//     structural index   = max_g (c_g + δ_g)   (0 for an ODE).
// The formulation at level k of group g then has index c_g + δ_g − k, which is
// what the manifest's `index` attribute states (FMI-LS-DAE draft 0.1, 4.2.1:
// r3 index 2, der(r3) index 1).
//
// Cost: O(rows + nnz) (one backward sweep over the BLT blocks).
// Precondition (not checked): m is perfect on g and blt = block_lower_triangular(g, m).
#ifndef LSDAE_STRUCTURE_STRUCTURAL_INDEX_H
#define LSDAE_STRUCTURE_STRUCTURAL_INDEX_H

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "structure/blt.h"
#include "structure/dae_system.h"

namespace lsdae::structure {

struct IndexEstimate {
  std::size_t structural_index = 0;
  std::vector<std::size_t> group_index;  // per row of g: c_g + δ_g
  std::vector<bool> needs_extra;         // per row: δ_g
};

// differentiations[r]: c of row r; algebraic_column[c]: column c is an
// algebraic (never differentiated) variable.
IndexEstimate estimate_index(BipartiteView g, const Matching& m, const Blt& blt,
                             std::span<const std::size_t> differentiations,
                             const std::vector<bool>& algebraic_column);

struct IndexCheck {
  std::vector<std::string> warnings;  // `index` attributes that disagree with the estimate
  std::vector<std::string> notes;     // formulations beyond the ones the analysis used
};
// `level[g]` is the number of differentiations used by group g, `group_index[g]` its index.
IndexCheck check_declared_indices(const DaeSystem& system, std::span<const std::size_t> level,
                                                std::span<const std::size_t> group_index);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_STRUCTURAL_INDEX_H
