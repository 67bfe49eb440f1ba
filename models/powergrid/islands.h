// models/powergrid/islands.h -- the part of a PowerGrid network that a
// branch trip cuts off from every machine (a dead island).
//
// Algorithm: breadth-first search over the in-service branches but the
// tripped one, from the branch's two ends. When one end reaches no bus with
// a machine, its side is DEAD: no source feeds it once the branch is open.
// (When both ends are still connected, or both sides hold a machine, no bus
// is dead.) Cost O(N + B) per call for N buses and B branches; the model
// calls it once per trip branch (the result is cached), at an event.
//
// What the model does with a dead island (model.cpp, README.md "Islands"):
// the tripped branch's end inside it is grounded through kGroundConductance,
// so that the island's equations (Y_island + G) V = 0, singular for an
// island without a load or shunt (every row of Y_island sums to zero), have
// the one solution V = 0: its voltages go to zero, and what it drew through
// the branch just before the trip is reported as the load lost. The entry
// grounded is the diagonal of a trip candidate's end, which the manifest
// already declares as switching (discrete), so no dependency claim changes.
//
// Contract: `trip_branch` < grid.branches.size(); the result's `ground` is
// kNoIndex exactly when `buses` is empty.
#ifndef LSDAE_MODELS_POWERGRID_ISLANDS_H
#define LSDAE_MODELS_POWERGRID_ISLANDS_H

#include <cstddef>
#include <vector>

#include "powergrid/disturbance.h"
#include "powergrid/grid_data.h"

namespace lsdae::powergrid {

// Conductance (p.u. on the system base) that grounds a dead island: large
// against nothing (the island carries no current once it is dead), so its
// value only scales the Jacobian's entry.
inline constexpr double kGroundConductance = 1.0;

struct DeadIsland {
  std::vector<std::size_t> buses;  // bus indices, ascending; empty: no bus is cut off from the machines
  std::size_t ground = kNoIndex;   // the tripped branch's end inside the island
};

DeadIsland dead_island(const GridData& grid, std::size_t trip_branch);

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_ISLANDS_H
