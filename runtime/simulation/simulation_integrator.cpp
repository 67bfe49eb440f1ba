// runtime/simulation/simulation_integrator.cpp -- Simulation::Impl: the IDA
// integrator and the point (t, y, y') it works on (simulation_impl.h).
//
// Contract: make_residuals() replaces residuals (and the projector) for the
// current structure.index1; make_integrator() replaces the integrator (its
// counters go to `finished`) with IDA options from the simulation options:
// rtol, atol scaled by each unknown's nominal, the unknowns in IDA's error
// test (error_test_mask.h), the Jacobian source, the KLU
// ordering, the threads, and the event indicators as IDA's root function.
// restart() starts IDA at (t, y, y') and makes the point consistent
// (IDACalcIC); y, yp then hold IDA's consistent values. values_by_variable()
// and load_values() carry a point across a change of the index-1 system.
#include <algorithm>
#include <cmath>
#include <utility>

#include "common/format.h"
#include "lsdae/fmi_names.h"
#include "lsdae/log.h"
#include "simulation/elimination_plan.h"
#include "simulation/error_test_mask.h"
#include "simulation/simulation_impl.h"
#include "simulation/jacobian_constancy.h"
#include "structure/coloring.h"

namespace lsdae {

void Simulation::Impl::retire_residuals() {
  for (const auto& r : residuals) retired_synthesis_evaluations += static_cast<long>(r->synthesis_evaluations());
  residuals.clear();
}

void Simulation::Impl::retire_projector() {
  if (projector) retired_synthesis_evaluations += static_cast<long>(projector->synthesis_evaluations());
  projector.reset();
}

void Simulation::Impl::make_residuals() {
  retire_projector();
  retire_residuals();
  for (auto& inst : instances) {
    residuals.push_back(std::make_unique<simulation::ModelResidual>(*inst, dae, structure.analysis.system,
                                                                  *structure.index1));
    residuals.back()->set_inputs(inputs ? &*inputs : nullptr);
  }
  for (auto& r : residuals) r->set_invariant_values(invariant_values);
  make_projector();
}

std::vector<double> Simulation::Impl::atol_vector() const {
  std::vector<double> a(nominal.size());
  for (std::size_t k = 0; k < a.size(); ++k) a[k] = atol * nominal[k];
  return a;
}

std::vector<double> Simulation::Impl::nominals() const {
  const ModelDescription& md = model->model_description();
  auto of = [&](ValueReference vr) {
    const Variable* v = md.find(vr);
    return (v != nullptr && v->nominal && *v->nominal > 0) ? *v->nominal : 1.0;
  };
  const auto& unknowns = structure.index1->unknowns;
  std::vector<double> out(unknowns.size());
  for (std::size_t k = 0; k < unknowns.size(); ++k) {
    const auto& u = unknowns[k];
    switch (u.kind) {
      case structure::UnknownKind::differential:
      case structure::UnknownKind::dummy_state: out[k] = of(dae.state_vrs[u.index]); break;
      case structure::UnknownKind::dummy_derivative: out[k] = of(dae.derivative_vrs[u.index]); break;
      case structure::UnknownKind::algebraic: out[k] = of(dae.algebraic_vrs[u.index]); break;
    }
  }
  return out;
}

void Simulation::Impl::retire_integrator() {
  if (integrator) {
    finished += integrator->stats();
    integrator.reset();
  }
}

void Simulation::Impl::make_integrator() {
  retire_integrator();
  const auto& index1 = *structure.index1;
  const std::size_t N = index1.unknowns.size();
  nominal = nominals();
  simulation::IntegratorOptions io;
  io.rtol = rtol;
  io.atol = atol_vector();
  io.id = index1.ida_id();
  // The OpenModelica form's incidence cannot tell x from ẋ (one value
  // reference for both): every unknown stays in the test there.
  if (!dae.state_stands_for_derivative)
    io.error_test = simulation::error_test_mask(structure.analysis.system, index1);
  if (const auto left_out = std::count(io.error_test.begin(), io.error_test.end(), 0.0);
      left_out > 0 && !std::exchange(error_test_logged, true)) {
    std::string names;
    std::size_t shown = 0;
    for (std::size_t k = 0; k < N && shown < 5; ++k)
      if (io.error_test[k] == 0.0) names += (shown++ > 0 ? ", " : "") + unknown_name(k);
    log_info(model->display_name() + ": IDA's error test leaves out " + std::to_string(left_out) +
             " algebraic unknown(s) that follow from state derivatives (" + names + (left_out > 5 ? ", ..." : "") +
             "); they are solved at every step, and their output rows interpolated");
  }
  io.nominal = nominal;
  io.max_steps_per_output = options.max_steps;
  // Without unknowns IDA's steps only grow (its clock has no error): keep
  // them to an output interval so that an event indicator cannot cross
  // zero and back inside one step unseen.
  io.max_step = options.max_step > 0 ? options.max_step : (N == 0 ? interval : 0.0);
  io.jacobian = use_directional ? simulation::JacobianSource::directional
                                : simulation::JacobianSource::finite_differences;
  io.ordering = options.klu_ordering == "colamd" ? simulation::KluOrdering::colamd
                : options.klu_ordering == "metis" ? simulation::KluOrdering::metis
                                                  : simulation::KluOrdering::amd;
  io.threads = instances.size();
  io.linear_solver = options.dense_linear_solver ? simulation::LinearSolverKind::dense
                                                 : simulation::LinearSolverKind::klu;
  io.keep_klu_analysis = options.keep_klu_analysis;
  if (options.uncolored_jacobian) {
    // Every column its own colour: the Jacobian costs one evaluation per unknown.
    structure::Coloring one_per_column;
    one_per_column.ordering = structure::ColumnOrdering::natural;
    one_per_column.colors = N;
    one_per_column.color.resize(N);
    one_per_column.group_ptr.resize(N + 1);
    one_per_column.group_columns.resize(N);
    for (std::size_t k = 0; k < N; ++k) {
      one_per_column.color[k] = k;
      one_per_column.group_ptr[k + 1] = k + 1;
      one_per_column.group_columns[k] = k;
    }
    structure.coloring = std::move(one_per_column);
  }
  jacobian_constants = {};
  varying_coloring.reset();
  const bool eliminating = plan_elimination();
  // Directional derivatives only: constants taken once by finite differences
  // carry that one evaluation's rounding for the whole run, which moved
  // event-sensitive runs (the Reference FMUs' BouncingBall coming to rest
  // takes one more event); finite-difference Jacobians stay as they were.
  // With an elimination the reduced system's entries are classified from the
  // full ones (classify_reduced_entries: constant where every entry that
  // makes them up is).
  if (options.constant_jacobian_entries && !options.uncolored_jacobian && use_directional) {
    const structure::Pattern& iteration = structure.iteration;
    jacobian_constants = simulation::classify_jacobian_entries(dae, structure.analysis.system, index1, iteration);
    if (eliminating)
      jacobian_constants = simulation::classify_reduced_entries(jacobian_constants, iteration, *elimination);
    const structure::Pattern& pattern = eliminating ? elimination->reduced : iteration;
    std::vector<bool> constant(pattern.nnz());
    for (std::size_t p = 0; p < constant.size(); ++p)
      constant[p] = jacobian_constants.lifetime[p] != kernels::EntryLifetime::varying;
    varying_coloring = structure::color_varying_columns(pattern, constant);
    if (varying_coloring->constant_entries > 0) {
      io.constant_entries = &jacobian_constants;
      io.varying_coloring = &varying_coloring->coloring;
    }
  }
  if (projector && options.constraints == ConstraintMethod::projection)
    io.step_projection = [this](double at, std::span<double> yy, std::span<const double> yyp,
                                std::span<const double> weights) { return project_in_step(at, yy, yyp, weights); };
  io.names.row_name = [this](std::size_t k) { return row_name(k); };
  io.names.unknown_name = [this](std::size_t k) { return unknown_name(k); };
  io.names.row_value_name = [this](std::size_t k) { return row_value_name(k); };
  io.names.explain_failure = [this] { return discard_report(); };
  std::vector<kernels::ResidualFunction*> pool;
  if (eliminating) {
    for (auto& r : reduced_residuals) pool.push_back(r.get());
    io.expansion = reduced_residuals[0].get();
    integrator = std::make_unique<simulation::IdaIntegrator>(*reduced_residuals[0], pool, elimination->reduced,
                                                             reduced_coloring, std::move(io));
  } else {
    for (auto& r : residuals) pool.push_back(r.get());
    integrator = std::make_unique<simulation::IdaIntegrator>(*residuals[0], pool, structure.iteration,
                                                             *structure.coloring, std::move(io));
  }
  // The previous scenario's analysis (reset()), when it fits this pattern;
  // else it goes, and KLU analyses as usual.
  if (carried_klu_analysis) {
    integrator->adopt_klu_analysis(carried_klu_analysis);
    carried_klu_analysis.reset();
  }
  if (indicators > 0) {
    integrator->set_root_function(
        indicators, [this](double tt, std::span<const double> yy, std::span<const double> yyp, std::span<double> g) {
          if (residuals[0]->apply(tt, yy, yyp) != kernels::EvalStatus::ok) return -1;
          return instances[0]->get_event_indicators(g) == CallStatus::ok ? 0 : -1;
        });
  }
}

bool Simulation::Impl::plan_elimination() {
  reduced_residuals.clear();
  elimination.reset();
  const auto& index1 = *structure.index1;
  // Only the plain index-1 system: dummy derivatives re-select at run time
  // and projection moves IDA's point inside its steps; the OpenModelica
  // form's incidence cannot tell x from ẋ; the benchmark baselines stay as
  // they are.
  if (!options.eliminate_linear || !simulation::elimination_not_planned(dae, index1).empty() || projector ||
      options.uncolored_jacobian)
    return false;
  structure::LinearElimination plan =
      simulation::plan_model_elimination(dae, structure.analysis.system, index1, structure.iteration);
  // Everything eliminated (a purely algebraic linear model) would leave IDA
  // its internal clock alone: nothing gained, so nothing is eliminated.
  if (!plan.any() || plan.kept.empty()) return false;
  elimination = std::move(plan);
  elimination_z_coloring = structure::color_columns(elimination->z_columns);
  reduced_coloring = structure::color_columns(elimination->reduced);
  const std::vector<double> nominal_full = nominals();
  for (auto& r : residuals)
    reduced_residuals.push_back(std::make_unique<simulation::EliminatedResidual>(
        *r, *elimination, elimination_z_coloring, nominal_full, [this](std::size_t k) { return unknown_name(k); }));
  for (auto& r : reduced_residuals) r->share_coefficients_of(reduced_residuals[0].get());
  log_info(model->display_name() + ": " + std::to_string(elimination->eliminated.size()) +
           " linear algebraic unknown(s) eliminated in " + std::to_string(elimination->blocks) +
           " block(s); IDA integrates " + std::to_string(elimination->kept.size()) + " of " +
           std::to_string(index1.unknowns.size()) + " unknowns (Jacobian " +
           std::to_string(elimination->reduced.nnz()) + " nonzeros, " + std::to_string(reduced_coloring.colors) +
           " colours)");
  return true;
}

void Simulation::Impl::restart(double at) {
  integrator->start(at, y, yp);
  integrator->set_stop_time(stop_time_now());
  // IDACalcIC takes the direction and scale of the first step from tout1; it
  // refuses a tout1 at t0 ("tout1 too close to t0"), which an event exactly at
  // the stop time would give. The point is then made consistent for its
  // post-event row only, so a tout1 one output interval ahead serves.
  double t_next = std::min(at + interval, t_stop);
  if (!(t_next - at > 1e-10 * std::max(1.0, std::fabs(at)))) t_next = at + std::max(interval, 1e-6 * std::max(1.0, std::fabs(at)));
  integrator->make_consistent(t_next);
  std::copy(integrator->y().begin(), integrator->y().end(), y.begin());
  std::copy(integrator->yp().begin(), integrator->yp().end(), yp.begin());
  t = t_ida = at;
}

Simulation::Impl::VariableValues Simulation::Impl::values_by_variable() const {
  VariableValues v;
  v.x.resize(dae.state_vrs.size());
  v.xdot.resize(dae.state_vrs.size());
  v.z.resize(dae.algebraic_vrs.size());
  residuals[0]->states_from(y, yp, v.x, v.xdot);
  const auto& unknowns = structure.index1->unknowns;
  for (std::size_t k = 0; k < unknowns.size(); ++k)
    if (unknowns[k].kind == structure::UnknownKind::algebraic) v.z[unknowns[k].index] = y[k];
  return v;
}

simulation::DaePoint Simulation::Impl::point_at(double at, std::span<const double> yy,
                                                std::span<const double> yyp) const {
  simulation::DaePoint p;
  p.t = at;
  p.x.resize(dae.state_vrs.size());
  p.xdot.resize(dae.state_vrs.size());
  p.z.resize(dae.algebraic_vrs.size());
  residuals[0]->states_from(yy, yyp, p.x, p.xdot);
  const auto& unknowns = structure.index1->unknowns;
  for (std::size_t k = 0; k < unknowns.size(); ++k)
    if (unknowns[k].kind == structure::UnknownKind::algebraic) p.z[unknowns[k].index] = yy[k];
  return p;
}

void Simulation::Impl::load_values(const VariableValues& v) {
  const auto& unknowns = structure.index1->unknowns;
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

}  // namespace lsdae

namespace lsdae {

std::string Simulation::Impl::row_value_name(std::size_t k) const {
  const auto& system = structure.analysis.system;
  const auto& e = structure.index1->rows[k];
  if (e.kind == structure::EquationRef::Kind::formulation) {
    const std::size_t g = system.formulation_group[e.id];
    if (system.group_kind[g] == structure::GroupKind::state_equation && !dae.fully_implicit) {
      const Variable* der = model->model_description().find(dae.derivative_vrs.at(system.group_source[g]));
      return (der != nullptr ? der->name : row_name(k)) + " (from " + fmi_call_name(model->model_description().fmi_major, FmiCall::get_continuous_state_derivatives) + ")";
    }
  }
  return "the residual \"" + row_name(k) + "\"";
}

void Simulation::Impl::mark_faults() {
  discard_marks.resize(instances.size());
  for (std::size_t i = 0; i < instances.size(); ++i) discard_marks[i] = instances[i]->discards().count;
  fault_mark_time = t;
  if (integrator) integrator->reset_faults();
}

std::string Simulation::Impl::discard_report() const {
  std::uint64_t total = 0;
  const Instance* most = nullptr;
  std::uint64_t most_count = 0;
  for (std::size_t i = 0; i < instances.size() && i < discard_marks.size(); ++i) {
    const std::uint64_t n = instances[i]->discards().count - discard_marks[i];
    total += n;
    if (n > most_count) most_count = n, most = instances[i].get();
  }
  if (most == nullptr) return "";
  const DiscardRecord& d = most->discards();
  return std::string(d.function != nullptr ? d.function : "a function") + " (instance \"" + most->name() +
         "\") returned " + most->status_name(2) + " " + std::to_string(total) + (total == 1 ? " time" : " times") + " since t = " +
         format_number(fault_mark_time) + " (the last at t = " + format_number(d.time) +
         "): the FMU refuses to be evaluated there; check its parameters and the range in which the model is valid";
}

}  // namespace lsdae
