// models/psse/system/system_islands.cpp -- System: the islands a trip leaves
// without a source are de-energized (islands.h, system.h "Islands").
#include <string>

#include "psse/system/islands.h"
#include "psse/system/system_impl.h"

namespace lsdae::psse {

void System::Impl::update_islands(double* v) {
  std::vector<bool> open(net.branches.size(), false);
  bool tripped = false;
  for (std::size_t k = 0; k < active.trips.size(); ++k) {
    if (!disturbances.trip_open(v, k)) continue;
    for (std::size_t b : active.trips[k].target->branches) open[b] = true;
    tripped = true;
  }
  for (std::size_t k = 0; k < active.gen_trips.size(); ++k) tripped = tripped || disturbances.gen_tripped(v, k);
  if (!tripped) return;
  std::vector<bool> source(net.buses.size(), false);
  for (std::size_t k = 0; k < slots.size(); ++k)
    if (!work[k].frozen && slots[k].placed.unit.rfind("G:", 0) == 0) source[slots[k].placed.bus] = true;
  const Islands islands = find_islands(net, open, source);
  bus_dead.resize(net.buses.size(), false);
  double lost = 0, dead = 0;
  for (std::size_t i = 0; i < net.buses.size(); ++i) {
    bus_dead[i] = bus_dead[i] || islands.dead[i];
    dead += bus_dead[i] ? 1.0 : 0.0;
  }
  for (std::size_t k = 0; k < slots.size(); ++k) {
    SlotState& s = slots[k];
    SlotHot& h = work[k];
    if (h.frozen || !bus_dead[s.placed.bus]) continue;
    // The load's demand at the operating point (check_rest), not its power at the trip: a
    // fault cleared by the trip leaves the island's voltage, and so that power, near zero.
    if (s.network_device && s.placed.unit.rfind("L:", 0) == 0) lost += s.p_operating;
    h.frozen = true;
    s.z_frozen.resize(s.z_vr.size());
    for (std::size_t j = 0; j < s.z_vr.size(); ++j) s.z_frozen[j] = v[s.z_vr[j]];
  }
  v[dead_buses_vr] = dead;
  v[lost_load_vr] += lost;
}

}  // namespace lsdae::psse
