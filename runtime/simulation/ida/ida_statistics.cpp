// runtime/simulation/ida/ida_statistics.cpp -- see ida_statistics.h; and
// IdaIntegrator::stats() (ida_integrator.h).
#include "simulation/ida/ida_statistics.h"

#include <ida/ida.h>

#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"

namespace lsdae::simulation {

IntegratorStats& IntegratorStats::operator+=(const IntegratorStats& o) {
  steps += o.steps;
  residual_calls += o.residual_calls;
  jacobian_evaluations += o.jacobian_evaluations;
  jacobian_reforms += o.jacobian_reforms;
  jacobian_residual_calls += o.jacobian_residual_calls;
  directional_calls += o.directional_calls;
  nonlinear_iterations += o.nonlinear_iterations;
  nonlinear_convergence_failures += o.nonlinear_convergence_failures;
  error_test_failures += o.error_test_failures;
  linear_solver_setups += o.linear_solver_setups;
  root_function_calls += o.root_function_calls;
  constant_evaluations += o.constant_evaluations;
  constant_calls += o.constant_calls;
  klu_symbolic_analyses += o.klu_symbolic_analyses;
  klu_restart_factorizations += o.klu_restart_factorizations;
  klu_adopted_analyses += o.klu_adopted_analyses;
  first_step_retries += o.first_step_retries;
  events_continued += o.events_continued;
  eliminated = o.eliminated;
  colors = o.colors;
  varying_colors = o.varying_colors;
  constant_entries = o.constant_entries;
  jacobian_nonzeros = o.jacobian_nonzeros;
  klu_lnz = o.klu_lnz;
  klu_unz = o.klu_unz;
  klu_index_bits = o.klu_index_bits;
  last_step = o.last_step;
  return *this;
}

void IdaCarriedCounters::carry(void* ida, bool roots) {
  long v = 0;
  IDAGetNumSteps(ida, &v), steps += v;
  IDAGetNumNonlinSolvIters(ida, &v), nonlinear += v;
  IDAGetNumNonlinSolvConvFails(ida, &v), nonlinear_failures += v;
  IDAGetNumErrTestFails(ida, &v), error_failures += v;
  IDAGetNumLinSolvSetups(ida, &v), setups += v;
  if (roots) IDAGetNumGEvals(ida, &v), root_calls += v;
}

void IdaCarriedCounters::add_to(IntegratorStats& s) const {
  s.steps += steps;
  s.nonlinear_iterations += nonlinear;
  s.nonlinear_convergence_failures += nonlinear_failures;
  s.error_test_failures += error_failures;
  s.linear_solver_setups += setups;
  s.root_function_calls += root_calls;
}

IntegratorStats IdaIntegrator::stats() const {
  const Impl& m = *impl_;
  IntegratorStats s;
  s.colors = m.jacobian.colors();
  s.varying_colors = m.jacobian.varying_colors();
  s.constant_entries = m.jacobian.constant_entry_count();
  s.constant_evaluations = static_cast<long>(m.jacobian.counters().constant_evaluations);
  s.constant_calls = static_cast<long>(m.jacobian.counters().constant_calls);
  s.jacobian_nonzeros = m.pattern.nnz();
  s.eliminated = full_n_ - n_;
  s.jacobian_evaluations = static_cast<long>(m.jacobian.counters().evaluations);
  s.jacobian_reforms = static_cast<long>(m.jacobian.counters().reforms);
  s.jacobian_residual_calls = static_cast<long>(m.jacobian.counters().residual_calls);
  s.directional_calls = static_cast<long>(m.jacobian.counters().directional_calls);
  s.residual_calls = m.residual_calls;
  if (m.ida != nullptr) {
    IDAGetNumSteps(m.ida, &s.steps);
    IDAGetNumNonlinSolvIters(m.ida, &s.nonlinear_iterations);
    IDAGetNumNonlinSolvConvFails(m.ida, &s.nonlinear_convergence_failures);
    IDAGetNumErrTestFails(m.ida, &s.error_test_failures);
    IDAGetNumLinSolvSetups(m.ida, &s.linear_solver_setups);
    realtype h = 0;
    IDAGetLastStep(m.ida, &h);
    s.last_step = h;
    if (m.root_count > 0) IDAGetNumGEvals(m.ida, &s.root_function_calls);
    s.root_function_calls += m.interior_root_calls;
    m.carried.add_to(s);
  }
  m.linear.add_stats(s);
  s.first_step_retries = m.first_step_retries;
  s.events_continued = m.events_continued;
  return s;
}

}  // namespace lsdae::simulation
