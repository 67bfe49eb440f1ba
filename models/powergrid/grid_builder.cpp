// models/powergrid/grid_builder.cpp -- see grid_builder.h.
#include "powergrid/grid_builder.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>

#include "powergrid/power_flow.h"

namespace lsdae::powergrid {

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

bool finite(Complex z) { return std::isfinite(z.real()) && std::isfinite(z.imag()); }

std::string at_line(const Case& c, int line) { return c.path + ":" + std::to_string(line) + ": "; }

// Every number read_grid_data checks, checked here where the case's rows are
// known (grid_builder.h, contract). The voltages and the branches' admittances
// need no check: a converged power flow has finite injections at every bus
// (gridcore's Newton refuses a non-finite one, slack buses included). The
// loads' admittances (P_d - j Q_d)/(S_b |V|^2) come after it, and the machines.
void check_values(const Case& c, const GridData& d) {
  for (std::size_t i = 0; i < d.y.n; ++i) {
    const Bus& b = c.buses[i];
    for (std::size_t p = d.y.row_start[i]; p < d.y.row_start[i + 1]; ++p)
      if (!finite(d.y.value[p]))
        throw CaseError(at_line(c, b.line) + "bus " + std::to_string(b.number) + ": its admittance-matrix entry (" +
                        std::to_string(b.number) + ", " + std::to_string(d.bus_number[d.y.column[p]]) +
                        ") is not finite → " + number(d.y.value[p].real()) + " + j" + number(d.y.value[p].imag()) +
                        " (branches, GS, BS, and PD, QD as admittances, on baseMVA = " + number(c.base_mva) +
                        ") → give loads, shunts and branch admittances that are finite per unit on baseMVA");
  }
  for (const GridMachine& m : d.machines) {
    const Generator& g = c.generators[static_cast<std::size_t>(m.case_row) - 1];
    bool ok = m.h > 0 && m.xd > 0 && m.d >= 0 && m.e > 0;
    for (double v : {m.rating_mva, m.h, m.d, m.xd, m.e, m.delta0, m.pm, m.p, m.q}) ok = ok && std::isfinite(v);
    if (!ok)
      throw CaseError(at_line(c, g.line) + "generator at bus " + std::to_string(g.bus) +
                      ": its classical machine is not a finite machine at rest → rating " + number(m.rating_mva) +
                      " MVA, H " + number(m.h) + " s, D " + number(m.d) + ", x'd " + number(m.xd) + ", E' " +
                      number(m.e) + ", delta0 " + number(m.delta0) + ", Pm " + number(m.pm) + " (MBASE " +
                      number(g.mbase) + ", PMAX " + number(g.pmax) + ", baseMVA " + number(c.base_mva) +
                      ") → give MBASE, PMAX, PG and QG in MW/MVA of a real machine, and a sensible baseMVA");
  }
}

}  // namespace

GridData build_grid_data(const Case& c, const PowerFlowResult& flow, double frequency,
                         const MachineDefaults& defaults) {
  const BusNumbering buses = number_buses(c);
  GridData d;
  d.name = c.name;
  d.base_mva = c.base_mva;
  d.frequency = frequency;
  d.power_flow_iterations = flow.iterations;
  d.power_flow_mismatch = flow.mismatch;
  d.bus_number = buses.number;
  d.voltage = flow.voltage;

  d.y = make_ybus(c, buses);
  for (std::size_t i = 0; i < d.y.n; ++i) {
    const Bus& b = c.buses[i];
    if (b.pd == 0.0 && b.qd == 0.0) continue;
    const double v2 = std::norm(flow.voltage[i]);
    d.y.value[d.y.find(i, i)] += Complex(b.pd, -b.qd) / (c.base_mva * v2);
  }

  for (std::size_t row = 0; row < c.branches.size(); ++row) {
    const Branch& br = c.branches[row];
    if (!br.in_service) continue;
    const BranchAdmittance y = branch_admittance(br);
    d.branches.push_back({static_cast<int>(row) + 1, buses.index.at(br.from), buses.index.at(br.to), y.yff, y.yft,
                          y.ytf, y.ytt});
  }
  d.machines = initialize_machines(c, flow, defaults);
  check_values(c, d);
  return d;
}

GridData solve_and_build_grid_data(const Case& c, double frequency,
                                   const std::function<void(const std::string&)>& report) {
  PowerFlowOptions options;
  PowerFlowResult flow = solve_power_flow(c, options);
  report(summary(c, flow) + " (flat start)");
  if (!flow.converged) {
    options.flat_start = false;
    flow = solve_power_flow(c, options);
    report(summary(c, flow) + " (from the stored voltages)");
  }
  if (flow.singular)
    throw CaseError(c.path + ": the power flow's Jacobian is singular (after " + std::to_string(flow.iterations) +
                    " iterations from the stored voltages) → check that every bus is tied by in-service branches "
                    "to the slack bus of its island and that no branch has zero impedance");
  if (!flow.converged)
    throw CaseError(c.path + ": the power flow does not converge (largest mismatch " + std::to_string(flow.mismatch) +
                    " p.u.) → check the case data");
  double dvm = 0, dva = 0;
  for (std::size_t i = 0; i < c.buses.size(); ++i) {
    dvm = std::max(dvm, std::abs(std::abs(flow.voltage[i]) - c.buses[i].vm));
    double diff = std::arg(flow.voltage[i]) * 180.0 / std::numbers::pi - c.buses[i].va;
    diff = std::remainder(diff, 360.0);
    dva = std::max(dva, std::abs(diff));
  }
  char differences[96];
  std::snprintf(differences, sizeof differences, "|V| %.3e p.u., angle %.3e deg", dvm, dva);
  report(c.name + ": largest difference to the stored solution: " + differences);
  return build_grid_data(c, flow, frequency);
}

}  // namespace lsdae::powergrid
