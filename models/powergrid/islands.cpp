// models/powergrid/islands.cpp -- see islands.h.
#include "powergrid/islands.h"

#include <algorithm>
#include <stdexcept>

namespace lsdae::powergrid {

DeadIsland dead_island(const GridData& grid, std::size_t trip_branch) {
  if (trip_branch >= grid.branches.size()) throw std::out_of_range("dead_island: no such branch");
  const std::size_t n = grid.y.n;
  // Adjacency by branch, the tripped one left out (parallel branches stay).
  std::vector<std::size_t> start(n + 1, 0), next;
  for (std::size_t k = 0; k < grid.branches.size(); ++k) {
    if (k == trip_branch) continue;
    ++start[grid.branches[k].from + 1];
    ++start[grid.branches[k].to + 1];
  }
  for (std::size_t i = 0; i < n; ++i) start[i + 1] += start[i];
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  next.resize(start[n]);
  for (std::size_t k = 0; k < grid.branches.size(); ++k) {
    if (k == trip_branch) continue;
    const GridBranch& b = grid.branches[k];
    next[fill[b.from]++] = b.to;
    next[fill[b.to]++] = b.from;
  }
  std::vector<bool> machine(n, false);
  for (const GridMachine& m : grid.machines) machine[m.bus] = true;

  // The component of `root`; stops early when it finds a machine or `other` (both: nothing dead there).
  const GridBranch& tripped = grid.branches[trip_branch];
  auto side = [&](std::size_t root, std::size_t other, std::vector<std::size_t>& seen_buses) {
    std::vector<bool> seen(n, false);
    seen_buses.assign(1, root);
    seen[root] = true;
    for (std::size_t head = 0; head < seen_buses.size(); ++head) {
      const std::size_t i = seen_buses[head];
      if (machine[i] || i == other) return false;
      for (std::size_t p = start[i]; p < start[i + 1]; ++p)
        if (!seen[next[p]]) seen[next[p]] = true, seen_buses.push_back(next[p]);
    }
    return true;  // closed, without a machine
  };
  DeadIsland out;
  for (auto [root, other] : {std::pair{tripped.to, tripped.from}, {tripped.from, tripped.to}}) {
    std::vector<std::size_t> buses;
    if (side(root, other, buses)) {
      std::sort(buses.begin(), buses.end());
      out.buses = std::move(buses);
      out.ground = root;
      break;
    }
  }
  return out;
}

}  // namespace lsdae::powergrid
