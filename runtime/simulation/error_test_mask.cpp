// runtime/simulation/error_test_mask.cpp -- see error_test_mask.h.
#include "simulation/error_test_mask.h"

#include "structure/matching.h"

namespace lsdae::simulation {

std::vector<double> error_test_mask(const structure::DaeSystem& system, const structure::Index1System& index1) {
  using structure::UnknownKind;
  const std::size_t n = index1.unknowns.size();
  std::vector<double> mask(n, 1.0);
  if (n == 0 || index1.rows.size() != n) return mask;
  auto differential = [&](std::size_t k) { return index1.unknowns[k].kind == UnknownKind::differential; };

  // The system for (ẋ, z) at given x: node k is ẋ_k for a differential
  // unknown k (its x_k is known), the unknown itself otherwise.
  std::vector<std::vector<std::size_t>> rows(n);
  for (std::size_t r = 0; r < n; ++r)
    for (const std::size_t c : system.incidence(index1.rows[r])) {
      const std::size_t k = index1.column_to_unknown[c];
      if (k >= n) continue;
      if (differential(k) && system.layout.var(c).block != structure::Block::derivative) continue;
      rows[r].push_back(k);
    }
  const structure::Pattern graph = structure::Pattern::from_rows(n, rows);
  const structure::Matching matching = structure::maximum_matching(graph);
  if (!matching.perfect()) return mask;

  // dependents[i]: the algebraic unknowns whose matched row contains algebraic unknown i.
  std::vector<std::vector<std::size_t>> dependents(n);
  std::vector<std::size_t> queue;
  std::vector<bool> depends(n, false);
  for (std::size_t j = 0; j < n; ++j) {
    if (differential(j)) continue;
    const std::size_t r = matching.column_to_row[j];
    for (const std::size_t i : graph.row(r)) {
      if (i == j) continue;
      if (differential(i)) {
        if (!depends[j]) depends[j] = true, queue.push_back(j);
      } else {
        dependents[i].push_back(j);
      }
    }
  }
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (const std::size_t j : dependents[queue[q]])
      if (!depends[j]) {
        depends[j] = true;
        queue.push_back(j);
      }
  for (std::size_t k = 0; k < n; ++k)
    if (depends[k]) mask[k] = 0.0;
  return mask;
}

}  // namespace lsdae::simulation
