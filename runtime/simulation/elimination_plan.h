// runtime/simulation/elimination_plan.h -- the linear elimination of
// structure/linear_elimination.h for an FMU's index-1 system: which entries
// count as constant (jacobian_constancy.h: lifetime `run`, i.e.
// dependenciesKind constant or fixed, and no ∂/∂ẋ part), when a plan is made
// at all, and the summary `lsdae info --structure` prints. The simulation
// (IntegrationSession::plan_elimination) and `info` use the same functions, so
// the report says what a run with --eliminate auto does.
#ifndef LSDAE_RUNTIME_SIMULATION_ELIMINATION_PLAN_H
#define LSDAE_RUNTIME_SIMULATION_ELIMINATION_PLAN_H

#include <string>

#include "kernels/compressed_jacobian.h"
#include "simulation/model_dae.h"
#include "structure/dae_system.h"
#include "structure/index1_system.h"
#include "structure/linear_elimination.h"
#include "structure/pattern.h"
#include "structure/report.h"

namespace lsdae::simulation {

// Why no plan is made for this system ("" when one is): dummy derivatives or
// projection (the index-1 system changes at run time or IDA's point is moved
// inside a step), the OpenModelica form (its incidence cannot tell x from ẋ),
// no unknowns.
std::string elimination_not_planned(const ModelDae& dae, const structure::Index1System& index1);

// The plan over `iteration` (structure::iteration_pattern(system, index1)).
// `checked`: the entries' kinds after the run's claims check
// (jacobian_claims.h: a false constant made varying); null: as declared
// (classify_jacobian_entries), what `lsdae info --structure` reports.
structure::LinearElimination plan_model_elimination(const ModelDae& dae, const structure::DaeSystem& system,
                                                  const structure::Index1System& index1,
                                                  const structure::Pattern& iteration,
                                                  const kernels::ConstantEntries* checked = nullptr);

// The report's summary of `plan`; reduced_colors: colours of plan.reduced.
// Name lists are capped at `max_names`.
structure::EliminationSummary summarize_elimination(const structure::LinearElimination& plan,
                                                    const structure::DaeSystem& system,
                                                    const structure::Index1System& index1,
                                                    const structure::Pattern& iteration, std::size_t reduced_colors,
                                                    std::size_t max_names = 50);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_ELIMINATION_PLAN_H
