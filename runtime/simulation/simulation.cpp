// runtime/simulation/simulation.cpp -- lsdae::Simulation (lsdae/simulation.h):
// structure → instances → initialization → IDA, with events and run-time
// re-selection of dummy derivatives. This file: create() (options, the
// structural analysis, the instances), set() and get(), the accessors,
// check_jacobian(), statistics(), and the names Impl reports with. The run
// loop is in simulation_run.cpp; the other parts of Simulation::Impl are
// listed in simulation_impl.h.
#include "common/format.h"
#include "lsdae/simulation.h"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>

#include "lsdae/error.h"
#include "lsdae/fmi_names.h"
#include "lsdae/log.h"
#include "simulation/simulation_impl.h"
#include "structure/pipeline.h"

namespace lsdae {

using simulation::seconds_since;

const Variable& Simulation::Impl::variable(const std::string& name) const {
  const Variable* v = model->model_description().find(name);
  if (v == nullptr)
    throw Error(ErrorKind::usage, model->display_name() + ": no variable is named \"" + name +
                                      "\" → `lsdae info` lists the model; names are case-sensitive");
  return *v;
}

std::string Simulation::Impl::unknown_name(std::size_t k) const {
  return structure::unknown_name(structure.analysis.system, structure.index1->unknowns[k]);
}

std::string Simulation::Impl::row_name(std::size_t k) const {
  return structure.analysis.system.name(structure.index1->rows[k]);
}

std::string Simulation::Impl::dummy_list(const std::vector<std::size_t>& states) const {
  std::string out;
  for (std::size_t s : states) out += (out.empty() ? "" : ", ") + structure.analysis.system.column_names[s];
  return out;
}

Simulation::Simulation() : impl_(std::make_unique<Impl>()) {}
Simulation::~Simulation() = default;

std::unique_ptr<Simulation> Simulation::create(std::shared_ptr<const Model> model, const SimulationOptions& options) {
  std::unique_ptr<Simulation> sim(new Simulation());
  Impl& m = *sim->impl_;
  m.model = std::move(model);
  m.options = options;
  const ModelDescription& md = m.model->model_description();
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

  // Structure.
  auto t0 = std::chrono::steady_clock::now();
  m.dae = simulation::build_fmu_dae(*m.model);
  m.pipeline.best_ordering = true;
  m.pipeline.match_rows = options.match_rows;  // the fewest colours: fewer evaluations per Jacobian for the whole run
  m.pipeline.method = options.constraints == ConstraintMethod::dummy_derivatives
                          ? structure::ReductionMethod::dummy_derivatives
                          : structure::ReductionMethod::projection;
  m.structure = structure::run_structure(m.dae.input, nullptr, m.pipeline);
  m.stats.time_structure = seconds_since(t0);
  if (!m.structure.index1)
    throw Error(ErrorKind::structure, m.model->display_name() + ": structural analysis failed: " +
                                        m.structure.analysis.error);
  {
    // The analysis' warnings start with the system's (DaeSystem::warnings: rows
    // without a `dependencies` attribute). Those are facts about optional
    // metadata the user of an FMU cannot change: --verbose shows them, `lsdae
    // validate` and `lsdae info --structure` list them (docs/user-guide.md,
    // "Warnings"). The rest may change how the model is solved: warnings.
    // The same warning for many rows (every element of an array, every
    // segment of a line) says one thing: the first few, then a count.
    constexpr std::size_t kShown = 3;
    const auto& all = m.structure.analysis.warnings;
    const std::size_t facts = std::min(m.structure.analysis.system.warnings.size(), all.size());
    for (std::size_t k = 0; k < facts; ++k) log_info(m.model->display_name() + ": " + all[k]);
    const std::vector<std::string> warnings(all.begin() + static_cast<std::ptrdiff_t>(facts), all.end());
    for (std::size_t k = 0; k < std::min(kShown, warnings.size()); ++k)
      log_warning(m.model->display_name() + ": " + warnings[k]);
    if (warnings.size() > kShown)
      log_warning(m.model->display_name() + ": … and " + std::to_string(warnings.size() - kShown) +
                  " more structure warnings → `lsdae info --structure` lists them all");
  }
  m.stats.structural_index = m.structure.analysis.structural_index;
  if (m.structure.selection || options.uncolored_jacobian)  // a run may replace it: reset() needs this one back
    m.created_structure = std::make_shared<const structure::StructureOutcome>(m.structure);
  m.model_state_select = m.structure.analysis.system.state_select;

  // Instances: one per thread unless the FMU forbids it.
  t0 = std::chrono::steady_clock::now();
  std::size_t threads = options.threads;
  if (md.model_exchange && md.model_exchange->can_be_instantiated_only_once_per_process && threads > 1) {
    log_warning(m.model->display_name() + ": canBeInstantiatedOnlyOncePerProcess: using 1 thread instead of " +
                std::to_string(threads));
    threads = 1;
  }
  m.model->load_binary();
  bool directional = m.model->directional_derivatives_available();
  switch (options.jacobian) {
    case JacobianMode::automatic: m.use_directional = directional; break;
    case JacobianMode::finite_differences: m.use_directional = false; break;
    case JacobianMode::directional:
    case JacobianMode::check:
      if (!directional) {
        const std::string why = m.model->directional_derivatives_note();
        throw Error(ErrorKind::usage, m.model->display_name() + ": " +
                                          (why.empty() ? "the FMU does not provide directional derivatives" : why) +
                                          " → use --jacobian fd");
      }
      m.use_directional = true;
      break;
  }
  if (m.use_directional && m.dae.any_synthesized()) {
    // Rows lsdae synthesizes (d/dt of a constraint the FMU gives without its
    // derivative) have no directional derivatives: the IDA Jacobian is made
    // by finite differences of the residual (fmu_residual.h).
    if (options.jacobian != JacobianMode::automatic)
      throw Error(ErrorKind::usage, m.model->display_name() +
                                        ": lsdae synthesizes derivatives of constraints this FMU does not provide, "
                                        "and those rows have no directional derivatives → use --jacobian fd or auto");
    m.use_directional = false;
  }
  for (const auto& note : m.dae.input.notes) log_info(m.model->display_name() + ": " + note);
  for (const auto& s : m.dae.synthesis) {
    // A synthesized second derivative (constraint_synthesis.h) is a finite
    // difference with an error of about 1e-11 of its terms' size over the
    // model's time scale squared; measured on the Cartesian pendulum, IDA
    // integrates at rtol = atol = 1e-10 and fails to converge at 1e-11
    // (docs/algorithms.md).
    constexpr double kSynthesizedTolerance = 1e-10;
    if (!s.two_levels() || std::min(m.rtol, m.atol) >= kSynthesizedTolerance) continue;
    log_warning(m.model->display_name() + ": the tolerances (rtol " + format_number(m.rtol) + ", atol " +
                format_number(m.atol) + ") ask for more than lsdae's synthesized d2/dt2(" + s.name +
                ") resolves: it is a finite difference of the FMU's " + s.name +
                ", accurate to about 1e-11 of the size of its terms, and tolerances below " +
                format_number(kSynthesizedTolerance) +
                " may fail to converge or give no more accuracy → use --rtol and --atol of at least " +
                format_number(kSynthesizedTolerance) + ", or export the derivative formulations of " + s.name);
  }
  for (std::size_t i = 0; i < threads; ++i) {
    auto inst = m.model->instantiate(i == 0 ? "lsdae" : "lsdae-" + std::to_string(i));
    if (m.model->manifest().present()) inst->enable_dae_mode();
    // A system's instance runs its components on these threads when the
    // call is not already one of the Jacobian's parallel colours
    // (runtime/system/composite_instance.h, "Components in parallel").
    inst->set_threads(threads);
    m.instances.push_back(std::move(inst));
  }
  m.make_residuals();
  m.stats.time_instantiate = seconds_since(t0);
  m.stats.threads = threads;
  m.step_callback = md.model_exchange && md.model_exchange->needs_completed_integrator_step;
  m.projection_tolerance = options.projection_tolerance.value_or(10.0 * m.atol);
  m.projection_tolerance_given = options.projection_tolerance.has_value();
  if (!(m.projection_tolerance > 0))
    throw Error(ErrorKind::usage, "simulate: the projection tolerance must be positive, got " + format_number(m.projection_tolerance));
  m.indicators = m.model->event_indicator_count();
  m.t = m.t_ida = m.t_start;
  return sim;
}

void Simulation::set(const std::string& name, double value) {
  const ModelDescription& md = impl_->model->model_description();
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
  if (m.initialized)
    throw Error(ErrorKind::usage, "simulate: \"" + name + "\" can only be set before initialize()");
  const ModelDescription& md = m.model->model_description();
  auto ref = md.find_element(name);
  if (!ref) m.variable(name);  // throws the "no variable is named" message
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
  auto pending = std::find_if(m.pending_sets.begin(), m.pending_sets.end(),
                              [&](const auto& p) { return p.first == &v; });
  const bool element = v.is_array() && name != v.name;
  if (!element) {
    Values value = parse_value(v, md, text);
    if (pending != m.pending_sets.end()) pending->second = std::move(value);
    else m.pending_sets.emplace_back(&v, std::move(value));
    return;
  }
  Values one = parse_element_value(v, md, text);
  if (pending == m.pending_sets.end()) {
    m.pending_sets.emplace_back(&v, start_values(v, md));
    pending = std::prev(m.pending_sets.end());
  }
  Values& all = pending->second;
  const std::size_t k = ref->element;
  switch (storage_of(v.type)) {
    case ValueStorage::real: all.reals[k] = one.reals[0]; break;
    case ValueStorage::integer: all.integers[k] = one.integers[0]; break;
    case ValueStorage::unsigned_integer: all.unsigned_integers[k] = one.unsigned_integers[0]; break;
    case ValueStorage::text: all.texts[k] = one.texts[0]; break;
  }
}

void Simulation::set_input(const std::filesystem::path& csv) {
  Impl& m = *impl_;
  if (m.initialized)
    throw Error(ErrorKind::usage, "simulate: set_input() must come before initialize() → call it first");
  m.inputs = simulation::InputTable::read_csv(csv, m.model->model_description());
  for (auto& r : m.residuals) r->set_inputs(&*m.inputs);
}

bool Simulation::initialized() const { return impl_->initialized; }
bool Simulation::terminated() const { return impl_->terminated; }
void Simulation::cancel() noexcept { impl_->cancel_requested.store(true); }
void Simulation::observe_events(std::function<void(double, EventPhase)> observer) {
  impl_->observer = std::move(observer);
}
void Simulation::observe_steps(std::function<void(double)> observer) { impl_->step_observer = std::move(observer); }

double Simulation::time() const { return impl_->t; }
double Simulation::start_time() const { return impl_->t_start; }
double Simulation::stop_time() const { return impl_->t_stop; }
double Simulation::output_interval() const { return impl_->interval; }
const Model& Simulation::model() const { return *impl_->model; }
const Fmu& Simulation::fmu() const {
  const auto* fmu = dynamic_cast<const Fmu*>(impl_->model.get());
  if (fmu == nullptr)
    throw Error(ErrorKind::usage, impl_->model->display_name() + " is a system of FMUs, not one FMU → use model()");
  return *fmu;
}

void Simulation::get(std::span<const ValueReference> vrs, std::span<double> values) {
  Impl& m = *impl_;
  if (!m.initialized) {
    m.instances[0]->get_float64(vrs, values);
    return;
  }
  // Put the instance at the current point; then every output belongs to it.
  m.residuals[0]->apply(m.t, m.y, m.yp);
  if (m.instances[0]->get_float64(vrs, values) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, "simulate: the FMU discarded " + fmi_accessor_name(m.instances[0]->fmi_version(), VariableType::float64, false) +
                                         " at t = " + format_number(m.t));
}

double Simulation::get(const std::string& name) {
  const ModelDescription& md = impl_->model->model_description();
  auto ref = md.find_element(name);
  if (!ref) impl_->variable(name);  // throws the "no variable is named" message
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
  if (m.initialized) m.residuals[0]->apply(m.t, m.y, m.yp);  // the instance at the current point
  if (m.instances[0]->get_values(vrs, values) == CallStatus::discard)
    throw Error(ErrorKind::fmu_call, "simulate: the FMU discarded " + fmi_accessor_name(m.instances[0]->fmi_version(), values.type, false) +
                                         " at t = " + format_number(m.t));
}

Values Simulation::get_values(const std::string& name) {
  const ModelDescription& md = impl_->model->model_description();
  auto ref = md.find_element(name);
  if (!ref) impl_->variable(name);
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

std::string to_string(const JacobianCheck& c) {
  const std::string where = "jacobian check at t = " + format_number(c.time) + ": finite differences and directional derivatives ";
  if (c.agree())
    return where + "agree to " + format_number(c.max_rel_difference) + " (relative; threshold " +
           format_number(c.threshold) + "): OK";
  return where + "differ: largest relative difference " + format_number(c.max_rel_difference) + " (threshold " +
         format_number(c.threshold) + ") at row \"" + c.row + "\", column \"" + c.column + "\": finite differences " +
         format_number(c.finite_difference) + ", directional " + format_number(c.directional) + " (largest absolute " +
         "difference " + format_number(c.max_abs_difference) + ") → wrong directional derivatives in the FMU (use " +
         "--jacobian fd), unless this residual is so nonlinear that finite differences are off themselves";
}

JacobianCheck Simulation::check_jacobian() {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: check_jacobian() needs initialize() first");
  if (!m.model->directional_derivatives_available())
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
  c.time = m.t;
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
  s.varying_colors = m.integrator ? m.integrator->stats().varying_colors : s.colors;
  s.constant_entries = m.integrator ? m.integrator->stats().constant_entries : 0;
  s.eliminated = m.integrator ? m.integrator->stats().eliminated : 0;
  if (s.eliminated > 0) {
    s.jacobian_nonzeros = m.integrator->stats().jacobian_nonzeros;
    s.colors = m.integrator->stats().colors;
    s.varying_colors = m.integrator->stats().varying_colors;
  }
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
  s.constant_evaluations = is.constant_evaluations;
  s.constant_calls = is.constant_calls;
  s.klu_unz = is.klu_unz;
  s.synthesis_evaluations = m.retired_synthesis_evaluations;
  for (const auto& r : m.residuals) s.synthesis_evaluations += static_cast<long>(r->synthesis_evaluations());
  if (m.projector) s.synthesis_evaluations += static_cast<long>(m.projector->synthesis_evaluations());
  s.klu_symbolic_analyses = is.klu_symbolic_analyses;
  s.klu_restart_factorizations = is.klu_restart_factorizations;
  s.klu_analyses_carried_over = is.klu_adopted_analyses;
  s.first_step_retries = is.first_step_retries;
  return s;
}

std::string Simulation::structure_report() const { return impl_->structure.report.to_text(); }
std::string Simulation::structure_report_json() const { return impl_->structure.report.to_json(); }

IterationMatrix Simulation::jacobian(std::optional<double> cj_given) {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: jacobian() needs initialize() first");
  const double cj = cj_given.value_or(1.0 / m.interval);
  if (!std::isfinite(cj) || cj < 0)
    throw Error(ErrorKind::usage, "simulate: jacobian(cj = " + format_number(cj) +
                                      ") → give cj >= 0 and finite (0: ∂F/∂y; 1/h: a step of size h)");
  if (!m.structure.coloring)
    throw Error(ErrorKind::usage, "simulate: jacobian(): this run evaluates no compressed Jacobian (uncoloured "
                                  "baseline) → use the default options");
  const auto& pattern = m.structure.iteration;
  const std::size_t N = m.y.size();
  std::vector<double> r(N), weights(N);
  for (std::size_t k = 0; k < N; ++k) weights[k] = 1.0 / (m.rtol * std::fabs(m.y[k]) + m.atol * m.nominal[k]);
  m.residuals[0]->residual(m.t, m.y, m.yp, r);
  kernels::JacobianPoint point{m.t, m.y, m.yp, r, cj, 0.0, weights, m.nominal};
  kernels::CompressedJacobian jac(pattern, *m.structure.coloring, 1);
  kernels::ResidualFunction* pool[] = {m.residuals[0].get()};
  IterationMatrix out;
  out.values.resize(pattern.nnz());
  if (m.use_directional) jac.evaluate_directional(pool, point, out.values);
  else jac.evaluate_finite_differences(pool, point, out.values);
  out.rows = pattern.rows();
  out.cols = pattern.cols();
  out.col_ptr = pattern.col_ptr();
  out.row_idx = pattern.row_idx();
  for (std::size_t k = 0; k < out.rows; ++k) out.row_names.push_back(m.row_name(k));
  for (std::size_t k = 0; k < out.cols; ++k) out.column_names.push_back(m.unknown_name(k));
  out.time = m.t;
  out.cj = cj;
  return out;
}

}  // namespace lsdae
