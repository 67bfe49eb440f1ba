// runtime/simulation/ida/ida_integrator.cpp -- IdaIntegrator (ida_integrator.h):
// IDA's memory and vectors, (re)start and options, the residual callbacks,
// and the point the caller sees (root finding: ida_roots.cpp). The other concerns of the driver
// are in the files listed in ida_integrator.h.
#include "simulation/ida/ida_integrator.h"

#include <ida/ida.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "simulation/eliminated_residual.h"
#include "simulation/ida/ida_integrator_impl.h"
#include "simulation/ida/optimized_nvector.h"
#include "simulation/ida/projecting_nonlinear_solver.h"

namespace lsdae::simulation {

const char* to_string(JacobianSource source) noexcept {
  return source == JacobianSource::directional ? "directional" : "finite differences";
}

IdaIntegrator::Impl::Impl(kernels::ResidualFunction& m, std::vector<kernels::ResidualFunction*> p,
                          const structure::Pattern& pat, const structure::Coloring& coloring, IntegratorOptions opts)
    : main(m), pool(std::move(p)), pattern(pat), options(std::move(opts)), jacobian(pat, coloring, options.threads),
      diagnostics(options.names) {
  if (options.constant_entries != nullptr && options.varying_coloring != nullptr)
    jacobian.set_constant_entries(*options.constant_entries, *options.varying_coloring);
  if (options.finite_difference_columns != nullptr)
    jacobian.set_finite_difference_columns(*options.finite_difference_columns);
  std::vector<kernels::ResidualFunction::DerivativeEntry> derivative;
  // Directional Jacobians only: a finite-difference one re-used carries its
  // truncation error through many steps (Robertson's stiff chemistry: 3.5 times the steps).
  reuse_on = options.jacobian_reuse && options.jacobian == JacobianSource::directional && pattern.cols() > 0 &&
             main.known_derivative_part(derivative) && jacobian.set_known_derivative_part(derivative);
}

IdaIntegrator::Impl::~Impl() {
  if (ida != nullptr) IDAFree(&ida);
  if (projecting != nullptr) SUNNonlinSolFree(projecting);
  if (newton != nullptr) SUNNonlinSolFree(newton);
  linear.free();
  for (N_Vector v : {y, yp, atol, id, ewt, dky, dkyp, error_test})
    if (v != nullptr) N_VDestroy(v);
  if (ctx != nullptr) SUNContext_Free(&ctx);
}

IdaIntegrator::IdaIntegrator(kernels::ResidualFunction& main, std::vector<kernels::ResidualFunction*> pool,
                             const structure::Pattern& pattern, const structure::Coloring& coloring,
                             IntegratorOptions options)
    : n_(main.size()), full_n_(main.size()) {
  std::vector<double> full_atol;
  if (options.expansion != nullptr) {
    full_atol = options.atol;
    // Per full unknown and row → per kept one.
    const structure::LinearElimination& plan = options.expansion->plan();
    full_n_ = plan.reduced_unknown.size();
    if (plan.kept.size() != n_ || options.step_projection)
      throw Error(ErrorKind::internal, "ida: linear elimination with a residual of " + std::to_string(n_) +
                                           " unknowns for " + std::to_string(plan.kept.size()) +
                                           " kept ones, or with in-step projection");
    auto pick = [&](std::vector<double>& v) {
      if (v.size() != full_n_) return;
      std::vector<double> kept(plan.kept.size());
      for (std::size_t i = 0; i < kept.size(); ++i) kept[i] = v[plan.kept[i]];
      v = std::move(kept);
    };
    pick(options.atol), pick(options.id), pick(options.error_test), pick(options.nominal);
    auto remap = [](std::function<std::string(std::size_t)>& f, const std::vector<std::size_t>& to_full) {
      if (f) f = [g = std::move(f), &to_full](std::size_t k) { return g(k < to_full.size() ? to_full[k] : k); };
    };
    if (options.names.row_value_name)
      options.names.eliminated_row_value_name = [g = options.names.row_value_name, &plan](std::size_t i) {
        return g(i < plan.eliminated_rows.size() ? plan.eliminated_rows[i] : i);
      };
    remap(options.names.row_name, plan.kept_rows), remap(options.names.row_value_name, plan.kept_rows);
    remap(options.names.unknown_name, plan.kept);
  }
  if (!(options.newton_dcj > 0.0 && options.newton_dcj < 1.0))
    throw Error(ErrorKind::usage, "ida: the cj band of the Newton matrix (newton_dcj) " +
                                      format_number(options.newton_dcj) +
                                      " is out of range: it must be greater than 0 and less than 1 → e.g. 0.25, "
                                      "IDA's default");
  if (pattern.rows() != n_ || pattern.cols() != n_)
    throw Error(ErrorKind::internal, "ida: the iteration pattern is " + std::to_string(pattern.rows()) + " × " +
                                         std::to_string(pattern.cols()) + " for " + std::to_string(n_) + " unknowns");
  if (options.atol.size() != n_ || options.id.size() != n_ ||
      !(options.error_test.empty() || options.error_test.size() == n_))
    throw Error(ErrorKind::internal, "ida: atol, id and error_test must have one entry per unknown");
  if (pool.size() < options.threads)
    throw Error(ErrorKind::internal, "ida: the evaluation pool is smaller than the thread count");
  impl_ = std::make_unique<Impl>(main, std::move(pool), pattern, coloring, std::move(options));
  Impl& m = *impl_;
  if (m.options.expansion != nullptr) {
    m.expansion = m.options.expansion;
    m.full_atol = std::move(full_atol);
    m.full_atol.resize(full_n_, m.full_atol.empty() ? 1e-6 : m.full_atol.back());
    for (auto* v : {&m.y_full, &m.yp_full, &m.scratch_y, &m.scratch_yp}) v->assign(full_n_, 0.0);
  }
  if (SUNContext_Create(nullptr, &m.ctx) != 0) throw Error(ErrorKind::solver, "ida: cannot create a SUNContext");
  m.clock = n_ == 0;
  const auto n = static_cast<sunindextype>(m.clock ? 1 : n_);
  m.y = N_VNew_Serial(n, m.ctx);
  m.yp = N_VNew_Serial(n, m.ctx);
  m.atol = N_VNew_Serial(n, m.ctx);
  m.id = N_VNew_Serial(n, m.ctx);
  m.ewt = N_VNew_Serial(n, m.ctx);
  m.dky = N_VNewEmpty_Serial(n, m.ctx);
  m.dkyp = N_VNewEmpty_Serial(n, m.ctx);
  // Debian's libsundials is built without optimisation; IDA's vector kernels
  // dominate a step. The same operations compiled with the project give
  // bitwise the same results (optimized_nvector.h); clones inherit them.
  for (N_Vector v : {m.y, m.yp, m.atol, m.id, m.ewt, m.dky, m.dkyp}) lsdae_use_optimized_ops(v);
  std::copy(m.options.atol.begin(), m.options.atol.end(), NV_DATA_S(m.atol));
  std::copy(m.options.id.begin(), m.options.id.end(), NV_DATA_S(m.id));
  if (!m.clock && std::any_of(m.options.error_test.begin(), m.options.error_test.end(), [](double v) { return v == 0.0; })) {
    m.error_test = N_VNew_Serial(n, m.ctx);
    lsdae_use_optimized_ops(m.error_test);
    std::copy(m.options.error_test.begin(), m.options.error_test.end(), NV_DATA_S(m.error_test));
  }
  if (m.clock) {
    // c = 0, c' = 0: nothing to factor but a 1 × 1 matrix (IDA's own difference quotient).
    NV_Ith_S(m.y, 0) = NV_Ith_S(m.yp, 0) = 0.0;
    NV_Ith_S(m.atol, 0) = 1.0;
    NV_Ith_S(m.id, 0) = 1.0;
    m.linear.make_clock(m.y, m.ctx);
    return;
  }
  m.linear.make(m.y, pattern, m.options.linear_solver, m.options.ordering, m.options.keep_klu_analysis, m.ctx);
}

IdaIntegrator::~IdaIntegrator() = default;

void IdaIntegrator::start(double t0, std::span<const double> y0, std::span<const double> yp0) {
  Impl& m = *impl_;
  if (m.clock) {
    NV_Ith_S(m.y, 0) = NV_Ith_S(m.yp, 0) = 0.0;
  } else if (m.expansion != nullptr) {
    const auto& kept = m.expansion->plan().kept;
    for (std::size_t i = 0; i < kept.size(); ++i) NV_Ith_S(m.y, i) = y0[kept[i]], NV_Ith_S(m.yp, i) = yp0[kept[i]];
  } else {
    std::copy(y0.begin(), y0.end(), NV_DATA_S(m.y));
    std::copy(yp0.begin(), yp0.end(), NV_DATA_S(m.yp));
  }
  m.full_valid = false;
  m.sample_valid = false;
  m.ida_g_valid = false;  // the values before an event are not those after it
  t_ = t0;
  if (!m.initialized) {
    m.ida = IDACreate(m.ctx);
    if (m.ida == nullptr) throw Error(ErrorKind::solver, "ida: IDACreate failed (out of memory?)");
    IDASetErrHandlerFn(m.ida, &IdaDiagnostics::error_handler, &m.diagnostics);
    m.check(IDAInit(m.ida, m.clock ? &Impl::clock_residual : &Impl::residual, t0, m.y, m.yp), "IDAInit");
    m.check(IDASetUserData(m.ida, &m), "IDASetUserData");
    m.check(IDASVtolerances(m.ida, m.options.rtol, m.atol), "IDASVtolerances");
    m.check(IDASetId(m.ida, m.id), "IDASetId");
    m.check(IDASetLinearSolver(m.ida, m.linear.for_ida(), m.linear.matrix()), "IDASetLinearSolver");
    if (!m.clock) m.check(IDASetJacFn(m.ida, &Impl::jacobian_fn), "IDASetJacFn");
    if (m.options.step_projection || m.reuse_on) {
      SUNNonlinearSolver& nls = m.options.step_projection ? m.projecting : m.newton;
      nls = ProjectingNonlinearSolver::make(m.y, m.ctx, m.options.step_projection, m.diagnostics.exception_slot(),
                                           m.reuse_on ? &m.reuse : nullptr);
      if (nls == nullptr) throw Error(ErrorKind::solver, "ida: creating the projecting nonlinear solver failed");
      m.check(IDASetNonlinearSolver(m.ida, nls), "IDASetNonlinearSolver");
    }
    if (m.root_count > 0) {
      m.check(IDARootInit(m.ida, static_cast<int>(m.root_count), &Impl::roots), "IDARootInit");
      IDASetNoInactiveRootWarn(m.ida);
    }
    m.check(IDASetMaxNumSteps(m.ida, m.options.max_steps_per_output), "IDASetMaxNumSteps");
    if (m.options.max_step > 0) m.check(IDASetMaxStep(m.ida, m.options.max_step), "IDASetMaxStep");
    if (m.options.initial_step > 0) m.check(IDASetInitStep(m.ida, m.options.initial_step), "IDASetInitStep");
    m.check(IDASetDeltaCjLSetup(m.ida, m.options.newton_dcj), "IDASetDeltaCjLSetup");
    m.initialized = true;
  } else {
    m.carried.carry(m.ida, m.root_count > 0);
    m.jacobian.invalidate_constants();  // an event: tunable and discrete entries may have changed
    m.check(IDAReInit(m.ida, t0, m.y, m.yp), "IDAReInit");
  }
  // IDA keeps hin across IDAReInit: a one-off first step is undone at the next start.
  if (m.next_initial_step > 0) {
    m.check(IDASetInitStep(m.ida, m.next_initial_step), "IDASetInitStep");
    m.next_initial_step = 0;
    m.initial_step_overridden = true;
  } else if (m.initial_step_overridden) {
    m.check(IDASetInitStep(m.ida, m.options.initial_step > 0 ? m.options.initial_step : 0.0), "IDASetInitStep");
    m.initial_step_overridden = false;
  }
  m.use_error_test_mask();
  m.rearm_scan();  // IDAReInit zeroed IDA's counters
  m.reuse.started();
  m.at_start = true;
}

void IdaIntegrator::set_next_initial_step(double h) {
  if (!(h > 0 && std::isfinite(h)))
    throw Error(ErrorKind::usage, "ida: the next initial step " + format_number(h) + " is not positive and finite");
  impl_->next_initial_step = h;
}

void IdaIntegrator::set_stop_time(double t_stop) { impl_->check(IDASetStopTime(impl_->ida, t_stop), "IDASetStopTime"); }

std::span<const double> IdaIntegrator::y() const {
  Impl& m = *impl_;
  if (m.expansion == nullptr || m.clock) return {NV_DATA_S(m.y), n_};
  if (!m.full_valid) {
    m.expand(t_, {NV_DATA_S(m.y), n_}, {NV_DATA_S(m.yp), n_}, m.y_full, m.yp_full);
    m.full_valid = true;
  }
  return m.y_full;
}

std::span<const double> IdaIntegrator::yp() const {
  if (impl_->expansion == nullptr || impl_->clock) return {NV_DATA_S(impl_->yp), n_};
  y();
  return impl_->yp_full;
}

std::string IdaIntegrator::nonfinite_report() const { return impl_->diagnostics.nonfinite_report(); }
std::string IdaIntegrator::known_cause() const { return impl_->diagnostics.known_cause(); }
void IdaIntegrator::reset_faults() { impl_->diagnostics.reset(impl_->ida); }

KluAnalysisPtr IdaIntegrator::release_klu_analysis() { return impl_->linear.release_analysis(); }

kernels::CompressedJacobian::RunConstants IdaIntegrator::run_constants() const {
  return impl_->jacobian.run_constants();
}

void IdaIntegrator::adopt_run_constants(const kernels::CompressedJacobian::RunConstants& values) {
  if (!impl_->initialized) impl_->jacobian.adopt_run_constants(values);
}

bool IdaIntegrator::adopt_klu_analysis(KluAnalysisPtr& analysis) {
  if (impl_->initialized) return false;
  return impl_->linear.adopt_analysis(analysis);
}

}  // namespace lsdae::simulation
