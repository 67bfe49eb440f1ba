// structure/dae_system.cpp -- see dae_system.h.
#include "structure/dae_system.h"

#include <algorithm>

#include "structure/error.h"
#include "structure/messages.h"

namespace lsdae::structure {

std::size_t ColumnLayout::begin(Block block) const {
  switch (block) {
    case Block::derivative: return 0;
    case Block::state: return states;
    case Block::algebraic: return 2 * states;
  }
  return 0;
}

std::size_t ColumnLayout::end(Block block) const {
  switch (block) {
    case Block::derivative: return states;
    case Block::state: return 2 * states;
    case Block::algebraic: return 2 * states + algebraic;
  }
  return 0;
}

std::size_t ColumnLayout::column(VarRef v) const { return begin(v.block) + v.index; }

VarRef ColumnLayout::var(std::size_t column) const {
  if (column < states) return derivative_of(column);
  if (column < 2 * states) return state(column - states);
  return structure::algebraic(column - 2 * states);
}

std::size_t ColumnLayout::unknown_of_column(std::size_t column) const {
  if (column < states) return column;
  if (column < 2 * states) return no_index;
  return column - states;
}

std::size_t ColumnLayout::column_of_unknown(std::size_t unknown) const {
  return unknown < states ? unknown : unknown + states;
}

std::size_t DaeSystem::dense_rows() const {
  return static_cast<std::size_t>(std::count(dense.begin(), dense.end(), true)) +
         static_cast<std::size_t>(std::count(invariant_dense.begin(), invariant_dense.end(), true));
}

namespace {

std::size_t block_size(const ColumnLayout& layout, Block block) {
  return layout.end(block) - layout.begin(block);
}

const char* block_noun(Block block) {
  switch (block) {
    case Block::derivative: return "derivative";
    case Block::state: return "state";
    case Block::algebraic: return "algebraic variable";
  }
  return "?";
}

// Appends the columns of `deps` (validated) to `out`.
void append_checked(const ColumnLayout& layout, const std::string& row, const std::vector<VarRef>& deps,
                    std::vector<std::size_t>& out) {
  for (const VarRef v : deps) {
    const std::size_t count = block_size(layout, v.block);
    if (v.index >= count)
      throw StructureError(messages::dependency_out_of_range(row, block_noun(v.block), v.index, count));
    out.push_back(layout.column(v));
  }
}

void append_range(std::size_t begin, std::size_t end, std::vector<std::size_t>& out) {
  for (std::size_t c = begin; c < end; ++c) out.push_back(c);
}

std::string or_default(const std::string& name, const char* stem, std::size_t index) {
  return name.empty() ? std::string(stem) + "[" + std::to_string(index) + "]" : name;
}

}  // namespace

DaeSystem build_system(const DaeInput& input) {
  DaeSystem sys;
  sys.form = input.form;
  const std::size_t n = input.states.size();
  const std::size_t m = input.algebraic.size();
  sys.layout = {n, m};
  const ColumnLayout& layout = sys.layout;

  // Names: ẋ, x, z.
  sys.column_names.resize(layout.columns());
  for (std::size_t i = 0; i < n; ++i) {
    const std::string name = or_default(input.states[i].name, "x", i);
    sys.column_names[i] =
        input.states[i].derivative_name.empty() ? "der(" + name + ")" : input.states[i].derivative_name;
    sys.column_names[n + i] = name;
    sys.state_select.push_back(input.states[i].select);
  }
  for (std::size_t j = 0; j < m; ++j) sys.column_names[2 * n + j] = or_default(input.algebraic[j], "z", j);

  sys.notes = input.notes;
  const bool semi = input.form == DaeForm::semi_explicit;
  std::size_t expected_rows = input.residuals.size() + (semi ? n : 0);
  PatternBuilder builder(layout.columns(), expected_rows);
  std::vector<std::size_t> row;
  const std::size_t unknowns = layout.unknowns();

  auto add_formulation = [&](std::string name, std::optional<int> index, bool dense, std::size_t group,
                             bool synthesized = false, std::string not_differentiable = {}) {
    builder.add_row(row);
    sys.formulation_names.push_back(std::move(name));
    sys.declared_index.push_back(index);
    sys.dense.push_back(dense);
    sys.synthesized.push_back(synthesized);
    sys.not_differentiable.push_back(std::move(not_differentiable));
    sys.formulation_group.push_back(group);
  };

  // Semi-explicit: f_i incidences (validated) are needed by the state
  // equations and by residuals that name ẋ_i.
  std::vector<std::vector<std::size_t>> f_columns;
  if (semi) {
    f_columns.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto& deps = input.states[i].derivative_dependencies;
      const std::string row_name = sys.column_names[i] + " - f";
      if (!deps) {
        append_range(layout.begin(Block::state), layout.end(Block::algebraic), f_columns[i]);
        continue;
      }
      for (const VarRef v : *deps)
        if (v.block == Block::derivative)
          throw StructureError(messages::derivative_in_state_equation(
              row_name, v.index < n ? sys.column_names[v.index] : "der(?)"));
      append_checked(layout, row_name, *deps, f_columns[i]);
    }
    for (std::size_t i = 0; i < n; ++i) {
      const std::string row_name = sys.column_names[i] + " - f";
      const bool dense = !input.states[i].derivative_dependencies;
      row.assign(1, i);
      row.insert(row.end(), f_columns[i].begin(), f_columns[i].end());
      if (dense) sys.warnings.push_back(messages::dense_row_warning(row_name, layout.columns(), unknowns));
      sys.group_kind.push_back(GroupKind::state_equation);
      sys.group_source.push_back(i);
      add_formulation(row_name, std::nullopt, dense, sys.group_kind.size() - 1);
      sys.group_ptr.push_back(sys.formulation_names.size());
    }
  }

  // Fills `row` with the incidence of a residual-like row of this form.
  auto residual_row = [&](const std::string& name, const Dependencies& deps) {
    row.clear();
    if (!deps) {
      append_range(semi ? layout.begin(Block::state) : 0, layout.end(Block::algebraic), row);
      sys.warnings.push_back(messages::dense_row_warning(name, row.size(), semi ? m : unknowns));
      return;
    }
    append_checked(layout, name, *deps, row);
    if (!semi) return;
    // ẋ_i inside a semi-explicit residual: the FMU computes it as f_i(x, z).
    std::vector<std::size_t> expanded;
    for (const std::size_t c : row) {
      if (c >= n) {
        expanded.push_back(c);
        continue;
      }
      sys.notes.push_back(messages::derivative_substituted_note(name, sys.column_names[c]));
      expanded.insert(expanded.end(), f_columns[c].begin(), f_columns[c].end());
    }
    row.swap(expanded);
  };

  for (std::size_t r = 0; r < input.residuals.size(); ++r) {
    const auto& group = input.residuals[r];
    if (group.formulations.empty()) throw StructureError(messages::empty_residual_group(r));
    const std::size_t g = sys.group_kind.size();
    sys.group_kind.push_back(GroupKind::residual);
    sys.group_source.push_back(r);
    for (std::size_t k = 0; k < group.formulations.size(); ++k) {
      const auto& f = group.formulations[k];
      std::string name = f.name.empty() ? (k == 0 ? or_default({}, "residual", r)
                                                  : or_default({}, "residual", r) + "'" + std::to_string(k))
                                        : f.name;
      residual_row(name, f.dependencies);
      add_formulation(std::move(name), f.declared_index, !f.dependencies, g, f.synthesized, f.not_differentiable);
    }
    sys.group_ptr.push_back(sys.formulation_names.size());
  }
  sys.formulations = std::move(builder).build();

  PatternBuilder inv_builder(layout.columns(), input.invariants.size());
  for (std::size_t k = 0; k < input.invariants.size(); ++k) {
    const auto& inv = input.invariants[k];
    std::string name = or_default(inv.name, "invariant", k);
    if (inv.group && *inv.group >= input.residuals.size())
      throw StructureError(messages::invariant_group_out_of_range(name, *inv.group, input.residuals.size()));
    residual_row(name, inv.dependencies);
    inv_builder.add_row(row);
    sys.invariant_names.push_back(std::move(name));
    sys.invariant_dense.push_back(!inv.dependencies);
    sys.invariant_group.push_back(inv.group ? *inv.group + (semi ? n : 0) : no_index);
    sys.invariant_level.push_back(inv.level ? *inv.level : no_index);
  }
  sys.invariants = std::move(inv_builder).build();
  return sys;
}

}  // namespace lsdae::structure
