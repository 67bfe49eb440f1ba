// models/powergrid/power_flow.cpp -- see power_flow.h.
#include "powergrid/power_flow.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include "gridcore/newton_power_flow.h"

namespace lsdae::powergrid {

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

  // Start point: set points at PV and slack buses; flat or stored elsewhere.
  std::vector<double> vm(n), va(n);
  std::vector<grid::BusRole> role(n);
  for (std::size_t i = 0; i < n; ++i) {
    const bool keep_stored = !options.flat_start || r.solved_as[i] == BusType::slack;
    vm[i] = r.solved_as[i] == BusType::pq ? (options.flat_start ? 1.0 : c.buses[i].vm) : set_point[i];
    va[i] = keep_stored ? c.buses[i].va * kDeg : 0.0;
    role[i] = r.solved_as[i] == BusType::slack ? grid::BusRole::slack
                                                : (r.solved_as[i] == BusType::pv ? grid::BusRole::pv : grid::BusRole::pq);
  }
  grid::NewtonOptions newton;
  newton.tolerance = options.tolerance;
  newton.max_iterations = options.max_iterations;
  newton.divergence = options.divergence;
  newton.polish_steps = options.polish_steps;
  grid::NewtonResult solved = grid::solve_newton(y, role, scheduled, std::move(vm), std::move(va), newton);
  r.converged = solved.converged;
  r.singular = solved.singular;
  r.iterations = solved.iterations;
  r.mismatch = solved.mismatch;
  r.history = std::move(solved.history);
  r.voltage = std::move(solved.voltage);
  r.injection = std::move(solved.injection);
  return r;
}

std::string summary(const Case& c, const PowerFlowResult& r) {
  char text[256];
  const char* outcome = r.converged ? "converged" : (r.singular ? "NOT converged (singular Jacobian)" : "NOT converged");
  std::snprintf(text, sizeof text, "%s: %s in %d iterations, largest mismatch %.3e p.u. (%.3e MVA)", c.name.c_str(),
                outcome, r.iterations, r.mismatch, r.mismatch * c.base_mva);
  return text;
}

}  // namespace lsdae::powergrid
