// structure/linear_elimination.h -- which algebraic unknowns of the index-1
// system can be eliminated before IDA sees it, because they enter every row
// linearly with constant coefficients, and the pattern of the reduced system.
//
// Setting. IDA's residual G(y, y') over n unknowns, its iteration-matrix
// pattern P (n × n) and, per entry, whether the FMU declares it constant for
// the whole run (FMI 3.0 dependenciesKind `constant` or `fixed`, no ∂/∂y'
// part: runtime/simulation/jacobian_constancy.h). Let Z be a set of
// algebraic unknowns whose COLUMNS hold only such entries, and R a set of
// rows, R[i] matched to Z[i] (P(R[i], Z[i]) ≠ 0). Then G is affine in z_Z:
//     G_R(y_r, z_Z)    = g(y_r) + A·z_Z        A = ∂G_R/∂z_Z   (constant)
//     G_rest(y_r, z_Z) = h(y_r) + B·z_Z        B = ∂G_rest/∂z_Z (constant)
// and, when A is nonsingular, z_Z = −A⁻¹·g(y_r) leaves the reduced system
//     F(y_r) = h(y_r) − B·A⁻¹·g(y_r)
// over the remaining unknowns only, whose iteration matrix is the Schur
// complement J_rr − B·A⁻¹·J_Rr: nonsingular exactly when the full one is
// (A nonsingular). One evaluation of F is one evaluation of G at z_Z = 0, a
// sparse solve with A (factored once) and a sparse product with B
// (runtime/simulation/eliminated_residual.h does that).
//
// Selection (deterministic):
//  1. Candidates: algebraic unknowns whose every entry in P is constant
//     (reason `varying_entry` otherwise, with the first such row).
//  2. Rows: the diagonal row k for candidate k when P(k, k) ≠ 0 (the index-1
//     system's matched row order puts the matching there), otherwise the first
//     row of the column that no other candidate took (reason `no_row` when
//     none is left). A then has a zero-free diagonal: structurally nonsingular.
//  3. Blocks: candidates joined when one chosen row holds both (the connected
//     components of A's graph). A is block diagonal over them, and a block's
//     elimination touches only its own rows and columns, so each is decided
//     alone.
//  4. Cost model, per block C: the reduced matrix loses the entries of C's
//     rows and columns (`removed`) and gains the fill B_C·A_C⁻¹·J_{R_C r}
//     outside P (`fill`). The structure of column j of A_C⁻¹·J_{R_C j} is the
//     set reachable from the rows of column j through A_C's graph
//     (Gilbert–Peierls: row r reaches its matched unknown, an unknown every
//     chosen row that holds it). A block is eliminated when
//     fill ≤ max_growth · removed (default 1: the Jacobian never gets more
//     nonzeros) -- a Kron reduction of a whole network (every bus voltage
//     eliminated, machines coupled densely) fails it at once, with its
//     search stopped early: the walk gives up after work_per_entry · (entries
//     of the block) steps (reason `fill`).
//  The reduced pattern is then P over the kept rows and columns plus the fill
//  of the eliminated blocks. Indices stay in their order (kept rows and
//  columns ascending), so the reduced system keeps the FMU's order.
//
// Cost: O(nnz(P)) for steps 1–3; step 4 is bounded by the work limit, O(nnz
// of the block · work_per_entry) per block.
#ifndef LSDAE_STRUCTURE_LINEAR_ELIMINATION_H
#define LSDAE_STRUCTURE_LINEAR_ELIMINATION_H

#include <cstddef>
#include <cstdint>
#include <vector>

#include "structure/pattern.h"

namespace lsdae::structure {

enum class EliminationReason : std::uint8_t {
  eliminated,     // solved from its row by the linear block
  not_algebraic,  // a differential unknown (or a dummy state or derivative): IDA keeps it
  varying_entry,  // some row depends on it through an entry not declared constant
  no_row,         // every row of its column was taken by another candidate
  fill,           // its block would add more nonzeros than it removes (cost model)
};
const char* to_string(EliminationReason reason) noexcept;

struct EliminationOptions {
  double max_growth = 1.0;          // eliminate a block when fill <= max_growth * removed
  std::size_t work_per_entry = 64;  // reachability walk budget per entry of the block
};

struct LinearElimination {
  std::vector<EliminationReason> reason;  // per unknown
  std::vector<std::size_t> varying_row;   // per unknown: a non-constant entry's row (reason varying_entry), else no_index
  std::vector<std::size_t> eliminated;       // unknowns eliminated, ascending
  std::vector<std::size_t> eliminated_rows;  // eliminated_rows[i] is the row that solves eliminated[i]
  std::vector<std::size_t> kept, kept_rows;  // the reduced system's unknowns and rows, ascending
  std::vector<std::size_t> reduced_unknown;  // per unknown: its index in `kept`, no_index when eliminated
  std::vector<std::size_t> reduced_row;      // per row: its index in `kept_rows`, no_index when eliminated
  std::vector<std::size_t> eliminated_index;  // per unknown: its index in `eliminated`, else no_index
  std::vector<std::size_t> eliminated_block;  // eliminated_block[i]: the block (step 3) of eliminated[i]; A is block diagonal over them
  Pattern reduced;    // kept_rows.size() × kept.size(), in reduced indices
  Pattern z_columns;  // n × eliminated.size(): the entries of the eliminated columns (A and B)
  std::size_t blocks = 0;           // blocks eliminated
  std::size_t rejected_blocks = 0;  // blocks the cost model refused
  std::size_t removed_nonzeros = 0, fill_nonzeros = 0;  // of the eliminated blocks (fill: union over blocks)

  bool any() const { return !eliminated.empty(); }
};

// `iteration`: square pattern P; `constant_entry`: per CSC entry of P, true
// when it is constant for the run with no y' part; `algebraic`: per unknown.
// Throws std::invalid_argument on size mismatches.
LinearElimination plan_linear_elimination(const Pattern& iteration, const std::vector<bool>& constant_entry,
                                          const std::vector<bool>& algebraic, const EliminationOptions& options = {});

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_LINEAR_ELIMINATION_H
