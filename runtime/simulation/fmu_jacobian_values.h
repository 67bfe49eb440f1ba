// runtime/simulation/fmu_jacobian_values.h -- the numeric values the
// dummy-derivative selection asks for (structure::JacobianCallback), from an
// FMU instance at its current point.
//
// Each requested entry is ∂(row)/∂(column) for a formulation or invariant
// row and a column ẋ_i, x_i or z_j. Entries arrive sorted by column, so one
// fmi3GetDirectionalDerivative per distinct column serves all of them: the
// column's variable is the only known (seed 1), the rows' variables are the
// unknowns. A semi-explicit state equation ẋ_i − f_i gives 1 for its own ẋ_i,
// 0 for another ẋ_j and −∂f_i/∂column otherwise (f_i is the derivative
// variable, an unknown of the same call). Cost: one FMU call per column.
// Precondition: the instance provides directional derivatives and is in
// Initialization, Event or Continuous-Time Mode at the point of interest.
#ifndef LSDAE_RUNTIME_SIMULATION_FMU_JACOBIAN_VALUES_H
#define LSDAE_RUNTIME_SIMULATION_FMU_JACOBIAN_VALUES_H

#include "lsdae/instance.h"
#include "simulation/fmu_dae.h"
#include "structure/dae_system.h"
#include "structure/dummy_derivatives.h"

namespace lsdae::simulation {

// The callback keeps references to its arguments.
structure::JacobianCallback fmu_jacobian_values(Instance& instance, const FmuDae& dae,
                                                const structure::DaeSystem& system);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_FMU_JACOBIAN_VALUES_H
