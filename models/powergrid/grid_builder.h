// models/powergrid/grid_builder.h -- turns a case and its solved power flow
// into the GridData an FMU ships (see grid_data.h): Ybus plus the loads as
// constant admittances y_L = (P_d − j Q_d)/(S_b |V|²) at the operating point,
// the in-service branches and the initialized machines.
//
// With these, the network equations of the model,
//     (Ybus + Y_L) V = Σ_machines (E'e^(jδ) − V_i)/(j x'd),
// hold at the operating point up to the power-flow mismatch at buses without
// machines (at buses with machines, the machines take up the mismatch).
#ifndef LSDAE_MODELS_POWERGRID_GRID_BUILDER_H
#define LSDAE_MODELS_POWERGRID_GRID_BUILDER_H

#include <functional>
#include <string>

#include "powergrid/grid_data.h"
#include "powergrid/machines.h"

namespace lsdae::powergrid {

GridData build_grid_data(const Case& c, const PowerFlowResult& flow, double frequency,
                         const MachineDefaults& defaults = {});

// What lsdae_grid_data runs on a case it has read (make_grid_data.cpp): the power
// flow from a flat start and, when that does not converge, from the voltages
// stored in the case; the largest difference to the stored solution; then
// build_grid_data. `report` receives the statistics lines (fixed format) as they
// come. Throws CaseError naming the case file: no bus can be the slack, the
// Jacobian is singular, the power flow does not converge, and build_grid_data's
// refusals. Cost: up to two power flows (power_flow.h) and O(size of the case).
GridData solve_and_build_grid_data(const Case& c, double frequency,
                                   const std::function<void(const std::string&)>& report);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_GRID_BUILDER_H
