// runtime/simulation/simulation.cpp -- lsdae::Simulation (lsdae/simulation.h):
// structure → instances → initialization → IDA, with events and run-time
// re-selection of dummy derivatives. This file: create() (the settings, the
// structural analysis, the instances, the collaborators of
// simulation_impl.h), set() and get(), the accessors and statistics(). The
// run loop is in simulation_run.cpp; the other files are listed in
// simulation_impl.h.
#include "lsdae/simulation.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/fmi_names.h"
#include "lsdae/log.h"
#include "simulation/instance_count.h"
#include "simulation/simulation_impl.h"
#include "structure/pipeline.h"

namespace lsdae {

using simulation::seconds_since;

Simulation::Impl::Impl(std::shared_ptr<const simulation::RunSettings> run_settings,
                       std::unique_ptr<simulation::ModelEvaluation> model_evaluation)
    : settings(std::move(run_settings)),
      evaluation(std::move(model_evaluation)),
      session(*settings),
      events(*settings),
      reselector(*settings),
      projection(*settings, constraint_record),
      fmu_constraints(*settings, constraint_record) {}

Simulation::Simulation() = default;
Simulation::~Simulation() = default;

std::unique_ptr<Simulation> Simulation::create(std::shared_ptr<const Model> model, const SimulationOptions& options) {
  std::unique_ptr<Simulation> sim(new Simulation());
  simulation::RunSettings s = simulation::make_run_settings(std::move(model), options);
  const Model& the_model = *s.model;
  const ModelDescription& md = the_model.model_description();

  // Structure.
  auto t0 = std::chrono::steady_clock::now();
  simulation::ModelDae dae = simulation::build_model_dae(the_model);
  structure::StructureOutcome outcome = structure::run_structure(dae.input, nullptr, s.pipeline);
  const double time_structure = seconds_since(t0);
  if (!outcome.index1)
    throw Error(ErrorKind::structure, the_model.display_name() + ": structural analysis failed: " +
                                          outcome.analysis.error);
  {
    // The analysis' warnings start with the system's (DaeSystem::warnings: rows
    // without a `dependencies` attribute). Those are facts about optional
    // metadata the user of an FMU cannot change: --verbose shows them, `lsdae
    // validate` and `lsdae info --structure` list them (docs/user-guide/operations.md,
    // "Warnings"). The rest may change how the model is solved: warnings.
    // The same warning for many rows (every element of an array, every
    // segment of a line) says one thing: the first few, then a count.
    constexpr std::size_t kShown = 3;
    const auto& all = outcome.analysis.warnings;
    const std::size_t facts = std::min(outcome.analysis.system.warnings.size(), all.size());
    for (std::size_t k = 0; k < facts; ++k) log_info(the_model.display_name() + ": " + all[k]);
    const std::vector<std::string> warnings(all.begin() + static_cast<std::ptrdiff_t>(facts), all.end());
    for (std::size_t k = 0; k < std::min(kShown, warnings.size()); ++k)
      log_warning(the_model.display_name() + ": " + warnings[k]);
    if (warnings.size() > kShown)
      log_warning(the_model.display_name() + ": … and " + std::to_string(warnings.size() - kShown) +
                  " more structure warnings → `lsdae info --structure` lists them all");
  }
  const std::size_t structural_index = outcome.analysis.structural_index;
  std::shared_ptr<const structure::StructureOutcome> created;
  if (outcome.selection || options.uncolored_jacobian)  // a run may replace it: reset() needs this one back
    created = std::make_shared<const structure::StructureOutcome>(outcome);

  // Instances: one per thread the Jacobian's colours can use, unless the FMU
  // forbids more than one (instance_count.h); made at once.
  t0 = std::chrono::steady_clock::now();
  s.threads = simulation::usable_threads(s);
  the_model.load_binary();
  s.use_directional = simulation::choose_directional(s, dae);
  simulation::log_dae_notes(s, dae);
  const std::size_t requested_threads = s.threads;
  simulation::InstanceCount counted = simulation::jacobian_instances(s, dae, outcome);
  s.threads = counted.instances;
  std::vector<std::unique_ptr<Instance>> instances(s.threads);
  simulation::for_each_instance(s.threads, [&](std::size_t i) {
    auto inst = the_model.instantiate(i == 0 ? "lsdae" : "lsdae-" + std::to_string(i));
    if (the_model.manifest().present()) inst->enable_dae_mode();
    // A system's instance runs its components on the threads asked for when
    // the call is not already one of the Jacobian's parallel colours
    // (runtime/system/composite_instance.h, "Components in parallel").
    inst->set_threads(requested_threads);
    instances[i] = std::move(inst);
  });
  s.step_callback = md.model_exchange && md.model_exchange->needs_completed_integrator_step;
  s.projection_tolerance = options.projection_tolerance.value_or(10.0 * s.atol);
  s.projection_tolerance_given = options.projection_tolerance.has_value();
  s.indicators = the_model.event_indicator_count();
  auto settings = std::make_shared<const simulation::RunSettings>(std::move(s));
  sim->impl_ = std::make_unique<Impl>(settings, std::make_unique<simulation::ModelEvaluation>(
                                                    *settings, std::move(dae), std::move(outcome),
                                                    std::move(created), std::move(instances)));
  Impl& m = *sim->impl_;
  m.session.take_declared(std::move(counted.declared));  // counting classified the entries: not again
  m.rebuild_residuals();
  m.stats.time_structure = time_structure;
  m.stats.structural_index = structural_index;
  m.stats.time_instantiate = seconds_since(t0);
  m.stats.threads = settings->threads;
  if (!(settings->projection_tolerance > 0))
    throw Error(ErrorKind::usage,
                "simulate: the projection tolerance must be positive, got " + format_number(settings->projection_tolerance));
  return sim;
}

void Simulation::set(const std::string& name, double value) {
  const ModelDescription& md = impl_->settings->model->model_description();
  if (auto ref = md.find_element(name); ref && storage_of(ref->variable->type) == ValueStorage::text)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" is " + to_string(ref->variable->type) +
                                      ", not a number → set it as text (--set name=text, lsdae_set_text)");
  // The shortest text that reads back to `value`, parsed for the variable's
  // type: integers must be integral and in range, Booleans 0 or 1, reals finite.
  char buffer[64];
  auto r = std::to_chars(buffer, buffer + sizeof buffer, value);
  set(name, std::string(buffer, r.ptr));
}

void Simulation::set(const std::string& name, const std::string& text) {
  Impl& m = *impl_;
  if (m.initialized && !m.paused)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" can only be set before initialize() (or while paused at "
                                  "an event: pause_before_event_at)");
  if (m.paused && !m.sets_at_event) {  // the values of this event, set in its Event Mode
    m.evaluation->clear_set_values();
    m.events.apply_sets_at_next_event();
    m.sets_at_event = true;
  }
  const ModelDescription& md = m.settings->model->model_description();
  auto ref = md.find_element(name);
  if (!ref) m.evaluation->variable(name);  // throws the "no variable is named" message
  const Variable& v = *ref->variable;
  bool settable = v.causality == Causality::parameter || v.causality == Causality::input ||
                  (v.initial && (*v.initial == Initial::exact || *v.initial == Initial::approx) &&
                   v.causality != Causality::calculated_parameter && v.causality != Causality::structural_parameter);
  if (!settable || v.variability == Variability::constant)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" (causality " + to_string(v.causality) +
                                      ", variability " + to_string(v.variability) +
                                      ") cannot be set → set parameters, inputs or variables with a start value");
  if (v.type == VariableType::clock)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" is a Clock → clocks are not set by value");
  const bool element = v.is_array() && name != v.name;
  if (!element) m.evaluation->set_value(v, parse_value(v, md, text));
  else m.evaluation->set_element(v, ref->element, parse_element_value(v, md, text));
}

void Simulation::set_input(const std::filesystem::path& csv) {
  Impl& m = *impl_;
  if (m.initialized)
    throw Error(ErrorKind::usage, "simulate: set_input() must come before initialize() → call it first");
  m.evaluation->set_inputs(simulation::InputTable::read_csv(csv, m.settings->model->model_description()));
}

bool Simulation::initialized() const { return impl_->initialized; }
bool Simulation::terminated() const { return impl_->events.terminated(); }
void Simulation::cancel() noexcept { impl_->cancel_requested.store(true); }
void Simulation::observe_events(std::function<void(double, EventPhase)> observer) {
  impl_->events.observe_events(std::move(observer));
}
void Simulation::observe_steps(std::function<void(double)> observer) {
  impl_->events.observe_steps(std::move(observer));
}

double Simulation::time() const { return impl_->session.time(); }
double Simulation::start_time() const { return impl_->settings->t_start; }
double Simulation::stop_time() const { return impl_->settings->t_stop; }
double Simulation::output_interval() const { return impl_->settings->interval; }
const Model& Simulation::model() const { return *impl_->settings->model; }
const Fmu& Simulation::fmu() const {
  const auto* fmu = dynamic_cast<const Fmu*>(impl_->settings->model.get());
  if (fmu == nullptr)
    throw Error(ErrorKind::usage, impl_->settings->model->display_name() + " is a system of FMUs, not one FMU → use model()");
  return *fmu;
}

void Simulation::get(std::span<const ValueReference> vrs, std::span<double> values) {
  Impl& m = *impl_;
  Instance& main = m.evaluation->instance(0);
  if (const simulation::ModelClocks* clocks = m.events.clocks(); clocks != nullptr && clocks->holds_any(vrs)) {
    Values all(VariableType::float64);  // clocked variables: the last tick's values (get_values)
    get_values(vrs, all);
    if (all.reals.size() != values.size())
      throw Error(ErrorKind::usage, "simulate: get() of " + std::to_string(vrs.size()) + " variables (" +
                                        std::to_string(all.reals.size()) + " values) into " +
                                        std::to_string(values.size()) + " values → pass one value per element");
    std::copy(all.reals.begin(), all.reals.end(), values.begin());
    return;
  }
  if (!m.initialized) {
    main.get_float64(vrs, values);
    return;
  }
  // Put the instance at the current point; then every output belongs to it.
  m.evaluation->residual(0).apply(m.session.time(), m.session.y(), m.session.yp());
  if (main.get_float64(vrs, values) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, "simulate: the FMU discarded " +
                                         fmi_accessor_name(main.fmi_version(), VariableType::float64, false) +
                                         " at t = " + format_number(m.session.time()));
}

double Simulation::get(const std::string& name) {
  const ModelDescription& md = impl_->settings->model->model_description();
  auto ref = md.find_element(name);
  if (!ref) impl_->evaluation->variable(name);  // throws the "no variable is named" message
  const Variable& v = *ref->variable;
  if (v.type == VariableType::float64 && !v.is_array()) {
    double value = 0;
    ValueReference vr = v.value_reference;
    get({&vr, 1}, {&value, 1});
    return value;
  }
  if (storage_of(v.type) == ValueStorage::text || v.type == VariableType::clock)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" is " + to_string(v.type) +
                                      "; get() reads numbers → use get_values()");
  Values values(v.type);
  ValueReference vr = v.value_reference;
  get_values({&vr, 1}, values);
  return values.number(ref->element);
}

void Simulation::get_values(std::span<const ValueReference> vrs, Values& values) {
  Impl& m = *impl_;
  Instance& main = m.evaluation->instance(0);
  // Clocked variables between their ticks: the value of the last tick
  // (simulation/model_clocks.h), never the FMU's (FMI 3.0 2.2.6.2).
  if (const simulation::ModelClocks* clocks = m.events.clocks(); clocks != nullptr && clocks->holds_any(vrs)) {
    Values out(values.type), one(values.type);
    for (ValueReference vr : vrs) {
      if (clocks->holds(vr)) {
        append_values(out, clocks->held(vr));
      } else {
        get_values({&vr, 1}, one);
        append_values(out, one);
      }
    }
    values = std::move(out);
    return;
  }
  if (m.initialized) m.evaluation->residual(0).apply(m.session.time(), m.session.y(), m.session.yp());  // the instance at the current point
  if (main.get_values(vrs, values) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, "simulate: the FMU discarded " +
                                         fmi_accessor_name(main.fmi_version(), values.type, false) + " at t = " +
                                         format_number(m.session.time()));
}

Values Simulation::get_values(const std::string& name) {
  const ModelDescription& md = impl_->settings->model->model_description();
  auto ref = md.find_element(name);
  if (!ref) impl_->evaluation->variable(name);
  const Variable& v = *ref->variable;
  Values all(v.type);
  ValueReference vr = v.value_reference;
  get_values({&vr, 1}, all);
  if (!v.is_array() || name == v.name) return all;
  Values one(v.type);
  one.resize(1);
  switch (storage_of(v.type)) {
    case ValueStorage::real: one.reals[0] = all.reals[ref->element]; break;
    case ValueStorage::integer: one.integers[0] = all.integers[ref->element]; break;
    case ValueStorage::unsigned_integer: one.unsigned_integers[0] = all.unsigned_integers[ref->element]; break;
    case ValueStorage::text: one.texts[0] = all.texts[ref->element]; break;
  }
  return one;
}

const SimulationStats& Simulation::statistics() {
  Impl& m = *impl_;
  SimulationStats& s = m.stats;
  const structure::StructureOutcome& outcome = m.evaluation->structure();
  const auto& index1 = *outcome.index1;
  const bool integrating = m.session.has_integrator();
  const simulation::IntegratorStats current = integrating ? m.session.integrator().stats() : simulation::IntegratorStats{};
  s.unknowns = index1.unknowns.size();
  const std::vector<double> id = index1.ida_id();
  s.differential = static_cast<std::size_t>(std::count(id.begin(), id.end(), 1.0));
  s.algebraic = s.unknowns - s.differential;
  s.jacobian_nonzeros = outcome.iteration.nnz();
  s.colors = outcome.coloring ? outcome.coloring->colors : 0;
  s.varying_colors = integrating ? current.varying_colors : s.colors;
  s.constant_entries = integrating ? current.constant_entries : 0;
  s.eliminated = integrating ? current.eliminated : 0;
  // The integrator's own pattern: the reduced one of an elimination, or the
  // declared one with the hidden dependencies the claims check added.
  if (s.eliminated > 0 || (integrating && current.jacobian_nonzeros > s.jacobian_nonzeros)) {
    s.jacobian_nonzeros = current.jacobian_nonzeros;
    s.colors = current.colors;
    s.varying_colors = current.varying_colors;
  }
  s.jacobian_method = m.session.uses_directional() ? "directional" : "finite differences";
  s.klu_ordering = m.settings->options.klu_ordering;
  s.reached_time = m.session.time();
  s.dummy_derivatives = outcome.selection ? m.evaluation->dummy_list(outcome.selection->dummy_states) : "";
  const simulation::IntegratorStats is = m.session.stats();
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
  s.constant_evaluations = is.constant_evaluations;
  s.constant_calls = is.constant_calls;
  s.klu_unz = is.klu_unz;
  s.klu_index_bits = is.klu_index_bits;
  s.synthesis_evaluations = m.evaluation->synthesis_evaluations() + m.projection.synthesis_evaluations();
  s.klu_symbolic_analyses = is.klu_symbolic_analyses;
  s.klu_restart_factorizations = is.klu_restart_factorizations;
  s.klu_analyses_carried_over = is.klu_adopted_analyses;
  s.first_step_retries = is.first_step_retries;
  s.events_continued = is.events_continued;
  s.jacobian_reforms = is.jacobian_reforms;
  s.root_function_calls = is.root_function_calls;
  // What the other collaborators counted.
  const simulation::EventLoop::Counts& events = m.events.counts();
  s.state_events = events.state_events;
  s.time_events = events.time_events;
  s.step_events = events.step_events;
  s.terminated_by_fmu = m.events.terminated();
  s.projections = m.constraint_record.projections;
  s.largest_projection = m.constraint_record.largest_projection;
  s.largest_drift = m.constraint_record.largest_drift;
  s.largest_drift_constraint = m.constraint_record.largest_drift_constraint;
  s.projection_rejections = m.fmu_constraints.rejections();
  return s;
}

std::string Simulation::structure_report() const { return impl_->evaluation->structure().report.to_text(); }
std::string Simulation::structure_report_json() const { return impl_->evaluation->structure().report.to_json(); }

}  // namespace lsdae
