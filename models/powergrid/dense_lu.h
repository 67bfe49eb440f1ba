// models/powergrid/dense_lu.h -- LU factorization with partial pivoting of a
// dense complex matrix, for the PowerGrid FMU's ODE mode (model.cpp), where the
// FMU solves the network equations itself (no KLU inside the FMU).
//
// Algorithm: Doolittle elimination with row pivoting on the largest modulus
// (Golub & Van Loan, Matrix Computations, 4th ed., algorithm 3.4.1), in place,
// row-major. factor() costs O(n³), solve() O(n²); both allocate nothing after
// the first factor() of a size. Meant for the small cases (tens to hundreds of
// buses): the model refuses ODE mode above kMaxOdeBuses.
//
// factor() throws std::runtime_error naming the column when a pivot is exactly
// zero (a singular network matrix, e.g. an island without a machine).
#ifndef LSDAE_MODELS_POWERGRID_DENSE_LU_H
#define LSDAE_MODELS_POWERGRID_DENSE_LU_H

#include <cstddef>
#include <vector>

#include "powergrid/complex_csr.h"

namespace lsdae::powergrid {

class DenseComplexLu {
 public:
  // `a` is n×n, row-major (a[i * n + k]); it is copied.
  void factor(std::size_t n, const std::vector<Complex>& a);
  // x = A⁻¹ b, in place.
  void solve(std::vector<Complex>& b) const;
  std::size_t size() const { return n_; }

 private:
  std::size_t n_ = 0;
  std::vector<Complex> lu_;
  std::vector<std::size_t> pivot_;  // row exchanged with row k at step k
};

}  // namespace lsdae::powergrid

#endif  // LSDAE_MODELS_POWERGRID_DENSE_LU_H
