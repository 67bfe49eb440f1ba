// runtime/simulation/fmu_jacobian_values.cpp -- see fmu_jacobian_values.h.
#include "simulation/fmu_jacobian_values.h"

#include "lsdae/error.h"

namespace lsdae::simulation {

structure::JacobianCallback fmu_jacobian_values(Instance& instance, const FmuDae& dae,
                                                const structure::DaeSystem& system) {
  return [&instance, &dae, &system](std::span<const structure::JacobianEntry> entries, std::span<double> values) {
    auto column_vr = [&](structure::VarRef v) -> ValueReference {
      switch (v.block) {
        case structure::Block::derivative: return dae.derivative_vrs.at(v.index);
        case structure::Block::state: return dae.state_vrs.at(v.index);
        case structure::Block::algebraic: return dae.algebraic_vrs.at(v.index);
      }
      return 0;
    };
    // The variable that row `e` reads: a residual, an invariant, or f_i.
    auto row_vr = [&](const structure::EquationRef& e, bool& state_equation, std::size_t& state) -> ValueReference {
      state_equation = false;
      if (e.kind == structure::EquationRef::Kind::invariant) return dae.invariant_vrs.at(e.id);
      std::size_t g = system.formulation_group[e.id];
      if (system.group_kind[g] == structure::GroupKind::state_equation) {
        state_equation = true;
        state = system.group_source[g];
        return dae.derivative_vrs.at(state);
      }
      return dae.residual_vrs.at(system.group_source[g]).at(system.level_of(e.id));
    };
    std::vector<ValueReference> unknowns;
    std::vector<double> sensitivity;
    for (std::size_t begin = 0; begin < entries.size();) {
      std::size_t end = begin;
      while (end < entries.size() && entries[end].column == entries[begin].column) ++end;
      const structure::VarRef column = entries[begin].column;
      unknowns.clear();
      for (std::size_t k = begin; k < end; ++k) {
        bool state_equation = false;
        std::size_t state = 0;
        unknowns.push_back(row_vr(entries[k].row, state_equation, state));
      }
      bool fmu_call_needed = !(column.block == structure::Block::derivative && !dae.fully_implicit);
      sensitivity.assign(unknowns.size(), 0.0);
      if (fmu_call_needed) {
        ValueReference known = column_vr(column);
        double seed = 1.0;
        if (instance.get_directional_derivative(unknowns, {&known, 1}, {&seed, 1}, sensitivity) == CallStatus::discard)
          throw Error(ErrorKind::fmu_call, "dummy-derivative selection: the FMU discarded fmi3GetDirectionalDerivative");
      }
      for (std::size_t k = begin; k < end; ++k) {
        bool state_equation = false;
        std::size_t state = 0;
        row_vr(entries[k].row, state_equation, state);
        double value = sensitivity[k - begin];
        if (state_equation) {
          // ẋ_i − f_i: f_i does not depend on any ẋ in the semi-explicit form.
          if (column.block == structure::Block::derivative) value = column.index == state ? 1.0 : 0.0;
          else value = -value;
        }
        values[k] = value;
      }
      begin = end;
    }
  };
}

}  // namespace lsdae::simulation
