// runtime/simulation/model_jacobian_values.cpp -- see model_jacobian_values.h.
#include "simulation/model_jacobian_values.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "lsdae/error.h"

namespace lsdae::simulation {

structure::JacobianCallback model_jacobian_values(Instance& instance, const ModelDae& dae,
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
          throw Error(ErrorKind::fmu_call, std::string("dummy-derivative selection: the FMU discarded ") +
                                                 instance.function_name(FmiCall::get_directional_derivative));
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

namespace lsdae::simulation {

FiniteDifferenceJacobianValues::FiniteDifferenceJacobianValues(Instance& instance, const ModelDae& dae,
                                                               const structure::DaeSystem& system,
                                                               std::vector<double> column_nominal)
    : instance_(instance), dae_(dae), system_(system), column_nominal_(std::move(column_nominal)) {
  if (column_nominal_.size() != system.layout.columns())
    throw Error(ErrorKind::internal, "finite-difference selection values: " + std::to_string(column_nominal_.size()) +
                                         " nominals for " + std::to_string(system.layout.columns()) + " columns");
}

void FiniteDifferenceJacobianValues::write(const DaePoint& p) {
  auto ok = [](CallStatus s) { return s != CallStatus::discard; };
  bool fine = ok(instance_.set_time(p.t));
  if (fine && !p.x.empty()) fine = ok(instance_.set_continuous_states(p.x));
  if (fine && !p.z.empty()) fine = ok(instance_.set_float64(dae_.algebraic_vrs, p.z));
  if (fine && dae_.fully_implicit && !p.xdot.empty()) fine = ok(instance_.set_float64(dae_.derivative_vrs, p.xdot));
  if (!fine)
    throw Error(ErrorKind::fmu_call, "dummy-derivative selection: the FMU discarded a point at t = " +
                                         std::to_string(p.t) + " while computing finite differences");
}

void FiniteDifferenceJacobianValues::operator()(std::span<const structure::JacobianEntry> entries,
                                                std::span<double> values) {
  using structure::Block;
  const auto& layout = system_.layout;
  // Distinct rows: the variable each reads (or a state equation's f_i).
  struct RowRead {
    bool state_equation = false;
    std::size_t index = 0;  // position in vrs, or the state i of ẋ_i − f_i
  };
  std::vector<ValueReference> vrs;
  std::vector<RowRead> read(entries.size());
  std::vector<std::size_t> row_id(entries.size());  // dense id per distinct row, for the colouring
  std::unordered_map<std::size_t, std::size_t> seen;  // 2·id + kind → dense row id
  std::vector<RowRead> row_read;                      // per dense row id
  bool need_f = false;
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const structure::EquationRef& e = entries[k].row;
    const std::size_t key = 2 * e.id + (e.kind == structure::EquationRef::Kind::invariant ? 1 : 0);
    const auto [it, fresh] = seen.emplace(key, seen.size());
    row_id[k] = it->second;
    if (fresh) {
      if (e.kind == structure::EquationRef::Kind::invariant) {
        row_read.push_back({false, vrs.size()});
        vrs.push_back(dae_.invariant_vrs.at(e.id));
      } else if (const std::size_t g = system_.formulation_group[e.id];
                 system_.group_kind[g] == structure::GroupKind::state_equation) {
        row_read.push_back({true, system_.group_source[g]});
        need_f = true;
      } else {
        row_read.push_back({false, vrs.size()});
        vrs.push_back(dae_.residual_vrs.at(system_.group_source[g]).at(system_.level_of(e.id)));
      }
    }
    read[k] = row_read[row_id[k]];
  }
  // Columns (runs of equal column) and their colours.
  struct Column {
    std::size_t begin, end, color;
    bool analytic;  // semi-explicit ẋ: 1 or 0 without an evaluation
  };
  std::vector<Column> columns;
  std::vector<std::vector<bool>> color_rows;  // per colour: rows taken
  for (std::size_t begin = 0; begin < entries.size();) {
    std::size_t end = begin;
    while (end < entries.size() && entries[end].column == entries[begin].column) ++end;
    const bool analytic = entries[begin].column.block == Block::derivative && !dae_.fully_implicit;
    std::size_t color = 0;
    if (!analytic) {
      for (; color < color_rows.size(); ++color) {
        bool free = true;
        for (std::size_t k = begin; k < end && free; ++k) free = !color_rows[color][row_id[k]];
        if (free) break;
      }
      if (color == color_rows.size()) color_rows.emplace_back(seen.size(), false);
      for (std::size_t k = begin; k < end; ++k) color_rows[color][row_id[k]] = true;
    }
    columns.push_back({begin, end, color, analytic});
    begin = end;
  }
  const double cbrt_eps = std::cbrt(std::numeric_limits<double>::epsilon());
  auto value_of = [](DaePoint& p, structure::VarRef v) -> double& {
    switch (v.block) {
      case Block::derivative: return p.xdot[v.index];
      case Block::state: return p.x[v.index];
      case Block::algebraic: return p.z[v.index];
    }
    return p.x[v.index];
  };
  std::vector<double> plus(vrs.size()), minus(vrs.size()), f_plus(dae_.state_vrs.size()),
      f_minus(dae_.state_vrs.size());
  auto evaluate = [&](std::vector<double>& out, std::vector<double>& f) {
    write(work_);
    ++evaluations_;
    if ((!vrs.empty() && instance_.get_float64(vrs, out) == CallStatus::discard) ||
        (need_f && instance_.get_continuous_state_derivatives(f) == CallStatus::discard))
      throw Error(ErrorKind::fmu_call, "dummy-derivative selection: the FMU discarded an evaluation at t = " +
                                           std::to_string(point_.t) + " while computing finite differences");
  };
  for (std::size_t color = 0; color < color_rows.size(); ++color) {
    std::vector<std::pair<structure::VarRef, double>> moved;  // column, increment
    for (const Column& c : columns) {
      if (c.analytic || c.color != color) continue;
      const structure::VarRef v = entries[c.begin].column;
      work_ = point_;
      const double at = value_of(work_, v);
      moved.emplace_back(v, cbrt_eps * std::max(std::fabs(at), column_nominal_[layout.column(v)]));
    }
    work_ = point_;
    for (const auto& [v, h] : moved) value_of(work_, v) += h;
    evaluate(plus, f_plus);
    work_ = point_;
    for (const auto& [v, h] : moved) value_of(work_, v) -= h;
    evaluate(minus, f_minus);
    for (const Column& c : columns) {
      if (c.analytic || c.color != color) continue;
      const structure::VarRef v = entries[c.begin].column;
      work_ = point_;
      const double at = value_of(work_, v);
      const double h = cbrt_eps * std::max(std::fabs(at), column_nominal_[layout.column(v)]);
      for (std::size_t k = c.begin; k < c.end; ++k) {
        const double dplus = read[k].state_equation ? f_plus[read[k].index] : plus[read[k].index];
        const double dminus = read[k].state_equation ? f_minus[read[k].index] : minus[read[k].index];
        const double d = (dplus - dminus) / (2.0 * h);
        values[k] = read[k].state_equation ? -d : d;
      }
    }
  }
  for (const Column& c : columns) {
    if (!c.analytic) continue;
    for (std::size_t k = c.begin; k < c.end; ++k)
      values[k] = read[k].state_equation && read[k].index == entries[k].column.index ? 1.0 : 0.0;
  }
  write(point_);
}

structure::JacobianCallback as_callback(FiniteDifferenceJacobianValues& values) {
  return [&values](std::span<const structure::JacobianEntry> entries, std::span<double> out) { values(entries, out); };
}

}  // namespace lsdae::simulation
