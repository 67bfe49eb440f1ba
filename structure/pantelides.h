// structure/pantelides.h -- which residual groups must be differentiated, and
// how often, to make the DAE structurally index 1, using ONLY the derivative
// formulations the FMU provides.
//
// Reference: C. C. Pantelides, "The consistent initialization of differential-
// algebraic systems", SIAM J. Sci. Stat. Comput. 9(2), 1988; the structure
// follows ModelingToolkit's StateSelection.jl (`pantelides!`).
//
// The FMU world differs from the symbolic one in two ways, and the algorithm
// follows both:
//  1. An equation cannot be differentiated by us: group g can move from its
//     formulation at level k to level k+1 only when the FMU provides it, and
//     the new row's incidence is THAT formulation's dependencies (not the
//     symbolic derivative of the old row).
//  2. A provided derivative formulation may already have the derivatives it
//     would contain replaced by the model's own equations (the pendulum's
//     c1 = x·vx + y·vy is d/dt(c0/2) with ẋ = vx substituted). Such a row needs
//     no derivative variable of higher order, and the other equations of the
//     structurally singular subset it came from need no differentiation:
//     the exporter already did it.
// Hence the step: the unknowns are ẋ and z (x are known); every group has one
// ACTIVE formulation (initially the original one). For each group left
// unmatched by a maximum matching, search an augmenting path (matching.h). If
// none exists, the search visited a structurally singular subset S. Every
// group of S that has a next formulation is advanced to it and unmatched (and
// queued again); the groups of S without one are left as they are, on the
// assumption that the exporter's substitution absorbed their derivative. When
// NO group of S has a next formulation the DAE cannot be reduced with what the
// FMU provides: every group of S is reported as missing the formulation of the
// next order (`missing`), and the analysis continues with the other groups so
// that one run lists every missing derivative.
//
// With all derivatives provided unsubstituted this is exactly Pantelides'
// algorithm restricted to equation differentiation; classic_pantelides.h is
// the textbook version, used for diagnostics and as a cross-check.
//
// Termination: every failed search either advances a formulation or records a
// failure, so the loop ends after at most (total formulations) searches per
// group. `max_differentiations` is an additional guard (a clear message
// instead of a long run) for callers that want a tighter bound.
//
// Precondition: groups() == layout.unknowns() (a balanced system) -- throws
// StructureError otherwise. Check extended_matching() first: Pantelides is
// only meaningful when it is perfect.
//
// Cost: one Hopcroft–Karp matching, O(nnz · sqrt(n + m)), plus one augmenting
// search O(nnz) per differentiation step; memory O(nnz + n + m).
#ifndef LSDAE_STRUCTURE_PANTELIDES_H
#define LSDAE_STRUCTURE_PANTELIDES_H

#include <cstddef>
#include <string>
#include <vector>

#include "structure/dae_system.h"
#include "structure/matching.h"

namespace lsdae::structure {

// The formulations (all of them, same row numbers as DaeSystem::formulations)
// restricted to the unknown columns ẋ, z, numbered as in ColumnLayout::unknown_of_column.
Pattern unknown_incidence(const DaeSystem& system);

// Pantelides' precondition: a matching of the original formulations to the
// n + m variables where state i counts once whether x_i or ẋ_i appears (a
// derivative can always be traded for its state by differentiating). It is
// perfect iff the DAE is structurally regular, i.e. some differentiation of
// its equations yields an index-1 system. Rows: groups; columns: unknowns
// (numbered as ẋ, z: state i ↔ i, z_j ↔ n + j).
Matching extended_matching(const DaeSystem& system);

struct PantelidesOptions {
  // Stop with an error after this many differentiations in total
  // (no_index: no limit beyond the formulations the FMU provides).
  std::size_t max_differentiations = no_index;
};

struct MissingFormulation {
  std::size_t group = 0;
  std::size_t order_needed = 0;  // level of the formulation that would be needed
};

struct PantelidesResult {
  bool success = false;
  std::vector<std::size_t> level;   // per group: differentiations used (c_g)
  std::vector<std::size_t> active;  // per group: active formulation id (group_ptr[g] + level[g])
  Pattern unknowns;                 // unknown_incidence(system)
  Matching matching;                // rows: groups (active formulations); cols: unknowns. Perfect on success.
  std::vector<MissingFormulation> missing;  // on failure (one per group, ascending group)
  std::size_t differentiations = 0;         // Σ level
  std::string runaway;                      // non-empty when max_differentiations stopped the loop

  BipartiteView active_view() const { return {unknowns, active}; }
};

PantelidesResult pantelides(const DaeSystem& system, const PantelidesOptions& options = {});

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_PANTELIDES_H
