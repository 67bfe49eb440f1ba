// runtime/simulation/error_test_mask.cpp -- see error_test_mask.h.
#include "simulation/error_test_mask.h"

#include "structure/matching.h"

namespace lsdae::simulation {

std::vector<double> error_test_mask(const structure::DaeSystem& system, const structure::Index1System& index1,
                                    const structure::Pattern& iteration) {
  using structure::UnknownKind;
  const std::size_t n = index1.unknowns.size();
  std::vector<double> mask(n, 1.0);
  if (n == 0 || iteration.rows() != n || iteration.cols() != n || index1.rows.size() != n) return mask;
  const structure::Matching matching = structure::maximum_matching(iteration);
  if (!matching.perfect()) return mask;
  auto differential = [&](std::size_t k) { return index1.unknowns[k].kind == UnknownKind::differential; };

  // Rows that contain ẋ of a differential state.
  std::vector<bool> row_has_xdot(n, false);
  for (std::size_t r = 0; r < n; ++r)
    for (const std::size_t c : system.incidence(index1.rows[r], structure::Block::derivative))
      if (differential(index1.column_to_unknown[c])) {
        row_has_xdot[r] = true;
        break;
      }

  // dependents[i]: the algebraic unknowns whose determining row contains algebraic unknown i.
  std::vector<std::vector<std::size_t>> dependents(n);
  std::vector<std::size_t> queue;
  std::vector<bool> depends(n, false);
  for (std::size_t j = 0; j < n; ++j) {
    if (differential(j)) continue;
    const std::size_t r = matching.column_to_row[j];
    if (row_has_xdot[r]) {
      depends[j] = true;
      queue.push_back(j);
    }
    for (const std::size_t i : iteration.row(r))
      if (i != j && !differential(i)) dependents[i].push_back(j);
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
