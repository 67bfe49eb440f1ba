// structure/index1_system.cpp -- see index1_system.h.
#include "structure/index1_system.h"

#include <algorithm>

#include "structure/error.h"
#include "structure/matching.h"
#include "structure/messages.h"

namespace lsdae::structure {

const char* to_string(ReductionMethod method) noexcept {
  switch (method) {
    case ReductionMethod::none: return "none";
    case ReductionMethod::dummy_derivatives: return "dummy derivatives";
    case ReductionMethod::projection: return "projection";
  }
  return "?";
}

const char* to_string(UnknownKind kind) noexcept {
  switch (kind) {
    case UnknownKind::differential: return "differential";
    case UnknownKind::algebraic: return "algebraic";
    case UnknownKind::dummy_state: return "dummy state";
    case UnknownKind::dummy_derivative: return "dummy derivative";
  }
  return "?";
}

std::vector<double> Index1System::ida_id() const {
  std::vector<double> id;
  id.reserve(unknowns.size());
  for (const IdaUnknown& u : unknowns) id.push_back(u.kind == UnknownKind::differential ? 1.0 : 0.0);
  return id;
}

const std::string& unknown_name(const DaeSystem& system, IdaUnknown unknown) {
  const ColumnLayout& layout = system.layout;
  switch (unknown.kind) {
    case UnknownKind::differential:
    case UnknownKind::dummy_state: return system.column_names[layout.column(state(unknown.index))];
    case UnknownKind::dummy_derivative: return system.column_names[layout.column(derivative_of(unknown.index))];
    case UnknownKind::algebraic: break;
  }
  return system.column_names[layout.column(algebraic(unknown.index))];
}

namespace {

// Unknowns, column map and the active rows, with `dummy[i]` marking dummy states.
Index1System skeleton(const DaeSystem& sys, const PantelidesResult& p, const std::vector<bool>& dummy) {
  const ColumnLayout& layout = sys.layout;
  Index1System out;
  out.column_to_unknown.assign(layout.columns(), no_index);
  for (std::size_t i = 0; i < layout.states; ++i) {
    const std::size_t x = layout.column(state(i)), dx = layout.column(derivative_of(i));
    if (!dummy[i]) {
      out.column_to_unknown[x] = out.column_to_unknown[dx] = out.unknowns.size();
      out.unknowns.push_back({UnknownKind::differential, i});
      out.differential_states.push_back(i);
      continue;
    }
    out.column_to_unknown[x] = out.unknowns.size();
    out.unknowns.push_back({UnknownKind::dummy_state, i});
    out.column_to_unknown[dx] = out.unknowns.size();
    out.unknowns.push_back({UnknownKind::dummy_derivative, i});
    out.dummy_states.push_back(i);
  }
  for (std::size_t j = 0; j < layout.algebraic; ++j) {
    out.column_to_unknown[layout.column(algebraic(j))] = out.unknowns.size();
    out.unknowns.push_back({UnknownKind::algebraic, j});
  }
  for (std::size_t g = 0; g < sys.groups(); ++g) out.rows.push_back({EquationRef::Kind::formulation, p.active[g]});
  return out;
}

}  // namespace

Index1System make_dummy_derivative_system(const DaeSystem& sys, const PantelidesResult& p,
                                          const DummyDerivativePlan& plan, const DummySelection& selection) {
  if (!selection.success) throw StructureError(messages::selection_failed_precondition(selection.error));
  std::vector<bool> dummy(sys.layout.states, false);
  for (const std::size_t i : selection.dummy_states) dummy[i] = true;
  Index1System out = skeleton(sys, p, dummy);
  out.method = plan.needed() ? ReductionMethod::dummy_derivatives : ReductionMethod::none;
  std::vector<bool> used_invariant(sys.invariant_names.size(), false);
  // Constraint rows in plan order: component by component, without the ones
  // switched off in the current mode (they hold trivially: no row, no dummy).
  auto is_off = [&](EquationRef e) {
    return std::find(selection.switched_off.begin(), selection.switched_off.end(), e) != selection.switched_off.end();
  };
  for (const DummyComponent& comp : plan.components)
    for (const DummyConstraint& c : comp.constraints) {
      if (c.equation.kind == EquationRef::Kind::invariant) used_invariant[c.equation.id] = true;
      if (!is_off(c.equation)) out.rows.push_back(c.equation);
    }
  for (std::size_t t = 0; t < used_invariant.size(); ++t)
    if (!used_invariant[t]) out.projection_constraints.push_back({EquationRef::Kind::invariant, t});
  if (out.rows.size() != out.unknowns.size())
    throw StructureError(messages::index1_not_square(out.rows.size(), out.unknowns.size()));
  return out;
}

Index1System make_projection_system(const DaeSystem& sys, const PantelidesResult& p) {
  Index1System out = skeleton(sys, p, std::vector<bool>(sys.layout.states, false));
  for (std::size_t g = 0; g < sys.groups(); ++g)
    for (std::size_t k = 0; k < p.level[g]; ++k)
      out.projection_constraints.push_back({EquationRef::Kind::formulation, sys.formulation(g, k)});
  for (std::size_t t = 0; t < sys.invariant_names.size(); ++t)
    out.projection_constraints.push_back({EquationRef::Kind::invariant, t});
  out.method = out.projection_constraints.empty() ? ReductionMethod::none : ReductionMethod::projection;
  return out;
}

namespace {

// The rows over IDA's leading columns: ẋ_i for a differential state, x_s for
// a dummy state, ẋ_s for a dummy derivative, z_j. Column k is unknown k.
Pattern leading_pattern(const DaeSystem& sys, const Index1System& index1) {
  const ColumnLayout& layout = sys.layout;
  std::vector<std::size_t> leading_of_column(layout.columns(), no_index);
  for (std::size_t k = 0; k < index1.unknowns.size(); ++k) {
    const IdaUnknown u = index1.unknowns[k];
    const VarRef v = u.kind == UnknownKind::algebraic ? algebraic(u.index)
                     : u.kind == UnknownKind::dummy_state ? state(u.index)
                                                          : derivative_of(u.index);
    leading_of_column[layout.column(v)] = k;
  }
  PatternBuilder builder(index1.unknowns.size(), index1.rows.size());
  std::vector<std::size_t> row;
  for (const EquationRef e : index1.rows) {
    row.clear();
    for (const std::size_t c : sys.incidence(e))
      if (leading_of_column[c] != no_index) row.push_back(leading_of_column[c]);
    builder.add_row(row);
  }
  return std::move(builder).build();
}

}  // namespace

std::string verify_index1_structure(const DaeSystem& sys, const Index1System& index1) {
  const Matching m = maximum_matching(leading_pattern(sys, index1));
  return describe_unmatched(
      m, [&](std::size_t r) { return sys.name(index1.rows[r]); },
      [&](std::size_t k) { return unknown_name(sys, index1.unknowns[k]); }, 10, messages::index1_singular_hint());
}

bool order_rows_by_matching(const DaeSystem& sys, Index1System& index1) {
  if (index1.rows.size() != index1.unknowns.size()) return false;
  const Matching m = maximum_matching(leading_pattern(sys, index1));
  if (!m.perfect()) return false;
  std::vector<EquationRef> rows;
  rows.reserve(index1.rows.size());
  for (std::size_t k = 0; k < index1.unknowns.size(); ++k) rows.push_back(index1.rows[m.column_to_row[k]]);
  index1.rows = std::move(rows);
  index1.rows_matched = true;
  return true;
}

}  // namespace lsdae::structure
