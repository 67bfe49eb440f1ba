// structure/classic_pantelides.h -- the textbook Pantelides algorithm on the
// symbolic structure of the ORIGINAL formulations: every equation may be
// differentiated, and differentiating creates derivative variables as needed.
//
// Reference: C. C. Pantelides, SIAM J. Sci. Stat. Comput. 9(2), 1988,
// algorithm "Pantelides" with its AUGMENTPATH; the data layout follows
// ModelingToolkit's StateSelection.jl: `var_to_diff` (v → the variable that
// is its derivative, no_index if none yet) and `eq_to_diff` (e → its
// derivative equation).
//
// Role in lsdae: DIAGNOSTICS and cross-checks, not the reduction itself.
// The FMU cannot evaluate derivatives we invent, so structure/pantelides.h is
// what the simulator uses; this one says, when the FMU's formulations are not
// enough, which equations a complete reduction would differentiate and how
// often, and what the structural index is ("the model is index 3: c0 twice,
// r[1] once, r[2] once"). On every model whose formulations suffice both give
// the same structural index (tested).
//
// Variables: column c of the DaeSystem layout is variable c (ẋ_i, x_i, z_j
// with var_to_diff[x_i] = ẋ_i); new variables (ẍ_i, ż_j, …) are appended.
// Equations: the original formulation of each group, then derivatives
// appended. The derivative of an equation has the incidence
// inc(e) ∪ {var_to_diff[v] : v ∈ inc(e)}. Only highest derivatives
// (var_to_diff[v] == no_index) take part in the matching.
//
// Termination: the algorithm ends iff the system is structurally regular
// (extended_matching perfect); otherwise it would differentiate forever.
// `max_order` guards that: when an equation would be differentiated more
// than max_order times the run stops with `runaway` set (the message names the
// equation). Default max_order: number of equations + 1 (a structurally
// regular first-order system never needs more).
//
// Cost: O(Σ over differentiations of the nnz of the differentiated subsets)
// time; memory O(nnz · (1 + max order)).
#ifndef LSDAE_STRUCTURE_CLASSIC_PANTELIDES_H
#define LSDAE_STRUCTURE_CLASSIC_PANTELIDES_H

#include <cstddef>
#include <string>
#include <vector>

#include "structure/dae_system.h"
#include "structure/pattern.h"

namespace lsdae::structure {

struct ClassicPantelidesResult {
  bool success = false;
  std::vector<std::size_t> differentiations;  // per group (original formulation): times differentiated
  std::size_t structural_index = 0;           // valid on success
  std::vector<std::size_t> group_index;       // per group: index of its original formulation (on success)
  std::vector<std::size_t> var_to_diff;       // all variables, original columns first
  std::vector<std::size_t> eq_to_diff;        // all equations, groups first
  std::size_t variables = 0, equations = 0;   // totals after the run
  std::string runaway;                        // non-empty when max_order stopped the run
};

// max_order == no_index: the default (groups + 1).
ClassicPantelidesResult classic_pantelides(const DaeSystem& system, std::size_t max_order = no_index);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_CLASSIC_PANTELIDES_H
