// kernels/derivative_claims.cpp -- see derivative_claims.h.
#include "kernels/derivative_claims.h"
#include "kernels/claim_scale.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace lsdae::kernels {
namespace {

constexpr double kRelative = 1e-4;  // of the row's scale
constexpr double kSmaller = 1e-2;   // the confirming step, relative to h

// Central differences of G over a set of columns, in y or in y'.
class Mover {
 public:
  Mover(ResidualFunction& f, const ClaimPoint& point, std::size_t rows, std::size_t& calls)
      : f_(f), point_(point), calls_(calls), plus_(rows), minus_(rows), y_(point.y.size()), yp_(point.yp.size()) {}

  // half[r] = (G_r(+) − G_r(−)) / 2 with column c moved by ±factor·h_c;
  // noise[r] = 4·ε·max(|G+_r|, |G−_r|). False when G is not ok at either end.
  bool central(std::span<const std::size_t> columns, bool derivative, double factor, std::vector<double>& half,
               std::vector<double>& noise) {
    if (!evaluate(columns, derivative, factor, plus_) || !evaluate(columns, derivative, -factor, minus_)) return false;
    half.resize(plus_.size());
    noise.resize(plus_.size());
    for (std::size_t r = 0; r < plus_.size(); ++r) {
      half[r] = (plus_[r] - minus_[r]) / 2;
      noise[r] = 4 * kClaimRoundoff * std::max(std::fabs(plus_[r]), std::fabs(minus_[r]));
      if (!std::isfinite(half[r])) return false;
    }
    return true;
  }
  double step(std::size_t c, bool derivative) const {
    return 1e-3 * claim_scale(derivative ? point_.yp : point_.y, point_.nominal, c);
  }
  void restore() {
    ++calls_;
    (void)f_.residual(point_.t, point_.y, point_.yp, plus_);
  }

 private:
  bool evaluate(std::span<const std::size_t> columns, bool derivative, double factor, std::vector<double>& out) {
    std::copy(point_.y.begin(), point_.y.end(), y_.begin());
    std::copy(point_.yp.begin(), point_.yp.end(), yp_.begin());
    std::vector<double>& moved = derivative ? yp_ : y_;
    for (std::size_t c : columns) moved[c] += factor * step(c, derivative);
    ++calls_;
    return f_.residual(point_.t, y_, yp_, out) == EvalStatus::ok;
  }

  ResidualFunction& f_;
  const ClaimPoint& point_;
  std::size_t& calls_;
  std::vector<double> plus_, minus_, y_, yp_;
};

struct Suspect {
  std::size_t color, row, column;  // column: the pattern's column of the colour in row (hidden: none)
  bool derivative, hidden;
  double claimed, measured;
  double noise = 0.0;  // hidden candidates: the rounding of `measured`
};

}  // namespace

namespace {

// The check at one point, appended to `check` (an entry already listed is not repeated).
void check_at(ResidualFunction& f, const structure::Pattern& pattern, const structure::Coloring& coloring,
              const ClaimPoint& point, bool directional, DerivativeCheck& check) {
  const std::size_t n = pattern.cols(), rows = pattern.rows(), nnz = pattern.nnz();
  Mover mover(f, point, rows, check.residual_calls);
  const auto& col_ptr = pattern.col_ptr();
  const auto& row_idx = pattern.row_idx();

  // Per part: the measured and the claimed value of every entry, the
  // rounding of the measured one; hidden candidates aside.
  std::vector<double> measured[2], claimed[2], noise_of[2];
  std::vector<bool> judged[2];
  std::vector<Suspect> candidates;
  std::vector<double> row_scale(rows, 0.0), half, noise, jv(rows);
  std::vector<std::size_t> column_in_row(rows, n);
  for (int part = 0; part < 2; ++part) {
    const bool derivative = part == 1;
    measured[part].assign(nnz, 0.0);
    claimed[part].assign(nnz, 0.0);
    noise_of[part].assign(nnz, 0.0);
    judged[part].assign(nnz, false);
    // The directional derivatives of every colour first, all at the point:
    // between two of them the model stays at the point, so a model that
    // caches its partials per point computes them once per part, not once
    // per colour (the moves below would change the point in between).
    // Only the rows the colour's entries are in are asked for (a row sees at
    // most one column of a colour: no duplicates).
    std::vector<char> claimed_colour(coloring.colors, 0);
    std::vector<std::size_t> colour_rows;
    colour_rows.reserve(rows);
    bool at_point = false;  // f holds the point (its last call, at the point, returned ok)
    if (directional)
      for (std::size_t g = 0; g < coloring.colors; ++g) {
        const auto columns = coloring.group(g);
        if (columns.empty()) continue;
        colour_rows.clear();
        for (std::size_t c : columns)
          for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p) colour_rows.push_back(row_idx[p]);
        if (colour_rows.empty()) continue;  // nothing to judge in this colour
        ++check.directional_calls;
        const bool same_point = at_point;
        at_point = f.jacobian_columns_at_rows(point.t, point.y, point.yp, derivative ? 0.0 : 1.0,
                                              derivative ? 1.0 : 0.0, columns, colour_rows, same_point,
                                              jv) == EvalStatus::ok;
        if (!at_point) continue;
        claimed_colour[g] = 1;
        for (std::size_t c : columns)
          for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p) claimed[part][p] = jv[row_idx[p]];
      }
    for (std::size_t g = 0; g < coloring.colors; ++g) {
      const auto columns = coloring.group(g);
      if (columns.empty() || !mover.central(columns, derivative, 1.0, half, noise)) continue;
      const bool have_claim = claimed_colour[g] != 0;
      double largest_step = 0.0;
      for (std::size_t c : columns) {
        const double h = mover.step(c, derivative);
        largest_step = std::max(largest_step, h);
        for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p) {
          const std::size_t r = row_idx[p];
          column_in_row[r] = c;
          measured[part][p] = half[r] / h;
          noise_of[part][p] = noise[r] / h;
          if (!have_claim) claimed[part][p] = measured[part][p];
          judged[part][p] = have_claim;
          row_scale[r] = std::max({row_scale[r], std::fabs(measured[part][p]), std::fabs(claimed[part][p])});
        }
      }
      for (std::size_t r = 0; r < rows; ++r) {
        if (column_in_row[r] == n && std::fabs(half[r]) > noise[r])
          candidates.push_back({g, r, n, derivative, true, 0.0, half[r] / largest_step, noise[r] / largest_step});
        column_in_row[r] = n;
      }
    }
  }

  // Judged against each row's scale; suspects confirmed with a smaller step.
  std::vector<Suspect> suspects;
  for (int part = 0; part < 2; ++part)
    for (std::size_t c = 0; c < n; ++c)
      for (std::size_t p = col_ptr[c]; p < col_ptr[c + 1]; ++p) {
        const std::size_t r = row_idx[p];
        if (judged[part][p] && std::fabs(claimed[part][p] - measured[part][p]) >
                                   kRelative * row_scale[r] + noise_of[part][p])
          suspects.push_back({coloring.color[c], r, c, part == 1, false, claimed[part][p], measured[part][p]});
      }
  for (const Suspect& s : candidates)
    if (std::fabs(s.measured) > kRelative * row_scale[s.row] + s.noise + 1e-12) suspects.push_back(s);
  std::sort(suspects.begin(), suspects.end(), [](const Suspect& a, const Suspect& b) {
    return std::tie(a.derivative, a.color) < std::tie(b.derivative, b.color);
  });
  std::vector<double> small_half, small_noise, single_half, single_noise;
  for (std::size_t k = 0; k < suspects.size();) {
    const std::size_t g = suspects[k].color;
    const bool derivative = suspects[k].derivative;
    const auto columns = coloring.group(g);
    const bool ok = mover.central(columns, derivative, kSmaller, small_half, small_noise);
    for (; k < suspects.size() && suspects[k].color == g && suspects[k].derivative == derivative; ++k) {
      if (!ok) continue;
      const Suspect& s = suspects[k];
      if (!s.hidden) {
        const double h = mover.step(s.column, derivative) * kSmaller;
        const double m2 = small_half[s.row] / h;
        const double off = std::fabs(s.claimed - m2);
        if (off > kRelative * row_scale[s.row] + small_noise[s.row] / h &&
            std::fabs(s.measured - m2) <= 0.1 * off)
          check.wrong.push_back({s.row, s.column, derivative, s.claimed, m2});
        continue;
      }
      // A hidden dependency: the colour's columns one at a time.
      for (std::size_t c : columns) {
        const std::size_t one[1] = {c};
        if (!mover.central(one, derivative, 1.0, single_half, single_noise)) continue;
        const double h = mover.step(c, derivative);
        const double m = single_half[s.row] / h;
        if (std::fabs(m) > kRelative * row_scale[s.row] + single_noise[s.row] / h + 1e-12 &&
            std::fabs(small_half[s.row]) > small_noise[s.row])
          check.hidden.push_back({s.row, c, derivative, 0.0, m});
      }
    }
  }
}

void sort_unique(std::vector<DerivativeClaim>& claims) {
  auto key = [](const DerivativeClaim& c) { return std::tie(c.column, c.row, c.derivative_part); };
  std::stable_sort(claims.begin(), claims.end(),
                   [&](const DerivativeClaim& a, const DerivativeClaim& b) { return key(a) < key(b); });
  claims.erase(std::unique(claims.begin(), claims.end(),
                           [&](const DerivativeClaim& a, const DerivativeClaim& b) { return key(a) == key(b); }),
               claims.end());
}

}  // namespace

DerivativeCheck check_derivative_claims(ResidualFunction& f, const structure::Pattern& pattern,
                                        const structure::Coloring& coloring, const ClaimPoint& point,
                                        bool directional) {
  DerivativeCheck check;
  const std::size_t n = pattern.cols();
  if (n == 0 || coloring.color.size() != n || point.y.size() != n || point.yp.size() != n) return check;
  directional = directional && f.has_jacobian_columns();
  check_at(f, pattern, coloring, point, directional, check);
  // P1 as kernels/constant_claims.h moves it (an entry can be right by
  // accident at P0: Robertson's 1e4·y3 at y3 = 0), halved while G fails there.
  std::vector<double> y1(n), yp1(n), r(pattern.rows());
  double fraction = 0.1;
  for (int attempt = 0; attempt < 5; ++attempt, fraction /= 2) {
    for (std::size_t k = 0; k < n; ++k) {
      const double s = 0.5 + 0.5 * std::fmod(0.6180339887498949 * static_cast<double>(k + 1), 1.0);
      y1[k] = point.y[k] + fraction * s * claim_scale(point.y, point.nominal, k);
      yp1[k] = point.yp[k] + fraction * s * claim_scale(point.yp, point.nominal, k);
    }
    ++check.residual_calls;
    if (f.residual(point.t, y1, yp1, r) != EvalStatus::ok ||
        !std::all_of(r.begin(), r.end(), [](double v) { return std::isfinite(v); }))
      continue;
    check_at(f, pattern, coloring, {point.t, y1, yp1, point.nominal}, directional, check);
    break;
  }
  sort_unique(check.wrong);
  sort_unique(check.hidden);
  Mover(f, point, pattern.rows(), check.residual_calls).restore();  // leave the model at the point
  return check;
}

}  // namespace lsdae::kernels
