// runtime/simulation/ida/ida_roots.cpp -- IDA's root finding for the
// IdaIntegrator (ida_integrator.h): the root callback (IDARootFn) and the
// root function's set-up (IDARootInit) and results (IDAGetRootInfo).
//
// IDA locates sign changes of g(t, y, y') within each step (Hindmarsh et
// al., IDA user guide, "Rootfinding"); here g are the event indicators the
// caller installs with set_root_function(). With linear elimination, g sees
// the full point recovered by Impl::expand() (scratch_y, scratch_yp), not
// IDA's reduced one; with the internal clock (no unknowns) g sees empty
// spans. Cost: one call of the caller's g per IDA root evaluation, plus one
// expansion with elimination. An exception from g is kept by the
// diagnostics and reported as an IDA failure (-1), never thrown through C.
#include <ida/ida.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "common/format.h"
#include "lsdae/error.h"

#include "simulation/ida/ida_integrator.h"
#include "simulation/ida/ida_integrator_impl.h"

namespace lsdae::simulation {

// IDA's root finding (IDARootfind, the Illinois rule) moves a trial time
// between the ends of the step by the indicators' values there. An infinite
// or NaN indicator makes that time NaN, and it has been seen to leave the step
// (t = -inf) with finite indicators on ACTIVSg2000 with every PSS/E model;
// from there every comparison is false and IDASolve loops for ever asking the
// indicators at that time. So a non-finite time or indicator ends the run
// here (the exception is kept by the diagnostics, IDA returns
// IDA_RTFUNC_FAIL, the rows computed so far stay).
void IdaIntegrator::Impl::check_finite_roots(double t, const double* g, std::size_t count) {
  if (!std::isfinite(t))
    throw Error(ErrorKind::solver, "event indicators: IDA's root finding asked for them at t = " + format_number(t) +
                                       ", outside the step → IDA's root finding broke down (SUNDIALS IDARootfind); "
                                       "rerun with another --rtol or a --max-step, and report it with the FMU");
  for (std::size_t i = 0; i < count; ++i)
    if (!std::isfinite(g[i]))
      throw Error(ErrorKind::fmu_call, "event indicators: t = " + format_number(t) + ": indicator " +
                                           std::to_string(i) + " of " + std::to_string(count) + " is " +
                                           format_number(g[i]) +
                                           " → an FMU's event indicators must be finite (FMI 3.0, "
                                           "fmi3GetEventIndicators); fix the FMU's indicator");
}

int IdaIntegrator::Impl::roots(realtype t, N_Vector yy, N_Vector ypp, realtype* gout, void* data) {
  auto* self = static_cast<Impl*>(data);
  const auto n = self->clock ? std::size_t{0} : static_cast<std::size_t>(NV_LENGTH_S(yy));
  try {
    if (self->expansion != nullptr && !self->clock) {
      self->expand(t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n}, self->scratch_y, self->scratch_yp);
      return self->remember_roots(t, self->root_function(t, self->scratch_y, self->scratch_yp, {gout, self->root_count}),
                                  gout);
    }
    return self->remember_roots(t, self->root_function(t, {NV_DATA_S(yy), n}, {NV_DATA_S(ypp), n},
                                                       {gout, self->root_count}),
                                gout);
  } catch (...) {
    self->diagnostics.keep_exception();
    return -1;
  }
}

int IdaIntegrator::Impl::remember_roots(double t, int status, const double* g) {
  if (status == 0) check_finite_roots(t, g, root_count);
  // IDA's last evaluation after an accepted step is at its end (IDARcheck3):
  // the scan inside the step takes it from here (ida_interior_roots.cpp).
  ida_g_valid = status == 0;
  if (ida_g_valid) {
    ida_g_t = t;
    ida_g.assign(g, g + root_count);
  }
  return status;
}

void IdaIntegrator::set_root_function(std::size_t count, RootFunction g) {
  Impl& m = *impl_;
  m.root_count = count;
  m.root_function = std::move(g);
  if (m.initialized) {
    m.check(IDARootInit(m.ida, static_cast<int>(count), count > 0 ? &Impl::roots : nullptr), "IDARootInit");
    if (count > 0) IDASetNoInactiveRootWarn(m.ida);
  }
}

std::vector<int> IdaIntegrator::roots_found() const {
  if (impl_->inside_root_found) return impl_->inside_roots;
  std::vector<int> found(impl_->root_count, 0);
  if (!found.empty()) IDAGetRootInfo(impl_->ida, found.data());
  return found;
}

}  // namespace lsdae::simulation
