// structure/column_selection.cpp -- see column_selection.h.
#include "structure/column_selection.h"

#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "structure/error.h"
#include "structure/messages.h"
#include "structure/pattern.h"

namespace lsdae::structure {

namespace {

using Eigen::Index;

Index eigen_index(std::size_t i) { return static_cast<Index>(i); }

// a better than b as the next pivot (rule 3 of the header).
bool better(std::size_t a, double norm_a, std::size_t b, double norm_b, std::span<const int> priority) {
  if (priority[a] != priority[b]) return priority[a] > priority[b];
  const double scale = std::max(norm_a, norm_b);
  if (std::abs(norm_a - norm_b) > 1e-9 * scale) return norm_a > norm_b;
  return a < b;
}

// Rules 1 and 2 of the header for the candidates of one step, shared by the
// dense and the sparse variant: see() every candidate magnitude (fresh: its
// column is no higher than the row), then settle(), then admits() says which
// candidates may compete under better().
class PivotPool {
 public:
  void see(double magnitude, bool fresh) {
    all_max_ = std::max(all_max_, magnitude);
    if (fresh) fresh_max_ = std::max(fresh_max_, magnitude);
  }
  // Nothing above the rank threshold: the rows left are dependent.
  bool empty(double zero) const { return all_max_ <= zero; }
  void settle(const ColumnSelectionOptions& options, double zero) {
    fresh_only_ = fresh_max_ >= options.hierarchy_tolerance * all_max_ && fresh_max_ > zero;
    threshold_ = options.preference_tolerance * (fresh_only_ ? fresh_max_ : all_max_);
    zero_ = zero;
  }
  bool admits(double magnitude, bool fresh) const {
    return !(fresh_only_ && !fresh) && !(magnitude < threshold_) && !(magnitude <= zero_);
  }

 private:
  double all_max_ = 0.0, fresh_max_ = 0.0, threshold_ = 0.0, zero_ = 0.0;
  bool fresh_only_ = false;
};

// Both variants: the heights and priorities must fit a d × k matrix, d ≤ k.
void check_shape(std::size_t d, std::size_t k, std::span<const std::size_t> row_height,
                 std::span<const std::size_t> column_height, std::span<const int> column_priority) {
  if (row_height.size() != d || column_height.size() != k || column_priority.size() != k || d > k)
    throw StructureError(messages::selection_shape(d, k, row_height.size(), column_height.size(),
                                                   column_priority.size()));
}

// No rows: the empty selection succeeds, perfectly conditioned.
ColumnSelection nothing_to_select() {
  ColumnSelection out;
  out.success = true;
  out.rcond = 1.0;
  return out;
}

}  // namespace

// rcond of a square sparse matrix: 1 / (‖A‖₁ · est ‖A⁻¹‖₁), Hager's estimator
// as refined by Higham (LAPACK's xLACON) with at most five iterations.
double sparse_rcond(const Eigen::SparseMatrix<double>& a) {
  const Index n = a.rows();
  if (n == 0) return 1.0;
  double norm = 0.0;
  for (Index j = 0; j < a.outerSize(); ++j) {
    double column = 0.0;
    for (Eigen::SparseMatrix<double>::InnerIterator it(a, j); it; ++it) column += std::abs(it.value());
    norm = std::max(norm, column);
  }
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu;
  lu.compute(a);
  if (lu.info() != Eigen::Success || norm == 0.0) return 0.0;
  Eigen::VectorXd x = Eigen::VectorXd::Constant(n, 1.0 / static_cast<double>(n));
  double estimate = 0.0;
  Index last = -1;
  for (int iteration = 0; iteration < 5; ++iteration) {
    const Eigen::VectorXd y = lu.solve(x);
    if (!y.allFinite()) return 0.0;
    estimate = y.lpNorm<1>();
    const Eigen::VectorXd sign = y.unaryExpr([](double v) { return v >= 0.0 ? 1.0 : -1.0; });
    const Eigen::VectorXd z = lu.transpose().solve(sign);
    Index j = 0;
    const double zmax = z.cwiseAbs().maxCoeff(&j);
    if (zmax <= z.dot(x) || j == last) break;
    x.setZero();
    x(j) = 1.0;
    last = j;
  }
  return estimate > 0.0 ? 1.0 / (norm * estimate) : 0.0;
}

ColumnSelection select_columns(const Eigen::MatrixXd& matrix, std::span<const std::size_t> row_height,
                               std::span<const std::size_t> column_height, std::span<const int> column_priority,
                               const ColumnSelectionOptions& options) {
  const std::size_t d = static_cast<std::size_t>(matrix.rows());
  const std::size_t k = static_cast<std::size_t>(matrix.cols());
  check_shape(d, k, row_height, column_height, column_priority);
  ColumnSelection out;
  if (d == 0) return nothing_to_select();
  for (std::size_t j = 0; j < k; ++j) out.largest_norm = std::max(out.largest_norm, matrix.col(eigen_index(j)).norm());
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
    Eigen::MatrixXd block(eigen_index(b), eigen_index(k));
    for (std::size_t i = 0; i < b; ++i) block.row(eigen_index(i)) = w.row(eigen_index(rows[begin + i]));
    const Eigen::MatrixXd block_before = block;
    std::vector<std::size_t> block_picked;
    for (std::size_t step = 0; step < b; ++step) {
      PivotPool pool;
      for (std::size_t j = 0; j < k; ++j) {
        if (taken[j]) continue;
        norms[j] = block.col(eigen_index(j)).norm();
        pool.see(norms[j], column_height[j] <= height);
      }
      if (pool.empty(zero)) {
        out.rank = picked.size();
        return out;
      }
      pool.settle(options, zero);
      std::size_t best = no_index;
      for (std::size_t j = 0; j < k; ++j) {
        if (taken[j] || !pool.admits(norms[j], column_height[j] <= height)) continue;
        if (best == no_index || better(j, norms[j], best, norms[best], column_priority)) best = j;
      }
      taken[best] = true;
      picked.push_back(best);
      block_picked.push_back(best);
      // Modified Gram–Schmidt step within the block.
      const Eigen::VectorXd q = block.col(eigen_index(best)) / norms[best];
      for (std::size_t j = 0; j < k; ++j)
        if (!taken[j]) block.col(eigen_index(j)) -= q * q.dot(block.col(eigen_index(j)));
    }
    // Schur complement of the later rows on (block rows, block_picked).
    if (end < d) {
      Eigen::MatrixXd pivot(eigen_index(b), eigen_index(b));
      for (std::size_t j = 0; j < b; ++j) pivot.col(eigen_index(j)) = block_before.col(eigen_index(block_picked[j]));
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(pivot);
      const Eigen::MatrixXd solved = lu.solve(block_before);  // b × k
      for (std::size_t i = end; i < d; ++i) {
        Eigen::RowVectorXd coupling(eigen_index(b));
        for (std::size_t j = 0; j < b; ++j) coupling(eigen_index(j)) = w(eigen_index(rows[i]), eigen_index(block_picked[j]));
        w.row(eigen_index(rows[i])) -= coupling * solved;
      }
    }
    begin = end;
  }

  out.rank = picked.size();
  std::sort(picked.begin(), picked.end());
  Eigen::MatrixXd selected(eigen_index(d), eigen_index(d));
  for (std::size_t j = 0; j < d; ++j) selected.col(eigen_index(j)) = matrix.col(eigen_index(picked[j]));
  out.rcond = Eigen::PartialPivLU<Eigen::MatrixXd>(selected).rcond();
  out.columns = std::move(picked);
  out.success = true;
  return out;
}

ColumnSelection select_columns_sparse(const Eigen::SparseMatrix<double, Eigen::RowMajor>& matrix,
                                      std::span<const std::size_t> row_height,
                                      std::span<const std::size_t> column_height,
                                      std::span<const int> column_priority, const ColumnSelectionOptions& options) {
  const std::size_t d = static_cast<std::size_t>(matrix.rows());
  const std::size_t k = static_cast<std::size_t>(matrix.cols());
  check_shape(d, k, row_height, column_height, column_priority);
  ColumnSelection out;
  if (d == 0) return nothing_to_select();
  // Working rows (sorted by column) and, per column, the rows that hold it.
  using Row = std::vector<std::pair<std::size_t, double>>;
  std::vector<Row> rows(d);
  std::vector<std::vector<std::size_t>> holders(k);
  std::vector<double> column_norm2(k, 0.0);
  for (std::size_t i = 0; i < d; ++i)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(matrix, eigen_index(i)); it; ++it) {
      if (it.value() == 0.0) continue;
      const auto j = static_cast<std::size_t>(it.col());
      rows[i].emplace_back(j, it.value());
      holders[j].push_back(i);
      column_norm2[j] += it.value() * it.value();
    }
  for (const double n2 : column_norm2) out.largest_norm = std::max(out.largest_norm, std::sqrt(n2));
  const double zero = options.rank_tolerance * out.largest_norm;

  std::vector<std::size_t> order(d);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return row_height[a] > row_height[b]; });
  std::vector<bool> done(d, false);
  std::vector<std::size_t> picked;
  Row merged;
  for (const std::size_t i : order) {
    const Row& row = rows[i];
    const std::size_t height = row_height[i];
    PivotPool pool;
    for (const auto& [j, a] : row) pool.see(std::abs(a), column_height[j] <= height);
    if (pool.empty(zero)) {
      out.rank = picked.size();
      return out;
    }
    pool.settle(options, zero);
    std::size_t best = no_index;
    double best_abs = 0.0, pivot = 0.0;
    for (const auto& [j, a] : row) {
      const double m = std::abs(a);
      if (!pool.admits(m, column_height[j] <= height)) continue;
      if (best == no_index || better(j, m, best, best_abs, column_priority)) {
        best = j;
        best_abs = m;
        pivot = a;
      }
    }
    picked.push_back(best);
    done[i] = true;
    // Eliminate column `best` from the later rows (row_j -= (a_j / pivot) row_i).
    for (const std::size_t r : holders[best]) {
      if (done[r]) continue;
      Row& target = rows[r];
      const auto hit = std::lower_bound(target.begin(), target.end(), best,
                                        [](const auto& entry, std::size_t column) { return entry.first < column; });
      if (hit == target.end() || hit->first != best) continue;  // stale holder entry
      const double factor = hit->second / pivot;
      merged.clear();
      auto a = target.begin();
      auto b = row.begin();
      while (a != target.end() || b != row.end()) {
        if (b == row.end() || (a != target.end() && a->first < b->first)) {
          merged.push_back(*a++);
        } else if (a == target.end() || b->first < a->first) {
          merged.emplace_back(b->first, -factor * b->second);  // fill-in
          holders[b->first].push_back(r);
          ++b;
        } else {
          if (a->first != best) merged.emplace_back(a->first, a->second - factor * b->second);
          ++a;
          ++b;
        }
      }
      target.swap(merged);
    }
  }

  out.rank = picked.size();
  std::sort(picked.begin(), picked.end());
  std::vector<std::size_t> position(k, no_index);
  for (std::size_t j = 0; j < d; ++j) position[picked[j]] = j;
  std::vector<Eigen::Triplet<double>> triplets;
  for (std::size_t i = 0; i < d; ++i)
    for (Eigen::SparseMatrix<double, Eigen::RowMajor>::InnerIterator it(matrix, eigen_index(i)); it; ++it)
      if (const std::size_t p = position[static_cast<std::size_t>(it.col())]; p != no_index)
        triplets.emplace_back(eigen_index(i), eigen_index(p), it.value());
  Eigen::SparseMatrix<double> selected(eigen_index(d), eigen_index(d));
  selected.setFromTriplets(triplets.begin(), triplets.end());
  out.rcond = sparse_rcond(selected);
  out.columns = std::move(picked);
  out.success = true;
  return out;
}

}  // namespace lsdae::structure
