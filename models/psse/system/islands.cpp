// models/psse/system/islands.cpp -- see islands.h.
#include "psse/system/islands.h"

#include <numeric>
#include <utility>

namespace lsdae::psse {

Islands find_islands(const Network& net, const std::vector<bool>& open, const std::vector<bool>& source) {
  const std::size_t n = net.buses.size();
  std::vector<std::size_t> parent(n), size(n, 1);
  std::iota(parent.begin(), parent.end(), std::size_t{0});
  auto root = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (std::size_t k = 0; k < net.branches.size(); ++k) {
    if (open[k]) continue;
    std::size_t a = root(net.branches[k].from), b = root(net.branches[k].to);
    if (a == b) continue;
    if (size[a] < size[b]) std::swap(a, b);
    parent[b] = a;
    size[a] += size[b];
  }
  Islands out;
  out.island_of.assign(n, 0);
  std::vector<std::size_t> number(n, n);
  std::vector<bool> fed;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = root(i);
    if (number[r] == n) {
      number[r] = out.count++;
      fed.push_back(false);
    }
    out.island_of[i] = number[r];
    if (source[i]) fed[number[r]] = true;
  }
  out.dead.assign(n, false);
  for (std::size_t i = 0; i < n; ++i) out.dead[i] = !fed[out.island_of[i]];
  for (bool f : fed) out.dead_count += f ? 0 : 1;
  return out;
}

}  // namespace lsdae::psse
