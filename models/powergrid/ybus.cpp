// models/powergrid/ybus.cpp -- see ybus.h.
#include "powergrid/ybus.h"

#include <algorithm>
#include <numbers>

namespace lsdae::powergrid {

BusNumbering number_buses(const Case& c) {
  BusNumbering b;
  b.number.reserve(c.buses.size());
  for (std::size_t i = 0; i < c.buses.size(); ++i) {
    b.number.push_back(c.buses[i].number);
    b.index.emplace(c.buses[i].number, i);
  }
  return b;
}

BranchAdmittance branch_admittance(const Branch& b) {
  const Complex ys = 1.0 / Complex(b.r, b.x);
  const double tau = b.ratio == 0.0 ? 1.0 : b.ratio;
  const Complex t = std::polar(tau, b.angle * std::numbers::pi / 180.0);
  BranchAdmittance y;
  y.ytt = ys + Complex(0.0, b.b / 2.0);
  y.yff = y.ytt / (tau * tau);
  y.yft = -ys / std::conj(t);
  y.ytf = -ys / t;
  return y;
}

ComplexCsr make_ybus(const Case& c, const BusNumbering& buses) {
  std::vector<ComplexTriplet> t;
  t.reserve(4 * c.branches.size() + c.buses.size());
  for (const Branch& br : c.branches) {
    if (!br.in_service) continue;
    const std::size_t f = buses.index.at(br.from), k = buses.index.at(br.to);
    const BranchAdmittance y = branch_admittance(br);
    t.push_back({f, f, y.yff});
    t.push_back({f, k, y.yft});
    t.push_back({k, f, y.ytf});
    t.push_back({k, k, y.ytt});
  }
  for (std::size_t i = 0; i < c.buses.size(); ++i)
    if (c.buses[i].gs != 0.0 || c.buses[i].bs != 0.0)
      t.push_back({i, i, Complex(c.buses[i].gs, c.buses[i].bs) / c.base_mva});
  return assemble_csr(c.buses.size(), t);
}

}  // namespace lsdae::powergrid
