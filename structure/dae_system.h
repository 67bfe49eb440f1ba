// structure/dae_system.h -- the one system F(ẋ, x, z) = 0 that every pass of
// lsdae::structure works on, built from a DaeInput of either form.
//
// Columns: three contiguous blocks (ColumnLayout)
//     [0, n)          ẋ_0 … ẋ_{n−1}     derivative block
//     [n, 2n)         x_0 … x_{n−1}     state block
//     [2n, 2n + m)    z_0 … z_{m−1}     algebraic block
// The UNKNOWNS of the DAE for matching and Pantelides are ẋ and z (n + m of
// them, numbered u = i for ẋ_i and u = n + j for z_j); x are knowns.
//
// Rows: GROUPS of formulations. Group g owns the formulation rows
// [group_ptr[g], group_ptr[g+1]) of `formulations`, original first; the
// formulation at `level` k is the group's constraint differentiated k times.
//   semi-explicit: groups 0 … n−1 are the state equations ẋ_i − f_i (one
//     formulation each, named "der(x) - f"), then one group per residual.
//   fully implicit: one group per residual.
// A formulation is identified by its row number in `formulations`
// (a "formulation id"); EquationRef also covers invariants.
//
// Mapping rules (build_system):
//   semi-explicit state equation i: {ẋ_i} ∪ incidence(f_i); absent → all x and z.
//   semi-explicit residual: its dependencies; a dependency on ẋ_i is replaced
//     by the dependencies of f_i (ẋ_i = f_i(x, z) inside the FMU) with a note;
//     absent → all x and z.
//   fully implicit residual: its dependencies; absent → all ẋ, x and z.
//   invariant: its dependencies; absent → as a residual of the same form.
// Every absent dependency list adds a warning saying what the dense row costs.
//
// Cost: O(n + m + total dependencies) time and memory, plus, per semi-explicit
// residual that names ẋ_i, the length of f_i's incidence.
// Validation: build_system throws StructureError for an index out of range
// (naming the formulation, the block and the index), a residual group without
// formulations, an invariant group out of range, or ẋ in a state equation.
#ifndef LSDAE_STRUCTURE_DAE_SYSTEM_H
#define LSDAE_STRUCTURE_DAE_SYSTEM_H

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "structure/dae_input.h"
#include "structure/pattern.h"

namespace lsdae::structure {

struct ColumnLayout {
  std::size_t states = 0;     // n
  std::size_t algebraic = 0;  // m

  std::size_t columns() const { return 2 * states + algebraic; }
  std::size_t unknowns() const { return states + algebraic; }
  std::size_t begin(Block block) const;
  std::size_t end(Block block) const;
  // Column of a variable. Precondition: v.index in range for its block.
  std::size_t column(VarRef v) const;
  VarRef var(std::size_t column) const;
  // ẋ_i → i, z_j → n + j, x_i → no_index.
  std::size_t unknown_of_column(std::size_t column) const;
  std::size_t column_of_unknown(std::size_t unknown) const;
};

enum class GroupKind : std::uint8_t { state_equation, residual };

struct EquationRef {
  enum class Kind : std::uint8_t { formulation, invariant };
  Kind kind = Kind::formulation;
  std::size_t id = 0;  // formulation id (row of DaeSystem::formulations) or invariant index
  friend bool operator==(const EquationRef&, const EquationRef&) = default;
};

struct DaeSystem {
  DaeForm form = DaeForm::fully_implicit;
  ColumnLayout layout;
  std::vector<std::string> column_names;  // layout.columns() names: der(x)…, x…, z…
  std::vector<StateSelect> state_select;  // per state

  Pattern formulations;                          // one row per formulation, global columns
  std::vector<std::string> formulation_names;    // per formulation
  std::vector<std::optional<int>> declared_index;  // per formulation
  std::vector<bool> dense;                       // per formulation: dependencies were absent
  std::vector<bool> synthesized;                 // per formulation: lsdae's own (FormulationInput::synthesized)
  std::vector<std::string> not_differentiable;   // per formulation: FormulationInput::not_differentiable
  std::vector<std::size_t> formulation_group;    // per formulation: its group
  std::vector<std::size_t> group_ptr{0};         // groups() + 1 offsets into formulations
  std::vector<GroupKind> group_kind;             // per group
  std::vector<std::size_t> group_source;         // per group: state index or DaeInput::residuals index

  Pattern invariants;                            // one row per invariant, global columns
  std::vector<std::string> invariant_names;
  std::vector<bool> invariant_dense;
  std::vector<std::size_t> invariant_group;      // its SYSTEM group (semi-explicit: input index + n); no_index when unknown
  std::vector<std::size_t> invariant_level;      // no_index when unknown

  std::vector<std::string> warnings;             // dense rows
  std::vector<std::string> notes;                // ẋ in semi-explicit residuals, replaced by f's dependencies

  std::size_t groups() const { return group_ptr.size() - 1; }
  std::size_t formulation_count(std::size_t group) const { return group_ptr[group + 1] - group_ptr[group]; }
  std::size_t formulation(std::size_t group, std::size_t level) const { return group_ptr[group] + level; }
  std::size_t level_of(std::size_t formulation) const {
    return formulation - group_ptr[formulation_group[formulation]];
  }
  // The group's name: the name of its original formulation.
  const std::string& group_name(std::size_t group) const { return formulation_names[group_ptr[group]]; }
  const std::string& name(EquationRef e) const {
    return e.kind == EquationRef::Kind::formulation ? formulation_names[e.id] : invariant_names[e.id];
  }
  std::span<const std::size_t> incidence(EquationRef e) const {
    return e.kind == EquationRef::Kind::formulation ? formulations.row(e.id) : invariants.row(e.id);
  }
  // The part of the incidence in one column block (ẋ, x or z), still in
  // global column numbers: a zero-copy sub-span (Pattern::row_range).
  std::span<const std::size_t> incidence(EquationRef e, Block block) const {
    const Pattern& p = e.kind == EquationRef::Kind::formulation ? formulations : invariants;
    return p.row_range(e.id, layout.begin(block), layout.end(block));
  }
  const std::string& unknown_name(std::size_t unknown) const {
    return column_names[layout.column_of_unknown(unknown)];
  }
  std::size_t dense_rows() const;
};

DaeSystem build_system(const DaeInput& input);

}  // namespace lsdae::structure

#endif  // LSDAE_STRUCTURE_DAE_SYSTEM_H
