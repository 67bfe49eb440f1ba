// models/powergrid/dense_lu.cpp -- see dense_lu.h.
#include "powergrid/dense_lu.h"

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace lsdae::powergrid {

void DenseComplexLu::factor(std::size_t n, const std::vector<Complex>& a) {
  if (a.size() != n * n)
    throw std::invalid_argument("dense LU: the matrix has " + std::to_string(a.size()) + " entries, expected " +
                                std::to_string(n) + "²");
  n_ = n;
  lu_ = a;
  pivot_.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::abs(lu_[i * n + k]) > std::abs(lu_[p * n + k])) p = i;
    pivot_[k] = p;
    if (lu_[p * n + k] == Complex(0.0, 0.0))
      throw std::runtime_error("dense LU: the network matrix is singular at column " + std::to_string(k) +
                               " (a bus or island without a path to a machine or a shunt?)");
    if (p != k)
      for (std::size_t j = 0; j < n; ++j) std::swap(lu_[k * n + j], lu_[p * n + j]);
    const Complex inv = 1.0 / lu_[k * n + k];
    for (std::size_t i = k + 1; i < n; ++i) {
      Complex& l = lu_[i * n + k];
      if (l == Complex(0.0, 0.0)) continue;
      l *= inv;
      for (std::size_t j = k + 1; j < n; ++j) lu_[i * n + j] -= l * lu_[k * n + j];
    }
  }
}

void DenseComplexLu::solve(std::vector<Complex>& b) const {
  const std::size_t n = n_;
  for (std::size_t k = 0; k < n; ++k) std::swap(b[k], b[pivot_[k]]);
  for (std::size_t i = 1; i < n; ++i)
    for (std::size_t k = 0; k < i; ++k) b[i] -= lu_[i * n + k] * b[k];
  for (std::size_t i = n; i-- > 0;) {
    for (std::size_t k = i + 1; k < n; ++k) b[i] -= lu_[i * n + k] * b[k];
    b[i] /= lu_[i * n + i];
  }
}

}  // namespace lsdae::powergrid
