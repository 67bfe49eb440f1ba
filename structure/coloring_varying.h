// structure/coloring_varying.h -- column colouring for a Jacobian whose
// CONSTANT entries are known: only the columns that still have a varying
// entry are coloured, so a Jacobian costs fewer evaluations.
//
// Context: FMI 3.0 `dependenciesKind` says which partial derivatives are
// `constant` (or `fixed`: constant after initialization). Those entries are
// evaluated once (kernels/compressed_jacobian.h, "constant entries"); every
// Jacobian afterwards only needs the varying ones. A column whose entries are
// all constant needs no evaluation at all.
//
// Two colourings of the columns that have a varying entry, both greedy over
// every ordering (coloring.h, color_columns_best):
//   exclusive  distance-2 on the FULL columns (varying and constant entries):
//              in a colour no two columns share a row, so one evaluation gives
//              each entry alone, exactly as today's colouring does (Curtis,
//              Powell & Reid 1974);
//   subtract   distance-2 on the VARYING entries only (the "partial" or
//              restricted colouring of Gebremedhin, Manne & Pothen, "What color
//              is your Jacobian?", SIAM Review 47(4), 2005, section 6: entries
//              whose values are known need not be separated): a row may then
//              receive, besides its one varying entry, constant entries of
//              other columns of the colour, which the kernel subtracts (their
//              values are known). The varying entry comes out to rounding
//              (the subtraction cancels |constant| · ε), not bitwise.
// The fewer colours win; ties go to `exclusive` (no subtraction, no rounding).
//
// Contract: `entry_constant` has pattern.nnz() entries in the CSC order of
// `pattern` (col_ptr/row_idx). The result's colouring has one entry per
// column: its colour, or no_index for a column without varying entries
// (it is in no group); `colors` may be 0 (every entry constant).
// Cost: two colourings (× 4 orderings) of at most the pattern, O(Σ k_r²).
#ifndef LSDAE_STRUCTURE_COLORING_VARYING_H
#define LSDAE_STRUCTURE_COLORING_VARYING_H

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "structure/coloring.h"
#include "structure/pattern.h"

namespace lsdae::structure {

struct VaryingColoring {
  Coloring coloring;               // the chosen one (see above)
  bool subtracts = false;          // true: the `subtract` colouring was chosen
  std::size_t exclusive_colors = 0, subtract_colors = 0;  // both measured
  std::size_t varying_columns = 0;                        // columns with a varying entry
  std::size_t constant_entries = 0;                       // entries marked constant
  friend bool operator==(const VaryingColoring&, const VaryingColoring&) = default;
};

// `choice`: best (the fewer colours, as above) or one of the two regardless
// (tests and comparisons).
enum class VaryingChoice : std::uint8_t { best, exclusive, subtract };
VaryingColoring color_varying_columns(const Pattern& pattern, const std::vector<bool>& entry_constant,
                                      VaryingChoice choice = VaryingChoice::best);

// `coloring` without the columns whose `coloured` flag is false (their
// colour becomes no_index), colours renumbered densely in their order;
// a colour left without columns disappears. O(columns).
Coloring restrict_coloring(const Coloring& coloring, const std::vector<bool>& coloured);

// Whether `coloring` (no_index allowed for uncoloured columns) lets a
// kernel recover every varying entry: in each colour, every row holds at most
// one VARYING entry of the colour's columns, and every column with a varying
// entry has a colour. On failure `why` names the row and the columns.
bool verify_varying_coloring(const Pattern& pattern, const std::vector<bool>& entry_constant, const Coloring& coloring,
                             std::string* why = nullptr);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_COLORING_VARYING_H
