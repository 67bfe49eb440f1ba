// models/powergrid/klu_solver.h -- KLU through models/gridcore (see there).
#ifndef LSDAE_MODELS_POWERGRID_KLU_SOLVER_H
#define LSDAE_MODELS_POWERGRID_KLU_SOLVER_H

#include "gridcore/klu_solver.h"

namespace lsdae::powergrid {

using grid::KluSolver;

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_KLU_SOLVER_H
