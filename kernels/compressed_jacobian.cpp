// kernels/compressed_jacobian.cpp -- see compressed_jacobian.h.
#include "kernels/compressed_jacobian.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "structure/coloring_varying.h"

namespace lsdae::kernels {
namespace {

EvalStatus status_of(int worst) {
  return worst == 0 ? EvalStatus::ok : worst == 1 ? EvalStatus::recoverable : EvalStatus::fatal;
}

// A constant entry's difference quotient has no truncation error (the
// residual is affine in that unknown), only rounding, ε·|G|/Δ: it is taken
// with an increment of 1e-3 of the unknown's scale instead of √ε, which makes
// it about 10⁵ times more accurate than a varying entry's.
constexpr double kConstantIncrement = 1e-3;

// IDA's difference-quotient increment for column j (see the header), with
// `factor` √ε (IDA's) or kConstantIncrement.
double increment(const JacobianPoint& point, std::size_t j, double factor) {
  double scale = std::max({std::fabs(point.y[j]), std::fabs(point.h * point.yp[j]),
                           point.weights.empty() ? 1.0 : 1.0 / point.weights[j],
                           point.nominal.empty() ? 1.0 : point.nominal[j]});
  double inc = factor * scale;
  if (point.h * point.yp[j] < 0.0) inc = -inc;
  return (point.y[j] + inc) - point.y[j];  // the increment actually representable
}

}  // namespace

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
  colour_rows();
}

void CompressedJacobian::colour_rows() {
  const structure::Coloring& coloring = constants_ != nullptr ? *varying_ : coloring_;
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  std::vector<bool> seen(pattern_.rows(), false);
  colour_rows_start_.assign(1, 0);
  colour_rows_.clear();
  for (std::size_t color = 0; color < coloring.colors; ++color) {
    const std::size_t begin = colour_rows_.size();
    for (std::size_t j : coloring.group(color))
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p)
        if ((constants_ == nullptr || !is_constant_[p]) && !seen[row_idx[p]]) {
          seen[row_idx[p]] = true;
          colour_rows_.push_back(row_idx[p]);
        }
    for (std::size_t k = begin; k < colour_rows_.size(); ++k) seen[colour_rows_[k]] = false;
    colour_rows_start_.push_back(colour_rows_.size());
  }
}

void CompressedJacobian::set_constant_entries(const ConstantEntries& entries, const structure::Coloring& varying) {
  const std::size_t nnz = pattern_.nnz(), n = pattern_.cols();
  if (entries.lifetime.size() != nnz || entries.derivative_part.size() != nnz || varying.color.size() != n)
    throw std::invalid_argument("compressed Jacobian: constant entries for " + std::to_string(entries.lifetime.size()) +
                                " entries and a varying colouring of " + std::to_string(varying.color.size()) +
                                " columns, the pattern has " + std::to_string(nnz) + " and " + std::to_string(n));
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  is_constant_.assign(nnz, false);
  is_derivative_.assign(nnz, false);
  is_segment_.assign(nnz, false);
  is_segment_derivative_.assign(nnz, false);
  constant_count_ = 0;
  has_segment_ = false;
  std::vector<bool> constant_column(n, false), derivative_column(n, false), segment_column(n, false),
      segment_derivative_column(n, false);
  for (std::size_t c = 0; c < n; ++c)
    for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p) {
      if (entries.lifetime[p] == EntryLifetime::varying) continue;
      is_constant_[p] = true;
      is_derivative_[p] = entries.derivative_part[p];
      ++constant_count_;
      constant_column[c] = true;
      if (entries.derivative_part[p]) derivative_column[c] = true;
      if (entries.lifetime[p] == EntryLifetime::segment) {
        has_segment_ = true;
        is_segment_[p] = true;
        segment_column[c] = true;
        is_segment_derivative_[p] = entries.derivative_part[p];
        if (entries.derivative_part[p]) segment_derivative_column[c] = true;
      }
    }
  saved_valid_ = false;
  if (constant_count_ == 0) {  // nothing known: today's path
    constants_ = nullptr;
    varying_ = nullptr;
    colour_finite_difference_columns();
    colour_rows();
    return;
  }
  constants_ = &entries;
  varying_ = &varying;
  constants_valid_ = run_valid_ = false;
  constant_groups_ = structure::restrict_coloring(coloring_, constant_column);
  derivative_groups_ = structure::restrict_coloring(coloring_, derivative_column);
  segment_groups_ = structure::restrict_coloring(coloring_, segment_column);
  segment_derivative_groups_ = structure::restrict_coloring(coloring_, segment_derivative_column);
  a_.assign(nnz, 0.0);
  b_.assign(nnz, 0.0);
  // Corrections: in each varying colour, the constant entries of its columns
  // that fall in the row of a varying entry of another of its columns.
  corrections_.assign(varying.colors, {});
  std::vector<std::size_t> owner(pattern_.rows(), structure::no_index), owner_column(pattern_.rows());
  for (std::size_t color = 0; color < varying.colors; ++color) {
    for (std::size_t j : varying.group(color))
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p)
        if (!is_constant_[p]) owner[row_idx[p]] = p, owner_column[row_idx[p]] = j;
    for (std::size_t j : varying.group(color))
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p)
        if (is_constant_[p] && owner[row_idx[p]] != structure::no_index)
          corrections_[color].push_back({owner[row_idx[p]], p, j, owner_column[row_idx[p]]});
    for (std::size_t j : varying.group(color))
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p) owner[row_idx[p]] = structure::no_index;
  }
  colour_finite_difference_columns();
  colour_rows();
}

CompressedJacobian::RunConstants CompressedJacobian::run_constants() const {
  RunConstants out;
  if (constants_ == nullptr || !run_valid_) return out;
  out.a.assign(a_.size(), 0.0);
  out.b.assign(b_.size(), 0.0);
  for (std::size_t p = 0; p < a_.size(); ++p)
    if (is_constant_[p] && !is_segment_[p]) out.a[p] = a_[p], out.b[p] = b_[p];
  out.taken = true;
  return out;
}

void CompressedJacobian::adopt_run_constants(const RunConstants& values) {
  if (constants_ == nullptr || !values.taken || values.a.size() != a_.size() || values.b.size() != b_.size()) return;
  for (std::size_t p = 0; p < a_.size(); ++p)
    if (is_constant_[p] && !is_segment_[p]) a_[p] = values.a[p], b_[p] = values.b[p];
  run_valid_ = true;
  constants_valid_ = !has_segment_;
  saved_valid_ = false;
}

void CompressedJacobian::invalidate_constants() {
  if (has_segment_) constants_valid_ = false;
  saved_valid_ = false;
}

bool CompressedJacobian::set_known_derivative_part(std::span<const ResidualFunction::DerivativeEntry> entries) {
  derivative_known_ = saved_valid_ = false;
  derivative_position_.clear();
  derivative_value_.clear();
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  std::vector<bool> seen(pattern_.nnz(), false);
  for (const auto& e : entries) {
    if (e.column >= pattern_.cols() || !std::isfinite(e.value)) return false;
    const auto first = row_idx.begin() + static_cast<std::ptrdiff_t>(col_ptr[e.column]);
    const auto last = row_idx.begin() + static_cast<std::ptrdiff_t>(col_ptr[e.column + 1]);
    const auto at = std::lower_bound(first, last, e.row);
    if (at == last || *at != e.row) return false;  // outside the pattern: B is not what the pattern says
    const auto p = static_cast<std::size_t>(at - row_idx.begin());
    if (seen[p]) return false;
    seen[p] = true;
    derivative_position_.push_back(p);
    derivative_value_.push_back(e.value);
  }
  derivative_known_ = true;
  return true;
}

void CompressedJacobian::keep_for_reform(bool keep, const JacobianPoint& point, std::span<const double> values) {
  saved_valid_ = false;
  if (!derivative_known_ || !keep) return;
  saved_.assign(values.begin(), values.end());
  saved_cj_ = point.cj;
  saved_t_ = point.t;
  saved_y_.assign(point.y.begin(), point.y.end());
  saved_yp_.assign(point.yp.begin(), point.yp.end());
  saved_valid_ = true;
}

bool CompressedJacobian::saved_at(const JacobianPoint& point) const {
  const auto same = [](std::span<const double> a, const std::vector<double>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
  };
  return can_reform() && point.t == saved_t_ && point.cj == saved_cj_ && same(point.y, saved_y_) &&
         same(point.yp, saved_yp_);
}

void CompressedJacobian::reform(double cj, std::span<double> values) {
  if (!can_reform() || values.size() != saved_.size())
    throw std::logic_error("compressed Jacobian: reform() without a saved matrix");
  std::copy(saved_.begin(), saved_.end(), values.begin());
  ++counters_.reforms;
  if (cj == saved_cj_) return;  // the saved matrix itself (saved_at: IDACalcIC's second setup)
  const double step = cj - saved_cj_;
  for (std::size_t k = 0; k < derivative_position_.size(); ++k) {
    const std::size_t p = derivative_position_[k];
    if (constants_ == nullptr || !is_constant_[p]) values[p] = saved_[p] + step * derivative_value_[k];
  }
  if (constants_ != nullptr) fill_constants(cj, values);  // a + cj·b, as a fresh evaluation writes it
}

EvalStatus CompressedJacobian::pass(std::span<ResidualFunction* const> pool, const JacobianPoint& point,
                                    bool directional, const structure::Coloring& groups, double y_seed,
                                    double yp_seed, std::vector<double>& out, const std::vector<bool>& take) {
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  const long colors = static_cast<long>(groups.colors);
  int worst = 0;
#pragma omp parallel for num_threads(static_cast<int>(threads_)) schedule(dynamic, 1) reduction(max : worst)
  for (long c = 0; c < colors; ++c) {
    const auto tid = static_cast<std::size_t>(omp_get_thread_num());
    Workspace& w = work_[tid];
    auto group = groups.group(static_cast<std::size_t>(c));
    EvalStatus status = EvalStatus::ok;
    if (directional) {
      status = pool[tid]->jacobian_columns_split(point.t, point.y, point.yp, y_seed, yp_seed, group, w.r);
    } else {
      std::copy(point.y.begin(), point.y.end(), w.y.begin());
      std::copy(point.yp.begin(), point.yp.end(), w.yp.begin());
      // The perturbation today's difference quotient makes, in y or in y' alone.
      const double yp_scale = point.cj != 0.0 ? point.cj : 1.0;
      for (std::size_t j : group) {
        const double inc = increment(point, j, kConstantIncrement);
        if (y_seed != 0.0) w.y[j] += inc;
        else w.yp[j] += yp_scale * inc;
      }
      status = pool[tid]->residual(point.t, w.y, w.yp, w.r);
    }
    if (status != EvalStatus::ok) {
      worst = std::max(worst, status == EvalStatus::fatal ? 2 : 1);
      continue;
    }
    for (std::size_t j : group) {
      const double inv = directional ? 1.0 : 1.0 / (y_seed != 0.0 ? w.y[j] - point.y[j] : w.yp[j] - point.yp[j]);
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p) {
        if (!take[p]) continue;
        const std::size_t row = row_idx[p];
        out[p] = directional ? w.r[row] : (w.r[row] - point.residual[row]) * inv;
      }
    }
  }
  if (directional) counters_.directional_calls += groups.colors;
  else counters_.residual_calls += groups.colors;
  counters_.constant_calls += groups.colors;
  return status_of(worst);
}

EvalStatus CompressedJacobian::compute_constants(std::span<ResidualFunction* const> pool, const JacobianPoint& point,
                                                 bool directional) {
  if (constants_valid_) return EvalStatus::ok;
  // All constants the first time; after an event only the per-segment ones.
  const bool all = !run_valid_;
  EvalStatus s = pass(pool, point, directional, all ? constant_groups_ : segment_groups_, 1.0, 0.0, a_,
                      all ? is_constant_ : is_segment_);
  const structure::Coloring& derivative = all ? derivative_groups_ : segment_derivative_groups_;
  if (s == EvalStatus::ok && derivative.colors > 0)
    s = pass(pool, point, directional, derivative, 0.0, 1.0, b_, all ? is_derivative_ : is_segment_derivative_);
  if (s != EvalStatus::ok) return s;
  run_valid_ = true;
  ++counters_.constant_evaluations;
  constants_valid_ = true;
  return EvalStatus::ok;
}

void CompressedJacobian::fill_constants(double cj, std::span<double> values) const {
  for (std::size_t p = 0; p < values.size(); ++p)
    if (is_constant_[p]) values[p] = is_derivative_[p] ? a_[p] + cj * b_[p] : a_[p];
}

EvalStatus CompressedJacobian::difference_quotient(ResidualFunction& f, Workspace& w, const JacobianPoint& point,
                                                   std::span<const std::size_t> group, bool skip_constant,
                                                   std::span<double> values) const {
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  std::copy(point.y.begin(), point.y.end(), w.y.begin());
  std::copy(point.yp.begin(), point.yp.end(), w.yp.begin());
  const double srur = std::sqrt(std::numeric_limits<double>::epsilon());
  for (std::size_t j : group) {
    const double inc = increment(point, j, srur);
    w.y[j] += inc;
    w.yp[j] += point.cj * inc;
  }
  const EvalStatus status = f.residual(point.t, w.y, w.yp, w.r);
  if (status != EvalStatus::ok) return status;
  for (std::size_t j : group) {
    const double inv = 1.0 / (w.y[j] - point.y[j]);
    for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p) {
      if (skip_constant && is_constant_[p]) continue;
      const std::size_t row = row_idx[p];
      values[p] = (w.r[row] - point.residual[row]) * inv;
    }
  }
  return EvalStatus::ok;
}

void CompressedJacobian::set_finite_difference_columns(const std::vector<bool>& columns) {
  if (!columns.empty() && columns.size() != pattern_.cols())
    throw std::invalid_argument("compressed Jacobian: finite-difference columns for " +
                                std::to_string(columns.size()) + " columns, the pattern has " +
                                std::to_string(pattern_.cols()));
  finite_difference_columns_ = columns;
  saved_valid_ = false;
  colour_finite_difference_columns();
}

void CompressedJacobian::colour_finite_difference_columns() {
  const structure::Coloring& coloring = constants_ != nullptr ? *varying_ : coloring_;
  finite_difference_colour_.assign(coloring.colors, false);
  finite_difference_colours_ = 0;
  for (std::size_t j = 0; j < finite_difference_columns_.size(); ++j) {
    if (!finite_difference_columns_[j]) continue;
    const std::size_t color = coloring.color[j];
    if (color == structure::no_index || finite_difference_colour_[color]) continue;  // no varying entry
    finite_difference_colour_[color] = true;
    ++finite_difference_colours_;
  }
  if (finite_difference_colours_ == 0) finite_difference_colour_.clear();
}

void CompressedJacobian::correct_quotient(std::size_t color, const Workspace& w, const JacobianPoint& point,
                                          std::span<double> values) const {
  for (const Correction& k : corrections_[color]) {
    const double known = is_derivative_[k.constant] ? a_[k.constant] + point.cj * b_[k.constant] : a_[k.constant];
    // values[v] = (Δr − known·inc_k) / inc_v
    values[k.varying] -=
        known * ((w.y[k.column] - point.y[k.column]) / (w.y[k.varying_column] - point.y[k.varying_column]));
  }
}

EvalStatus CompressedJacobian::evaluate_finite_differences(std::span<ResidualFunction* const> pool,
                                                           const JacobianPoint& point, std::span<double> values) {
  if (pool.size() < threads_) throw std::invalid_argument("compressed Jacobian: the pool is smaller than the threads");
  if (constants_ != nullptr)
    if (EvalStatus s = compute_constants(pool, point, false); s != EvalStatus::ok) {
      saved_valid_ = false;
      return s;
    }
  const structure::Coloring& coloring = constants_ != nullptr ? *varying_ : coloring_;
  const long colors = static_cast<long>(coloring.colors);
  const bool skip_constant = constants_ != nullptr;
  int worst = 0;  // 0 ok, 1 recoverable, 2 fatal

#pragma omp parallel for num_threads(static_cast<int>(threads_)) schedule(dynamic, 1) reduction(max : worst)
  for (long c = 0; c < colors; ++c) {
    const auto tid = static_cast<std::size_t>(omp_get_thread_num());
    Workspace& w = work_[tid];
    auto group = coloring.group(static_cast<std::size_t>(c));
    EvalStatus status = difference_quotient(*pool[tid], w, point, group, skip_constant, values);
    if (status != EvalStatus::ok) {
      worst = std::max(worst, status == EvalStatus::fatal ? 2 : 1);
      continue;
    }
    if (skip_constant) correct_quotient(static_cast<std::size_t>(c), w, point, values);
  }
  if (skip_constant) fill_constants(point.cj, values);
  ++counters_.evaluations;
  counters_.residual_calls += coloring.colors;
  saved_valid_ = false;  // difference quotients are not re-formed (see the header)
  return status_of(worst);
}

EvalStatus CompressedJacobian::evaluate_directional(std::span<ResidualFunction* const> pool,
                                                    const JacobianPoint& point, std::span<double> values) {
  if (pool.size() < threads_) throw std::invalid_argument("compressed Jacobian: the pool is smaller than the threads");
  if (constants_ != nullptr)
    if (EvalStatus s = compute_constants(pool, point, true); s != EvalStatus::ok) {
      saved_valid_ = false;
      return s;
    }
  const structure::Coloring& coloring = constants_ != nullptr ? *varying_ : coloring_;
  const auto& col_ptr = pattern_.col_ptr();
  const auto& row_idx = pattern_.row_idx();
  const long colors = static_cast<long>(coloring.colors);
  const bool skip_constant = constants_ != nullptr;
  // Colours whose directional derivatives are wrong: difference quotients
  // (set_finite_difference_columns), per colour of `coloring`.
  const bool mixed = !finite_difference_colour_.empty();
  int worst = 0;
  // Each pool object is written the point at its first colour only: its
  // later colours in this loop are at the same point and nothing else uses
  // it in between (jacobian_columns_at_rows's same_point).
  for (Workspace& w : work_) w.at_point = false;

#pragma omp parallel for num_threads(static_cast<int>(threads_)) schedule(dynamic, 1) reduction(max : worst)
  for (long c = 0; c < colors; ++c) {
    const auto tid = static_cast<std::size_t>(omp_get_thread_num());
    Workspace& w = work_[tid];
    auto group = coloring.group(static_cast<std::size_t>(c));
    if (mixed && finite_difference_colour_[static_cast<std::size_t>(c)]) {
      w.at_point = false;  // the quotient moves the point
      const EvalStatus status = difference_quotient(*pool[tid], w, point, group, skip_constant, values);
      if (status != EvalStatus::ok) worst = std::max(worst, status == EvalStatus::fatal ? 2 : 1);
      else if (skip_constant) correct_quotient(static_cast<std::size_t>(c), w, point, values);
      continue;
    }
    const std::span<const std::size_t> rows(colour_rows_.data() + colour_rows_start_[static_cast<std::size_t>(c)],
                                            colour_rows_.data() + colour_rows_start_[static_cast<std::size_t>(c) + 1]);
    EvalStatus status =
        pool[tid]->jacobian_columns_at_rows(point.t, point.y, point.yp, 1.0, point.cj, group, rows, w.at_point, w.r);
    w.at_point = status == EvalStatus::ok;
    if (status != EvalStatus::ok) {
      worst = std::max(worst, status == EvalStatus::fatal ? 2 : 1);
      continue;
    }
    for (std::size_t j : group)
      for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p)
        if (!skip_constant || !is_constant_[p]) values[p] = w.r[row_idx[p]];
    if (skip_constant)
      for (const Correction& k : corrections_[static_cast<std::size_t>(c)])
        values[k.varying] -= is_derivative_[k.constant] ? a_[k.constant] + point.cj * b_[k.constant] : a_[k.constant];
  }
  if (skip_constant) fill_constants(point.cj, values);
  ++counters_.evaluations;
  const std::size_t quotients = mixed ? finite_difference_colours_ : 0;
  counters_.directional_calls += coloring.colors - quotients;
  counters_.residual_calls += quotients;
  // Kept for reform() when it succeeded and every colour came from directional derivatives.
  keep_for_reform(worst == 0 && quotients == 0, point, values);
  return status_of(worst);
}

}  // namespace lsdae::kernels
