// runtime/simulation/model_evaluation.cpp -- see model_evaluation.h.
#include "simulation/model_evaluation.h"

#include <algorithm>
#include <cmath>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/fmi_names.h"
#include "simulation/run_snapshot.h"

namespace lsdae::simulation {

ModelEvaluation::ModelEvaluation(const RunSettings& settings, ModelDae dae, structure::StructureOutcome structure,
                                 std::shared_ptr<const structure::StructureOutcome> created,
                                 std::vector<std::unique_ptr<Instance>> instances)
    : settings_(settings),
      dae_(std::move(dae)),
      structure_(std::move(structure)),
      created_structure_(std::move(created)),
      instances_(std::move(instances)),
      snapshots_(std::make_shared<RunSnapshotStore>()) {}

// ---- instances and residuals ------------------------------------------------

std::vector<kernels::ResidualFunction*> ModelEvaluation::residual_pool() {
  std::vector<kernels::ResidualFunction*> pool;
  for (auto& r : residuals_) pool.push_back(r.get());
  return pool;
}

void ModelEvaluation::retire_residuals() {
  for (const auto& r : residuals_) retired_synthesis_evaluations_ += static_cast<long>(r->synthesis_evaluations());
  residuals_.clear();
}

void ModelEvaluation::make_residuals() {
  retire_residuals();
  for (auto& inst : instances_) {
    residuals_.push_back(std::make_unique<ModelResidual>(*inst, dae_, structure_.analysis.system, *structure_.index1));
    residuals_.back()->set_inputs(inputs_ ? &*inputs_ : nullptr);
  }
  for (auto& r : residuals_) r->set_invariant_values(invariant_values_);
  nominal_ = compute_nominals();
}

long ModelEvaluation::synthesis_evaluations() const {
  long n = retired_synthesis_evaluations_;
  for (const auto& r : residuals_) n += static_cast<long>(r->synthesis_evaluations());
  return n;
}

// ---- the structure in use -----------------------------------------------------

void ModelEvaluation::replace_structure(structure::StructureOutcome outcome) { structure_ = std::move(outcome); }

void ModelEvaluation::replace_selection(structure::Index1System index1, structure::Pattern iteration,
                                        structure::Coloring coloring, structure::DummySelection selection) {
  structure_.index1 = std::move(index1);
  structure_.iteration = std::move(iteration);
  structure_.coloring = std::move(coloring);
  structure_.selection = std::move(selection);
}

void ModelEvaluation::color_one_per_column() {
  const std::size_t n = unknowns();
  structure::Coloring one_per_column;
  one_per_column.ordering = structure::ColumnOrdering::natural;
  one_per_column.colors = n;
  one_per_column.color.resize(n);
  one_per_column.group_ptr.resize(n + 1);
  one_per_column.group_columns.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    one_per_column.color[k] = k;
    one_per_column.group_ptr[k + 1] = k + 1;
    one_per_column.group_columns[k] = k;
  }
  structure_.coloring = std::move(one_per_column);
}

void ModelEvaluation::reset_for_next_run() {
  residuals_.clear();
  for (auto& instance : instances_) {
    instance->reset();
    if (settings_.model->manifest().present()) instance->enable_dae_mode();
  }
  if (created_structure_) structure_ = *created_structure_;
  retired_synthesis_evaluations_ = 0;
  nominal_.clear();
  invariant_values_.clear();
  inputs_.reset();
  set_values_.clear();
  discard_marks_.clear();
  fault_mark_time_ = 0;
}

// ---- names --------------------------------------------------------------------

const Variable& ModelEvaluation::variable(const std::string& name) const {
  const Variable* v = model().model_description().find(name);
  if (v == nullptr)
    throw Error(ErrorKind::usage, model().display_name() + ": no variable is named \"" + name +
                                      "\" → `lsdae info` lists the model; names are case-sensitive");
  return *v;
}

std::string ModelEvaluation::unknown_name(std::size_t k) const {
  return structure::unknown_name(structure_.analysis.system, structure_.index1->unknowns[k]);
}

std::string ModelEvaluation::row_name(std::size_t k) const {
  return structure_.analysis.system.name(structure_.index1->rows[k]);
}

std::string ModelEvaluation::row_value_name(std::size_t k) const {
  const auto& system = structure_.analysis.system;
  const auto& e = structure_.index1->rows[k];
  if (e.kind == structure::EquationRef::Kind::formulation) {
    const std::size_t g = system.formulation_group[e.id];
    if (system.group_kind[g] == structure::GroupKind::state_equation && !dae_.fully_implicit) {
      const ModelDescription& md = model().model_description();
      const Variable* der = md.find(dae_.derivative_vrs.at(system.group_source[g]));
      return (der != nullptr ? der->name : row_name(k)) + " (from " +
             fmi_call_name(md.fmi_major, FmiCall::get_continuous_state_derivatives) + ")";
    }
  }
  return "the residual \"" + row_name(k) + "\"";
}

std::string ModelEvaluation::dummy_list(const std::vector<std::size_t>& states) const {
  std::string out;
  for (std::size_t s : states) out += (out.empty() ? "" : ", ") + structure_.analysis.system.column_names[s];
  return out;
}

// ---- points ---------------------------------------------------------------------

std::vector<double> ModelEvaluation::compute_nominals() const {
  const ModelDescription& md = model().model_description();
  auto of = [&](ValueReference vr) {
    const Variable* v = md.find(vr);
    return (v != nullptr && v->nominal && *v->nominal > 0) ? *v->nominal : 1.0;
  };
  const auto& unknowns = structure_.index1->unknowns;
  std::vector<double> out(unknowns.size());
  for (std::size_t k = 0; k < unknowns.size(); ++k) {
    const auto& u = unknowns[k];
    switch (u.kind) {
      case structure::UnknownKind::differential:
      case structure::UnknownKind::dummy_state: out[k] = of(dae_.state_vrs[u.index]); break;
      case structure::UnknownKind::dummy_derivative: out[k] = of(dae_.derivative_vrs[u.index]); break;
      case structure::UnknownKind::algebraic: out[k] = of(dae_.algebraic_vrs[u.index]); break;
    }
  }
  return out;
}

DaePoint ModelEvaluation::point_at(double t, std::span<const double> y, std::span<const double> yp) const {
  DaePoint p;
  p.t = t;
  p.x.resize(dae_.state_vrs.size());
  p.xdot.resize(dae_.state_vrs.size());
  p.z.resize(dae_.algebraic_vrs.size());
  residuals_[0]->states_from(y, yp, p.x, p.xdot);
  const auto& unknowns = structure_.index1->unknowns;
  for (std::size_t k = 0; k < unknowns.size(); ++k)
    if (unknowns[k].kind == structure::UnknownKind::algebraic) p.z[unknowns[k].index] = y[k];
  return p;
}

void ModelEvaluation::to_unknowns(const DaePoint& v, std::vector<double>& y, std::vector<double>& yp) const {
  const auto& unknowns = structure_.index1->unknowns;
  y.assign(unknowns.size(), 0.0);
  yp.assign(unknowns.size(), 0.0);
  for (std::size_t k = 0; k < unknowns.size(); ++k) {
    const auto& u = unknowns[k];
    switch (u.kind) {
      case structure::UnknownKind::differential: y[k] = v.x[u.index]; yp[k] = v.xdot[u.index]; break;
      case structure::UnknownKind::dummy_state: y[k] = v.x[u.index]; break;
      case structure::UnknownKind::dummy_derivative: y[k] = v.xdot[u.index]; break;
      case structure::UnknownKind::algebraic: y[k] = v.z[u.index]; break;
    }
  }
}

int ModelEvaluation::event_indicators(double t, std::span<const double> y, std::span<const double> yp,
                                      std::span<double> g) {
  if (residuals_[0]->apply(t, y, yp) != kernels::EvalStatus::ok) return -1;
  return instances_[0]->get_event_indicators(g) == CallStatus::ok ? 0 : -1;
}

// ---- invariants, inputs, set values ----------------------------------------------

bool ModelEvaluation::read_invariant_values(double t) {
  invariant_values_.assign(dae_.invariant_vrs.size(), 0.0);
  if (invariant_values_.empty()) return false;
  if (instances_[0]->get_float64(dae_.invariant_vrs, invariant_values_) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, model().display_name() + ": t = " + format_number(t) +
                                         ": the FMU discarded reading its invariants → the FMU cannot evaluate them here");
  for (std::size_t i = 0; i < invariant_values_.size(); ++i)
    if (!std::isfinite(invariant_values_[i]))
      throw Error(ErrorKind::fmu_call, model().display_name() + ": t = " + format_number(t) + ": invariant \"" +
                                           structure_.analysis.system.invariant_names[i] + "\" is " +
                                           format_number(invariant_values_[i]) + " → fix the FMU's invariant");
  for (auto& r : residuals_) r->set_invariant_values(invariant_values_);
  return true;
}

void ModelEvaluation::set_inputs(InputTable table) {
  inputs_ = std::move(table);
  for (auto& r : residuals_) r->set_inputs(&*inputs_);
}

void ModelEvaluation::set_value(const Variable& v, Values value) {
  auto set = std::find_if(set_values_.begin(), set_values_.end(), [&](const auto& p) { return p.first == &v; });
  if (set != set_values_.end()) set->second = std::move(value);
  else set_values_.emplace_back(&v, std::move(value));
}

void ModelEvaluation::set_element(const Variable& v, std::size_t k, const Values& one) {
  auto set = std::find_if(set_values_.begin(), set_values_.end(), [&](const auto& p) { return p.first == &v; });
  if (set == set_values_.end()) {
    set_values_.emplace_back(&v, start_values(v, model().model_description()));
    set = std::prev(set_values_.end());
  }
  Values& all = set->second;
  switch (storage_of(v.type)) {
    case ValueStorage::real: all.reals[k] = one.reals[0]; break;
    case ValueStorage::integer: all.integers[k] = one.integers[0]; break;
    case ValueStorage::unsigned_integer: all.unsigned_integers[k] = one.unsigned_integers[0]; break;
    case ValueStorage::text: all.texts[k] = one.texts[0]; break;
  }
}

void ModelEvaluation::apply_set_values(Instance& inst) const {
  for (const auto& [v, value] : set_values_) {
    const ValueReference vr = v->value_reference;
    if (inst.set_values({&vr, 1}, value) == CallStatus::discard)
      throw Error(ErrorKind::fmu_call, "simulate: the FMU refused (" + inst.status_name(2) + ") the value set for \"" +
                                           v->name + "\" → check it against the variable's min/max");
  }
}

// ---- faults -----------------------------------------------------------------------

void ModelEvaluation::mark_faults(double t) {
  discard_marks_.resize(instances_.size());
  for (std::size_t i = 0; i < instances_.size(); ++i) discard_marks_[i] = instances_[i]->discards().count;
  fault_mark_time_ = t;
}

std::string ModelEvaluation::discard_report() const {
  std::uint64_t total = 0;
  const Instance* most = nullptr;
  std::uint64_t most_count = 0;
  for (std::size_t i = 0; i < instances_.size() && i < discard_marks_.size(); ++i) {
    const std::uint64_t n = instances_[i]->discards().count - discard_marks_[i];
    total += n;
    if (n > most_count) most_count = n, most = instances_[i].get();
  }
  if (most == nullptr) return "";
  const DiscardRecord& d = most->discards();
  return std::string(d.function != nullptr ? d.function : "a function") + " (instance \"" + most->name() +
         "\") returned " + most->status_name(2) + " " + std::to_string(total) + (total == 1 ? " time" : " times") +
         " since t = " + format_number(fault_mark_time_) + " (the last at t = " + format_number(d.time) +
         "): the FMU refuses to be evaluated there; check its parameters and the range in which the model is valid";
}

}  // namespace lsdae::simulation
