// runtime/simulation/dummy_selection.cpp -- see dummy_selection.h.
#include "simulation/dummy_selection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/format.h"
#include "lsdae/error.h"

namespace lsdae::simulation {

namespace {
std::vector<double> column_nominals(const Model& model, const ModelDae& dae, const structure::DaeSystem& system) {
  const ModelDescription& md = model.model_description();
  auto of = [&](ValueReference vr) {
    const Variable* v = md.find(vr);
    return (v != nullptr && v->nominal && *v->nominal > 0) ? *v->nominal : 1.0;
  };
  std::vector<double> out(system.layout.columns(), 1.0);
  for (std::size_t c = 0; c < out.size(); ++c) {
    const structure::VarRef v = system.layout.var(c);
    switch (v.block) {
      case structure::Block::derivative: out[c] = of(dae.derivative_vrs[v.index]); break;
      case structure::Block::state: out[c] = of(dae.state_vrs[v.index]); break;
      case structure::Block::algebraic: out[c] = of(dae.algebraic_vrs[v.index]); break;
    }
  }
  return out;
}
}  // namespace

SelectionValues::SelectionValues(const Model& model, Instance& instance, const ModelDae& dae,
                                 const structure::DaeSystem& system)
    : instance_(instance), dae_(dae), system_(system) {
  if (!model.directional_derivatives_available())
    fd_ = std::make_unique<FiniteDifferenceJacobianValues>(instance, dae, system, column_nominals(model, dae, system));
  state_nominal_.assign(dae.state_vrs.size(), 1.0);
  derivative_nominal_.assign(dae.state_vrs.size(), 1.0);
  const std::vector<double> nominal = column_nominals(model, dae, system);
  for (std::size_t i = 0; i < dae.state_vrs.size(); ++i) {
    state_nominal_[i] = nominal[system.layout.column(structure::state(i))];
    derivative_nominal_[i] = nominal[system.layout.column(structure::derivative_of(i))];
  }
  // Two-level synthesized rows (model_dae.h) have no variable to differentiate:
  // their entries are central differences of their synthesized values.
  for (std::size_t g = 0; g < system.groups(); ++g) {
    if (system.group_kind[g] != structure::GroupKind::residual) continue;
    const std::size_t source = system.group_source[g];
    for (std::size_t level = 0; level < system.formulation_count(g); ++level) {
      const ModelDae::Synthesis* s = dae.synthesis_of(source, level);
      if (s == nullptr || !s->two_levels()) continue;
      if (!synthesis_) synthesis_ = std::make_unique<ConstraintSynthesis>(instance, dae, state_nominal_);
      synthesized_rows_.push_back({system.formulation(g, level), synthesis_->add_row(source, level)});
    }
  }
}

void SelectionValues::set_point(const DaePoint& point) {
  point_ = point;
  if (fd_) {
    fd_->set_point(point);
    return;
  }
  write_point();
}

void SelectionValues::write_point() {
  const DaePoint& point = point_;
  auto ok = [](CallStatus s) { return s != CallStatus::discard; };
  bool fine = ok(instance_.set_time(point.t));
  if (fine && !point.x.empty()) fine = ok(instance_.set_continuous_states(point.x));
  if (fine && !point.z.empty()) fine = ok(instance_.set_float64(dae_.algebraic_vrs, point.z));
  if (fine && dae_.fully_implicit && !point.xdot.empty())
    fine = ok(instance_.set_float64(dae_.derivative_vrs, point.xdot));
  if (!fine) throw Error(ErrorKind::fmu_call, "dummy-derivative selection: the FMU discarded the point");
}

void SelectionValues::synthesized_entries(std::span<const structure::JacobianEntry> entries,
                                          std::span<double> values) {
  // Central differences of the synthesized values, one column at a time
  // (entries arrive sorted by column): increment ε^(1/3)·max(|v|, nominal).
  // The values are themselves differences (errors of 1e-11 to 1e-13 of
  // their scale, constraint_synthesis.h), so the entries carry about 1e-6
  // relative at worst: enough for pivots and a condition estimate.
  static const double cbrt_eps = std::cbrt(std::numeric_limits<double>::epsilon());
  std::vector<double> plus(synthesis_->rows()), minus(synthesis_->rows());
  DaePoint p = point_;
  std::size_t k = 0;
  while (k < entries.size()) {
    const structure::VarRef column = entries[k].column;
    std::size_t end = k;
    while (end < entries.size() && entries[end].column == column) ++end;
    double* target = nullptr;
    double nominal = 1.0;
    switch (column.block) {
      case structure::Block::state: target = &p.x[column.index]; nominal = state_nominal_[column.index]; break;
      case structure::Block::derivative:
        target = &p.xdot[column.index];
        nominal = derivative_nominal_[column.index];
        break;
      case structure::Block::algebraic: break;  // synthesized rows contain no algebraic variable
    }
    if (target == nullptr) {
      for (std::size_t e = k; e < end; ++e) values[e] = 0.0;
      k = end;
      continue;
    }
    const double original = *target, h = cbrt_eps * std::max(std::fabs(original), nominal);
    *target = original + h;
    const bool fine_plus = synthesis_->evaluate(p.t, p.x, p.xdot, plus) == kernels::EvalStatus::ok;
    *target = original - h;
    const bool fine_minus = synthesis_->evaluate(p.t, p.x, p.xdot, minus) == kernels::EvalStatus::ok;
    *target = original;
    if (!fine_plus || !fine_minus)
      throw Error(ErrorKind::fmu_call, "dummy-derivative selection: the FMU discarded a point near the selection "
                                       "point while lsdae differentiated its synthesized constraint derivatives");
    for (std::size_t e = k; e < end; ++e) {
      std::size_t slot = 0;
      for (const auto& [formulation, s] : synthesized_rows_)
        if (formulation == entries[e].row.id) slot = s;
      values[e] = (plus[slot] - minus[slot]) / (2 * h);
    }
    k = end;
  }
}

bool SelectionValues::is_two_level_row(const structure::EquationRef& row) const {
  if (row.kind != structure::EquationRef::Kind::formulation) return false;
  for (const auto& r : synthesized_rows_)
    if (r.first == row.id) return true;
  return false;
}

structure::JacobianCallback SelectionValues::callback() {
  structure::JacobianCallback inner = fd_ ? as_callback(*fd_) : model_jacobian_values(instance_, dae_, system_);
  if (!dae_.any_synthesized()) return inner;
  // A synthesized row d/dt r (model_dae.h) has no FMU variable: its entry for
  // ẋ_i is ∂r/∂x_i (d/dt r = ∂r/∂x·ẋ + ∂r/∂t), asked of r itself. Entries for
  // its x or z columns (second derivatives) are not available.
  return [inner = std::move(inner), this](std::span<const structure::JacobianEntry> all_entries,
                                          std::span<double> all_values) {
    // Two-level synthesized rows apart, first: their own differences move
    // the instance, and the point is written back before the others.
    std::vector<structure::JacobianEntry> entries, own;
    std::vector<std::size_t> entries_at, own_at;
    for (std::size_t k = 0; k < all_entries.size(); ++k) {
      const bool mine = is_two_level_row(all_entries[k].row);
      (mine ? own : entries).push_back(all_entries[k]);
      (mine ? own_at : entries_at).push_back(k);
    }
    std::vector<double> values(entries.size());
    if (!own.empty()) {
      std::vector<double> own_values(own.size());
      synthesized_entries(own, own_values);
      for (std::size_t k = 0; k < own.size(); ++k) all_values[own_at[k]] = own_values[k];
      write_point();
    }
    std::vector<structure::JacobianEntry> mapped(entries.begin(), entries.end());
    for (auto& e : mapped) {
      if (e.row.kind != structure::EquationRef::Kind::formulation) continue;
      const std::size_t g = system_.formulation_group[e.row.id], level = system_.level_of(e.row.id);
      if (system_.group_kind[g] != structure::GroupKind::residual ||
          !dae_.is_synthesized(system_.group_source[g], level))
        continue;
      if (e.column.block != structure::Block::derivative)
        throw Error(ErrorKind::structure,
                    "dummy-derivative selection: the synthesized row \"" + system_.name(e.row) +
                        "\" would need its derivative with respect to " +
                        system_.column_names[system_.layout.column(e.column)] +
                        ", a second derivative lsdae does not compute → export the derivative formulations, or "
                        "run with --constraints project");
      e.row.id = system_.formulation(g, level - 1);
      e.column = structure::state(e.column.index);
    }
    // The callbacks expect entries sorted by column (runs of one column).
    std::vector<std::size_t> order(mapped.size());
    for (std::size_t k = 0; k < order.size(); ++k) order[k] = k;
    auto key = [&](std::size_t k) { return system_.layout.column(mapped[k].column); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
    std::vector<structure::JacobianEntry> sorted;
    sorted.reserve(order.size());
    for (const std::size_t k : order) sorted.push_back(mapped[k]);
    std::vector<double> out(sorted.size());
    if (!sorted.empty()) inner(sorted, out);
    for (std::size_t i = 0; i < order.size(); ++i) values[order[i]] = out[i];
    for (std::size_t k = 0; k < entries.size(); ++k) all_values[entries_at[k]] = values[k];
  };
}

structure::SelectionOptions SelectionValues::selection_options(structure::SelectionOptions options) const {
  if (fd_) options.columns.rank_tolerance = std::max(options.columns.rank_tolerance, 1e-8);
  options.switched_off = [this](structure::EquationRef e) { return switched_off(e); };
  return options;
}

bool SelectionValues::switched_off(structure::EquationRef e) const {
  if (e.kind != structure::EquationRef::Kind::formulation) return false;
  const std::size_t g = system_.formulation_group[e.id];
  if (system_.group_kind[g] != structure::GroupKind::residual) return false;
  const std::size_t source = system_.group_source[g], level = system_.level_of(e.id);
  if (dae_.is_synthesized(source, level)) return false;
  // Whatever is not declared (no kinds, no dependency list, no variable) is not switched off.
  if (source >= dae_.input.residuals.size() || level >= dae_.input.residuals[source].formulations.size() ||
      source >= dae_.residual_kinds.size() || level >= dae_.residual_kinds[source].size() ||
      source >= dae_.residual_vrs.size() || level >= dae_.residual_vrs[source].size())
    return false;
  const auto& deps = dae_.input.residuals[source].formulations[level].dependencies;
  const auto& kinds = dae_.residual_kinds[source][level];
  if (!deps.has_value() || deps->empty() || kinds.size() != deps->size()) return false;
  for (const DependencyKind k : kinds)
    if (k != DependencyKind::constant && k != DependencyKind::fixed && k != DependencyKind::tunable &&
        k != DependencyKind::discrete)
      return false;
  const ValueReference vr = dae_.residual_vrs[source][level];
  double value = 1.0;
  if (instance_.get_float64({&vr, 1}, {&value, 1}) == CallStatus::discard) return false;
  return value == 0.0;
}

DaePoint initial_point(Instance& instance, const ModelDae& dae, double t) {
  DaePoint p = empty_point(dae, t);
  read_point(instance, dae, PointRead::everything, p);  // ẋ: finite values only (model_dae.h)
  for (auto* v : {&p.x, &p.z})
    for (double& d : *v)
      if (!std::isfinite(d)) d = 0.0;
  return p;
}

structure::StructureOutcome select_at_start(const ModelDae& dae, const structure::StructureOutcome& structural,
                                            SelectionValues& values, const structure::PipelineOptions& pipeline) {
  structure::PipelineOptions options = pipeline;
  options.selection = values.selection_options(pipeline.selection);
  structure::JacobianCallback callback = values.callback();
  std::optional<structure::DummySelection::StructuralCheck> check;
  if (structural.selection && structural.selection->success && structural.analysis.ok()) {
    structure::DummySelection checked =
        structure::check_dummy_selection(structural.analysis.system, structural.analysis.dummy_plan, callback,
                                         structural.selection->dummy_states, options.selection);
    check.emplace();
    check->dummy_states = structural.selection->dummy_states;
    check->rcond = checked.success ? checked.rcond : 0.0;
  }
  const double floor = values.rcond_floor();
  const char* source = values.source();
  options.review_selection = [&](structure::DummySelection& selection) {
    selection.values_source = source;
    if (selection.success && selection.rcond < floor) {
      selection.success = false;
      selection.error = "the best choice of dummy derivatives, " + dummy_names(structural.analysis.system,
                                                                                   selection.dummy_states) +
                        ", has rcond " + format_number(selection.rcond) + ", below " + format_number(floor) +
                        " (values from " + source + "): numerically singular";
    }
    if (check) {
      check->kept = selection.success && selection.dummy_states == check->dummy_states;
      selection.structural_check = check;
    }
  };
  structure::StructureOutcome numeric = structure::run_structure(dae.input, &callback, options);
  return numeric;
}

std::string dummy_names(const structure::DaeSystem& system, const std::vector<std::size_t>& states) {
  std::string out;
  for (const std::size_t s : states)
    out += (out.empty() ? "" : ", ") + system.column_names[system.layout.column(structure::derivative_of(s))];
  return out.empty() ? "none" : out;
}

std::string candidate_names(const structure::DaeSystem& system, const structure::DummyDerivativePlan& plan) {
  std::string out;
  for (const auto& comp : plan.components)
    for (const std::size_t s : comp.candidates)
      out += (out.empty() ? "" : ", ") + system.column_names[system.layout.column(structure::state(s))];
  return out;
}

std::string constraint_names(const structure::DaeSystem& system, const structure::DummyDerivativePlan& plan) {
  std::string out;
  for (const auto& comp : plan.components)
    for (const auto& c : comp.constraints) out += (out.empty() ? "\"" : ", \"") + system.name(c.equation) + "\"";
  return out;
}

}  // namespace lsdae::simulation
