// kernels/compressed_jacobian.cpp -- see compressed_jacobian.h.
#include "kernels/compressed_jacobian.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace lsdae::kernels {

CompressedJacobian::CompressedJacobian(const structure::Pattern& pattern, const structure::Coloring& coloring,
                                       std::size_t threads)
    : pattern_(pattern), coloring_(coloring), threads_(std::max<std::size_t>(1, threads)) {
  if (pattern.rows() != pattern.cols())
    throw std::invalid_argument("compressed Jacobian: the pattern is " + std::to_string(pattern.rows()) + " × " +
                                std::to_string(pattern.cols()) + ", not square");
  if (coloring.color.size() != pattern.cols())
    throw std::invalid_argument("compressed Jacobian: the colouring has " + std::to_string(coloring.color.size()) +
                                " columns, the pattern " + std::to_string(pattern.cols()));
  const std::size_t n = pattern.cols();
  work_.resize(threads_);
  for (auto& w : work_) {
    w.y.resize(n);
    w.yp.resize(n);
    w.r.resize(n);
  }
}

EvalStatus CompressedJacobian::evaluate_finite_differences(std::span<ResidualFunction* const> pool,
                                                           const JacobianPoint& point, std::span<double> values) {
  if (pool.size() < threads_) throw std::invalid_argument("compressed Jacobian: the pool is smaller than the threads");
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  const double srur = std::sqrt(std::numeric_limits<double>::epsilon());
  const long colors = static_cast<long>(coloring_.colors);
  int worst = 0;  // 0 ok, 1 recoverable, 2 fatal

#pragma omp parallel for num_threads(static_cast<int>(threads_)) schedule(dynamic, 1) reduction(max : worst)
  for (long c = 0; c < colors; ++c) {
    const auto tid = static_cast<std::size_t>(omp_get_thread_num());
    Workspace& w = work_[tid];
    std::copy(point.y.begin(), point.y.end(), w.y.begin());
    std::copy(point.yp.begin(), point.yp.end(), w.yp.begin());
    auto group = coloring_.group(static_cast<std::size_t>(c));
    for (std::size_t j : group) {
      double scale = std::max({std::fabs(point.y[j]), std::fabs(point.h * point.yp[j]),
                               point.weights.empty() ? 1.0 : 1.0 / point.weights[j],
                               point.nominal.empty() ? 1.0 : point.nominal[j]});
      double inc = srur * scale;
      if (point.h * point.yp[j] < 0.0) inc = -inc;
      inc = (point.y[j] + inc) - point.y[j];  // the increment actually representable
      w.y[j] += inc;
      w.yp[j] += point.cj * inc;
    }
    EvalStatus status = pool[tid]->residual(point.t, w.y, w.yp, w.r);
    if (status != EvalStatus::ok) {
      worst = std::max(worst, status == EvalStatus::fatal ? 2 : 1);
      continue;
    }
    for (std::size_t j : group) {
      const double inv = 1.0 / (w.y[j] - point.y[j]);
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p) {
        const std::size_t row = row_idx[p];
        values[p] = (w.r[row] - point.residual[row]) * inv;
      }
    }
  }
  ++counters_.evaluations;
  counters_.residual_calls += coloring_.colors;
  return worst == 0 ? EvalStatus::ok : worst == 1 ? EvalStatus::recoverable : EvalStatus::fatal;
}

EvalStatus CompressedJacobian::evaluate_directional(std::span<ResidualFunction* const> pool,
                                                    const JacobianPoint& point, std::span<double> values) {
  if (pool.size() < threads_) throw std::invalid_argument("compressed Jacobian: the pool is smaller than the threads");
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  const long colors = static_cast<long>(coloring_.colors);
  int worst = 0;

#pragma omp parallel for num_threads(static_cast<int>(threads_)) schedule(dynamic, 1) reduction(max : worst)
  for (long c = 0; c < colors; ++c) {
    const auto tid = static_cast<std::size_t>(omp_get_thread_num());
    Workspace& w = work_[tid];
    auto group = coloring_.group(static_cast<std::size_t>(c));
    EvalStatus status = pool[tid]->jacobian_columns(point.t, point.y, point.yp, point.cj, group, w.r);
    if (status != EvalStatus::ok) {
      worst = std::max(worst, status == EvalStatus::fatal ? 2 : 1);
      continue;
    }
    for (std::size_t j : group)
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p) values[p] = w.r[row_idx[p]];
  }
  ++counters_.evaluations;
  counters_.directional_calls += coloring_.colors;
  return worst == 0 ? EvalStatus::ok : worst == 1 ? EvalStatus::recoverable : EvalStatus::fatal;
}

}  // namespace lsdae::kernels
