// structure/dummy_derivative_selection.cpp -- the selection of the dummy
// derivatives on a plan (dummy_derivatives.h, "Selection"): numeric at a
// point (select_dummy_derivatives: the constraint Jacobian assembled per
// component, the Schur complement of a component with a closure, the
// switched-off constraints left out, the columns chosen by
// column_selection.h), checked against a given choice
// (check_dummy_selection), or structural only
// (select_dummy_derivatives_structurally). The costs are those of
// dummy_derivatives.h.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "structure/column_selection.h"
#include "structure/dummy_derivatives.h"
#include "structure/matching.h"
#include "structure/messages.h"

namespace lsdae::structure {

namespace {

using Eigen::Index;
Index eigen_size(std::size_t i) { return static_cast<Index>(i); }

int priority_of(StateSelect select) {
  switch (select) {
    case StateSelect::avoid: return 2;  // become a dummy first
    case StateSelect::normal: return 1;
    case StateSelect::prefer: return 0;
  }
  return 1;
}

// The constraint Jacobian of every component at the point where `values`
// evaluates: a dense local matrix [[C_x, C_u], [F_x, F_u]] for a small
// component (or one with a closure), a sparse C_x for a large closure-free one.
struct Assembled {
  std::vector<bool> sparse;
  std::vector<Eigen::MatrixXd> local;
  std::vector<std::vector<Eigen::Triplet<double>>> triplets;
  std::string error;  // a non-finite value
};

Assembled assemble(const DaeSystem& sys, const DummyDerivativePlan& plan, const JacobianCallback& values,
                   const SelectionOptions& options) {
  Assembled a;
  std::vector<double> v(plan.entries.size(), 0.0);
  values(plan.entries, v);
  for (std::size_t e = 0; e < v.size(); ++e) {
    if (std::isfinite(v[e])) continue;
    a.error = messages::selection_not_finite(sys.name(plan.entries[e].row),
                                             sys.column_names[sys.layout.column(plan.entries[e].column)], v[e]);
    return a;
  }
  const std::size_t components = plan.components.size();
  a.sparse.assign(components, false);
  a.local.resize(components);
  a.triplets.resize(components);
  for (std::size_t k = 0; k < components; ++k) {
    const DummyComponent& comp = plan.components[k];
    a.sparse[k] = comp.closure_groups.empty() &&
                  comp.constraints.size() * comp.candidates.size() > options.dense_limit;
    if (a.sparse[k]) continue;
    const std::size_t rows = comp.constraints.size() + comp.closure_groups.size();
    const std::size_t cols = comp.candidates.size() + comp.closure_unknowns.size();
    a.local[k] = Eigen::MatrixXd::Zero(eigen_size(rows), eigen_size(cols));
  }
  for (std::size_t e = 0; e < v.size(); ++e) {
    const std::size_t k = plan.entry_component[e];
    if (a.sparse[k]) a.triplets[k].emplace_back(eigen_size(plan.entry_row[e]), eigen_size(plan.entry_column[e]), v[e]);
    else a.local[k](eigen_size(plan.entry_row[e]), eigen_size(plan.entry_column[e])) += v[e];
  }
  return a;
}

// S = C_x − C_u F_u^{-1} F_x of a dense component (d × k); false when F_u is
// singular (`error` then names the closure rows).
bool schur_complement(const DaeSystem& sys, const DummyComponent& comp, const Eigen::MatrixXd& mat,
                      Eigen::MatrixXd& s, std::string& error) {
  const Index d = eigen_size(comp.constraints.size());
  const Index kc = eigen_size(comp.candidates.size());
  const Index pc = eigen_size(comp.closure_groups.size());
  s = mat.topLeftCorner(d, kc);
  if (pc == 0) return true;
  const Eigen::FullPivLU<Eigen::MatrixXd> fu(mat.bottomRightCorner(pc, pc));
  if (!fu.isInvertible()) {
    std::vector<std::string> names;
    for (const std::size_t f : comp.closure_formulations) names.push_back(sys.formulation_names[f]);
    error = messages::closure_singular(names);
    return false;
  }
  s -= mat.topRightCorner(d, pc) * fu.solve(mat.bottomLeftCorner(pc, kc));
  return true;
}

// Per component and constraint (local row t < d): switched off at this point
// -- its Jacobian row over every column is exactly zero and the caller says
// the constraint is switched off in the current mode (dummy_derivatives.h).
std::vector<std::vector<bool>> switched_off_rows(const DummyDerivativePlan& plan, const Assembled& a,
                                                 const SelectionOptions& options) {
  std::vector<std::vector<bool>> off(plan.components.size());
  for (std::size_t k = 0; k < plan.components.size(); ++k)
    off[k].assign(plan.components[k].constraints.size(), false);
  if (!options.switched_off) return off;
  for (std::size_t k = 0; k < plan.components.size(); ++k) {
    const DummyComponent& comp = plan.components[k];
    const std::size_t d = comp.constraints.size();
    std::vector<bool> zero(d, true);
    if (a.sparse[k]) {
      for (const auto& t : a.triplets[k])
        if (t.value() != 0.0) zero[static_cast<std::size_t>(t.row())] = false;
    } else {
      for (std::size_t t = 0; t < d; ++t) zero[t] = a.local[k].row(eigen_size(t)).cwiseAbs().maxCoeff() == 0.0;
    }
    for (std::size_t t = 0; t < d; ++t) off[k][t] = zero[t] && options.switched_off(comp.constraints[t].equation);
  }
  return off;
}

// The rows of a component's constraints still on: local indices, ascending.
std::vector<std::size_t> rows_on(const std::vector<bool>& off) {
  std::vector<std::size_t> out;
  for (std::size_t t = 0; t < off.size(); ++t)
    if (!off[t]) out.push_back(t);
  return out;
}

// The sparse d × k constraint matrix of a component restricted to `rows`
// (renumbered 0 … rows.size() − 1).
Eigen::SparseMatrix<double, Eigen::RowMajor> sparse_rows(const std::vector<Eigen::Triplet<double>>& triplets,
                                                         std::size_t d, std::size_t kc,
                                                         const std::vector<std::size_t>& rows) {
  std::vector<std::size_t> new_row(d, no_index);
  for (std::size_t i = 0; i < rows.size(); ++i) new_row[rows[i]] = i;
  std::vector<Eigen::Triplet<double>> kept;
  kept.reserve(triplets.size());
  for (const auto& t : triplets) {
    const std::size_t r = new_row[static_cast<std::size_t>(t.row())];
    if (r != no_index) kept.emplace_back(eigen_size(r), t.col(), t.value());
  }
  Eigen::SparseMatrix<double, Eigen::RowMajor> s(eigen_size(rows.size()), eigen_size(kc));
  s.setFromTriplets(kept.begin(), kept.end());  // duplicates are summed
  return s;
}

}  // namespace

DummySelection select_dummy_derivatives(const DaeSystem& sys, const DummyDerivativePlan& plan,
                                        const JacobianCallback& values, const SelectionOptions& options) {
  DummySelection out;
  if (!plan.error.empty()) {
    out.error = plan.error;
    return out;
  }
  if (!plan.needed()) {
    out.success = true;
    return out;
  }
  Assembled a = assemble(sys, plan, values, options);
  if (!a.error.empty()) {
    out.error = a.error;
    return out;
  }
  const std::size_t components = plan.components.size();
  const std::vector<std::vector<bool>> off = switched_off_rows(plan, a, options);
  out.rcond = 1.0;
  for (std::size_t k = 0; k < components; ++k) {
    const DummyComponent& comp = plan.components[k];
    const std::vector<std::size_t> on = rows_on(off[k]);
    for (std::size_t t = 0; t < comp.constraints.size(); ++t)
      if (off[k][t]) out.switched_off.push_back(comp.constraints[t].equation);
    if (on.empty()) {  // every constraint of the component is switched off: nothing to select
      out.component_rcond.push_back(1.0);
      continue;
    }
    const Index kc = eigen_size(comp.candidates.size());
    std::vector<std::size_t> row_height;
    for (const std::size_t t : on) row_height.push_back(comp.constraints[t].height);
    std::vector<int> priority;
    for (const std::size_t i : comp.candidates) priority.push_back(priority_of(sys.state_select[i]));
    ColumnSelection sel;
    if (a.sparse[k]) {
      const Eigen::SparseMatrix<double, Eigen::RowMajor> s =
          sparse_rows(a.triplets[k], comp.constraints.size(), comp.candidates.size(), on);
      sel = select_columns_sparse(s, row_height, comp.candidate_height, priority, options.columns);
    } else {
      Eigen::MatrixXd s_all;
      if (!schur_complement(sys, comp, a.local[k], s_all, out.error)) return out;
      Eigen::MatrixXd s(eigen_size(on.size()), kc);
      for (std::size_t i = 0; i < on.size(); ++i) s.row(eigen_size(i)) = s_all.row(eigen_size(on[i]));
      sel = select_columns(s, row_height, comp.candidate_height, priority, options.columns);
    }
    if (!sel.success) {
      std::vector<std::string> names;
      for (const std::size_t t : on) names.push_back(sys.name(comp.constraints[t].equation));
      out.error = messages::constraints_dependent(names, sel.rank, sel.largest_norm);
      return out;
    }
    for (const std::size_t j : sel.columns) out.dummy_states.push_back(comp.candidates[j]);
    out.component_rcond.push_back(sel.rcond);
    out.rcond = std::min(out.rcond, sel.rcond);
  }
  std::sort(out.dummy_states.begin(), out.dummy_states.end());
  out.success = true;
  return out;
}

DummySelection check_dummy_selection(const DaeSystem& sys, const DummyDerivativePlan& plan,
                                     const JacobianCallback& values, std::span<const std::size_t> dummy_states,
                                     const SelectionOptions& options) {
  DummySelection out;
  out.dummy_states.assign(dummy_states.begin(), dummy_states.end());
  std::sort(out.dummy_states.begin(), out.dummy_states.end());
  if (!plan.error.empty()) {
    out.error = plan.error;
    return out;
  }
  out.rcond = 1.0;
  if (!plan.needed()) {
    out.success = out.dummy_states.empty();
    return out;
  }
  Assembled a = assemble(sys, plan, values, options);
  if (!a.error.empty()) {
    out.error = a.error;
    return out;
  }
  const std::vector<std::vector<bool>> off = switched_off_rows(plan, a, options);
  for (std::size_t k = 0; k < plan.components.size(); ++k)
    for (std::size_t t = 0; t < off[k].size(); ++t)
      if (off[k][t]) out.switched_off.push_back(plan.components[k].constraints[t].equation);
  std::size_t taken = 0;
  for (std::size_t k = 0; k < plan.components.size(); ++k) {
    const DummyComponent& comp = plan.components[k];
    const std::vector<std::size_t> on = rows_on(off[k]);
    const std::size_t d = on.size();
    std::vector<Index> chosen;  // local candidate columns that are dummies
    for (std::size_t j = 0; j < comp.candidates.size(); ++j)
      if (std::binary_search(out.dummy_states.begin(), out.dummy_states.end(), comp.candidates[j]))
        chosen.push_back(eigen_size(j));
    taken += chosen.size();
    std::vector<std::string> names;
    for (const std::size_t t : on) names.push_back(sys.name(comp.constraints[t].equation));
    if (chosen.size() != d) {
      out.error = messages::selection_does_not_fit(names, d, chosen.size());
      return out;
    }
    if (d == 0) {  // every constraint of the component is switched off
      out.component_rcond.push_back(1.0);
      continue;
    }
    double rcond = 0.0;
    if (a.sparse[k]) {
      const Eigen::SparseMatrix<double> s =
          sparse_rows(a.triplets[k], comp.constraints.size(), comp.candidates.size(), on);
      Eigen::SparseMatrix<double> block(eigen_size(d), eigen_size(d));
      std::vector<Eigen::Triplet<double>> t;
      for (std::size_t c = 0; c < chosen.size(); ++c)
        for (Eigen::SparseMatrix<double>::InnerIterator it(s, chosen[c]); it; ++it)
          t.emplace_back(it.row(), eigen_size(c), it.value());
      block.setFromTriplets(t.begin(), t.end());
      rcond = sparse_rcond(block);
    } else {
      Eigen::MatrixXd s;
      if (!schur_complement(sys, comp, a.local[k], s, out.error)) return out;
      Eigen::MatrixXd block(eigen_size(d), eigen_size(d));
      for (std::size_t c = 0; c < chosen.size(); ++c)
        for (std::size_t i = 0; i < d; ++i) block(eigen_size(i), eigen_size(c)) = s(eigen_size(on[i]), chosen[c]);
      // A zero block (all pivots zero) makes PartialPivLU's estimate NaN or inf.
      rcond = block.cwiseAbs().maxCoeff() > 0.0 ? Eigen::PartialPivLU<Eigen::MatrixXd>(block).rcond() : 0.0;
      if (!std::isfinite(rcond)) rcond = 0.0;
    }
    out.component_rcond.push_back(rcond);
    out.rcond = std::min(out.rcond, rcond);
  }
  if (taken != out.dummy_states.size()) {
    out.error = messages::selection_does_not_fit({}, plan.constraints - out.switched_off.size(), out.dummy_states.size());
    return out;
  }
  out.success = true;
  return out;
}

DummySelection select_dummy_derivatives_structurally(const DaeSystem& sys, const DummyDerivativePlan& plan) {
  DummySelection out;
  out.numeric = false;
  out.rcond = std::numeric_limits<double>::quiet_NaN();
  if (!plan.error.empty()) {
    out.error = plan.error;
    return out;
  }
  struct Graph {
    const std::vector<std::vector<std::size_t>>* rows;
    std::span<const std::size_t> row(std::size_t r) const { return (*rows)[r]; }
  };
  for (const DummyComponent& comp : plan.components) {
    const std::size_t d = comp.constraints.size();
    const std::size_t kc = comp.candidates.size();
    std::vector<std::size_t> order(d);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return comp.constraints[a].height > comp.constraints[b].height;
    });
    std::vector<std::vector<std::size_t>> adjacency(d);
    for (std::size_t t = 0; t < d; ++t) {
      const std::size_t h = comp.constraints[order[t]].height;
      const auto reach = comp.structure.row(order[t]);
      adjacency[t].assign(reach.begin(), reach.end());
      std::stable_sort(adjacency[t].begin(), adjacency[t].end(), [&](std::size_t a, std::size_t b) {
        const bool fa = comp.candidate_height[a] <= h, fb = comp.candidate_height[b] <= h;
        if (fa != fb) return fa;
        const int pa = priority_of(sys.state_select[comp.candidates[a]]);
        const int pb = priority_of(sys.state_select[comp.candidates[b]]);
        return pa > pb;
      });
    }
    Matching m(d, kc);
    AugmentingPathSearch search(d, kc);
    const Graph graph{&adjacency};
    for (std::size_t t = 0; t < d; ++t) {
      if (search.augment(graph, m, t)) continue;
      std::vector<std::string> names;
      for (const auto& c : comp.constraints) names.push_back(sys.name(c.equation));
      out.error = messages::constraints_dependent(names, m.size, std::numeric_limits<double>::quiet_NaN());
      return out;
    }
    for (std::size_t t = 0; t < d; ++t) out.dummy_states.push_back(comp.candidates[m.row_to_column[t]]);
    out.component_rcond.push_back(std::numeric_limits<double>::quiet_NaN());
  }
  std::sort(out.dummy_states.begin(), out.dummy_states.end());
  out.success = true;
  return out;
}

}  // namespace lsdae::structure
