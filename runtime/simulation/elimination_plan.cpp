// runtime/simulation/elimination_plan.cpp -- see elimination_plan.h.
#include "simulation/elimination_plan.h"

#include <vector>

#include "simulation/jacobian_constancy.h"

namespace lsdae::simulation {

std::string elimination_not_planned(const ModelDae& dae, const structure::Index1System& index1) {
  if (index1.method != structure::ReductionMethod::none)
    return std::string("the index-1 system uses ") + structure::to_string(index1.method);
  if (dae.state_stands_for_derivative) return "the OpenModelica form's incidence cannot tell x from der(x)";
  if (index1.unknowns.empty()) return "no unknowns";
  return "";
}

structure::LinearElimination plan_model_elimination(const ModelDae& dae, const structure::DaeSystem& system,
                                                  const structure::Index1System& index1,
                                                  const structure::Pattern& iteration,
                                                  const kernels::ConstantEntries* checked) {
  const kernels::ConstantEntries entries =
      checked != nullptr ? *checked : classify_jacobian_entries(dae, system, index1, iteration);
  std::vector<bool> constant(iteration.nnz()), algebraic(index1.unknowns.size());
  for (std::size_t p = 0; p < constant.size(); ++p)
    constant[p] = entries.lifetime[p] == kernels::EntryLifetime::run && !entries.derivative_part[p];
  for (std::size_t k = 0; k < algebraic.size(); ++k)
    algebraic[k] = index1.unknowns[k].kind == structure::UnknownKind::algebraic;
  return structure::plan_linear_elimination(iteration, constant, algebraic);
}

structure::EliminationSummary summarize_elimination(const structure::LinearElimination& plan,
                                                    const structure::DaeSystem& system,
                                                    const structure::Index1System& index1,
                                                    const structure::Pattern& iteration, std::size_t reduced_colors,
                                                    std::size_t max_names) {
  using structure::EliminationReason;
  structure::EliminationSummary s;
  auto name = [&](std::size_t k) { return structure::unknown_name(system, index1.unknowns[k]); };
  for (std::size_t k = 0; k < plan.reason.size(); ++k) {
    if (index1.unknowns[k].kind == structure::UnknownKind::algebraic) ++s.algebraic;
    switch (plan.reason[k]) {
      case EliminationReason::eliminated:
        if (s.eliminated_names.size() < max_names) s.eliminated_names.push_back(name(k));
        break;
      case EliminationReason::varying_entry:
        if (s.varying.size() < max_names) s.varying.emplace_back(name(k), system.name(index1.rows[plan.varying_row[k]]));
        ++s.varying_count;
        break;
      case EliminationReason::no_row:
        if (s.no_row.size() < max_names) s.no_row.push_back(name(k));
        ++s.no_row_count;
        break;
      case EliminationReason::fill:
        if (s.fill.size() < max_names) s.fill.push_back(name(k));
        ++s.fill_count;
        break;
      case EliminationReason::not_algebraic: break;
    }
  }
  s.eliminated = plan.eliminated.size();
  s.blocks = plan.blocks;
  s.rejected_blocks = plan.rejected_blocks;
  s.unknowns_after = plan.kept.size();
  s.nonzeros_before = iteration.nnz();
  s.nonzeros_after = plan.reduced.nnz();
  s.colors_after = reduced_colors;
  return s;
}

}  // namespace lsdae::simulation
