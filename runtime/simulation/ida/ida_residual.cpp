// runtime/simulation/ida/ida_residual.cpp -- IDA's residual callbacks (the
// model's residual, the internal clock of a system without unknowns) and the
// recovery of the full point from a reduced one (linear elimination:
// eliminated_residual.h). See ida_integrator.h.
#include <ida/ida.h>

#include <span>

#include "common/format.h"
#include "lsdae/log.h"
#include "simulation/eliminated_residual.h"
#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"

namespace lsdae::simulation {

void IdaIntegrator::Impl::expand(double t, std::span<const double> yr, std::span<const double> ypr,
                                 std::span<double> yf, std::span<double> ypf) {
  if (expansion->expand(t, yr, ypr, yf, ypf) == kernels::EvalStatus::ok) return;
  const auto& kept = expansion->plan().kept;
  for (std::size_t i = 0; i < kept.size(); ++i) yf[kept[i]] = yr[i], ypf[kept[i]] = ypr[i];
  log_debug("ida: the eliminated unknowns could not be recovered at t = " + format_number(t));
}

// No unknowns: IDA carries one internal clock unknown c with c' = 0 so that
// it can still advance time, stop at time events and locate the roots of
// the event indicators (which then depend on time and discrete states only).
int IdaIntegrator::Impl::clock_residual(realtype, N_Vector, N_Vector ypp, N_Vector rr, void* data) {
  ++static_cast<Impl*>(data)->residual_calls;
  NV_Ith_S(rr, 0) = NV_Ith_S(ypp, 0);
  return 0;
}

int IdaIntegrator::Impl::residual(realtype t, N_Vector yy, N_Vector ypp, N_Vector rr, void* data) {
  auto* self = static_cast<Impl*>(data);
  const auto n = static_cast<std::size_t>(NV_LENGTH_S(yy));
  ++self->residual_calls;
  try {
    kernels::EvalStatus s = self->main.residual(t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, {NV_DATA_S(rr), n});
    if (self->expansion != nullptr && s == kernels::EvalStatus::recoverable)
      if (const auto bad = self->expansion->take_nonfinite_eliminated_row())
        self->diagnostics.note_nonfinite_eliminated(t, bad->first, bad->second);
    if (s == kernels::EvalStatus::ok && self->diagnostics.scan_residuals(self->ida) &&
        !self->diagnostics.check_finite(t, {NV_DATA_S(rr), n}))
      return static_cast<int>(kernels::EvalStatus::recoverable);
    return static_cast<int>(s);
  } catch (...) {
    self->diagnostics.keep_exception();
    return -1;
  }
}

}  // namespace lsdae::simulation
