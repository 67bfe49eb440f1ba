// kernels/constant_claims.cpp -- see constant_claims.h.
#include "kernels/constant_claims.h"
#include "kernels/claim_scale.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace lsdae::kernels {
namespace {

// One part (y or y') of every claimed entry at one point: value and rounding.
struct Part {
  std::vector<double> value, noise;
  std::vector<bool> ok;
};

class Prober {
 public:
  Prober(ResidualFunction& f, const structure::Pattern& pattern, const structure::Coloring& coloring,
         const ConstantEntries& entries, std::span<const double> nominal, std::size_t& calls)
      : f_(f), pattern_(pattern), coloring_(coloring), entries_(entries), nominal_(nominal), calls_(calls) {
    const std::size_t n = pattern.cols();
    plus_.resize(n);
    minus_.resize(n);
    y_.resize(n);
    yp_.resize(n);
  }

  // The `derivative` part (y' moved, else y) of the claimed entries at (t, y, yp).
  Part probe(double t, std::span<const double> y, std::span<const double> yp, bool derivative) {
    const std::size_t nnz = pattern_.nnz();
    Part part{std::vector<double>(nnz, 0.0), std::vector<double>(nnz, 0.0), std::vector<bool>(nnz, false)};
    const auto& col_ptr = pattern_.col_ptr();
    const auto& row_idx = pattern_.row_idx();
    std::vector<std::size_t> columns;
    std::vector<double> step;
    for (std::size_t g = 0; g < coloring_.colors; ++g) {
      columns.clear();
      for (std::size_t c : coloring_.group(g))
        if (claimed(c, derivative)) columns.push_back(c);
      if (columns.empty()) continue;
      std::span<const double> moved = derivative ? yp : y;
      step.assign(columns.size(), 0.0);
      for (std::size_t i = 0; i < columns.size(); ++i) step[i] = 1e-3 * claim_scale(moved, nominal_, columns[i]);
      const bool ok = evaluate(t, y, yp, derivative, columns, step, 1.0, plus_) &&
                      evaluate(t, y, yp, derivative, columns, step, -1.0, minus_);
      if (!ok) continue;
      for (std::size_t i = 0; i < columns.size(); ++i) {
        const std::size_t c = columns[i];
        for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p) {
          if (!is_claimed(p) || (derivative && !entries_.derivative_part[p])) continue;
          const std::size_t r = row_idx[p];
          part.value[p] = (plus_[r] - minus_[r]) / (2 * step[i]);
          part.noise[p] = 4 * kClaimRoundoff * std::max(std::fabs(plus_[r]), std::fabs(minus_[r])) / step[i];
          part.ok[p] = std::isfinite(part.value[p]);
        }
      }
    }
    raise_noise_to_terms(part, derivative ? yp : y);
    return part;
  }

  // A residual that sums large terms to about zero (a bus's current balance at a solved point)
  // rounds at ε·Σ|terms|, which |G±| (then ≈ 0) does not show. Two lower bounds of those terms
  // from the claimed entries: the row's, Σ_c |a_rc|·scale_c, and the moved unknown's own terms,
  // scale_c·Σ_r |a_rc| (a term that cancels to an entry of exactly 0 -- a tripped branch
  // subtracted from the admittance sum -- is as large as the unknown's terms in the other rows).
  // noise_p is raised to 4ε of the larger over h_c.
  void raise_noise_to_terms(Part& part, std::span<const double> moved) const {
    const auto& col_ptr = pattern_.col_ptr();
    const auto& row_idx = pattern_.row_idx();
    std::vector<double> row_terms(pattern_.rows(), 0.0);
    for (std::size_t c = 0; c < pattern_.cols(); ++c)
      for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p)
        if (part.ok[p]) row_terms[row_idx[p]] += std::fabs(part.value[p]) * claim_scale(moved, nominal_, c);
    for (std::size_t c = 0; c < pattern_.cols(); ++c) {
      const double scale = claim_scale(moved, nominal_, c);
      double column_terms = 0.0;
      for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p)
        if (part.ok[p]) column_terms += std::fabs(part.value[p]) * scale;
      for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p)
        if (part.ok[p])
          part.noise[p] = std::max(part.noise[p], 4 * kClaimRoundoff *
                                                      std::max(row_terms[row_idx[p]], column_terms) / (1e-3 * scale));
    }
  }

  bool residual_ok(double t, std::span<const double> y, std::span<const double> yp) {
    ++calls_;
    if (f_.residual(t, y, yp, plus_) != EvalStatus::ok) return false;
    return std::all_of(plus_.begin(), plus_.end(), [](double v) { return std::isfinite(v); });
  }

 private:
  bool is_claimed(std::size_t p) const { return entries_.lifetime[p] != EntryLifetime::varying; }
  bool claimed(std::size_t c, bool derivative) const {
    for (std::size_t p = pattern_.col_ptr()[c]; p < pattern_.col_ptr()[c + 1]; ++p)
      if (is_claimed(p) && (!derivative || entries_.derivative_part[p])) return true;
    return false;
  }
  bool evaluate(double t, std::span<const double> y, std::span<const double> yp, bool derivative,
                const std::vector<std::size_t>& columns, const std::vector<double>& step, double sign,
                std::vector<double>& out) {
    std::copy(y.begin(), y.end(), y_.begin());
    std::copy(yp.begin(), yp.end(), yp_.begin());
    std::vector<double>& moved = derivative ? yp_ : y_;
    for (std::size_t i = 0; i < columns.size(); ++i) moved[columns[i]] += sign * step[i];
    ++calls_;
    return f_.residual(t, y_, yp_, out) == EvalStatus::ok;
  }

  ResidualFunction& f_;
  const structure::Pattern& pattern_;
  const structure::Coloring& coloring_;
  const ConstantEntries& entries_;
  std::span<const double> nominal_;
  std::size_t& calls_;
  std::vector<double> plus_, minus_, y_, yp_;
};

}  // namespace

ClaimCheck check_constant_claims(ResidualFunction& f, const structure::Pattern& pattern,
                                 const structure::Coloring& coloring, const ConstantEntries& entries,
                                 const ClaimPoint& point) {
  ClaimCheck check;
  const std::size_t n = pattern.cols();
  if (entries.lifetime.size() != pattern.nnz() || n == 0) return check;
  if (std::all_of(entries.lifetime.begin(), entries.lifetime.end(),
                  [](EntryLifetime l) { return l == EntryLifetime::varying; }))
    return check;
  Prober prober(f, pattern, coloring, entries, point.nominal, check.residual_calls);

  // P1: away from P0 by a tenth of each unknown's scale, halved while G fails there.
  std::vector<double> y1(n), yp1(n);
  double fraction = 0.1;
  for (int attempt = 0; attempt < 5 && !check.perturbed; ++attempt, fraction /= 2) {
    for (std::size_t k = 0; k < n; ++k) {
      const double s = 0.5 + 0.5 * std::fmod(0.6180339887498949 * static_cast<double>(k + 1), 1.0);
      y1[k] = point.y[k] + fraction * s * claim_scale(point.y, point.nominal, k);
      yp1[k] = point.yp[k] + fraction * s * claim_scale(point.yp, point.nominal, k);
    }
    check.perturbed = prober.residual_ok(point.t, y1, yp1);
  }
  if (check.perturbed) {
    for (const bool derivative : {false, true}) {
      const Part a = prober.probe(point.t, point.y, point.yp, derivative);
      const Part b = prober.probe(point.t, y1, yp1, derivative);
      for (std::size_t c = 0; c < n; ++c)
        for (std::size_t p = pattern.col_ptr()[c]; p < pattern.col_ptr()[c + 1]; ++p) {
          if (!a.ok[p] || !b.ok[p]) continue;
          ++check.checked;
          const double va = a.value[p], vb = b.value[p];
          if (std::fabs(va - vb) <= 1e-6 * (std::fabs(va) + std::fabs(vb)) + a.noise[p] + b.noise[p]) continue;
          // One report per entry: the y part first.
          const bool known = std::any_of(check.false_claims.begin(), check.false_claims.end(),
                                         [p](const FalseClaim& fc) { return fc.entry == p; });
          if (!known) check.false_claims.push_back({p, pattern.row_idx()[p], c, derivative, va, vb});
        }
    }
    std::sort(check.false_claims.begin(), check.false_claims.end(),
              [](const FalseClaim& x, const FalseClaim& y) { return x.entry < y.entry; });
  }
  prober.residual_ok(point.t, point.y, point.yp);  // leave the model at P0
  return check;
}

}  // namespace lsdae::kernels
