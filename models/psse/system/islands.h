// models/psse/system/islands.h -- which buses a trip cuts off from every
// source: the islands of the network with some branches open.
//
// Algorithm: union-find (path halving, union by size) over the stamps of
// Network::branches that are not open; an island is ENERGIZED when one of
// its buses holds a source (a machine that is not tripped), DEAD otherwise.
// Cost O(B α(N)) for N buses and B stamps; called at events only.
//
// What the system does with a dead island (system.h, "Islands"): every
// component at its buses is frozen (no current, its algebraic variables
// held), and each of its buses whose diagonal may change (it has a device,
// or an opened branch ends there: the manifest declares that entry as
// changing) is grounded through 1 p.u. of conductance. Every dead island has
// such a bus (it was cut off by an opened branch or held a tripped machine),
// so with lossy branches its equations (Y + G) V = 0 have the one solution
// V = 0: its voltages go to zero, its loads are dropped (their
// power at the moment of the trip is reported), and the energized islands
// run on. A trip never closes again, so an island never comes back.
//
// Contract: `open` has one entry per Network::branches stamp and `source`
// one per bus; the result has one entry per bus.
#ifndef LSDAE_MODELS_PSSE_SYSTEM_ISLANDS_H
#define LSDAE_MODELS_PSSE_SYSTEM_ISLANDS_H

#include <cstddef>
#include <vector>

#include "psse/network/network.h"

namespace lsdae::psse {

struct Islands {
  std::vector<std::size_t> island_of;  // per bus: its island, 0 .. count - 1
  std::vector<bool> dead;              // per bus: in an island without a source
  std::size_t count = 0, dead_count = 0;
};

Islands find_islands(const Network& net, const std::vector<bool>& open, const std::vector<bool>& source);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_SYSTEM_ISLANDS_H
