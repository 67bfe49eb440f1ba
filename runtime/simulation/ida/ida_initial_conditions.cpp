// runtime/simulation/ida/ida_initial_conditions.cpp -- IdaIntegrator
// (ida_integrator.h): consistent initial values by IDACalcIC (SUNDIALS:
// ida_ic.c; Brown, Hindmarsh & Petzold, SIAM J. Sci. Comput. 19(5), 1998),
// and the id vector it needs.
//
// IDA_YA_YDP_INIT: given the differential unknowns, IDACalcIC solves for the
// algebraic unknowns and the derivatives of the differential ones (a damped
// Newton iteration on G with the iteration matrix at cj = 1/h of a step
// towards t_next). It must know which unknowns are algebraic: the true id
// vector. While stepping, IDA's error test may leave some algebraic unknowns
// out (error_test_mask.h) through the same vector with IDASetSuppressAlg, so
// the integrator switches the vector around IDACalcIC and back. On failure
// the message (ida_diagnostics.h) names the residuals that stayed largest.
#include <ida/ida.h>

#include <utility>
#include <vector>

#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"

namespace lsdae::simulation {

void IdaIntegrator::Impl::use_id_for_initial_conditions() {
  if (error_test != nullptr) check(IDASetId(ida, id), "IDASetId");
}

void IdaIntegrator::Impl::use_error_test_mask() {
  if (error_test == nullptr) return;
  check(IDASetId(ida, error_test), "IDASetId");
  check(IDASetSuppressAlg(ida, SUNTRUE), "IDASetSuppressAlg");
}

bool IdaIntegrator::make_consistent(double t_next, bool throw_on_failure, bool after_event) {
  Impl& m = *impl_;
  m.use_id_for_initial_conditions();
  m.reuse.set_in_initial_conditions(true);
  int flag = IDACalcIC(m.ida, IDA_YA_YDP_INIT, t_next);
  m.reuse.set_in_initial_conditions(false);
  m.use_error_test_mask();
  m.diagnostics.rethrow_kept();
  IDAGetConsistentIC(m.ida, m.y, m.yp);
  m.full_valid = false;
  if (flag >= 0) return true;
  if (!throw_on_failure) return false;
  std::vector<double> r(n_);
  if (m.main.residual(t_, {NV_DATA_S(m.y), n_}, {NV_DATA_S(m.yp), n_}, r) == kernels::EvalStatus::ok)
    m.diagnostics.check_finite(t_, r);
  m.diagnostics.initial_conditions_failed(flag, t_, r, after_event);
  return false;
}

}  // namespace lsdae::simulation
