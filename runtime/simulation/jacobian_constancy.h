// runtime/simulation/jacobian_constancy.h -- which entries of IDA's
// iteration matrix J = ∂G/∂y + cj·∂G/∂y' the FMU declares constant, from the
// FMI 3.0 `dependenciesKind` of the manifest (and, semi-explicit, of the
// ContinuousStateDerivative list).
//
// Entry (row r, unknown k) collects every dependency of r's formulation on a
// DaeSystem column that maps to k (x_i and ẋ_i for a differential state).
// Its lifetime is the most general of their kinds:
//   constant, fixed      → run      (constant after initialization)
//   tunable, discrete    → segment  (constant between events)
//   dependent, independent, no kind, a dense row (no dependencies), or a
//   column the row reaches without a declared dependency → varying.
// Special rows: a semi-explicit state equation ẋ_i − f_i has ẋ_i with the
// constant coefficient 1 and f_i's kinds otherwise; a semi-explicit residual
// that names some ẋ (replaced by f's dependencies, dae_system.h) is varying
// throughout, since its partial derivatives then include ∂f/∂·.
// `derivative_part`: the entry has a ∂G/∂ẋ_i part (k a differential state
// and ẋ_i among the columns), so its value is a + cj·b.
// Cost: O(nnz of the rows + the declared dependencies).
#ifndef LSDAE_RUNTIME_SIMULATION_JACOBIAN_CONSTANCY_H
#define LSDAE_RUNTIME_SIMULATION_JACOBIAN_CONSTANCY_H

#include "kernels/compressed_jacobian.h"
#include "simulation/model_dae.h"
#include "structure/coloring_varying.h"
#include "structure/dae_system.h"
#include "structure/index1_system.h"
#include "structure/linear_elimination.h"
#include "structure/pattern.h"

namespace lsdae::simulation {

// Per CSC entry of `iteration` (structure::iteration_pattern(system, index1)).
kernels::ConstantEntries classify_jacobian_entries(const ModelDae& dae, const structure::DaeSystem& system,
                                                   const structure::Index1System& index1,
                                                   const structure::Pattern& iteration);

// The entries that are not varying (constant for the run or a segment): the
// mask structure::color_varying_columns colours around.
std::vector<bool> not_varying(const kernels::ConstantEntries& kinds);

// The declared kinds of `iteration`'s entries and the colouring of the
// columns they leave varying, computed once: create() needs them to count
// the colours a Jacobian evaluates in parallel (instance_count.h) before any
// integrator exists, and IntegrationSession::make() takes them (take_declared)
// instead of classifying and colouring again -- for the same pattern only,
// and the colouring only where its claims check left the mask as declared.
struct DeclaredKinds {
  structure::Pattern iteration;      // the pattern they were computed for
  kernels::ConstantEntries kinds;    // classify_jacobian_entries
  structure::VaryingColoring varying;  // color_varying_columns(iteration, not_varying(kinds))
};
DeclaredKinds declared_kinds(const ModelDae& dae, const structure::DaeSystem& system,
                             const structure::Index1System& index1, const structure::Pattern& iteration);

// The same for the reduced system of a linear elimination
// (structure/linear_elimination.h): per CSC entry of plan.reduced, from
// `full`, the classification of `iteration`'s entries. The reduced matrix is
// the Schur complement J_rr − B·A⁻¹·J_Rr, A and B constant for the run (the
// plan's contract), A block diagonal over the plan's blocks; so entry (i, j)
// is J(i, j) plus, for every block b that row i reaches through B, a
// combination of the entries J(R, j) of b's rows R. Its lifetime is the
// widest of those entries' (an entry that is absent contributes nothing) and
// it has a ∂/∂y' part when one of them has. The blocks are the plan's
// (LinearElimination::eliminated_block).
// Cost: O(nnz(iteration) + nnz(plan.z_columns) + nnz(plan.reduced)·(blocks a row reaches)).
kernels::ConstantEntries classify_reduced_entries(const kernels::ConstantEntries& full,
                                                  const structure::Pattern& iteration,
                                                  const structure::LinearElimination& plan);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_JACOBIAN_CONSTANCY_H
