// models/gridcore/complex_csr.h -- a square complex sparse matrix in
// compressed sparse row form (0-based), the shape of every admittance matrix
// in models/powergrid/ and models/psse/.
//
// Invariants (established by whoever fills it, relied on by all readers and
// checked only by check_csr()): row_start has n + 1 entries, starting at 0 and
// non-decreasing; the columns of a row are strictly increasing and < n; every
// row holds its diagonal entry (possibly 0), so a fault shunt or a generator
// admittance always has a place in the pattern.
#ifndef LSDAE_MODELS_GRIDCORE_COMPLEX_CSR_H
#define LSDAE_MODELS_GRIDCORE_COMPLEX_CSR_H

#include <complex>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace lsdae::grid {

using Complex = std::complex<double>;

struct ComplexCsr {
  std::size_t n = 0;
  std::vector<std::size_t> row_start;  // n + 1
  std::vector<std::size_t> column;     // nnz
  std::vector<Complex> value;  // nnz

  std::size_t nnz() const { return column.size(); }

  // Position of entry (row, col) in column/value, or nnz() when it is not in
  // the pattern. O(log(row length)).
  std::size_t find(std::size_t row, std::size_t col) const {
    std::size_t lo = row_start[row], hi = row_start[row + 1];
    while (lo < hi) {
      const std::size_t mid = (lo + hi) / 2;
      if (column[mid] < col) lo = mid + 1;
      else hi = mid;
    }
    return lo < row_start[row + 1] && column[lo] == col ? lo : nnz();
  }
};

// Throws std::invalid_argument naming `where`, the row and what is wrong when
// the invariants above do not hold.
inline void check_csr(const ComplexCsr& a, const std::string& where) {
  auto fail = [&](const std::string& what) { throw std::invalid_argument(where + ": " + what + " → regenerate the file"); };
  if (a.row_start.size() != a.n + 1 || a.row_start.front() != 0 || a.row_start.back() != a.column.size() ||
      a.value.size() != a.column.size())
    fail("admittance matrix arrays have inconsistent sizes");
  for (std::size_t i = 0; i < a.n; ++i) {
    if (a.row_start[i + 1] < a.row_start[i]) fail("row " + std::to_string(i) + " has a negative length");
    bool diagonal = false;
    for (std::size_t p = a.row_start[i]; p < a.row_start[i + 1]; ++p) {
      if (a.column[p] >= a.n) fail("row " + std::to_string(i) + " has column " + std::to_string(a.column[p]) + " ≥ n");
      if (p > a.row_start[i] && a.column[p] <= a.column[p - 1])
        fail("row " + std::to_string(i) + ": columns are not strictly increasing");
      diagonal = diagonal || a.column[p] == i;
    }
    if (!diagonal) fail("row " + std::to_string(i) + " has no diagonal entry");
  }
}

// One entry to add into a matrix.
struct ComplexTriplet {
  std::size_t row, col;
  Complex value;
};

// Sums the triplets into an n-by-n CSR matrix (duplicates added; every
// diagonal present, zero if no triplet touches it). Rows must be < n.
// Cost O(t log t) for t triplets.
ComplexCsr assemble_csr(std::size_t n, const std::vector<ComplexTriplet>& triplets);

}  // namespace lsdae::grid

#endif  // LSDAE_MODELS_GRIDCORE_COMPLEX_CSR_H
