// models/gridcore/complex_csr.cpp -- see complex_csr.h.
#include "gridcore/complex_csr.h"

#include <algorithm>

namespace lsdae::grid {

ComplexCsr assemble_csr(std::size_t n, const std::vector<ComplexTriplet>& triplets) {
  std::vector<ComplexTriplet> all = triplets;
  for (std::size_t i = 0; i < n; ++i) all.push_back({i, i, Complex(0.0, 0.0)});
  std::sort(all.begin(), all.end(), [](const ComplexTriplet& a, const ComplexTriplet& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
  });
  ComplexCsr a;
  a.n = n;
  a.row_start.assign(n + 1, 0);
  for (std::size_t k = 0; k < all.size(); ++k) {
    if (k > 0 && all[k].row == all[k - 1].row && all[k].col == all[k - 1].col) {
      a.value.back() += all[k].value;
      continue;
    }
    a.column.push_back(all[k].col);
    a.value.push_back(all[k].value);
    ++a.row_start[all[k].row + 1];
  }
  for (std::size_t i = 0; i < n; ++i) a.row_start[i + 1] += a.row_start[i];
  return a;
}

}  // namespace lsdae::grid
