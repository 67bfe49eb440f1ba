// models/powergrid/power_flow.cpp -- see power_flow.h.
#include "powergrid/power_flow.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include "powergrid/klu_solver.h"

namespace lsdae::powergrid {

namespace {

constexpr int kNone = -1;

// The Newton Jacobian's pattern, derived once from Ybus: entry p = (i, k) of
// Ybus feeds up to four Jacobian entries, (P_i or Q_i) x (θ_k or |V|_k);
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

std::vector<Complex> multiply(const ComplexCsr& y, const std::vector<Complex>& v) {
  std::vector<Complex> out(y.n);
  for (std::size_t i = 0; i < y.n; ++i) {
    Complex sum = 0;
    for (std::size_t p = y.row_start[i]; p < y.row_start[i + 1]; ++p) sum += y.value[p] * v[y.column[p]];
    out[i] = sum;
  }
  return out;
}

}  // namespace

PowerFlowResult solve_power_flow(const Case& c, const PowerFlowOptions& options) {
  const BusNumbering buses = number_buses(c);
  const ComplexCsr y = make_ybus(c, buses);
  const std::size_t n = buses.number.size();
  constexpr double kDeg = std::numbers::pi / 180.0;

  // Scheduled injections and voltage set points of the in-service generators.
  std::vector<int> generators_on(n, 0);
  std::vector<double> set_point(n, 1.0);
  std::vector<Complex> scheduled(n);
  for (const Generator& g : c.generators) {
    if (!g.in_service) continue;
    const std::size_t i = buses.index.at(g.bus);
    ++generators_on[i];
    set_point[i] = g.vg;
    scheduled[i] += Complex(g.pg, g.qg) / c.base_mva;
  }
  for (std::size_t i = 0; i < n; ++i) scheduled[i] -= Complex(c.buses[i].pd, c.buses[i].qd) / c.base_mva;

  // Bus types as MATPOWER's bustypes.m decides them.
  PowerFlowResult r;
  r.solved_as.resize(n);
  std::size_t slack = n, first_pv = n;
  for (std::size_t i = 0; i < n; ++i) {
    r.solved_as[i] = generators_on[i] == 0 ? BusType::pq : c.buses[i].type;
    if (r.solved_as[i] == BusType::slack && slack == n) slack = i;
    if (r.solved_as[i] == BusType::pv && first_pv == n) first_pv = i;
  }
  if (slack == n) {
    if (first_pv == n)
      throw CaseError(c.path + ": no bus can be the slack: no PV or slack bus has an in-service generator → "
                               "mark a generator bus as type 3");
    slack = first_pv;
    r.solved_as[slack] = BusType::slack;
  }
  r.slack = slack;

  // Start point and the positions of the unknowns: angles of PV and PQ buses,
  // then magnitudes of PQ buses.
  std::vector<double> vm(n), va(n);
  std::vector<int> pos_angle(n, kNone), pos_magnitude(n, kNone);
  int m = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool keep_stored = !options.flat_start || r.solved_as[i] == BusType::slack;
    vm[i] = r.solved_as[i] == BusType::pq ? (options.flat_start ? 1.0 : c.buses[i].vm) : set_point[i];
    va[i] = keep_stored ? c.buses[i].va * kDeg : 0.0;
    if (r.solved_as[i] != BusType::slack) pos_angle[i] = m++;
  }
  for (std::size_t i = 0; i < n; ++i)
    if (r.solved_as[i] == BusType::pq) pos_magnitude[i] = m++;

  const JacobianPattern jp = jacobian_pattern(y, pos_angle, pos_magnitude, m);
  KluSolver lu;
  lu.analyze(m, jp.column_start, jp.row);
  std::vector<double> f(static_cast<std::size_t>(m)), jx(jp.row.size());
  std::vector<Complex> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::polar(vm[i], va[i]);
  std::vector<Complex> before_polish;
  int polish_left = options.polish_steps;

  while (true) {
    const std::vector<Complex> current = multiply(y, v);
    double largest = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const Complex mis = v[i] * std::conj(current[i]) - scheduled[i];
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
        }
        const double block[4] = {ds_dva.real(), ds_dvm.real(), ds_dva.imag(), ds_dvm.imag()};
        for (int b = 0; b < 4; ++b) {
          const int s = jp.slot[4 * p + static_cast<std::size_t>(b)];
          if (s != kNone) jx[static_cast<std::size_t>(s)] = block[b];
        }
      }
    lu.factor(jx);
    lu.solve(f);  // f := J⁻¹ F; the Newton step is −f
    for (std::size_t i = 0; i < n; ++i) {
      if (pos_angle[i] != kNone) va[i] -= f[static_cast<std::size_t>(pos_angle[i])];
      if (pos_magnitude[i] != kNone) vm[i] -= f[static_cast<std::size_t>(pos_magnitude[i])];
      v[i] = std::polar(vm[i], va[i]);
    }
    if (!r.converged) ++r.iterations;
  }

  r.voltage = v;
  const std::vector<Complex> current = multiply(y, v);
  r.injection.resize(n);
  for (std::size_t i = 0; i < n; ++i) r.injection[i] = v[i] * std::conj(current[i]);
  return r;
}

std::string summary(const Case& c, const PowerFlowResult& r) {
  char text[256];
  std::snprintf(text, sizeof text, "%s: %s in %d iterations, largest mismatch %.3e p.u. (%.3e MVA)", c.name.c_str(),
                r.converged ? "converged" : "NOT converged", r.iterations, r.mismatch, r.mismatch * c.base_mva);
  return text;
}

}  // namespace lsdae::powergrid
