// models/powergrid/grid_builder.cpp -- see grid_builder.h.
#include "powergrid/grid_builder.h"

#include <cmath>

namespace lsdae::powergrid {

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
  return d;
}

}  // namespace lsdae::powergrid
