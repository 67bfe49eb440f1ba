// runtime/simulation/jacobian_constancy.cpp -- see jacobian_constancy.h.
#include "simulation/jacobian_constancy.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "lsdae/error.h"

namespace lsdae::simulation {
namespace {

using kernels::EntryLifetime;

EntryLifetime lifetime_of(DependencyKind kind) {
  switch (kind) {
    case DependencyKind::constant:
    case DependencyKind::fixed: return EntryLifetime::run;
    case DependencyKind::tunable:
    case DependencyKind::discrete: return EntryLifetime::segment;
    case DependencyKind::independent:
    case DependencyKind::dependent: return EntryLifetime::varying;
  }
  return EntryLifetime::varying;
}

// Lifetimes ordered from the most to the least constant: run < segment < varying.
int rank(EntryLifetime l) { return l == EntryLifetime::run ? 0 : l == EntryLifetime::segment ? 1 : 2; }
EntryLifetime of_rank(int r) {
  return r == 0 ? EntryLifetime::run : r == 1 ? EntryLifetime::segment : EntryLifetime::varying;
}
// The more general of two lifetimes.
EntryLifetime wider(EntryLifetime a, EntryLifetime b) { return rank(a) >= rank(b) ? a : b; }

}  // namespace

kernels::ConstantEntries classify_jacobian_entries(const ModelDae& dae, const structure::DaeSystem& system,
                                                   const structure::Index1System& index1,
                                                   const structure::Pattern& iteration) {
  using structure::Block;
  const auto& layout = system.layout;
  const std::size_t nnz = iteration.nnz();
  if (iteration.rows() != index1.rows.size())
    throw Error(ErrorKind::internal, "jacobian constancy: the pattern has " + std::to_string(iteration.rows()) +
                                         " rows, the index-1 system " + std::to_string(index1.rows.size()));
  // CSR position → CSC position.
  std::vector<std::size_t> csr_to_csc(nnz), next(iteration.row_ptr().begin(), iteration.row_ptr().end() - 1);
  for (std::size_t c = 0; c < iteration.cols(); ++c)
    for (std::size_t p = iteration.col_ptr()[c]; p < iteration.col_ptr()[c + 1]; ++p)
      csr_to_csc[next[iteration.row_idx()[p]]++] = p;

  kernels::ConstantEntries out;
  out.lifetime.assign(nnz, EntryLifetime::varying);
  out.derivative_part.assign(nnz, false);
  constexpr int unset = -1;
  std::vector<int> declared(layout.columns(), unset);  // per DaeSystem column: the rank of its lifetime in this row
  std::vector<std::size_t> touched;
  std::vector<EntryLifetime> row_life;  // per unknown of the row (indexed through the CSR row)
  std::vector<bool> row_derivative;

  for (std::size_t r = 0; r < index1.rows.size(); ++r) {
    const structure::EquationRef e = index1.rows[r];
    const structure::Dependencies* deps = nullptr;
    const std::vector<DependencyKind>* kinds = nullptr;
    bool all_varying = false;
    std::size_t own_derivative = structure::no_index;  // semi-explicit state row: its ẋ_i (coefficient 1)
    if (e.kind == structure::EquationRef::Kind::invariant) {
      deps = &dae.input.invariants.at(e.id).dependencies;
      kinds = &dae.invariant_kinds.at(e.id);
    } else {
      const std::size_t g = system.formulation_group[e.id];
      const std::size_t source = system.group_source[g];
      if (system.group_kind[g] == structure::GroupKind::state_equation) {
        deps = &dae.input.states.at(source).derivative_dependencies;
        kinds = &dae.state_kinds.at(source);
        own_derivative = layout.column(structure::derivative_of(source));
      } else {
        deps = &dae.input.residuals.at(source).formulations.at(system.level_of(e.id)).dependencies;
        kinds = &dae.residual_kinds.at(source).at(system.level_of(e.id));
        if (system.form == structure::DaeForm::semi_explicit && deps->has_value())
          for (const structure::VarRef& v : **deps) all_varying = all_varying || v.block == Block::derivative;
      }
    }
    if (!deps->has_value() || kinds->size() != (*deps)->size()) all_varying = true;
    if (all_varying) continue;  // stays varying
    for (std::size_t d = 0; d < (*deps)->size(); ++d) {
      const std::size_t c = layout.column((**deps)[d]);
      const int life = rank(lifetime_of((*kinds)[d]));
      if (declared[c] == unset) touched.push_back(c);
      declared[c] = std::max(declared[c], life);
    }
    if (own_derivative != structure::no_index) {
      if (declared[own_derivative] == unset) touched.push_back(own_derivative);
      declared[own_derivative] = std::max(declared[own_derivative], rank(EntryLifetime::run));
    }
    const std::span<const std::size_t> columns = iteration.row(r);
    row_life.assign(columns.size(), EntryLifetime::run);
    row_derivative.assign(columns.size(), false);
    for (const std::size_t c : system.incidence(e)) {
      const std::size_t k = index1.column_to_unknown[c];
      const auto at = std::lower_bound(columns.begin(), columns.end(), k);
      if (at == columns.end() || *at != k) continue;  // not in the pattern (cannot happen)
      const auto q = static_cast<std::size_t>(at - columns.begin());
      const EntryLifetime life = declared[c] == unset ? EntryLifetime::varying : of_rank(declared[c]);
      row_life[q] = wider(row_life[q], life);
      if (layout.var(c).block == Block::derivative && index1.unknowns[k].kind == structure::UnknownKind::differential)
        row_derivative[q] = true;
    }
    for (std::size_t q = 0; q < columns.size(); ++q) {
      const std::size_t p = csr_to_csc[iteration.row_ptr()[r] + q];
      out.lifetime[p] = row_life[q];
      out.derivative_part[p] = row_derivative[q];
    }
    for (const std::size_t c : touched) declared[c] = unset;
    touched.clear();
  }
  return out;
}

kernels::ConstantEntries classify_reduced_entries(const kernels::ConstantEntries& full,
                                                  const structure::Pattern& iteration,
                                                  const structure::LinearElimination& plan) {
  using structure::no_index;
  const std::size_t n = iteration.cols(), m = plan.eliminated.size();
  if (full.lifetime.size() != iteration.nnz() || full.derivative_part.size() != iteration.nnz() ||
      plan.reduced_unknown.size() != n || plan.z_columns.cols() != m || plan.eliminated_rows.size() != m ||
      plan.eliminated_block.size() != m)
    throw Error(ErrorKind::internal, "jacobian constancy: the elimination plan does not fit the iteration pattern");
  const std::vector<std::size_t>& block = plan.eliminated_block;
  std::vector<std::size_t> row_to_eliminated(iteration.rows(), no_index);
  for (std::size_t e = 0; e < m; ++e) row_to_eliminated[plan.eliminated_rows[e]] = e;

  // Per (block, kept column j): the widest lifetime among J(R, j), R a row
  // of the block, and whether one has a ∂/∂y' part.
  struct Widest {
    int rank = 0;
    bool derivative = false;
  };
  std::unordered_map<std::uint64_t, Widest> block_column;
  auto key = [n](std::size_t b, std::size_t j) { return static_cast<std::uint64_t>(b) * n + j; };
  for (std::size_t j = 0; j < n; ++j) {
    if (plan.reduced_unknown[j] == no_index) continue;
    for (std::size_t p = iteration.col_ptr()[j]; p < iteration.col_ptr()[j + 1]; ++p) {
      const std::size_t e = row_to_eliminated[iteration.row_idx()[p]];
      if (e == no_index) continue;
      Widest& w = block_column[key(block[e], j)];
      w.rank = std::max(w.rank, rank(full.lifetime[p]));
      w.derivative = w.derivative || full.derivative_part[p];
    }
  }

  const structure::Pattern& reduced = plan.reduced;
  kernels::ConstantEntries out;
  out.lifetime.assign(reduced.nnz(), EntryLifetime::varying);
  out.derivative_part.assign(reduced.nnz(), false);
  std::vector<std::size_t> blocks_of_row;
  for (std::size_t jr = 0; jr < reduced.cols(); ++jr) {
    const std::size_t j = plan.kept[jr];
    const std::span<const std::size_t> full_column = iteration.column(j);
    for (std::size_t q = reduced.col_ptr()[jr]; q < reduced.col_ptr()[jr + 1]; ++q) {
      const std::size_t i = plan.kept_rows[reduced.row_idx()[q]];
      int widest = -1;
      bool derivative = false;
      if (const auto at = std::lower_bound(full_column.begin(), full_column.end(), i);
          at != full_column.end() && *at == i) {
        const std::size_t p = iteration.col_ptr()[j] + static_cast<std::size_t>(at - full_column.begin());
        widest = rank(full.lifetime[p]);
        derivative = full.derivative_part[p];
      }
      blocks_of_row.clear();
      for (const std::size_t e : plan.z_columns.row(i)) blocks_of_row.push_back(block[e]);
      std::sort(blocks_of_row.begin(), blocks_of_row.end());
      blocks_of_row.erase(std::unique(blocks_of_row.begin(), blocks_of_row.end()), blocks_of_row.end());
      for (const std::size_t b : blocks_of_row)
        if (const auto w = block_column.find(key(b, j)); w != block_column.end()) {
          widest = std::max(widest, w->second.rank);
          derivative = derivative || w->second.derivative;
        }
      if (widest < 0) continue;  // reached by neither (cannot happen): stays varying
      out.lifetime[q] = of_rank(widest);
      out.derivative_part[q] = derivative;
    }
  }
  return out;
}

std::vector<bool> not_varying(const kernels::ConstantEntries& kinds) {
  std::vector<bool> constant(kinds.lifetime.size());
  for (std::size_t p = 0; p < constant.size(); ++p) constant[p] = kinds.lifetime[p] != kernels::EntryLifetime::varying;
  return constant;
}

DeclaredKinds declared_kinds(const ModelDae& dae, const structure::DaeSystem& system,
                             const structure::Index1System& index1, const structure::Pattern& iteration) {
  DeclaredKinds out{iteration, classify_jacobian_entries(dae, system, index1, iteration), {}};
  out.varying = structure::color_varying_columns(iteration, not_varying(out.kinds));
  return out;
}

}  // namespace lsdae::simulation
