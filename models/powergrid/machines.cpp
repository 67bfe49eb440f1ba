// models/powergrid/machines.cpp -- see machines.h.
#include "powergrid/machines.h"

#include <algorithm>
#include <cmath>

namespace lsdae::powergrid {

double machine_rating(const Generator& g, Complex output_mva, const MachineDefaults& defaults) {
  const double apparent = std::abs(output_mva) / defaults.power_factor;
  return std::max({g.mbase, g.pmax, apparent, defaults.minimum_rating_mva});
}

double electrical_power(double e, double delta, double xd, Complex v) {
  return e * (std::sin(delta) * v.real() - std::cos(delta) * v.imag()) / xd;
}

std::vector<GridMachine> initialize_machines(const Case& c, const PowerFlowResult& flow,
                                             const MachineDefaults& defaults) {
  const BusNumbering buses = number_buses(c);
  const std::size_t n = buses.number.size();
  const double base = c.base_mva;

  // Per bus: total rating and scheduled P of its in-service machines.
  std::vector<double> rating_sum(n, 0.0), scheduled_p(n, 0.0);
  for (const Generator& g : c.generators) {
    if (!g.in_service) continue;
    const std::size_t i = buses.index.at(g.bus);
    rating_sum[i] += machine_rating(g, Complex(g.pg, g.qg), defaults);
    scheduled_p[i] += g.pg / base;
  }

  std::vector<GridMachine> machines;
  for (std::size_t row = 0; row < c.generators.size(); ++row) {
    const Generator& g = c.generators[row];
    if (!g.in_service) continue;
    const std::size_t i = buses.index.at(g.bus);
    const Complex v = flow.voltage[i];
    if (std::abs(v) < 1e-6)
      throw CaseError(c.path + ":" + std::to_string(g.line) + ": generator at bus " + std::to_string(g.bus) +
                      " sees a voltage of " + std::to_string(std::abs(v)) +
                      " p.u. → check the power flow converged to a sensible point");
    const Complex generation = flow.injection[i] + Complex(c.buses[i].pd, c.buses[i].qd) / base;
    GridMachine m;
    m.case_row = static_cast<int>(row) + 1;
    m.bus = i;
    const double share = machine_rating(g, Complex(g.pg, g.qg), defaults) / rating_sum[i];
    m.p = g.pg / base + (generation.real() - scheduled_p[i]) * share;
    m.q = generation.imag() * share;
    m.rating_mva = machine_rating(g, Complex(m.p, m.q) * base, defaults);
    m.h = defaults.h * m.rating_mva / base;
    m.d = defaults.d * m.rating_mva / base;
    m.xd = defaults.xd * base / m.rating_mva;
    const Complex current = std::conj(Complex(m.p, m.q) / v);
    const Complex emf = v + Complex(0.0, m.xd) * current;
    m.e = std::abs(emf);
    m.delta0 = std::arg(v) + std::arg(emf / v);
    m.pm = electrical_power(m.e, m.delta0, m.xd, v);
    machines.push_back(m);
  }
  return machines;
}

}  // namespace lsdae::powergrid
