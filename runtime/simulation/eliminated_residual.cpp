// runtime/simulation/eliminated_residual.cpp -- see eliminated_residual.h.
#include "simulation/eliminated_residual.h"

#include <suitesparse/klu.h>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/format.h"
#include "lsdae/error.h"

namespace lsdae::simulation {

using kernels::EvalStatus;
using structure::no_index;

struct EliminatedResidual::Klu {
  klu_common common{};
  klu_symbolic* symbolic = nullptr;
  klu_numeric* numeric = nullptr;
  ~Klu() {
    if (numeric != nullptr) klu_free_numeric(&numeric, &common);
    if (symbolic != nullptr) klu_free_symbolic(&symbolic, &common);
  }
};

EliminatedResidual::EliminatedResidual(kernels::ResidualFunction& full, const structure::LinearElimination& plan,
                                       const structure::Coloring& z_coloring, std::vector<double> nominal,
                                       std::function<std::string(std::size_t)> unknown_name)
    : full_(full), plan_(plan), z_coloring_(z_coloring), nominal_(std::move(nominal)),
      unknown_name_(std::move(unknown_name)) {
  const std::size_t n = full_.size();
  if (plan_.reduced_unknown.size() != n || plan_.z_columns.rows() != n ||
      z_coloring_.color.size() != plan_.eliminated.size() || plan_.eliminated_block.size() != plan_.eliminated.size())
    throw Error(ErrorKind::internal, "linear elimination: the plan is for " +
                                         std::to_string(plan_.reduced_unknown.size()) + " unknowns, the residual has " +
                                         std::to_string(n));
  y_full_.assign(n, 0.0);
  yp_full_.assign(n, 0.0);
  r_full_.assign(n, 0.0);
  jv_full_.assign(n, 0.0);
  rhs_.assign(plan_.eliminated.size(), 0.0);
  full_columns_.reserve(n);
  if (nominal_.size() != n) nominal_.assign(n, 1.0);
}

EliminatedResidual::~EliminatedResidual() = default;

void EliminatedResidual::scatter(std::span<const double> y, std::span<const double> yp) {
  const auto& kept = plan_.kept;
  // The eliminated entries are 0 from the constructor on (prepare() restores them).
  for (std::size_t i = 0; i < kept.size(); ++i) y_full_[kept[i]] = y[i], yp_full_[kept[i]] = yp[i];
}

void EliminatedResidual::prepare(double t) {
  const std::size_t m = plan_.eliminated.size();
  if (main_ != nullptr && main_ != this && main_->prepared_) {
    a_ptr_ = main_->a_ptr_, a_idx_ = main_->a_idx_, a_val_ = main_->a_val_;
    b_ptr_ = main_->b_ptr_, b_row_ = main_->b_row_, b_val_ = main_->b_val_;
    explicit_ = main_->explicit_;
    inv_ptr_ = main_->inv_ptr_, inv_col_ = main_->inv_col_, inv_val_ = main_->inv_val_;
    d_ptr_ = main_->d_ptr_, d_col_ = main_->d_col_, d_val_ = main_->d_val_;
    rhs_copy_.assign(m, 0.0);
    if (!explicit_) factor(t);
    prepared_ = true;
    return;
  }
  const structure::Pattern& zc = plan_.z_columns;
  std::vector<double> values(zc.nnz(), 0.0);
  const bool directional = full_.has_jacobian_columns();
  std::vector<double> base;
  if (!directional) {
    base.assign(r_full_.size(), 0.0);
    ++preparation_calls_;
    if (full_.residual(t, y_full_, yp_full_, base) != EvalStatus::ok)
      throw Error(ErrorKind::solver, "linear elimination: at t = " + format_number(t) +
                                         " the FMU refused the residual at the point where the eliminated block's "
                                         "coefficients are taken → run with --eliminate off");
  }
  for (std::size_t g = 0; g < z_coloring_.colors; ++g) {
    full_columns_.clear();
    for (std::size_t q = z_coloring_.group_ptr[g]; q < z_coloring_.group_ptr[g + 1]; ++q)
      full_columns_.push_back(plan_.eliminated[z_coloring_.group_columns[q]]);
    std::fill(jv_full_.begin(), jv_full_.end(), 0.0);
    EvalStatus s;
    ++preparation_calls_;
    if (directional) {
      s = full_.jacobian_columns_split(t, y_full_, yp_full_, 1.0, 0.0, full_columns_, jv_full_);
    } else {
      for (const std::size_t k : full_columns_) y_full_[k] = std::max(1.0, nominal_[k]);
      s = full_.residual(t, y_full_, yp_full_, jv_full_);
      for (std::size_t r = 0; r < jv_full_.size(); ++r) jv_full_[r] -= base[r];
      for (const std::size_t k : full_columns_) y_full_[k] = 0.0;
    }
    if (s != EvalStatus::ok)
      throw Error(ErrorKind::solver, "linear elimination: at t = " + format_number(t) +
                                         " the FMU refused the derivatives of the eliminated unknowns → run with "
                                         "--eliminate off");
    for (std::size_t q = z_coloring_.group_ptr[g]; q < z_coloring_.group_ptr[g + 1]; ++q) {
      const std::size_t c = z_coloring_.group_columns[q];
      const double scale = directional ? 1.0 : std::max(1.0, nominal_[plan_.eliminated[c]]);
      for (std::size_t p = zc.col_ptr()[c]; p < zc.col_ptr()[c + 1]; ++p) values[p] = jv_full_[zc.row_idx()[p]] / scale;
    }
  }
  // Split into A (rows of the eliminated block) and B (kept rows).
  std::vector<std::size_t> block_row(plan_.reduced_row.size(), no_index);
  for (std::size_t i = 0; i < m; ++i) block_row[plan_.eliminated_rows[i]] = i;
  a_ptr_.assign(m + 1, 0);
  a_idx_.clear(), a_val_.clear();
  b_ptr_.assign(m + 1, 0);
  b_row_.clear(), b_val_.clear();
  for (std::size_t c = 0; c < m; ++c) {
    for (std::size_t p = zc.col_ptr()[c]; p < zc.col_ptr()[c + 1]; ++p) {
      const std::size_t r = zc.row_idx()[p];
      if (block_row[r] != no_index) {
        a_idx_.push_back(static_cast<int>(block_row[r]));
        a_val_.push_back(values[p]);
      } else if (values[p] != 0.0) {
        b_row_.push_back(plan_.reduced_row[r]);
        b_val_.push_back(values[p]);
      }
    }
    a_ptr_[c + 1] = static_cast<int>(a_idx_.size());
    b_ptr_[c + 1] = b_row_.size();
  }
  // KLU wants each column's rows ascending; the block rows of a column are
  // in full-row order, which need not be the block's order.
  for (std::size_t c = 0; c < m; ++c) {
    std::vector<std::pair<int, double>> col;
    for (int p = a_ptr_[c]; p < a_ptr_[c + 1]; ++p)
      col.emplace_back(a_idx_[static_cast<std::size_t>(p)], a_val_[static_cast<std::size_t>(p)]);
    std::sort(col.begin(), col.end());
    for (std::size_t i = 0; i < col.size(); ++i) {
      a_idx_[static_cast<std::size_t>(a_ptr_[c]) + i] = col[i].first;
      a_val_[static_cast<std::size_t>(a_ptr_[c]) + i] = col[i].second;
    }
  }
  factor(t);
  make_explicit_inverse();
  prepared_ = true;
}

void EliminatedResidual::factor(double t) {
  const std::size_t m = plan_.eliminated.size();
  klu_ = std::make_unique<Klu>();
  klu_defaults(&klu_->common);
  const int mm = static_cast<int>(m);
  klu_->symbolic = klu_analyze(mm, a_ptr_.data(), a_idx_.data(), &klu_->common);
  if (klu_->symbolic != nullptr)
    klu_->numeric = klu_factor(a_ptr_.data(), a_idx_.data(), a_val_.data(), klu_->symbolic, &klu_->common);
  double rcond = 0.0;
  if (klu_->numeric != nullptr && klu_rcond(klu_->symbolic, klu_->numeric, &klu_->common) != 0)
    rcond = klu_->common.rcond;
  if (klu_->numeric == nullptr || !(rcond >= 1e-13)) {
    std::string names;
    for (std::size_t i = 0; i < m && i < 5; ++i)
      names += (i > 0 ? ", " : "") +
               (unknown_name_ ? "\"" + unknown_name_(plan_.eliminated[i]) + "\"" : std::to_string(plan_.eliminated[i]));
    throw Error(ErrorKind::solver, "linear elimination: at t = " + format_number(t) + " the linear block of " +
                                       std::to_string(m) + " eliminated unknown(s) (" + names +
                                       (m > 5 ? ", ..." : "") + ") is singular (rcond " + format_number(rcond) +
                                       ") → run with --eliminate off");
  }
}

void EliminatedResidual::make_explicit_inverse() {
  const std::size_t m = plan_.eliminated.size();
  explicit_ = false;
  // Blocks of A: the plan's (structure/linear_elimination.h, step 3: A is
  // block diagonal over them), in the order of their first member, members
  // ascending.
  std::vector<std::vector<std::size_t>> blocks;
  std::vector<std::size_t> position;  // plan block → index in `blocks`
  for (std::size_t i = 0; i < m; ++i) {
    const std::size_t b = plan_.eliminated_block[i];
    if (b >= position.size()) position.resize(b + 1, no_index);
    if (position[b] == no_index) position[b] = blocks.size(), blocks.emplace_back();
    blocks[position[b]].push_back(i);
    if (blocks[position[b]].size() > kExplicitBlockLimit) return;  // a large block: KLU's solve
  }
  // A⁻¹ block by block (dense, partial pivoting; the singularity check was KLU's).
  std::vector<std::size_t> local(m, no_index);
  std::vector<std::vector<std::pair<std::size_t, double>>> rows(m);
  for (const auto& members : blocks) {
    const auto s = static_cast<Eigen::Index>(members.size());
    for (std::size_t q = 0; q < members.size(); ++q) local[members[q]] = q;
    Eigen::MatrixXd a = Eigen::MatrixXd::Zero(s, s);
    for (const std::size_t c : members)
      for (int p = a_ptr_[c]; p < a_ptr_[c + 1]; ++p)
        a(static_cast<Eigen::Index>(local[static_cast<std::size_t>(a_idx_[static_cast<std::size_t>(p)])]),
          static_cast<Eigen::Index>(local[c])) = a_val_[static_cast<std::size_t>(p)];
    const Eigen::MatrixXd inv = a.partialPivLu().inverse();
    for (Eigen::Index i = 0; i < s; ++i)
      for (Eigen::Index j = 0; j < s; ++j)
        if (inv(i, j) != 0.0)
          rows[members[static_cast<std::size_t>(i)]].emplace_back(members[static_cast<std::size_t>(j)], inv(i, j));
  }
  inv_ptr_.assign(m + 1, 0);
  inv_col_.clear(), inv_val_.clear();
  for (std::size_t i = 0; i < m; ++i) {
    for (const auto& [j, v] : rows[i]) inv_col_.push_back(j), inv_val_.push_back(v);
    inv_ptr_[i + 1] = inv_col_.size();
  }
  rhs_copy_.assign(m, 0.0);
  // D = −B·A⁻¹ by kept rows, its columns the full rows of the block: the kept
  // rows of F are then G_rest + D·G_R, one sparse product.
  std::vector<std::vector<std::pair<std::size_t, double>>> d_rows(plan_.kept_rows.size());
  std::vector<double> acc(m, 0.0);
  std::vector<std::size_t> touched;
  std::vector<std::vector<std::pair<std::size_t, double>>> b_by_row(plan_.kept_rows.size());
  for (std::size_t c = 0; c < m; ++c)
    for (std::size_t p = b_ptr_[c]; p < b_ptr_[c + 1]; ++p) b_by_row[b_row_[p]].emplace_back(c, b_val_[p]);
  std::vector<bool> marked(m, false);
  for (std::size_t i = 0; i < b_by_row.size(); ++i) {
    touched.clear();
    for (const auto& [c, b] : b_by_row[i])
      for (std::size_t p = inv_ptr_[c]; p < inv_ptr_[c + 1]; ++p) {
        const std::size_t j = inv_col_[p];
        if (!marked[j]) marked[j] = true, touched.push_back(j);
        acc[j] -= b * inv_val_[p];
      }
    std::sort(touched.begin(), touched.end());
    for (const std::size_t j : touched) {
      if (acc[j] != 0.0) d_rows[i].emplace_back(plan_.eliminated_rows[j], acc[j]);
      acc[j] = 0.0, marked[j] = false;
    }
  }
  d_ptr_.assign(d_rows.size() + 1, 0);
  d_col_.clear(), d_val_.clear();
  for (std::size_t i = 0; i < d_rows.size(); ++i) {
    for (const auto& [r, v] : d_rows[i]) d_col_.push_back(r), d_val_.push_back(v);
    d_ptr_[i + 1] = d_col_.size();
  }
  explicit_ = true;
}

void EliminatedResidual::reduce_rows(std::span<const double> full, std::span<double> out) {
  const auto& kept_rows = plan_.kept_rows;
  if (explicit_) {
    for (std::size_t i = 0; i < kept_rows.size(); ++i) {
      double sum = full[kept_rows[i]];
      for (std::size_t p = d_ptr_[i]; p < d_ptr_[i + 1]; ++p) sum += d_val_[p] * full[d_col_[p]];
      out[i] = sum;
    }
    return;
  }
  for (std::size_t i = 0; i < rhs_.size(); ++i) rhs_[i] = full[plan_.eliminated_rows[i]];
  if (!rhs_.empty()) solve(rhs_);
  for (std::size_t i = 0; i < kept_rows.size(); ++i) out[i] = full[kept_rows[i]];
  add_b_times(rhs_, out);
}

void EliminatedResidual::solve(std::span<double> rhs) {
  if (explicit_) {
    std::copy(rhs.begin(), rhs.end(), rhs_copy_.begin());
    for (std::size_t i = 0; i < rhs.size(); ++i) {
      double sum = 0.0;
      for (std::size_t p = inv_ptr_[i]; p < inv_ptr_[i + 1]; ++p) sum += inv_val_[p] * rhs_copy_[inv_col_[p]];
      rhs[i] = -sum;
    }
    return;
  }
  for (double& v : rhs) v = -v;
  klu_solve(klu_->symbolic, klu_->numeric, static_cast<int>(rhs.size()), 1, rhs.data(), &klu_->common);
}

void EliminatedResidual::add_b_times(std::span<const double> z, std::span<double> reduced_rows) const {
  for (std::size_t c = 0; c < z.size(); ++c) {
    const double zc = z[c];
    if (zc == 0.0) continue;
    for (std::size_t p = b_ptr_[c]; p < b_ptr_[c + 1]; ++p) reduced_rows[b_row_[p]] += b_val_[p] * zc;
  }
}

std::optional<std::string> EliminatedResidual::prepare_at(double t, std::span<const double> y,
                                                          std::span<const double> yp) {
  scatter(y, yp);
  try {
    prepare(t);
  } catch (const Error& e) {
    std::string why = e.what();
    if (const auto advice = why.find(" → run with --eliminate off"); advice != std::string::npos) why.erase(advice);
    return why;
  }
  return std::nullopt;
}

EvalStatus EliminatedResidual::residual(double t, std::span<const double> y, std::span<const double> yp,
                                        std::span<double> r) {
  scatter(y, yp);
  if (!prepared_) prepare(t);
  const EvalStatus s = full_.residual(t, y_full_, yp_full_, r_full_);
  if (s != EvalStatus::ok) return s;
  // IDA sees the kept rows only: a non-finite eliminated row is refused here
  // (IDA retries with a smaller step, as it does for its own rows).
  for (std::size_t i = 0; i < plan_.eliminated_rows.size(); ++i)
    if (const double v = r_full_[plan_.eliminated_rows[i]]; !std::isfinite(v)) {
      nonfinite_eliminated_ = std::make_pair(i, v);
      return EvalStatus::recoverable;
    }
  reduce_rows(r_full_, r);
  return EvalStatus::ok;
}

EvalStatus EliminatedResidual::jacobian_columns(double t, std::span<const double> y, std::span<const double> yp,
                                                double cj, std::span<const std::size_t> columns,
                                                std::span<double> jv) {
  return jacobian_columns_split(t, y, yp, 1.0, cj, columns, jv);
}

EvalStatus EliminatedResidual::jacobian_columns_split(double t, std::span<const double> y,
                                                      std::span<const double> yp, double y_seed, double yp_seed,
                                                      std::span<const std::size_t> columns, std::span<double> jv) {
  scatter(y, yp);
  if (!prepared_) {
    try {
      prepare(t);
    } catch (const Error&) {
      return EvalStatus::fatal;  // may run on a worker thread; the main residual reports it
    }
  }
  full_columns_.clear();
  for (const std::size_t c : columns) full_columns_.push_back(plan_.kept[c]);  // ascending: kept is
  const EvalStatus s = full_.jacobian_columns_split(t, y_full_, yp_full_, y_seed, yp_seed, full_columns_, jv_full_);
  if (s != EvalStatus::ok) return s;
  reduce_rows(jv_full_, jv);
  return EvalStatus::ok;
}

EvalStatus EliminatedResidual::expand(double t, std::span<const double> y, std::span<const double> yp,
                                      std::span<double> y_full, std::span<double> yp_full) {
  scatter(y, yp);
  if (!prepared_) prepare(t);
  const EvalStatus s = full_.residual(t, y_full_, yp_full_, r_full_);
  if (s != EvalStatus::ok) return s;
  for (std::size_t i = 0; i < rhs_.size(); ++i) rhs_[i] = r_full_[plan_.eliminated_rows[i]];
  if (!rhs_.empty()) solve(rhs_);
  std::copy(y_full_.begin(), y_full_.end(), y_full.begin());
  std::copy(yp_full_.begin(), yp_full_.end(), yp_full.begin());
  for (std::size_t i = 0; i < rhs_.size(); ++i) y_full[plan_.eliminated[i]] = rhs_[i];
  return EvalStatus::ok;
}

bool EliminatedResidual::known_derivative_part(std::vector<DerivativeEntry>& out) const {
  std::vector<DerivativeEntry> full;
  if (!full_.known_derivative_part(full)) return false;
  std::vector<DerivativeEntry> reduced;
  for (const DerivativeEntry& e : full) {
    if (e.row >= plan_.reduced_row.size() || e.column >= plan_.reduced_unknown.size()) return false;
    const std::size_t row = plan_.reduced_row[e.row], column = plan_.reduced_unknown[e.column];
    if (row == no_index || column == no_index) return false;  // g or z_Z has a y' part
    reduced.push_back({row, column, e.value});
  }
  out.insert(out.end(), reduced.begin(), reduced.end());
  return true;
}

}  // namespace lsdae::simulation
