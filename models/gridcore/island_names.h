// models/gridcore/island_names.h -- the names under which the grid FMUs
// (PowerGrid: models/powergrid/islands.h; PsseGrid: models/psse/system/islands.h)
// report the islands a trip leaves without a machine, and the sweep label their
// contingency sources give such a row (lsdae/sweep.h, OutcomeLabel): one home
// for a contract that the FMUs' variables and both sources must spell alike.
// PowerGrid's source (models/powergrid/scenarios/) may include public headers
// only (tests/runtime/layers.cmake) and spells the names itself; the island
// sweep tests (tests/models/powergrid, tests/models/psse) check the labels.
//
//   islands.dead_buses  discrete: buses de-energized so far (the outcome happened when > 0)
//   islands.lost_load   discrete: the de-energized loads' demand at the operating point, MW
//
// A row whose run ends with islands.dead_buses > 0 is labelled
// "islanded: islands.lost_load = <MW> MW (islands.dead_buses = <n>)".
#ifndef LSDAE_MODELS_GRIDCORE_ISLAND_NAMES_H
#define LSDAE_MODELS_GRIDCORE_ISLAND_NAMES_H

namespace lsdae::grid {

inline constexpr const char* kDeadBusesName = "islands.dead_buses";
inline constexpr const char* kLostLoadName = "islands.lost_load";
inline constexpr const char* kIslandedLabel = "islanded";
inline constexpr const char* kLostLoadUnit = "MW";

}  // namespace lsdae::grid

#endif  // LSDAE_MODELS_GRIDCORE_ISLAND_NAMES_H
