// tests/models/psse/component_stepper.cpp -- see component_stepper.h.
#include "component_stepper.h"

#include <cmath>
#include <stdexcept>

#include "psse/core/limiter.h"

namespace lsdae::psse::test {

void ComponentStepper::solve_algebraics() {
  const FrameShape& s = h_.slot().shape();
  const auto nz = static_cast<std::size_t>(s.algebraics);
  if (nz == 0) return;
  const auto no = static_cast<std::size_t>(s.output_count());
  std::vector<double> jac, a(nz * nz), r(nz);
  for (int it = 0; it < 20; ++it) {
    const std::vector<double> out = h_.outputs(time_);
    double worst = 0;
    for (std::size_t j = 0; j < nz; ++j) {
      r[j] = out[static_cast<std::size_t>(s.states) + j];
      worst = std::max(worst, std::fabs(r[j]));
    }
    if (worst < 1e-13) return;
    h_.slot().jacobian(h_.known().data(), h_.parameters().data(), h_.modes().data(), time_, jac);
    for (std::size_t c = 0; c < nz; ++c)
      for (std::size_t j = 0; j < nz; ++j)
        a[c * nz + j] = jac[(static_cast<std::size_t>(s.states) + c) * no + static_cast<std::size_t>(s.states) + j];
    // Gaussian elimination with partial pivoting on a (column major) * dz = r.
    std::vector<double> m(nz * nz), b = r;
    for (std::size_t i = 0; i < nz; ++i)
      for (std::size_t j = 0; j < nz; ++j) m[i * nz + j] = a[j * nz + i];  // row major
    for (std::size_t k = 0; k < nz; ++k) {
      std::size_t p = k;
      for (std::size_t i = k + 1; i < nz; ++i)
        if (std::fabs(m[i * nz + k]) > std::fabs(m[p * nz + k])) p = i;
      if (m[p * nz + k] == 0.0) throw std::runtime_error("stepper: singular algebraic Jacobian");
      for (std::size_t j = 0; j < nz; ++j) std::swap(m[k * nz + j], m[p * nz + j]);
      std::swap(b[k], b[p]);
      for (std::size_t i = k + 1; i < nz; ++i) {
        const double f = m[i * nz + k] / m[k * nz + k];
        for (std::size_t j = k; j < nz; ++j) m[i * nz + j] -= f * m[k * nz + j];
        b[i] -= f * b[k];
      }
    }
    for (std::size_t k = nz; k-- > 0;) {
      double sum = b[k];
      for (std::size_t j = k + 1; j < nz; ++j) sum -= m[k * nz + j] * b[j];
      b[k] = sum / m[k * nz + k];
    }
    for (std::size_t j = 0; j < nz; ++j) h_.known()[static_cast<std::size_t>(s.states) + j] -= b[j];
  }
}

void ComponentStepper::update_modes() {
  // A mode change can move the algebraics and so other modes: repeat until settled.
  for (int round = 0; round < 10; ++round) {
    const std::vector<LimiterRecord> records = h_.limiter_records(time_);
    bool changed = false;
    for (std::size_t k = 0; k < records.size(); ++k) {
      const DeclaredLimiter& lim = h_.slot().limiters()[k];
      const int old = h_.modes()[k];
      const int now = limiter_mode_by_value(lim.kind, old, records[k], 0.0);
      if (now == old) continue;
      h_.modes()[k] = now;
      ++events_;
      changed = true;
      if (lim.kind == LimiterKind::non_windup && now != kModeFree)
        h_.known()[static_cast<std::size_t>(lim.state)] = limiter_held_value(now, records[k]);
    }
    if (!changed) return;
    solve_algebraics();
  }
}

void ComponentStepper::run(double duration, double step, const std::function<void(double)>& watch) {
  const int n = static_cast<int>(std::lround(duration / step));
  const auto ns = static_cast<std::size_t>(h_.slot().shape().states);
  solve_algebraics();
  update_modes();
  for (int i = 0; i < n; ++i) {
    const std::vector<double> out = h_.outputs(time_);
    for (std::size_t k = 0; k < ns; ++k) h_.known()[k] += step * out[k];
    time_ += step;
    solve_algebraics();
    update_modes();  // a held state that stepped past its limit is put back on it (the located event)
    if (watch) watch(time_);
  }
}

double ComponentStepper::x(const std::string& name) const {
  return h_.known()[static_cast<std::size_t>(h_.state(name))];
}

double ComponentStepper::z(const std::string& name) const {
  return h_.known()[static_cast<std::size_t>(h_.slot().shape().states + h_.algebraic(name))];
}

int ComponentStepper::mode(const std::string& limiter) const {
  for (std::size_t k = 0; k < h_.slot().limiters().size(); ++k)
    if (h_.slot().limiters()[k].name == limiter) return h_.modes()[k];
  throw std::out_of_range("no limiter \"" + limiter + "\"");
}

void ComponentStepper::set_voltage(Complex v) {
  const auto i = static_cast<std::size_t>(h_.slot().shape().vr_index());
  h_.known()[i] = v.real();
  h_.known()[i + 1] = v.imag();
}

}  // namespace lsdae::psse::test
