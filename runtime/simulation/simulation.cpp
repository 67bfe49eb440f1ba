// runtime/simulation/simulation.cpp -- lsdae::Simulation (lsdae/simulation.h):
// structure → instances → initialization → IDA.
#include "lsdae/simulation.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/fmu_dae.h"
#include "simulation/fmu_jacobian_values.h"
#include "simulation/fmu_residual.h"
#include "simulation/ida_integrator.h"
#include "structure/pipeline.h"

namespace lsdae {

namespace {
double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}
std::string num(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}
}  // namespace

struct Simulation::Impl {
  std::shared_ptr<Fmu> fmu;
  SimulationOptions options;
  double t_start = 0, t_stop = 1, interval = 0.002, rtol = 1e-6, atol = 1e-6;
  simulation::FmuDae dae;
  structure::PipelineOptions pipeline;
  structure::StructureOutcome structure;
  std::vector<std::unique_ptr<Instance>> instances;
  std::vector<std::unique_ptr<simulation::FmuResidual>> residuals;
  std::unique_ptr<simulation::IdaIntegrator> integrator;
  std::vector<std::pair<const Variable*, double>> pending_sets;
  bool initialized = false;
  bool use_directional = false;
  SimulationStats stats;
  std::vector<double> y, yp;  // the current point (also after a failure)
  std::vector<double> nominal;  // per IDA unknown
  double t = 0;

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

  void make_residuals() {
    residuals.clear();
    for (auto& inst : instances)
      residuals.push_back(std::make_unique<simulation::FmuResidual>(*inst, dae, structure.analysis.system,
                                                                    *structure.index1));
  }

  // A higher-index model: choose the dummy derivatives from the FMU's own
  // Jacobian at the initial point (create() could only choose structurally).
  void select_dummy_derivatives_numerically() {
    if (!structure.analysis.ok() || !structure.analysis.dummy_plan.needed()) return;
    if (!fmu->directional_derivatives_available()) {
      log_warning(fmu->display_name() + ": dummy derivatives chosen from the structure alone: the FMU provides "
                  "no directional derivatives for a numeric choice");
      return;
    }
    structure::JacobianCallback values =
        simulation::fmu_jacobian_values(*instances[0], dae, structure.analysis.system);
    structure::StructureOutcome numeric = structure::run_structure(dae.input, &values, pipeline);
    if (!numeric.index1)
      throw Error(ErrorKind::invalid, fmu->display_name() + ": structural analysis failed: " + numeric.analysis.error);
    residuals.clear();
    structure = std::move(numeric);
    make_residuals();
    std::string chosen;
    if (structure.report.reduction)
      for (const auto& d : structure.report.reduction->dummy_derivatives) chosen += (chosen.empty() ? "" : ", ") + d;
    log_info(fmu->display_name() + ": dummy derivatives at t = " + num(t_start) + ": " + (chosen.empty() ? "none" : chosen));
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
    throw Error(ErrorKind::usage, "simulate: stop time " + num(m.t_stop) + " is not after start time " +
                                      num(m.t_start) + " → set --stop");
  m.rtol = options.rtol.value_or(e.tolerance.value_or(1e-6));
  m.atol = options.atol.value_or(m.rtol);
  m.interval = options.output_interval.value_or(e.step_size.value_or((m.t_stop - m.t_start) / 500.0));
  if (!(m.rtol > 0) || !(m.atol > 0))
    throw Error(ErrorKind::usage, "simulate: tolerances must be positive (rtol " + num(m.rtol) + ", atol " +
                                      num(m.atol) + ") → set --rtol/--atol");
  if (!(m.interval > 0))
    throw Error(ErrorKind::usage, "simulate: output interval " + num(m.interval) + " is not positive → set --output-interval");
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
  m.pipeline.best_ordering = true;  // the fewest colours: fewer evaluations per Jacobian for the whole run
  m.structure = structure::run_structure(m.dae.input, nullptr, m.pipeline);
  m.stats.time_structure = seconds_since(t0);
  if (!m.structure.index1)
    throw Error(ErrorKind::invalid, m.fmu->display_name() + ": structural analysis failed: " +
                                        m.structure.analysis.error);
  for (const auto& w : m.structure.analysis.warnings) log_warning(m.fmu->display_name() + ": structure: " + w);
  m.stats.structural_index = m.structure.analysis.structural_index;

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
  m.t = m.t_start;
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

void Simulation::initialize() {
  Impl& m = *impl_;
  if (m.initialized) throw Error(ErrorKind::usage, "simulate: initialize() was already called");
  auto t0 = std::chrono::steady_clock::now();
  // Every instance goes through the same sequence so they stay interchangeable.
  std::optional<double> time_event;
  for (auto& inst : m.instances) {
    for (const auto& [v, value] : m.pending_sets) inst->set_scalar(*v, value);
    inst->enter_initialization_mode(m.rtol, m.t_start, m.t_stop);
    inst->exit_initialization_mode();
    for (int k = 0;; ++k) {
      DiscreteStatesUpdate u = inst->update_discrete_states();
      if (u.terminate_simulation)
        throw Error(ErrorKind::fmu_call, "simulate: the FMU asked to terminate during initialization");
      if (u.next_event_time) time_event = u.next_event_time;
      if (!u.discrete_states_need_update) break;
      if (k > 1000)
        throw Error(ErrorKind::fmu_call, "simulate: event iteration at the start did not settle after 1000 "
                                         "fmi3UpdateDiscreteStates calls → the FMU keeps changing its discrete states");
    }
    inst->enter_continuous_time_mode();
  }
  m.select_dummy_derivatives_numerically();
  if (const auto& indicators = m.fmu->model_description().structure.event_indicators; !indicators.empty())
    log_warning(m.fmu->display_name() + ": the FMU has " + std::to_string(indicators.size()) +
                " event indicators, and lsdae does not handle state events yet: results after the first event "
                "are not trustworthy");
  if (time_event)
    log_warning(m.fmu->display_name() + ": the FMU announced a time event at t = " + num(*time_event) +
                ", and lsdae does not handle time events yet: results after it are not trustworthy");
  // Initial guesses: states and algebraic variables from the FMU; derivatives
  // from the FMU (semi-explicit) or its derivative variables (fully implicit).
  Instance& main = *m.instances[0];
  const std::size_t n = m.dae.state_vrs.size(), mz = m.dae.algebraic_vrs.size();
  std::vector<double> x(n), xdot(n), z(mz);
  if (n > 0) main.get_continuous_states(x);
  if (mz > 0) main.get_float64(m.dae.algebraic_vrs, z);
  if (n > 0) {
    if (m.dae.fully_implicit) main.get_float64(m.dae.derivative_vrs, xdot);
    else main.get_continuous_state_derivatives(xdot);
    for (double& d : xdot)
      if (!std::isfinite(d)) d = 0.0;
  }
  const auto& index1 = *m.structure.index1;
  const std::size_t N = index1.unknowns.size();
  m.y.assign(N, 0.0);
  m.yp.assign(N, 0.0);
  std::vector<double> atol(N), nominals(N);
  const ModelDescription& md = m.fmu->model_description();
  auto nominal = [&](ValueReference vr) {
    const Variable* v = md.find(vr);
    return (v != nullptr && v->nominal && *v->nominal > 0) ? *v->nominal : 1.0;
  };
  for (std::size_t k = 0; k < N; ++k) {
    const auto& u = index1.unknowns[k];
    switch (u.kind) {
      case structure::UnknownKind::differential:
        m.y[k] = x[u.index];
        m.yp[k] = xdot[u.index];
        nominals[k] = nominal(m.dae.state_vrs[u.index]);
        break;
      case structure::UnknownKind::dummy_state:
        m.y[k] = x[u.index];
        nominals[k] = nominal(m.dae.state_vrs[u.index]);
        break;
      case structure::UnknownKind::dummy_derivative:
        m.y[k] = xdot[u.index];
        nominals[k] = nominal(m.dae.derivative_vrs[u.index]);
        break;
      case structure::UnknownKind::algebraic:
        m.y[k] = z[u.index];
        nominals[k] = nominal(m.dae.algebraic_vrs[u.index]);
        break;
    }
    atol[k] = m.atol * nominals[k];
  }
  m.nominal = nominals;
  simulation::IntegratorOptions io;
  io.rtol = m.rtol;
  io.atol = std::move(atol);
  io.id = index1.ida_id();
  io.nominal = std::move(nominals);
  io.max_steps_per_output = m.options.max_steps;
  io.max_step = m.options.max_step;
  io.jacobian = m.use_directional ? simulation::JacobianSource::directional
                                  : simulation::JacobianSource::finite_differences;
  io.ordering = m.options.klu_ordering == "colamd" ? simulation::KluOrdering::colamd
                : m.options.klu_ordering == "metis" ? simulation::KluOrdering::metis
                                                    : simulation::KluOrdering::amd;
  io.threads = m.instances.size();
  io.linear_solver = m.options.dense_linear_solver ? simulation::LinearSolverKind::dense
                                                   : simulation::LinearSolverKind::klu;
  if (m.options.uncolored_jacobian) {
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
    m.structure.coloring = std::move(one_per_column);
  }
  io.row_name = [&m](std::size_t k) { return m.row_name(k); };
  io.unknown_name = [&m](std::size_t k) { return m.unknown_name(k); };
  std::vector<kernels::ResidualFunction*> pool;
  for (auto& r : m.residuals) pool.push_back(r.get());
  m.integrator = std::make_unique<simulation::IdaIntegrator>(*m.residuals[0], pool, m.structure.iteration,
                                                             *m.structure.coloring, std::move(io));
  m.integrator->start(m.t_start, m.y, m.yp);
  m.integrator->set_stop_time(m.t_stop);
  m.integrator->make_consistent(std::min(m.t_start + m.interval, m.t_stop));
  std::copy(m.integrator->y().begin(), m.integrator->y().end(), m.y.begin());
  std::copy(m.integrator->yp().begin(), m.integrator->yp().end(), m.yp.begin());
  m.t = m.t_start;
  m.initialized = true;
  m.stats.time_initialize = seconds_since(t0);
  if (m.options.jacobian == JacobianMode::check) {
    JacobianCheck c = check_jacobian();
    log_warning("jacobian check at t = " + num(m.t) + ": largest relative difference " + num(c.max_rel_difference) +
                " at row \"" + c.row + "\", column \"" + c.column + "\" (finite differences " +
                num(c.finite_difference) + ", directional " + num(c.directional) + "); largest absolute " +
                num(c.max_abs_difference));
  }
}

double Simulation::advance_to(double t_target) {
  Impl& m = *impl_;
  if (!m.initialized) throw Error(ErrorKind::usage, "simulate: call initialize() before advance_to()");
  if (t_target > m.t_stop) t_target = m.t_stop;
  if (t_target <= m.t) return m.t;
  auto t0 = std::chrono::steady_clock::now();
  try {
    m.t = m.integrator->advance_to(t_target);
  } catch (...) {
    m.t = m.integrator->time();
    std::copy(m.integrator->y().begin(), m.integrator->y().end(), m.y.begin());
    std::copy(m.integrator->yp().begin(), m.integrator->yp().end(), m.yp.begin());
    m.stats.time_integrate += seconds_since(t0);
    throw;
  }
  std::copy(m.integrator->y().begin(), m.integrator->y().end(), m.y.begin());
  std::copy(m.integrator->yp().begin(), m.integrator->yp().end(), m.yp.begin());
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
    throw Error(ErrorKind::fmu_call, "simulate: the FMU discarded fmi3GetFloat64 at t = " + num(m.t));
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
  for (std::size_t col = 0; col < pattern.cols(); ++col)
    for (std::size_t p = pattern.col_ptr()[col]; p < pattern.col_ptr()[col + 1]; ++p) {
      double abs_diff = std::fabs(fd[p] - dd[p]);
      double rel = abs_diff / std::max(row_scale[pattern.row_idx()[p]], 1e-300);
      c.max_abs_difference = std::max(c.max_abs_difference, abs_diff);
      if (rel > c.max_rel_difference || c.row.empty()) {
        if (rel >= c.max_rel_difference) {
          c.max_rel_difference = rel;
          c.row = m.row_name(pattern.row_idx()[p]);
          c.column = m.unknown_name(col);
          c.finite_difference = fd[p];
          c.directional = dd[p];
        }
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
  if (m.integrator) {
    simulation::IntegratorStats is = m.integrator->stats();
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
  }
  return s;
}

std::string Simulation::structure_report() const { return impl_->structure.report.to_text(); }

}  // namespace lsdae
