// structure/column_selection.cpp -- see column_selection.h.
#include "structure/column_selection.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "structure/error.h"
#include "structure/messages.h"
#include "structure/pattern.h"

namespace lsdae::structure {

namespace {

using Eigen::Index;

Index idx(std::size_t i) { return static_cast<Index>(i); }

// a better than b as the next pivot (rule 3 of the header).
bool better(std::size_t a, double norm_a, std::size_t b, double norm_b, std::span<const int> priority) {
  if (priority[a] != priority[b]) return priority[a] > priority[b];
  const double scale = std::max(norm_a, norm_b);
  if (std::abs(norm_a - norm_b) > 1e-9 * scale) return norm_a > norm_b;
  return a < b;
}

}  // namespace

ColumnSelection select_columns(const Eigen::MatrixXd& matrix, std::span<const std::size_t> row_height,
                               std::span<const std::size_t> column_height, std::span<const int> column_priority,
                               const ColumnSelectionOptions& options) {
  const std::size_t d = static_cast<std::size_t>(matrix.rows());
  const std::size_t k = static_cast<std::size_t>(matrix.cols());
  if (row_height.size() != d || column_height.size() != k || column_priority.size() != k || d > k)
    throw StructureError(messages::selection_shape(d, k, row_height.size(), column_height.size(),
                                                   column_priority.size()));
  ColumnSelection out;
  if (d == 0) {
    out.success = true;
    out.rcond = 1.0;
    return out;
  }
  for (std::size_t j = 0; j < k; ++j) out.largest_norm = std::max(out.largest_norm, matrix.col(idx(j)).norm());
  const double zero = options.rank_tolerance * out.largest_norm;

  // Rows by height, descending (stable: equal heights keep their order).
  std::vector<std::size_t> rows(d);
  std::iota(rows.begin(), rows.end(), 0);
  std::stable_sort(rows.begin(), rows.end(),
                   [&](std::size_t a, std::size_t b) { return row_height[a] > row_height[b]; });

  Eigen::MatrixXd w = matrix;  // rows reduced by the Schur complements of earlier blocks
  std::vector<bool> taken(k, false);
  std::vector<std::size_t> picked;
  std::vector<double> norms(k);
  for (std::size_t begin = 0; begin < d;) {
    std::size_t end = begin;
    while (end < d && row_height[rows[end]] == row_height[rows[begin]]) ++end;
    const std::size_t height = row_height[rows[begin]];
    const std::size_t b = end - begin;
    Eigen::MatrixXd block(idx(b), idx(k));
    for (std::size_t i = 0; i < b; ++i) block.row(idx(i)) = w.row(idx(rows[begin + i]));
    const Eigen::MatrixXd block_before = block;
    std::vector<std::size_t> block_picked;
    for (std::size_t step = 0; step < b; ++step) {
      double all_max = 0.0, fresh_max = 0.0;
      for (std::size_t j = 0; j < k; ++j) {
        if (taken[j]) continue;
        norms[j] = block.col(idx(j)).norm();
        all_max = std::max(all_max, norms[j]);
        if (column_height[j] <= height) fresh_max = std::max(fresh_max, norms[j]);
      }
      if (all_max <= zero) {
        out.rank = picked.size();
        return out;
      }
      const bool fresh_only = fresh_max >= options.hierarchy_tolerance * all_max && fresh_max > zero;
      const double pool_max = fresh_only ? fresh_max : all_max;
      std::size_t best = no_index;
      for (std::size_t j = 0; j < k; ++j) {
        if (taken[j] || (fresh_only && column_height[j] > height)) continue;
        if (norms[j] < options.preference_tolerance * pool_max || norms[j] <= zero) continue;
        if (best == no_index || better(j, norms[j], best, norms[best], column_priority)) best = j;
      }
      taken[best] = true;
      picked.push_back(best);
      block_picked.push_back(best);
      // Modified Gram–Schmidt step within the block.
      const Eigen::VectorXd q = block.col(idx(best)) / norms[best];
      for (std::size_t j = 0; j < k; ++j)
        if (!taken[j]) block.col(idx(j)) -= q * q.dot(block.col(idx(j)));
    }
    // Schur complement of the later rows on (block rows, block_picked).
    if (end < d) {
      Eigen::MatrixXd pivot(idx(b), idx(b));
      for (std::size_t j = 0; j < b; ++j) pivot.col(idx(j)) = block_before.col(idx(block_picked[j]));
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(pivot);
      const Eigen::MatrixXd solved = lu.solve(block_before);  // b × k
      for (std::size_t i = end; i < d; ++i) {
        Eigen::RowVectorXd coupling(idx(b));
        for (std::size_t j = 0; j < b; ++j) coupling(idx(j)) = w(idx(rows[i]), idx(block_picked[j]));
        w.row(idx(rows[i])) -= coupling * solved;
      }
    }
    begin = end;
  }

  out.rank = picked.size();
  std::sort(picked.begin(), picked.end());
  Eigen::MatrixXd selected(idx(d), idx(d));
  for (std::size_t j = 0; j < d; ++j) selected.col(idx(j)) = matrix.col(idx(picked[j]));
  out.rcond = Eigen::PartialPivLU<Eigen::MatrixXd>(selected).rcond();
  out.columns = std::move(picked);
  out.success = true;
  return out;
}

}  // namespace lsdae::structure
