// structure/iteration_pattern.cpp -- see iteration_pattern.h.
#include "structure/iteration_pattern.h"

namespace lsdae::structure {

Pattern iteration_pattern(const DaeSystem& system, const Index1System& index1) {
  std::size_t nnz = 0;
  for (const EquationRef e : index1.rows) nnz += system.incidence(e).size();
  PatternBuilder builder(index1.unknowns.size(), index1.rows.size(), nnz);
  std::vector<std::size_t> row;
  for (const EquationRef e : index1.rows) {
    row.clear();
    for (const std::size_t c : system.incidence(e)) row.push_back(index1.column_to_unknown[c]);
    builder.add_row(row);  // sorts and merges x_i / ẋ_i of a differential state
  }
  return std::move(builder).build();
}

}  // namespace lsdae::structure
