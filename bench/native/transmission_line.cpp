// bench/native/transmission_line.cpp -- see transmission_line.h.
#include "native/transmission_line.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <tuple>

namespace lsdae::bench {

const char* to_string(TlForm form) noexcept { return form == TlForm::ode ? "ode" : "dae"; }

namespace {
struct Entry {
  std::size_t row, col;
  double a, b;  // ∂G/∂y, ∂G/∂y'
};
}  // namespace

TransmissionLine::TransmissionLine(TlForm form, long n, const TlParameters& p, TlRowOrder row_order)
    : form_(form), row_order_(row_order), n_(n) {
  if (n < 1) throw std::invalid_argument("TransmissionLine: N is " + std::to_string(n) + "; it must be at least 1");
  const std::size_t segments = static_cast<std::size_t>(n);
  size_ = form == TlForm::ode ? 2 * segments + 2 : 5 * segments + 3;
  // The FMU's update_coefficients(), operation for operation.
  const double nd = static_cast<double>(n);
  w_ = p.w;
  R_ = p.r * p.length / nd;
  L_ = p.l * p.length / nd;
  C_ = p.c * p.length / nd;
  RL_ = std::sqrt(p.l / p.c);
  inv_L_ = 1.0 / L_;
  inv_C_ = 1.0 / C_;
  inv_RL_ = 1.0 / RL_;

  // Entries of A = ∂G/∂y and B = ∂G/∂y', with the values lsdae obtains from
  // the FMU's partial derivatives (model.cpp, partials()).
  std::vector<Entry> entries;
  auto add = [&entries](std::size_t row, std::size_t col, double a, double b) { entries.push_back({row, col, a, b}); };
  const std::size_t fy = 0, fyd = 1;
  if (form == TlForm::ode) {
    // G = y' − f(y): A = −∂f/∂y, B = I.
    for (std::size_t k = 0; k < size_; ++k) add(k, k, 0.0, 1.0);
    add(fy, fyd, -1.0, 0.0);
    add(fyd, fy, -(-w_ * w_), 0.0);
    add(fyd, fyd, -(-2.0 * w_), 0.0);
    for (long k = 0; k < n; ++k) {
      const std::size_t prev = k == 0 ? fy : v_of(k - 1);
      add(i_of(k), prev, -inv_L_, 0.0);
      add(i_of(k), i_of(k), -(-R_ * inv_L_), 0.0);
      add(i_of(k), v_of(k), -(-inv_L_), 0.0);
      add(v_of(k), i_of(k), -inv_C_, 0.0);
      if (k + 1 < n)
        add(v_of(k), i_of(k + 1), -(-inv_C_), 0.0);
      else
        add(v_of(k), v_of(k), -(-inv_RL_ * inv_C_), 0.0);
    }
  } else {
    add(0, fy, 0.0, 1.0);  // res.filter_y
    add(0, fyd, -1.0, 0.0);
    add(1, fyd, 0.0, 1.0);  // res.filter_yd
    add(1, fy, w_ * w_, 0.0);
    add(1, fyd, 2.0 * w_, 0.0);
    for (long k = 0; k < n; ++k) {
      const SegmentRows row = rows_of(k);
      const std::size_t prev = k == 0 ? fy : v_of(k - 1);
      const std::size_t next = k + 1 < n ? i_of(k + 1) : load_of();
      const std::size_t rv = z_of(k), lv = z_of(k) + 1, ci = z_of(k) + 2;
      add(row.r, rv, 1.0, 0.0);  // res.R
      add(row.r, i_of(k), -R_, 0.0);
      add(row.l, i_of(k), 0.0, L_);  // res.L
      add(row.l, lv, -1.0, 0.0);
      add(row.kvl, prev, 1.0, 0.0);  // res.KVL
      add(row.kvl, rv, -1.0, 0.0);
      add(row.kvl, lv, -1.0, 0.0);
      add(row.kvl, v_of(k), -1.0, 0.0);
      add(row.c, v_of(k), 0.0, C_);  // res.C
      add(row.c, ci, -1.0, 0.0);
      add(row.kcl, i_of(k), 1.0, 0.0);  // res.KCL
      add(row.kcl, ci, -1.0, 0.0);
      add(row.kcl, next, -1.0, 0.0);
    }
    add(size_ - 1, load_of(), RL_, 0.0);  // res.load (last in either order: load.i is the last unknown)
    add(size_ - 1, v_of(n - 1), -1.0, 0.0);
  }
  // CSC, rows ascending per column; an (row, col) given twice is one nonzero
  // (the y and y' parts of a differential unknown; each part is given once).
  std::sort(entries.begin(), entries.end(),
            [](const Entry& x, const Entry& y) { return std::tie(x.col, x.row) < std::tie(y.col, y.row); });
  col_ptr_.assign(size_ + 1, 0);
  for (std::size_t e = 0; e < entries.size(); ++e) {
    const Entry& x = entries[e];
    if (e > 0 && entries[e - 1].row == x.row && entries[e - 1].col == x.col) {
      a_.back() += x.a;
      b_.back() += x.b;
      continue;
    }
    row_idx_.push_back(x.row);
    a_.push_back(x.a);
    b_.push_back(x.b);
    ++col_ptr_[x.col + 1];
  }
  for (std::size_t c = 0; c < size_; ++c) col_ptr_[c + 1] += col_ptr_[c];
}

std::vector<double> TransmissionLine::id() const {
  std::vector<double> id(size_, 0.0);
  std::fill(id.begin(), id.begin() + static_cast<long>(differential()), 1.0);
  return id;
}

void TransmissionLine::initial_values(std::span<double> y, std::span<double> yp) const {
  std::fill(y.begin(), y.end(), 0.0);
  std::fill(yp.begin(), yp.end(), 0.0);
  if (form_ == TlForm::ode) {
    // y' = f(y0), what fmi3GetContinuousStateDerivatives gives lsdae.
    std::vector<double> r(size_);
    residual(0.0, y, yp, r);
    for (std::size_t k = 0; k < size_; ++k) yp[k] = -r[k];
  }
}

std::size_t TransmissionLine::index_of(const std::string& name) const {
  auto bad = [&] {
    return std::invalid_argument("TransmissionLine (" + std::string(to_string(form_)) + " form, N = " +
                                 std::to_string(n_) + "): no variable \"" + name + "\"");
  };
  if (name == "filter.y") return 0;
  if (name == "filter.yd") return 1;
  if (name == "v_load") return v_of(n_ - 1);
  if (name == "load.i") {
    if (form_ != TlForm::dae) throw bad();
    return load_of();
  }
  // X[k].s
  const auto open = name.find('['), close = name.find("].");
  if (open != 1 || close == std::string::npos) throw bad();
  long k = 0;
  try {
    std::size_t used = 0;
    k = std::stol(name.substr(2, close - 2), &used);
    if (used != close - 2) throw bad();
  } catch (const std::logic_error&) {
    throw bad();
  }
  if (k < 1 || k > n_) throw bad();
  const std::string kind = name.substr(0, 1) + name.substr(close + 1);
  if (kind == "L.i") return i_of(k - 1);
  if (kind == "C.v") return v_of(k - 1);
  if (form_ == TlForm::dae) {
    if (kind == "R.v") return z_of(k - 1);
    if (kind == "L.v") return z_of(k - 1) + 1;
    if (kind == "C.i") return z_of(k - 1) + 2;
  }
  throw bad();
}

void TransmissionLine::residual(double /*t*/, std::span<const double> y, std::span<const double> yp,
                                std::span<double> r) const {
  // The FMU's compute(), operation for operation (u = 1 for t >= 0).
  const double fy = y[0], fyd = y[1];
  const double dyd = w_ * (w_ * (1.0 - fy) - 2.0 * fyd);
  const long n = n_;
  double prev = fy;
  if (form_ == TlForm::ode) {
    r[0] = yp[0] - fyd;
    r[1] = yp[1] - dyd;
    for (long k = 0; k < n; ++k) {
      const std::size_t io = i_of(k), vo = io + 1;
      const double i = y[io], vc = y[vo];
      const double next = k + 1 < n ? y[io + 2] : vc * inv_RL_;
      const double rv = R_ * i;
      const double lv = prev - rv - vc;
      const double ci = i - next;
      r[io] = yp[io] - lv * inv_L_;
      r[vo] = yp[vo] - ci * inv_C_;
      prev = vc;
    }
    return;
  }
  r[0] = yp[0] - fyd;
  r[1] = yp[1] - dyd;
  const std::size_t load = load_of();
  for (long k = 0; k < n; ++k) {
    const std::size_t io = i_of(k), vo = io + 1, z = z_of(k);
    const SegmentRows row = rows_of(k);
    const double next = k + 1 < n ? y[io + 2] : y[load];
    r[row.r] = y[z] - R_ * y[io];
    r[row.l] = L_ * yp[io] - y[z + 1];
    r[row.kvl] = prev - y[z] - y[z + 1] - y[vo];
    r[row.c] = C_ * yp[vo] - y[z + 2];
    r[row.kcl] = y[io] - y[z + 2] - next;
    prev = y[vo];
  }
  r[size_ - 1] = RL_ * y[load] - y[v_of(n - 1)];
}

void TransmissionLine::jacobian(double cj, std::span<double> values) const {
  const std::size_t nnz = a_.size();
  const double* a = a_.data();
  const double* b = b_.data();
  for (std::size_t p = 0; p < nnz; ++p) values[p] = a[p] + cj * b[p];
}

}  // namespace lsdae::bench
