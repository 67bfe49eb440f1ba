// models/kit/projection.cpp
#include "kit/projection.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace lsdae::kit {

bool minimum_norm_step(const double* D, const double* C, std::size_t m, std::size_t n, double* S) {
  std::fill(S, S + n, 0.0);
  if (m == 0) return true;
  // A = D D^T (m x m), w = -C.
  std::vector<double> A(m * m, 0.0), w(m);
  double largest = 0.0;
  for (std::size_t i = 0; i < m; ++i) {
    w[i] = -C[i];
    if (!std::isfinite(w[i])) return false;
    for (std::size_t j = 0; j < m; ++j) {
      double sum = 0.0;
      for (std::size_t k = 0; k < n; ++k) sum += D[i * n + k] * D[j * n + k];
      A[i * m + j] = sum;
    }
    if (!std::isfinite(A[i * m + i])) return false;
    largest = std::max(largest, A[i * m + i]);
  }
  if (largest <= 0.0) return false;
  const double tiny = 1e-13 * largest;
  // Gaussian elimination with partial pivoting.
  for (std::size_t col = 0; col < m; ++col) {
    std::size_t pivot = col;
    for (std::size_t r = col + 1; r < m; ++r)
      if (std::fabs(A[r * m + col]) > std::fabs(A[pivot * m + col])) pivot = r;
    if (std::fabs(A[pivot * m + col]) <= tiny) return false;
    if (pivot != col) {
      for (std::size_t k = 0; k < m; ++k) std::swap(A[col * m + k], A[pivot * m + k]);
      std::swap(w[col], w[pivot]);
    }
    for (std::size_t r = col + 1; r < m; ++r) {
      const double f = A[r * m + col] / A[col * m + col];
      for (std::size_t k = col; k < m; ++k) A[r * m + k] -= f * A[col * m + k];
      w[r] -= f * w[col];
    }
  }
  for (std::size_t i = m; i-- > 0;) {
    double sum = w[i];
    for (std::size_t k = i + 1; k < m; ++k) sum -= A[i * m + k] * w[k];
    w[i] = sum / A[i * m + i];
  }
  // S = D^T w.
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t k = 0; k < n; ++k) S[k] += D[i * n + k] * w[i];
  for (std::size_t k = 0; k < n; ++k)
    if (!std::isfinite(S[k])) return false;
  return true;
}

}  // namespace lsdae::kit
