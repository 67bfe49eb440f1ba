// structure/index1_system.h -- the index-1 system the simulator integrates:
// which FMU variables are IDA's differential and algebraic unknowns, which
// derivative variables are dummies, which formulations are the rows, and
// which constraints a projection step should enforce.
//
// Three ways to get one, all from a successful analysis:
//   none               index ≤ 1 and nothing to enforce: rows = active
//                      formulations, every state differential, z algebraic.
//   dummy_derivatives  (Mattsson–Söderlind; structure/dummy_derivatives.h)
//                      rows = active formulations + the lower formulations
//                      (+ invariants used as constraints) except those the
//                      selection found switched off in the current mode
//                      (DummySelection::switched_off); each dummy state
//                      x_s is an ALGEBRAIC unknown and so is its derivative
//                      variable ẋ_s (a dummy derivative, no longer tied to x_s
//                      by IDA); the other states are differential.
//                      Projection constraints: the invariants not used as rows.
//   projection         the simpler alternative: rows = the highest-order
//                      (active, index-1) formulation of each group only, every
//                      state differential; the lower formulations and the
//                      invariants are constraints to project onto after each
//                      step (seed paper 000: drift correction).
//
// IDA unknown order (deterministic): state by state — a differential state
// contributes [x_i]; a dummy state contributes [x_i (dummy state), ẋ_i (dummy
// derivative)] — then z_0 … z_{m−1}. Row order as made: the active
// formulation of each group in group order, then the constraint rows in plan
// order (the declared order). order_rows_by_matching then permutes the rows so
// that row k is matched to unknown k over the leading columns: the iteration
// matrix gets a structurally zero-free diagonal, which is what KLU's BTF
// pre-ordering (a maximum transversal, Duff's MC21, O(n·nnz) in the worst
// case) finds at once instead of searching long augmenting paths — on the
// TransmissionLine DAE form the declared order costs it O(N²) (2.35 s at
// N = 10240, docs/performance/transmission-line.md), the matched order O(nnz). A semi-explicit
// state equation ẋ_i − f_i is the only row with ẋ_i, so it stays at its
// state's position.
//
// `column_to_unknown` maps every DaeSystem column to its IDA unknown: for a
// differential state both x_i and ẋ_i map to the same unknown (IDA's y and
// y'); this is what the iteration matrix ∂F/∂y + c·∂F/∂y' merges.
//
// Cost: O(n + m + rows); verify_index1_structure: one matching, O(nnz·√N).
#ifndef LSDAE_STRUCTURE_INDEX1_SYSTEM_H
#define LSDAE_STRUCTURE_INDEX1_SYSTEM_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "structure/dae_system.h"
#include "structure/dummy_derivatives.h"
#include "structure/pantelides.h"

namespace lsdae::structure {

enum class ReductionMethod : std::uint8_t { none, dummy_derivatives, projection };
const char* to_string(ReductionMethod method) noexcept;  // "none", "dummy derivatives", "projection"

enum class UnknownKind : std::uint8_t { differential, algebraic, dummy_state, dummy_derivative };
const char* to_string(UnknownKind kind) noexcept;

struct IdaUnknown {
  UnknownKind kind = UnknownKind::differential;
  std::size_t index = 0;  // state index, or algebraic index for `algebraic`
  friend bool operator==(const IdaUnknown&, const IdaUnknown&) = default;
};

struct Index1System {
  ReductionMethod method = ReductionMethod::none;
  std::vector<IdaUnknown> unknowns;                 // IDA's y, in order
  std::vector<EquationRef> rows;                    // IDA's residual rows, in order (rows.size() == unknowns.size())
  std::vector<EquationRef> projection_constraints;  // to project onto (lower formulations and/or invariants)
  std::vector<std::size_t> differential_states;     // ascending
  std::vector<std::size_t> dummy_states;            // ascending (their ẋ are dummy derivatives)
  std::vector<std::size_t> column_to_unknown;       // per DaeSystem column
  bool rows_matched = false;                        // order_rows_by_matching succeeded

  // IDA's id vector (IDASetId): 1 for differential, 0 for algebraic.
  std::vector<double> ida_id() const;
};

// method none or dummy_derivatives (none when the plan needs no constraint).
// Precondition: selection.success. Throws StructureError otherwise.
Index1System make_dummy_derivative_system(const DaeSystem& system, const PantelidesResult& pantelides,
                                          const DummyDerivativePlan& plan, const DummySelection& selection);
// method projection (none when there is nothing to project onto).
Index1System make_projection_system(const DaeSystem& system, const PantelidesResult& pantelides);

// "" when the index-1 condition holds structurally: the matrix of the rows
// over IDA's leading columns (ẋ_i for a differential state, x_s for a dummy
// state, ẋ_s for a dummy derivative, z_j) has a perfect matching; otherwise
// the singular-matching diagnostic.
std::string verify_index1_structure(const DaeSystem& system, const Index1System& index1);

// Permutes `index1.rows` so that row k is matched to unknown k in a maximum
// matching over the leading columns (deterministic: structure/matching.h) and
// sets rows_matched. Returns false and leaves the order alone when there is no
// perfect matching (verify_index1_structure names what is unmatched).
// Cost: one matching, O(nnz·√N).
bool order_rows_by_matching(const DaeSystem& system, Index1System& index1);

// Display name of an IDA unknown: "x", "der(x)" (dummy derivative), "z".
const std::string& unknown_name(const DaeSystem& system, IdaUnknown unknown);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_INDEX1_SYSTEM_H
