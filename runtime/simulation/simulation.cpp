// runtime/simulation/simulation.cpp -- lsdae::Simulation (lsdae/simulation.h):
// structure → instances → initialization → IDA, with events and run-time
// re-selection of dummy derivatives.
//
// The integration loop (advance_to) takes IDA steps one at a time
// (IDA_ONE_STEP) so that after every accepted step it can
//   - tell the FMU (fmi3CompletedIntegratorStep, when it asks for it) and
//     handle a step event;
//   - check the dummy-derivative selection and switch when another one is
//     better conditioned by more than the hysteresis factor;
// while IDA's root finding locates state events (event indicators) and its
// stop time lands exactly on time events. Output times inside a step are
// interpolated (IDAGetDky), as IDA_NORMAL mode would.
#include "common/format.h"
#include "lsdae/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>

#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/constraint_projection.h"
#include "simulation/fmu_dae.h"
#include "simulation/fmu_jacobian_values.h"
#include "simulation/fmu_residual.h"
#include "simulation/ida_integrator.h"
#include "structure/iteration_pattern.h"
#include "structure/pipeline.h"

namespace lsdae {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
constexpr int kMaxEventsAtOneTime = 1000;
}  // namespace

struct Simulation::Impl {
  std::shared_ptr<Fmu> fmu;
  SimulationOptions options;
  double t_start = 0, t_stop = 1, interval = 0.002, rtol = 1e-6, atol = 1e-6;
  simulation::FmuDae dae;
  structure::PipelineOptions pipeline;
  structure::StructureOutcome structure;
  std::vector<structure::StateSelect> model_state_select;  // the model's own preferences
  // reselect_if_needed's working state: the preferences that keep the dummies
  // `reselect_preferences_for`, and the FMU Jacobian callback (it refers to
  // instances[0], dae and structure.analysis.system, which outlive it).
  std::vector<structure::StateSelect> reselect_preferences;
  std::vector<std::size_t> reselect_preferences_for;
  std::optional<structure::JacobianCallback> reselect_values;
  std::vector<std::unique_ptr<Instance>> instances;
  std::vector<std::unique_ptr<simulation::FmuResidual>> residuals;
  std::unique_ptr<simulation::IdaIntegrator> integrator;
  std::unique_ptr<simulation::ConstraintProjector> projector;  // projection method only
  double projection_tolerance = 0;
  simulation::IntegratorStats finished;  // counters of integrators replaced by a re-selection
  std::vector<std::pair<const Variable*, double>> pending_sets;
  std::function<void(double, EventPhase)> observer;
  bool initialized = false;
  bool use_directional = false;
  bool step_callback = false;      // the FMU needs fmi3CompletedIntegratorStep
  bool terminated = false;
  // An event located at the end of the last step, not handled yet because
  // the caller's output time came first (the step went past it).
  enum class Pending { none, step, state, time } pending = Pending::none;
  std::optional<double> next_time_event;
  std::size_t indicators = 0;
  SimulationStats stats;
  std::vector<double> y, yp;  // the point at time t (also after a failure)
  std::vector<double> nominal;  // per IDA unknown
  double t = 0;               // the point the caller sees
  double t_ida = 0;           // IDA's internal time (>= t after a step past an output time)
  int events_at_this_time = 0;
  double last_event_time = -1e300;
  // fmi3Discard counts of the instances at the last output point (mark_faults).
  std::vector<std::uint64_t> discard_marks;
  double fault_mark_time = 0;

  const Variable& variable(const std::string& name) const {
    const Variable* v = fmu->model_description().find(name);
    if (v == nullptr)
      throw Error(ErrorKind::usage, fmu->display_name() + ": no variable is named \"" + name +
                                        "\" → `lsdae info` lists the model; names are case-sensitive");
    return *v;
  }

  std::string unknown_name(std::size_t k) const {
    return structure::unknown_name(structure.analysis.system, structure.index1->unknowns[k]);
  }
  std::string row_name(std::size_t k) const { return structure.analysis.system.name(structure.index1->rows[k]); }
  // What the FMU returned for row k, for messages about a NaN in it.
  std::string row_value_name(std::size_t k) const {
    const auto& system = structure.analysis.system;
    const auto& e = structure.index1->rows[k];
    if (e.kind == structure::EquationRef::Kind::formulation) {
      const std::size_t g = system.formulation_group[e.id];
      if (system.group_kind[g] == structure::GroupKind::state_equation && !dae.fully_implicit) {
        const Variable* der = fmu->model_description().find(dae.derivative_vrs.at(system.group_source[g]));
        return (der != nullptr ? der->name : row_name(k)) + " (from fmi3GetContinuousStateDerivatives)";
      }
    }
    return "the residual \"" + row_name(k) + "\"";
  }

  // Faults counted from here on: NaN residuals (the integrator) and fmi3Discard returns.
  void mark_faults() {
    discard_marks.resize(instances.size());
    for (std::size_t i = 0; i < instances.size(); ++i) discard_marks[i] = instances[i]->discards().count;
    fault_mark_time = t;
    if (integrator) integrator->reset_faults();
  }
  // "fmi3GetFloat64 (instance "lsdae") returned fmi3Discard 40 times since t = ..." or "".
  std::string discard_report() const {
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
           "\") returned fmi3Discard " + std::to_string(total) + (total == 1 ? " time" : " times") + " since t = " +
           format_number(fault_mark_time) + " (the last at t = " + format_number(d.time) +
           "): the FMU refuses to be evaluated there; check its parameters and the range in which the model is valid";
  }

  void make_residuals() {
    projector.reset();
    residuals.clear();
    for (auto& inst : instances)
      residuals.push_back(std::make_unique<simulation::FmuResidual>(*inst, dae, structure.analysis.system,
                                                                    *structure.index1));
    const auto& constraints = structure.index1->projection_constraints;
    if (options.constraints == ConstraintMethod::projection && !constraints.empty()) {
      simulation::ProjectionOptions po;
      po.jacobian = use_directional ? simulation::ProjectionOptions::Jacobian::directional
                                    : simulation::ProjectionOptions::Jacobian::finite_differences;
      po.nominal = nominals();
      projector = std::make_unique<simulation::ConstraintProjector>(*residuals[0], dae, structure.analysis.system,
                                                                    *structure.index1, constraints, po);
    }
  }

  // Projection method: after an accepted step at IDA's own point, pull the
  // solution back onto the lower-order formulations and invariants when they
  // drifted beyond the tolerance, then restart IDA from the projected point.
  void project_if_needed() {
    if (!projector) return;
    std::vector<double> weights(y.size());
    integrator->error_weights(weights);
    std::vector<double> y_end(integrator->y().begin(), integrator->y().end());
    std::vector<double> yp_end(integrator->yp().begin(), integrator->yp().end());
    simulation::ProjectionResult r = projector->project(t_ida, y_end, yp_end, weights, projection_tolerance);
    if (!r.projected) return;
    ++stats.projections;
    stats.largest_projection = std::max(stats.largest_projection, r.correction);
    log_debug("t = " + format_number(t_ida) + ": projected onto the constraints (violation " + format_number(r.violation_before) +
              " -> " + format_number(r.violation_after) + ", correction " + format_number(r.correction) + ")");
    y = std::move(y_end);
    yp = std::move(yp_end);
    restart(t_ida);
  }

  std::string dummy_list(const std::vector<std::size_t>& states) const {
    std::string out;
    for (std::size_t s : states) out += (out.empty() ? "" : ", ") + structure.analysis.system.column_names[s];
    return out;
  }

  bool uses_dummy_derivatives() const {
    return structure.analysis.ok() && structure.analysis.dummy_plan.needed() && structure.selection &&
           structure.index1 && structure.index1->method == structure::ReductionMethod::dummy_derivatives;
  }

  // A higher-index model: choose the dummy derivatives from the FMU's own
  // Jacobian at the initial point (create() could only choose structurally).
  void select_dummy_derivatives_numerically() {
    if (!structure.analysis.ok() || !structure.analysis.dummy_plan.needed()) return;
    if (options.constraints == ConstraintMethod::projection) return;
    if (!fmu->directional_derivatives_available()) {
      log_warning(fmu->display_name() + ": dummy derivatives chosen from the structure alone: the FMU provides "
                  "no directional derivatives for a numeric choice");
      return;
    }
    structure::JacobianCallback values =
        simulation::fmu_jacobian_values(*instances[0], dae, structure.analysis.system);
    structure::StructureOutcome numeric = structure::run_structure(dae.input, &values, pipeline);
    if (!numeric.index1)
      throw Error(ErrorKind::structure, fmu->display_name() + ": structural analysis failed: " + numeric.analysis.error);
    residuals.clear();
    structure = std::move(numeric);
    reselect_values.reset();
    model_state_select = structure.analysis.system.state_select;
    make_residuals();
    if (structure.selection)
      log_info(fmu->display_name() + ": dummy derivatives at t = " + format_number(t_start) + ": " +
               (structure.selection->dummy_states.empty() ? std::string("none")
                                                          : dummy_list(structure.selection->dummy_states)));
  }

  // ---- the integrator ---------------------------------------------------

  double nominal_of(std::size_t k) const { return k < nominal.size() ? nominal[k] : 1.0; }

  std::vector<double> atol_vector() const {
    std::vector<double> a(nominal.size());
    for (std::size_t k = 0; k < a.size(); ++k) a[k] = atol * nominal[k];
    return a;
  }

  std::vector<double> nominals() const {
    const ModelDescription& md = fmu->model_description();
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

  // Adds the counters of the current integrator to `finished` and drops it
  // (before the structures it refers to are replaced).
  void retire_integrator() {
    if (integrator) {
      finished += integrator->stats();
      integrator.reset();
    }
  }

  void make_integrator() {
    retire_integrator();
    const auto& index1 = *structure.index1;
    const std::size_t N = index1.unknowns.size();
    nominal = nominals();
    simulation::IntegratorOptions io;
    io.rtol = rtol;
    io.atol = atol_vector();
    io.id = index1.ida_id();
    io.nominal = nominal;
    io.max_steps_per_output = options.max_steps;
    io.max_step = options.max_step;
    io.jacobian = use_directional ? simulation::JacobianSource::directional
                                  : simulation::JacobianSource::finite_differences;
    io.ordering = options.klu_ordering == "colamd" ? simulation::KluOrdering::colamd
                  : options.klu_ordering == "metis" ? simulation::KluOrdering::metis
                                                    : simulation::KluOrdering::amd;
    io.threads = instances.size();
    io.linear_solver = options.dense_linear_solver ? simulation::LinearSolverKind::dense
                                                   : simulation::LinearSolverKind::klu;
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
    io.row_name = [this](std::size_t k) { return row_name(k); };
    io.unknown_name = [this](std::size_t k) { return unknown_name(k); };
    io.row_value_name = [this](std::size_t k) { return row_value_name(k); };
    io.explain_failure = [this] { return discard_report(); };
    std::vector<kernels::ResidualFunction*> pool;
    for (auto& r : residuals) pool.push_back(r.get());
    integrator = std::make_unique<simulation::IdaIntegrator>(*residuals[0], pool, structure.iteration,
                                                             *structure.coloring, std::move(io));
    if (indicators > 0) {
      integrator->set_root_function(
          indicators, [this](double tt, std::span<const double> yy, std::span<const double> yyp, std::span<double> g) {
            if (residuals[0]->apply(tt, yy, yyp) != kernels::EvalStatus::ok) return -1;
            return instances[0]->get_event_indicators(g) == CallStatus::ok ? 0 : -1;
          });
    }
  }

  double stop_time_now() const { return next_time_event ? std::min(*next_time_event, t_stop) : t_stop; }

  // (Re)starts IDA at (t, y, yp) and makes the algebraic variables and the
  // derivatives consistent.
  void restart(double at) {
    integrator->start(at, y, yp);
    integrator->set_stop_time(stop_time_now());
    integrator->make_consistent(std::min(at + interval, t_stop));
    std::copy(integrator->y().begin(), integrator->y().end(), y.begin());
    std::copy(integrator->yp().begin(), integrator->yp().end(), yp.begin());
    t = t_ida = at;
  }

  // The states, derivatives and algebraic variables of the current point, by variable.
  struct VariableValues {
    std::vector<double> x, xdot, z;
  };
  VariableValues values_by_variable() const {
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
  void load_values(const VariableValues& v) {
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

  // ---- events ---------------------------------------------------------------

  void handle_event(const char* kind) {
    if (t == last_event_time) {
      if (++events_at_this_time > kMaxEventsAtOneTime)
        throw Error(ErrorKind::fmu_call, "simulate: more than " + std::to_string(kMaxEventsAtOneTime) +
                                             " events at t = " + format_number(t) +
                                             " → the FMU's event indicators or time events chatter");
    } else {
      last_event_time = t;
      events_at_this_time = 0;
    }
    if (observer) observer(t, EventPhase::before);
    bool values_changed = false;
    std::optional<double> next;
    for (std::size_t i = 0; i < instances.size(); ++i) {
      Instance& inst = *instances[i];
      residuals[i]->apply(t, y, yp);
      inst.enter_event_mode();
      for (int k = 0;; ++k) {
        DiscreteStatesUpdate u = inst.update_discrete_states();
        if (i == 0) {
          values_changed = values_changed || u.values_of_continuous_states_changed;
          if (u.terminate_simulation) terminated = true;
          next = u.next_event_time;
        }
        if (!u.discrete_states_need_update) break;
        if (k > kMaxEventsAtOneTime)
          throw Error(ErrorKind::fmu_call, "simulate: the event iteration at t = " + format_number(t) +
                                               " did not settle → the FMU keeps changing its discrete states");
      }
      inst.enter_continuous_time_mode();
    }
    next_time_event = next;
    if (next_time_event && *next_time_event <= t) {
      log_warning(fmu->display_name() + ": the FMU announced a time event at t = " + format_number(*next_time_event) +
                  ", not after the current time " + format_number(t) + "; ignored");
      next_time_event.reset();
    }
    log_debug(std::string(kind) + " event at t = " + format_number(t) + (values_changed ? " (states re-initialized)" : ""));
    if (terminated) {
      stats.terminated_by_fmu = true;
      log_info(fmu->display_name() + ": the FMU asked to terminate at t = " + format_number(t));
      if (observer) observer(t, EventPhase::after);
      return;
    }
    if (values_changed) {
      VariableValues v = values_by_variable();
      if (!v.x.empty()) instances[0]->get_continuous_states(v.x);
      load_values(v);
    }
    // The equations may have changed even when the states did not: restart
    // IDA with consistent algebraic variables and derivatives.
    restart(t);
    if (observer) observer(t, EventPhase::after);
  }

  // ---- dummy-derivative re-selection ---------------------------------------

  // At the end of a step: is another selection better conditioned? The
  // current dummies are preferred (StateSelect::avoid, i.e. kept as dummies)
  // unless that costs more than 1/preference_tolerance in a pivot, which is
  // the hysteresis that keeps the choice from flickering.
  bool reselect_if_needed() {
    if (!options.reselect || !uses_dummy_derivatives() || !fmu->directional_derivatives_available()) return false;
    const auto& current = structure.selection->dummy_states;
    auto& system = structure.analysis.system;
    // The preferences that keep the current dummies (avoid: stay dummies),
    // rebuilt only when the selection changed; swapped in for the call, so a
    // step costs no allocation and O(states), not O(states · dummies).
    if (reselect_preferences_for != current) {
      reselect_preferences.assign(system.state_select.size(), structure::StateSelect::normal);
      for (const std::size_t s : current) reselect_preferences[s] = structure::StateSelect::avoid;
      reselect_preferences_for = current;
    }
    if (!reselect_values) reselect_values = simulation::fmu_jacobian_values(*instances[0], dae, system);
    residuals[0]->apply(t_ida, integrator->y(), integrator->yp());
    std::swap(system.state_select, reselect_preferences);
    structure::DummySelection selection;
    try {
      selection = structure::select_dummy_derivatives(system, structure.analysis.dummy_plan, *reselect_values,
                                                      pipeline.selection);
    } catch (...) {
      std::swap(system.state_select, reselect_preferences);
      throw;
    }
    std::swap(system.state_select, reselect_preferences);
    if (!selection.success || selection.dummy_states == current) return false;

    // Switch at the step boundary: same variables, new roles.
    std::vector<double> y_end(integrator->y().begin(), integrator->y().end());
    std::vector<double> yp_end(integrator->yp().begin(), integrator->yp().end());
    std::swap(y, y_end);
    std::swap(yp, yp_end);
    VariableValues v = values_by_variable();
    std::string from = dummy_list(current), to = dummy_list(selection.dummy_states);
    structure::Index1System index1 =
        structure::index1_for_selection(structure.analysis, selection, pipeline.match_rows);
    structure::Pattern iteration = structure::iteration_pattern(system, index1);
    structure::Coloring coloring = structure::color_columns_best(iteration);
    retire_integrator();  // it refers to the old pattern and residuals
    residuals.clear();
    structure.index1 = std::move(index1);
    structure.iteration = std::move(iteration);
    structure.coloring = std::move(coloring);
    structure.selection = selection;
    make_residuals();
    make_integrator();
    load_values(v);
    ++stats.reselections;
    log_info(fmu->display_name() + ": t = " + format_number(t_ida) + ": dummy derivatives switched from {" + from + "} to {" +
             to + "} (rcond " + format_number(selection.rcond) + ")");
    restart(t_ida);
    return true;
  }
};

Simulation::Simulation() : impl_(std::make_unique<Impl>()) {}
Simulation::~Simulation() = default;

std::unique_ptr<Simulation> Simulation::create(std::shared_ptr<Fmu> fmu, const SimulationOptions& options) {
  std::unique_ptr<Simulation> sim(new Simulation());
  Impl& m = *sim->impl_;
  m.fmu = std::move(fmu);
  m.options = options;
  const ModelDescription& md = m.fmu->model_description();
  const DefaultExperiment& e = md.default_experiment;
  m.t_start = options.start_time.value_or(e.start_time.value_or(0.0));
  m.t_stop = options.stop_time.value_or(e.stop_time.value_or(m.t_start + 1.0));
  if (!(m.t_stop > m.t_start))
    throw Error(ErrorKind::usage, "simulate: stop time " + format_number(m.t_stop) + " is not after start time " +
                                      format_number(m.t_start) + " → set --stop");
  m.rtol = options.rtol.value_or(e.tolerance.value_or(1e-6));
  m.atol = options.atol.value_or(m.rtol);
  m.interval = options.output_interval.value_or(e.step_size.value_or((m.t_stop - m.t_start) / 500.0));
  if (!(m.rtol > 0) || !(m.atol > 0))
    throw Error(ErrorKind::usage, "simulate: tolerances must be positive (rtol " + format_number(m.rtol) + ", atol " +
                                      format_number(m.atol) + ") → set --rtol/--atol");
  if (!(m.interval > 0))
    throw Error(ErrorKind::usage, "simulate: output interval " + format_number(m.interval) + " is not positive → set --output-interval");
  if (options.threads == 0) throw Error(ErrorKind::usage, "simulate: --threads must be at least 1");
  if (options.klu_ordering != "amd" && options.klu_ordering != "colamd" && options.klu_ordering != "metis")
    throw Error(ErrorKind::usage, "simulate: KLU ordering \"" + options.klu_ordering +
                                      "\" is not one of amd, colamd, metis");
  for (const auto& v : md.variables)
    if (v.is_array())
      throw Error(ErrorKind::usage, m.fmu->display_name() + ": variable \"" + v.name +
                                        "\" is an array; lsdae simulates scalar variables only → export scalarized");

  // Structure.
  auto t0 = std::chrono::steady_clock::now();
  m.dae = simulation::build_fmu_dae(*m.fmu);
  m.pipeline.best_ordering = true;
  m.pipeline.match_rows = options.match_rows;  // the fewest colours: fewer evaluations per Jacobian for the whole run
  m.pipeline.method = options.constraints == ConstraintMethod::projection ? structure::ReductionMethod::projection
                                                                          : structure::ReductionMethod::dummy_derivatives;
  m.structure = structure::run_structure(m.dae.input, nullptr, m.pipeline);
  m.stats.time_structure = seconds_since(t0);
  if (!m.structure.index1)
    throw Error(ErrorKind::structure, m.fmu->display_name() + ": structural analysis failed: " +
                                        m.structure.analysis.error);
  for (const auto& w : m.structure.analysis.warnings) log_warning(m.fmu->display_name() + ": structure: " + w);
  m.stats.structural_index = m.structure.analysis.structural_index;
  m.model_state_select = m.structure.analysis.system.state_select;

  // Instances: one per thread unless the FMU forbids it.
  t0 = std::chrono::steady_clock::now();
  std::size_t threads = options.threads;
  if (md.model_exchange && md.model_exchange->can_be_instantiated_only_once_per_process && threads > 1) {
    log_warning(m.fmu->display_name() + ": canBeInstantiatedOnlyOncePerProcess: using 1 thread instead of " +
                std::to_string(threads));
    threads = 1;
  }
  m.fmu->load_binary();
  bool directional = m.fmu->directional_derivatives_available();
  switch (options.jacobian) {
    case JacobianMode::automatic: m.use_directional = directional; break;
    case JacobianMode::finite_differences: m.use_directional = false; break;
    case JacobianMode::directional:
    case JacobianMode::check:
      if (!directional)
        throw Error(ErrorKind::usage, m.fmu->display_name() + ": the FMU does not provide directional derivatives "
                                                              "→ use --jacobian fd");
      m.use_directional = true;
      break;
  }
  for (std::size_t i = 0; i < threads; ++i) {
    auto inst = m.fmu->instantiate(i == 0 ? "lsdae" : "lsdae-" + std::to_string(i));
    if (m.fmu->manifest().present()) inst->enable_dae_mode();
    m.instances.push_back(std::move(inst));
  }
  m.make_residuals();
  m.stats.time_instantiate = seconds_since(t0);
  m.stats.threads = threads;
  m.step_callback = md.model_exchange && md.model_exchange->needs_completed_integrator_step;
  m.projection_tolerance = options.projection_tolerance.value_or(10.0 * m.atol);
  if (!(m.projection_tolerance > 0))
    throw Error(ErrorKind::usage, "simulate: the projection tolerance must be positive, got " + format_number(m.projection_tolerance));
  m.indicators = md.structure.event_indicators.size();
  m.t = m.t_ida = m.t_start;
  return sim;
}

void Simulation::set(const std::string& name, double value) {
  Impl& m = *impl_;
  if (m.initialized)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" can only be set before initialize()");
  const Variable& v = m.variable(name);
  bool settable = v.causality == Causality::parameter || v.causality == Causality::input ||
                  (v.initial && (*v.initial == Initial::exact || *v.initial == Initial::approx) &&
                   v.causality != Causality::calculated_parameter && v.causality != Causality::structural_parameter);
  if (!settable || v.variability == Variability::constant)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" (causality " + to_string(v.causality) +
                                      ", variability " + to_string(v.variability) +
                                      ") cannot be set → set parameters, inputs or variables with a start value");
  m.pending_sets.emplace_back(&v, value);
}

bool Simulation::initialized() const { return impl_->initialized; }
bool Simulation::terminated() const { return impl_->terminated; }
void Simulation::observe_events(std::function<void(double, EventPhase)> observer) {
  impl_->observer = std::move(observer);
}

void Simulation::initialize() {
  Impl& m = *impl_;
  if (m.initialized) throw Error(ErrorKind::usage, "simulate: initialize() was already called");
  auto t0 = std::chrono::steady_clock::now();
  m.mark_faults();
  // Every instance goes through the same sequence so they stay interchangeable.
  for (std::size_t i = 0; i < m.instances.size(); ++i) {
    Instance& inst = *m.instances[i];
    for (const auto& [v, value] : m.pending_sets) inst.set_scalar(*v, value);
    inst.enter_initialization_mode(m.rtol, m.t_start, m.t_stop);
    inst.exit_initialization_mode();
    for (int k = 0;; ++k) {
      DiscreteStatesUpdate u = inst.update_discrete_states();
      if (u.terminate_simulation)
        throw Error(ErrorKind::fmu_call, "simulate: the FMU asked to terminate during initialization");
      if (i == 0) m.next_time_event = u.next_event_time;
      if (!u.discrete_states_need_update) break;
      if (k > kMaxEventsAtOneTime)
        throw Error(ErrorKind::fmu_call, "simulate: event iteration at the start did not settle after " +
                                             std::to_string(kMaxEventsAtOneTime) +
                                             " fmi3UpdateDiscreteStates calls → the FMU keeps changing its discrete states");
    }
    inst.enter_continuous_time_mode();
  }
  m.select_dummy_derivatives_numerically();

  // Initial guesses: states and algebraic variables from the FMU; derivatives
  // from the FMU (semi-explicit) or its derivative variables (fully implicit).
  Instance& main = *m.instances[0];
  Impl::VariableValues v;
  v.x.resize(m.dae.state_vrs.size());
  v.xdot.resize(m.dae.state_vrs.size());
  v.z.resize(m.dae.algebraic_vrs.size());
  if (!v.x.empty()) main.get_continuous_states(v.x);
  if (!v.z.empty()) main.get_float64(m.dae.algebraic_vrs, v.z);
  if (!v.x.empty()) {
    if (m.dae.fully_implicit) main.get_float64(m.dae.derivative_vrs, v.xdot);
    else main.get_continuous_state_derivatives(v.xdot);
    for (double& d : v.xdot)
      if (!std::isfinite(d)) d = 0.0;
  }
  m.load_values(v);
  m.nominal = m.nominals();
  if (m.projector) {
    // Start on the constraints: the smallest change of the start values, in a
    // norm where fixed starts (initial="exact") cost 1000 times more to move
    // than guesses, so the guesses give way first.
    std::vector<double> weights(m.y.size());
    const ModelDescription& md = m.fmu->model_description();
    for (std::size_t k = 0; k < m.y.size(); ++k) {
      const auto& u = m.structure.index1->unknowns[k];
      double scale = 1.0 / (m.rtol * std::fabs(m.y[k]) + m.atol * m.nominal_of(k));
      bool fixed = false;
      if (u.kind == structure::UnknownKind::differential || u.kind == structure::UnknownKind::dummy_state) {
        const Variable* x = md.find(m.dae.state_vrs[u.index]);
        fixed = x != nullptr && x->initial == Initial::exact;
      }
      weights[k] = fixed ? 1000.0 * scale : scale;
    }
    simulation::ProjectionResult r = m.projector->project(m.t_start, m.y, m.yp, weights, m.projection_tolerance);
    if (r.projected)
      log_info(m.fmu->display_name() + ": start values projected onto the constraints (violation " +
               format_number(r.violation_before) + " -> " + format_number(r.violation_after) + ")");
  }
  m.make_integrator();
  m.restart(m.t_start);
  m.initialized = true;
  m.stats.time_initialize = seconds_since(t0);
  if (m.options.jacobian == JacobianMode::check) {
    JacobianCheck c = check_jacobian();
    log_warning("jacobian check at t = " + format_number(m.t) + ": largest relative difference " + format_number(c.max_rel_difference) +
                " at row \"" + c.row + "\", column \"" + c.column + "\" (finite differences " +
                format_number(c.finite_difference) + ", directional " + format_number(c.directional) + "); largest absolute " +
                format_number(c.max_abs_difference));
  }
}

double Simulation::advance_to(double t_target) {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: call initialize() before advance_to()");
  if (t_target > m.t_stop) t_target = m.t_stop;
  if (m.terminated || t_target <= m.t) return m.t;
  auto t0 = std::chrono::steady_clock::now();
  m.mark_faults();
  auto keep_point = [&] {
    std::copy(m.integrator->y().begin(), m.integrator->y().end(), m.y.begin());
    std::copy(m.integrator->yp().begin(), m.integrator->yp().end(), m.yp.begin());
    m.t = m.t_ida = m.integrator->time();
  };
  long steps_this_call = 0;
  try {
    while (!m.terminated) {
      const double t_end = m.integrator->time();  // IDA's internal time
      if (m.pending != Impl::Pending::none) {
        if (t_end <= t_target) {  // the event comes before (or at) the target: handle it
          Impl::Pending kind = m.pending;
          m.pending = Impl::Pending::none;
          keep_point();
          if (kind == Impl::Pending::state) ++m.stats.state_events, m.handle_event("state");
          else if (kind == Impl::Pending::time) ++m.stats.time_events, m.handle_event("time");
          else ++m.stats.step_events, m.handle_event("step");
          continue;
        }
      }
      if (t_end > t_target) {  // the last step passed the target: interpolate
        m.integrator->interpolate(t_target, m.y, m.yp);
        m.t = t_target;
        break;
      }
      // There: exactly (also right after a restart, before any step), or a
      // rounding error short (typically t_event + n·dt summed by the caller,
      // just after a restart at the event): IDA refuses a tout that close to
      // t0 (IDA_ILL_INPUT, "tout too close to t0"), and the state there is the
      // state at t_end to rounding.
      if (t_target - t_end <= 4.0 * std::numeric_limits<double>::epsilon() *
                                   std::max(std::fabs(t_end), std::fabs(t_target))) {
        keep_point();
        m.t = t_target;
        break;
      }
      if (++steps_this_call > m.options.max_steps) {  // IDA's own mxstep counts per call, i.e. per step here
        const std::string cause = m.integrator->known_cause();
        throw Error(ErrorKind::solver, "ida: at t = " + format_number(m.integrator->time()) + " (h = " +
                                           format_number(m.integrator->stats().last_step) + "): more than " +
                                           std::to_string(m.options.max_steps) + " steps before t = " +
                                           format_number(t_target) + " (IDA_TOO_MUCH_WORK) → " +
                                           (cause.empty() ? "raise --max-steps or shorten the output interval; if the "
                                                            "step size collapsed, the model may be stiff or singular "
                                                            "here"
                                                          : cause));
      }
      simulation::StepOutcome outcome = m.integrator->one_step(t_target);
      m.t_ida = m.integrator->time();
      if (outcome == simulation::StepOutcome::root) {
        m.pending = Impl::Pending::state;
        continue;
      }
      if (outcome == simulation::StepOutcome::stop_time) {
        if (m.next_time_event && m.t_ida >= *m.next_time_event) m.pending = Impl::Pending::time;
        continue;  // or the stop time itself: the loop head interpolates
      }
      // An accepted step.
      if (m.step_callback) {
        m.residuals[0]->apply(m.t_ida, m.integrator->y(), m.integrator->yp());
        IntegratorStepResult r = m.instances[0]->completed_integrator_step(true);
        if (r.terminate_simulation) {
          keep_point();
          m.terminated = m.stats.terminated_by_fmu = true;
          break;
        }
        if (r.enter_event_mode) m.pending = Impl::Pending::step;
      }
      // Index reduction at run time, at IDA's own step points only (a point
      // interpolated for an output is not IDA's state): re-select the dummy
      // derivatives, or project onto the constraints. A step that went past
      // the output time is left as it is; the next step checks again.
      if (m.pending == Impl::Pending::none && m.t_ida <= t_target) {
        if (!m.reselect_if_needed()) m.project_if_needed();
      }
    }
  } catch (...) {
    if (m.integrator) {
      // Keep the last point IDA reached (its y()/yp() are the last accepted values).
      std::copy(m.integrator->y().begin(), m.integrator->y().end(), m.y.begin());
      std::copy(m.integrator->yp().begin(), m.integrator->yp().end(), m.yp.begin());
      m.t = m.t_ida = m.integrator->time();
    }
    m.stats.time_integrate += seconds_since(t0);
    throw;
  }
  m.stats.time_integrate += seconds_since(t0);
  return m.t;
}

double Simulation::time() const { return impl_->t; }
double Simulation::start_time() const { return impl_->t_start; }
double Simulation::stop_time() const { return impl_->t_stop; }
double Simulation::output_interval() const { return impl_->interval; }
const Fmu& Simulation::fmu() const { return *impl_->fmu; }

void Simulation::get(std::span<const ValueReference> vrs, std::span<double> values) {
  Impl& m = *impl_;
  if (!m.initialized) {
    m.instances[0]->get_float64(vrs, values);
    return;
  }
  // Put the instance at the current point; then every output belongs to it.
  m.residuals[0]->apply(m.t, m.y, m.yp);
  if (m.instances[0]->get_float64(vrs, values) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, "simulate: the FMU discarded fmi3GetFloat64 at t = " + format_number(m.t));
}

double Simulation::get(const std::string& name) {
  const Variable& v = impl_->variable(name);
  if (v.type != VariableType::float64)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" is " + to_string(v.type) + "; get() reads Float64");
  double value = 0;
  ValueReference vr = v.value_reference;
  get({&vr, 1}, {&value, 1});
  return value;
}

JacobianCheck Simulation::check_jacobian() {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: check_jacobian() needs initialize() first");
  if (!m.fmu->directional_derivatives_available())
    throw Error(ErrorKind::usage, "simulate: the FMU does not provide directional derivatives to compare");
  const auto& pattern = m.structure.iteration;
  const std::size_t N = m.y.size();
  std::vector<double> r(N), fd(pattern.nnz()), dd(pattern.nnz()), weights(N);
  for (std::size_t k = 0; k < N; ++k) weights[k] = 1.0 / (m.rtol * std::fabs(m.y[k]) + m.atol * m.nominal[k]);
  m.residuals[0]->residual(m.t, m.y, m.yp, r);
  // A representative iteration matrix: cj of a step of one output interval;
  // h = 0 keeps the increments at the variables' own scale.
  const double cj = 1.0 / m.interval;
  kernels::JacobianPoint point{m.t, m.y, m.yp, r, cj, 0.0, weights, m.nominal};
  kernels::CompressedJacobian jac(pattern, *m.structure.coloring, 1);
  kernels::ResidualFunction* pool[] = {m.residuals[0].get()};
  jac.evaluate_finite_differences(pool, point, fd);
  jac.evaluate_directional(pool, point, dd);
  JacobianCheck c;
  std::vector<double> row_scale(N, 0.0);
  for (std::size_t p = 0; p < pattern.nnz(); ++p)
    row_scale[pattern.row_idx()[p]] = std::max(row_scale[pattern.row_idx()[p]], std::fabs(dd[p]));
  bool first = true;
  for (std::size_t col = 0; col < pattern.cols(); ++col)
    for (std::size_t p = pattern.col_ptr()[col]; p < pattern.col_ptr()[col + 1]; ++p) {
      double abs_diff = std::fabs(fd[p] - dd[p]);
      double rel = abs_diff / std::max(row_scale[pattern.row_idx()[p]], 1e-300);
      c.max_abs_difference = std::max(c.max_abs_difference, abs_diff);
      if (first || rel > c.max_rel_difference) {
        first = false;
        c.max_rel_difference = rel;
        c.row = m.row_name(pattern.row_idx()[p]);
        c.column = m.unknown_name(col);
        c.finite_difference = fd[p];
        c.directional = dd[p];
      }
    }
  return c;
}

const SimulationStats& Simulation::statistics() {
  Impl& m = *impl_;
  SimulationStats& s = m.stats;
  const auto& index1 = *m.structure.index1;
  s.unknowns = index1.unknowns.size();
  const std::vector<double> id = index1.ida_id();
  s.differential = static_cast<std::size_t>(std::count(id.begin(), id.end(), 1.0));
  s.algebraic = s.unknowns - s.differential;
  s.jacobian_nonzeros = m.structure.iteration.nnz();
  s.colors = m.structure.coloring ? m.structure.coloring->colors : 0;
  s.jacobian_method = m.use_directional ? "directional" : "finite differences";
  s.klu_ordering = m.options.klu_ordering;
  s.reached_time = m.t;
  s.dummy_derivatives = m.structure.selection ? m.dummy_list(m.structure.selection->dummy_states) : "";
  simulation::IntegratorStats is = m.finished;
  if (m.integrator) is += m.integrator->stats();
  s.steps = is.steps;
  s.residual_calls = is.residual_calls;
  s.jacobian_evaluations = is.jacobian_evaluations;
  s.jacobian_residual_calls = is.jacobian_residual_calls;
  s.directional_calls = is.directional_calls;
  s.nonlinear_iterations = is.nonlinear_iterations;
  s.nonlinear_convergence_failures = is.nonlinear_convergence_failures;
  s.error_test_failures = is.error_test_failures;
  s.linear_solver_setups = is.linear_solver_setups;
  s.klu_lnz = is.klu_lnz;
  s.klu_unz = is.klu_unz;
  return s;
}

std::string Simulation::structure_report() const { return impl_->structure.report.to_text(); }

}  // namespace lsdae
