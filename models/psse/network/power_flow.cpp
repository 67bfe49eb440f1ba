// models/psse/network/power_flow.cpp -- see power_flow.h.
#include "psse/network/power_flow.h"

#include <cmath>
#include <cstdio>

#include "psse/io/psse_text.h"

namespace lsdae::psse {

OperatingPoint solve_operating_point(const RawCase& rc, const Network& net, const PowerFlowOptions& options) {
  const std::size_t n = net.buses.size();
  std::vector<int> machines(n, 0);
  std::vector<double> vs(n, 0.0), mbase_sum(n, 0.0);
  for (const RawGenerator& g : rc.generators) {
    if (g.status == 0 || net.index_of.count(g.bus) == 0) continue;
    const std::size_t i = net.bus_index(g.bus);
    ++machines[i];
    vs[i] = g.vs;
    mbase_sum[i] += g.mbase;
  }
  std::vector<grid::BusRole> role(n, grid::BusRole::pq);
  std::vector<double> vm(n), va(n);
  bool any_slack = false;
  for (std::size_t i = 0; i < n; ++i) {
    const NetworkBus& b = net.buses[i];
    vm[i] = std::abs(b.stored_voltage);
    va[i] = std::arg(b.stored_voltage);
    if (b.star_point) continue;
    if (b.raw_type == 3) {
      role[i] = grid::BusRole::slack;
      any_slack = true;
    } else if (b.raw_type == 2 && machines[i] > 0) {
      role[i] = grid::BusRole::pv;
      if (options.vs_set_points) vm[i] = vs[i];
    }
  }
  if (!any_slack)
    throw TextError(rc.path + ": no swing bus (IDE = 3) → mark the reference bus of each island as type 3");

  // Schedules: generators at non-swing buses, loads; admittance loads in Y.
  std::vector<Complex> scheduled(n), current_load(n);
  std::vector<grid::ComplexTriplet> extra;
  for (const RawGenerator& g : rc.generators)
    if (g.status != 0 && net.index_of.count(g.bus) != 0)
      scheduled[net.bus_index(g.bus)] += Complex(g.pg, g.qg) / rc.sbase;
  for (const RawLoad& l : rc.loads) {
    if (l.status == 0 || net.index_of.count(l.bus) == 0) continue;
    const std::size_t i = net.bus_index(l.bus);
    scheduled[i] -= Complex(l.pl, l.ql) / rc.sbase;
    current_load[i] += Complex(l.ip, l.iq) / rc.sbase;
    if (l.yp != 0.0 || l.yq != 0.0) extra.push_back({i, i, Complex(l.yp, l.yq) / rc.sbase});
  }
  grid::ComplexCsr y = net.y;
  for (const auto& e : extra) y.value[y.find(e.row, e.col)] += e.value;

  const grid::NewtonResult s = grid::solve_newton(y, role, scheduled, vm, va, options.newton, current_load);
  OperatingPoint op;
  op.converged = s.converged;
  op.singular = s.singular;
  op.iterations = s.iterations;
  op.mismatch = s.mismatch;
  op.voltage = s.voltage;
  for (std::size_t i = 0; i < n; ++i) {
    const double change = std::abs(op.voltage[i] - net.buses[i].stored_voltage);
    if (change > op.largest_voltage_change) {
      op.largest_voltage_change = change;
      op.largest_change_bus = net.buses[i].number;
    }
  }
  // Generation at each bus: what the network and the loads take.
  std::vector<Complex> generation(n);
  for (std::size_t i = 0; i < n; ++i) generation[i] = s.injection[i] + current_load[i] * std::abs(op.voltage[i]);
  for (const RawLoad& l : rc.loads)
    if (l.status != 0 && net.index_of.count(l.bus) != 0)
      generation[net.bus_index(l.bus)] += Complex(l.pl, l.ql) / rc.sbase;
  std::vector<Complex> stored(n);
  for (const RawGenerator& g : rc.generators)
    if (g.status != 0 && net.index_of.count(g.bus) != 0) stored[net.bus_index(g.bus)] += Complex(g.pg, g.qg) / rc.sbase;
  op.generator_power.assign(rc.generators.size(), Complex());
  for (std::size_t k = 0; k < rc.generators.size(); ++k) {
    const RawGenerator& g = rc.generators[k];
    if (g.status == 0 || net.index_of.count(g.bus) == 0) continue;
    const std::size_t i = net.bus_index(g.bus);
    const double share = mbase_sum[i] > 0.0 ? g.mbase / mbase_sum[i] : 1.0 / machines[i];
    op.generator_power[k] = Complex(g.pg, g.qg) / rc.sbase + (generation[i] - stored[i]) * share;
  }
  char text[320];
  std::snprintf(text, sizeof text,
                "power flow: %s%s in %d iterations from the stored voltages, largest mismatch %.3e p.u. (%.3e MVA); "
                "largest change from the stored voltage %.3e p.u. at bus %d",
                op.converged ? "converged" : "NOT converged", op.singular ? " (singular Jacobian)" : "", op.iterations,
                op.mismatch, op.mismatch * rc.sbase, op.largest_voltage_change, op.largest_change_bus);
  op.summary = text;
  return op;
}

}  // namespace lsdae::psse
