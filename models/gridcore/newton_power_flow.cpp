// models/gridcore/newton_power_flow.cpp -- see newton_power_flow.h.
#include "gridcore/newton_power_flow.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "gridcore/klu_solver.h"

namespace lsdae::grid {

namespace {

constexpr int kNone = -1;

// The Newton Jacobian's pattern, derived once from Y: entry p = (i, k) of Y
// feeds up to four Jacobian entries, (P_i or Q_i) x (θ_k or |V|_k);
// slot[4p + b] is the position of block b in the CSC value array, or kNone.
struct JacobianPattern {
  int m = 0;
  std::vector<int> column_start, row;
  std::vector<int> slot;
};

JacobianPattern jacobian_pattern(const ComplexCsr& y, const std::vector<int>& pos_angle,
                                 const std::vector<int>& pos_magnitude, int m) {
  struct Entry {
    int col, row, slot;
  };
  std::vector<Entry> entries;
  for (std::size_t i = 0; i < y.n; ++i)
    for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) {
      const std::size_t k = y.column[p];
      const int rows[4] = {pos_angle[i], pos_angle[i], pos_magnitude[i], pos_magnitude[i]};
      const int cols[4] = {pos_angle[k], pos_magnitude[k], pos_angle[k], pos_magnitude[k]};
      for (int b = 0; b < 4; ++b)
        if (rows[b] != kNone && cols[b] != kNone) entries.push_back({cols[b], rows[b], static_cast<int>(4 * p) + b});
    }
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.col != b.col ? a.col < b.col : a.row < b.row; });
  JacobianPattern j;
  j.m = m;
  j.column_start.assign(static_cast<std::size_t>(m) + 1, 0);
  j.row.resize(entries.size());
  j.slot.assign(4 * y.nnz(), kNone);
  for (std::size_t e = 0; e < entries.size(); ++e) {
    ++j.column_start[static_cast<std::size_t>(entries[e].col) + 1];
    j.row[e] = entries[e].row;
    j.slot[static_cast<std::size_t>(entries[e].slot)] = static_cast<int>(e);
  }
  for (int c = 0; c < m; ++c) j.column_start[static_cast<std::size_t>(c) + 1] += j.column_start[static_cast<std::size_t>(c)];
  return j;
}

}  // namespace

std::vector<Complex> multiply(const ComplexCsr& y, const std::vector<Complex>& v) {
  std::vector<Complex> out(y.n);
  for (std::size_t i = 0; i < y.n; ++i) {
    Complex sum = 0;
    for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) sum += y.value[p] * v[y.column[p]];
    out[i] = sum;
  }
  return out;
}

NewtonResult solve_newton(const ComplexCsr& y, const std::vector<BusRole>& role, const std::vector<Complex>& scheduled,
                          std::vector<double> vm, std::vector<double> va, const NewtonOptions& options,
                          const std::vector<Complex>& current_load) {
  const std::size_t n = y.n;
  const bool with_current = !current_load.empty();
  std::vector<int> pos_angle(n, kNone), pos_magnitude(n, kNone);
  int m = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (role[i] != BusRole::slack) pos_angle[i] = m++;
  for (std::size_t i = 0; i < n; ++i)
    if (role[i] == BusRole::pq) pos_magnitude[i] = m++;

  NewtonResult r;
  const JacobianPattern jp = jacobian_pattern(y, pos_angle, pos_magnitude, m);
  KluSolver lu;
  if (m > 0) lu.analyze(m, jp.column_start, jp.row);  // every bus a slack: nothing to solve (KLU refuses n = 0)
  std::vector<double> f(static_cast<std::size_t>(m)), jx(jp.row.size());
  std::vector<Complex> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::polar(vm[i], va[i]);
  std::vector<Complex> before_polish;
  int polish_left = options.polish_steps;

  while (m > 0) {
    const std::vector<Complex> current = multiply(y, v);
    double largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      Complex mis = v[i] * std::conj(current[i]) - scheduled[i];
      if (with_current) mis += current_load[i] * std::abs(v[i]);
      if (pos_angle[i] != kNone) f[static_cast<std::size_t>(pos_angle[i])] = mis.real();
      if (pos_magnitude[i] != kNone) f[static_cast<std::size_t>(pos_magnitude[i])] = mis.imag();
      if (pos_angle[i] != kNone) largest = std::max(largest, std::abs(mis.real()));
      if (pos_magnitude[i] != kNone) largest = std::max(largest, std::abs(mis.imag()));
      if (!std::isfinite(mis.real()) || !std::isfinite(mis.imag())) largest = std::numeric_limits<double>::infinity();
    }
    if (r.converged) {
      // A polishing step: keep it only if it helped.
      if (!(largest < r.mismatch)) {
        v = before_polish;
        break;
      }
      r.history.push_back(largest);
      r.mismatch = largest;
      if (--polish_left < 0) break;
    } else {
      r.history.push_back(largest);
      r.mismatch = largest;
      if (largest <= options.tolerance) {
        r.converged = true;
        if (--polish_left < 0) break;
      } else if (r.iterations >= options.max_iterations || !(largest <= options.divergence)) {
        break;
      }
    }
    before_polish = v;

    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) {
        const std::size_t k = y.column[p];
        const Complex unit_k = v[k] / std::abs(v[k]);
        Complex ds_dvm = v[i] * std::conj(y.value[p] * unit_k);
        Complex ds_dva = Complex(0, -1) * v[i] * std::conj(y.value[p] * v[k]);
        if (i == k) {
          ds_dvm += std::conj(current[i]) * unit_k;
          ds_dva += Complex(0, 1) * v[i] * std::conj(current[i]);
          if (with_current) ds_dvm += current_load[i];
        }
        const double block[4] = {ds_dva.real(), ds_dvm.real(), ds_dva.imag(), ds_dvm.imag()};
        for (int b = 0; b < 4; ++b) {
          const int s = jp.slot[4 * p + static_cast<std::size_t>(b)];
          if (s != kNone) jx[static_cast<std::size_t>(s)] = block[b];
        }
      }
    try {
      lu.factor(jx);
    } catch (const std::runtime_error&) {  // singular (KLU_SINGULAR), or no memory: not solved
      r.singular = !r.converged;
      break;                                // while polishing: v is still the converged iterate
    }
    lu.solve(f);  // f := J⁻¹ F; the Newton step is −f
    for (std::size_t i = 0; i < n; ++i) {
      if (pos_angle[i] != kNone) va[i] -= f[static_cast<std::size_t>(pos_angle[i])];
      if (pos_magnitude[i] != kNone) vm[i] -= f[static_cast<std::size_t>(pos_magnitude[i])];
      v[i] = std::polar(vm[i], va[i]);
    }
    if (!r.converged) ++r.iterations;
  }
  if (m == 0) r.converged = true;

  r.voltage = v;
  const std::vector<Complex> current = multiply(y, v);
  r.injection.resize(n);
  for (std::size_t i = 0; i < n; ++i) r.injection[i] = v[i] * std::conj(current[i]);
  return r;
}

}  // namespace lsdae::grid
