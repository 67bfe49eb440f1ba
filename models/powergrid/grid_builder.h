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

#include "powergrid/grid_data.h"
#include "powergrid/machines.h"

namespace lsdae::powergrid {

GridData build_grid_data(const Case& c, const PowerFlowResult& flow, double frequency,
                         const MachineDefaults& defaults = {});

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_GRID_BUILDER_H
