// structure/dummy_derivatives.cpp -- see dummy_derivatives.h: the plan
// (structural, once); the selection (numeric, at every re-selection) and its
// checks are dummy_derivative_selection.cpp.
#include "structure/dummy_derivatives.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <numeric>

#include "structure/matching.h"
#include "structure/messages.h"

namespace lsdae::structure {

namespace {

class UnionFind {
 public:
  explicit UnionFind(std::size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  std::size_t find(std::size_t a) {
    while (parent_[a] != a) a = parent_[a] = parent_[parent_[a]];
    return a;
  }
  // The smaller root wins, so roots are the first constraint of their set.
  void unite(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a < b) parent_[b] = a;
    else parent_[a] = b;
  }

 private:
  std::vector<std::size_t> parent_;
};

// Height of each invariant: 1 + (max level of its group's invariants − its level)
// when the level is known, else 1.
std::vector<std::size_t> invariant_heights(const DaeSystem& sys) {
  std::vector<std::size_t> out(sys.invariant_names.size(), 1);
  for (std::size_t t = 0; t < out.size(); ++t) {
    if (sys.invariant_level[t] == no_index) continue;
    std::size_t top = sys.invariant_level[t];
    for (std::size_t u = 0; u < out.size(); ++u)
      if (sys.invariant_group[u] == sys.invariant_group[t] && sys.invariant_level[u] != no_index)
        top = std::max(top, sys.invariant_level[u]);
    out[t] = 1 + top - sys.invariant_level[t];
  }
  return out;
}

std::size_t row_key(EquationRef e) {
  return e.kind == EquationRef::Kind::formulation ? e.id : std::numeric_limits<std::size_t>::max() / 2 + e.id;
}

}  // namespace

DummyDerivativePlan plan_dummy_derivatives(const DaeSystem& sys, const PantelidesResult& p,
                                           bool invariants_as_constraints) {
  DummyDerivativePlan plan;
  const ColumnLayout& layout = sys.layout;
  const std::size_t n = layout.states;

  std::vector<DummyConstraint> all;
  for (std::size_t g = 0; g < sys.groups(); ++g)
    for (std::size_t k = 0; k < p.level[g]; ++k)
      all.push_back({{EquationRef::Kind::formulation, sys.formulation(g, k)}, p.level[g] - k});
  if (invariants_as_constraints) {
    const auto heights = invariant_heights(sys);
    for (std::size_t t = 0; t < heights.size(); ++t) all.push_back({{EquationRef::Kind::invariant, t}, heights[t]});
  }
  plan.constraints = all.size();
  if (all.empty()) return plan;

  // Closures and components (union-find over the constraints; every state
  // and unknown is claimed by the first constraint that reaches it).
  const std::size_t count = all.size();
  UnionFind sets(count);
  std::vector<std::size_t> state_owner(n, no_index), unknown_owner(layout.unknowns(), no_index);
  std::vector<std::vector<std::size_t>> states_of(count), direct_of(count), closure_of(count);
  std::vector<bool> has_unknowns(count, false);
  std::deque<std::size_t> queue;
  for (std::size_t t = 0; t < count; ++t) {
    auto claim_state = [&](std::size_t i) {
      if (state_owner[i] == no_index) {
        state_owner[i] = t;
        states_of[t].push_back(i);
      } else {
        sets.unite(t, state_owner[i]);
      }
    };
    auto visit = [&](std::size_t u) {
      if (unknown_owner[u] == no_index) {
        unknown_owner[u] = t;
        queue.push_back(u);
      } else {
        sets.unite(t, unknown_owner[u]);
      }
    };
    for (const std::size_t c : sys.incidence(all[t].equation)) {
      const VarRef v = layout.var(c);
      if (v.block == Block::state) {
        direct_of[t].push_back(v.index);
        claim_state(v.index);
      } else {
        has_unknowns[t] = true;
        visit(layout.unknown_of_column(c));
      }
    }
    while (!queue.empty()) {
      const std::size_t u = queue.front();
      queue.pop_front();
      const std::size_t g = p.matching.column_to_row[u];
      closure_of[t].push_back(g);
      for (const std::size_t c : sys.formulations.row(p.active[g])) {
        const VarRef v = layout.var(c);
        if (v.block == Block::state) claim_state(v.index);
        else visit(layout.unknown_of_column(c));
      }
    }
  }

  // Components in the order of their first constraint.
  std::vector<std::size_t> component_of_root(count, no_index);
  std::vector<std::size_t> component_of(count);
  for (std::size_t t = 0; t < count; ++t) {
    const std::size_t root = sets.find(t);
    if (component_of_root[root] == no_index) {
      component_of_root[root] = plan.components.size();
      plan.components.emplace_back();
    }
    component_of[t] = component_of_root[root];
    DummyComponent& comp = plan.components[component_of[t]];
    comp.constraints.push_back(all[t]);
    comp.candidates.insert(comp.candidates.end(), states_of[t].begin(), states_of[t].end());
    comp.closure_groups.insert(comp.closure_groups.end(), closure_of[t].begin(), closure_of[t].end());
  }

  std::vector<std::size_t> state_local(n, no_index), unknown_local(layout.unknowns(), no_index);
  struct Entry {
    std::size_t column, row_key, component, row, col;
    EquationRef equation;
  };
  std::vector<Entry> entries;
  std::vector<std::size_t> local_rows_of_t(count);
  std::vector<std::size_t> next_row(plan.components.size(), 0);
  for (std::size_t t = 0; t < count; ++t) local_rows_of_t[t] = next_row[component_of[t]]++;

  for (std::size_t k = 0; k < plan.components.size(); ++k) {
    DummyComponent& comp = plan.components[k];
    std::sort(comp.candidates.begin(), comp.candidates.end());
    std::sort(comp.closure_groups.begin(), comp.closure_groups.end());
    for (const std::size_t g : comp.closure_groups) {
      comp.closure_unknowns.push_back(p.matching.row_to_column[g]);
      comp.closure_formulations.push_back(p.active[g]);
    }
    for (std::size_t j = 0; j < comp.candidates.size(); ++j) state_local[comp.candidates[j]] = j;
    for (std::size_t j = 0; j < comp.closure_unknowns.size(); ++j) unknown_local[comp.closure_unknowns[j]] = j;
    const std::size_t d = comp.constraints.size();
    const std::size_t kc = comp.candidates.size();

    // Which candidates each constraint reaches: its own states, plus every
    // state of the closure rows when it contains unknowns (a superset).
    std::vector<std::size_t> closure_states;
    for (const std::size_t g : comp.closure_groups)
      for (const std::size_t c : sys.formulations.row(p.active[g]))
        if (c >= layout.begin(Block::state) && c < layout.end(Block::state))
          closure_states.push_back(state_local[c - n]);
    PatternBuilder reach(kc, d);
    comp.candidate_height.assign(kc, 0);
    std::vector<std::size_t> row;
    std::vector<std::string> names;
    for (std::size_t t = 0; t < count; ++t) {
      if (component_of[t] != k) continue;
      row.clear();
      for (const std::size_t i : direct_of[t]) row.push_back(state_local[i]);
      if (has_unknowns[t]) row.insert(row.end(), closure_states.begin(), closure_states.end());
      reach.add_row(row);
      for (const std::size_t j : row) comp.candidate_height[j] = std::max(comp.candidate_height[j], all[t].height);
      if (row.empty() && plan.error.empty())
        plan.error = messages::constraint_without_state(sys.name(all[t].equation));
      names.push_back(sys.name(all[t].equation));
      if (has_unknowns[t])
        plan.notes.push_back(messages::constraint_with_unknowns(sys.name(all[t].equation),
                                                                   comp.closure_groups.size()));
    }
    comp.structure = std::move(reach).build();
    if (d > kc && plan.error.empty()) plan.error = messages::too_few_candidates(names, kc);

    // Entries: constraint rows then closure rows, over candidates then closure unknowns.
    auto add_row_entries = [&](EquationRef e, std::size_t local_row) {
      for (const std::size_t c : sys.incidence(e)) {
        const VarRef v = layout.var(c);
        const std::size_t local = v.block == Block::state ? state_local[v.index]
                                                          : kc + unknown_local[layout.unknown_of_column(c)];
        entries.push_back({c, row_key(e), k, local_row, local, e});
      }
    };
    for (std::size_t t = 0; t < count; ++t)
      if (component_of[t] == k) add_row_entries(all[t].equation, local_rows_of_t[t]);
    for (std::size_t i = 0; i < comp.closure_groups.size(); ++i)
      add_row_entries({EquationRef::Kind::formulation, comp.closure_formulations[i]}, d + i);
  }

  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.column != b.column ? a.column < b.column : a.row_key < b.row_key;
  });
  plan.entries.reserve(entries.size());
  for (const Entry& e : entries) {
    plan.entries.push_back({e.equation, layout.var(e.column)});
    plan.entry_component.push_back(e.component);
    plan.entry_row.push_back(e.row);
    plan.entry_column.push_back(e.col);
  }
  return plan;
}

}  // namespace lsdae::structure
