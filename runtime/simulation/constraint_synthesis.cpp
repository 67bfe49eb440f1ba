// runtime/simulation/constraint_synthesis.cpp -- see constraint_synthesis.h.
#include "simulation/constraint_synthesis.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

#include "lsdae/error.h"

namespace lsdae::simulation {

namespace {
constexpr double kEps = std::numeric_limits<double>::epsilon();
const double kCbrtEps = std::cbrt(kEps);
constexpr std::array<double, 4> kFirstOffsets{-2.0, -1.0, 1.0, 2.0};
constexpr std::array<double, 4> kFirstWeights{1.0 / 12.0, -8.0 / 12.0, 8.0 / 12.0, -1.0 / 12.0};
constexpr std::array<double, 7> kSecondOffsets{-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0};
constexpr std::array<double, 7> kSecondWeights{2.0 / 180.0,   -27.0 / 180.0, 270.0 / 180.0, -490.0 / 180.0,
                                               270.0 / 180.0, -27.0 / 180.0, 2.0 / 180.0};
}  // namespace

double first_difference(const std::array<double, 4>& f, double h) {
  double sum = 0.0;
  for (std::size_t k = 0; k < f.size(); ++k) sum += kFirstWeights[k] * f[k];
  return sum / h;
}

double second_difference(const std::array<double, 7>& f, double h) {
  double sum = 0.0;
  for (std::size_t k = 0; k < f.size(); ++k) sum += kSecondWeights[k] * f[k];
  return sum / (h * h);
}

double first_difference_step(double scale) { return std::pow(kEps, 1.0 / 5.0) * scale; }
double second_difference_step(double scale) { return std::pow(kEps, 1.0 / 8.0) * scale; }

std::optional<double> second_derivative_along(
    const std::function<std::optional<double>(double t, std::span<const double> x)>& g, double t,
    std::span<const double> x, std::span<const double> v, std::span<const double> a, double h) {
  std::vector<double> point(x.size());
  std::array<double, 7> f{};
  for (std::size_t k = 0; k < kSecondOffsets.size(); ++k) {
    const double tau = kSecondOffsets[k] * h;
    for (std::size_t i = 0; i < x.size(); ++i) point[i] = x[i] + tau * v[i] + 0.5 * tau * tau * a[i];
    const std::optional<double> value = g(t + tau, point);
    if (!value) return std::nullopt;
    f[k] = *value;
  }
  return second_difference(f, h);
}

std::optional<double> first_derivative_along(
    const std::function<std::optional<double>(double t, std::span<const double> x)>& g, double t,
    std::span<const double> x, std::span<const double> v, double h) {
  std::vector<double> point(x.size());
  std::array<double, 4> f{};
  for (std::size_t k = 0; k < kFirstOffsets.size(); ++k) {
    const double tau = kFirstOffsets[k] * h;
    for (std::size_t i = 0; i < x.size(); ++i) point[i] = x[i] + tau * v[i];
    const std::optional<double> value = g(t + tau, point);
    if (!value) return std::nullopt;
    f[k] = *value;
  }
  return first_difference(f, h);
}

std::vector<double> state_nominals(const ModelDescription& md, const ModelDae& dae) {
  std::vector<double> out(dae.state_vrs.size(), 1.0);
  for (std::size_t i = 0; i < out.size(); ++i)
    if (const Variable* v = md.find(dae.state_vrs[i]);
        v != nullptr && v->nominal && *v->nominal > 0 && std::isfinite(*v->nominal))
      out[i] = *v->nominal;
  return out;
}

ConstraintSynthesis::ConstraintSynthesis(Instance& instance, const ModelDae& dae, std::vector<double> state_nominal)
    : instance_(instance), dae_(dae), nominal_(std::move(state_nominal)), last_phi_(dae.synthesis.size()) {}

std::size_t ConstraintSynthesis::add_row(std::size_t group, std::size_t level) {
  std::size_t order = 0;
  const ModelDae::Synthesis* s = dae_.synthesis_of(group, level, &order);
  if (s == nullptr || order < 1 || order > s->levels())
    throw Error(ErrorKind::internal, "simulation: formulation " + std::to_string(level) + " of residual group " +
                                         std::to_string(group) + " is not synthesized");
  const std::size_t entry = static_cast<std::size_t>(s - dae_.synthesis.data());
  rows_.push_back({entry, order});
  if (!s->two_levels()) {
    one_level_rows_.push_back(rows_.size() - 1);
    one_level_vrs_.push_back(s->residual);
    one_level_states_.insert(one_level_states_.end(), s->states.begin(), s->states.end());
    std::sort(one_level_states_.begin(), one_level_states_.end());
    one_level_states_.erase(std::unique(one_level_states_.begin(), one_level_states_.end()), one_level_states_.end());
    plus_.resize(one_level_vrs_.size());
    minus_.resize(one_level_vrs_.size());
  }
  return rows_.size() - 1;
}

std::vector<std::size_t> ConstraintSynthesis::states() const {
  std::vector<std::size_t> out;
  for (const Row& r : rows_) {
    const auto& s = dae_.synthesis[r.entry];
    out.insert(out.end(), s.states.begin(), s.states.end());
    out.insert(out.end(), s.kinematic_states.begin(), s.kinematic_states.end());
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

double ConstraintSynthesis::scale(std::span<const double> x, std::size_t i) const {
  return std::max(std::fabs(x[i]), i < nominal_.size() ? nominal_[i] : 1.0);
}

bool ConstraintSynthesis::read(double t, std::span<const double> x, std::span<const std::size_t> s_states,
                               std::span<const double> v, std::span<const ValueReference> vrs,
                               std::span<double> out) {
  if (instance_.set_time(t) == CallStatus::discard) return false;
  if (inputs_ != nullptr && inputs_->apply(instance_, t, false) == CallStatus::discard) return false;
  if (!x.empty() && instance_.set_continuous_states(x) == CallStatus::discard) return false;
  if (!s_states.empty()) {
    derivative_vrs_buffer_.clear();
    for (const std::size_t i : s_states) derivative_vrs_buffer_.push_back(dae_.derivative_vrs[i]);
    if (instance_.set_float64(derivative_vrs_buffer_, v) == CallStatus::discard) return false;
  }
  if (counting_) ++evaluations_;
  return instance_.get_float64(vrs, out) != CallStatus::discard;
}

kernels::EvalStatus ConstraintSynthesis::evaluate(double t, std::span<const double> x, std::span<const double> xdot,
                                                  std::span<double> out) {
  if (!one_level_rows_.empty())
    if (auto s = one_level(t, x, xdot, out); s != kernels::EvalStatus::ok) return s;
  // Two levels: one computation per synthesis entry serves its rows.
  for (std::size_t k = 0; k < rows_.size(); ++k) {
    const ModelDae::Synthesis& s = dae_.synthesis[rows_[k].entry];
    if (!s.two_levels()) continue;
    bool done = false;
    for (std::size_t j = 0; j < k && !done; ++j) done = rows_[j].entry == rows_[k].entry;
    if (done) continue;
    bool second = false;
    for (std::size_t j = k; j < rows_.size(); ++j) second |= rows_[j].entry == rows_[k].entry && rows_[j].order == 2;
    double g1 = 0.0, g2 = 0.0;
    if (auto st = two_levels(s, second, t, x, xdot, g1, g2); st != kernels::EvalStatus::ok) return st;
    for (std::size_t j = k; j < rows_.size(); ++j)
      if (rows_[j].entry == rows_[k].entry) out[j] = rows_[j].order == 1 ? g1 : g2;
  }
  return kernels::EvalStatus::ok;
}

kernels::EvalStatus ConstraintSynthesis::one_level(double t, std::span<const double> x, std::span<const double> xdot,
                                                   std::span<double> out) {
  double span = 1.0;  // seconds; the time part ∂g/∂t has no scale of its own
  for (const std::size_t i : one_level_states_)
    if (xdot[i] != 0.0) span = std::min(span, scale(x, i) / std::fabs(xdot[i]));
  const double h = kCbrtEps * span;
  auto evaluate = [&](double sign, std::span<double> values) {
    moved_.assign(x.begin(), x.end());
    for (const std::size_t i : one_level_states_) moved_[i] = x[i] + sign * h * xdot[i];
    return read(t + sign * h, moved_, {}, {}, one_level_vrs_, values);
  };
  if (!evaluate(1.0, plus_) || !evaluate(-1.0, minus_)) return kernels::EvalStatus::recoverable;
  for (std::size_t k = 0; k < one_level_rows_.size(); ++k) out[one_level_rows_[k]] = (plus_[k] - minus_[k]) / (2 * h);
  return kernels::EvalStatus::ok;
}

kernels::EvalStatus ConstraintSynthesis::two_levels(const ModelDae::Synthesis& s, bool second, double t,
                                                    std::span<const double> x, std::span<const double> xdot,
                                                    double& g1, double& g2) {
  using Vec = Eigen::VectorXd;
  const std::size_t p = s.states.size();
  const auto P = static_cast<Eigen::Index>(p);
  const std::span<const std::size_t> S(s.states);
  const std::span<const ValueReference> K(s.kinematic_vrs);
  Vec v(P), k0(P), kv(P);
  Eigen::MatrixXd jac(P, P);
  std::vector<double> vbuf(p), kbuf(p);
  auto k_at = [&](double at, std::span<const double> xs, const Vec& vv, Vec& out) {
    for (std::size_t j = 0; j < p; ++j) vbuf[j] = vv[static_cast<Eigen::Index>(j)];
    if (!read(at, xs, S, vbuf, K, kbuf)) return false;
    for (std::size_t j = 0; j < p; ++j) out[static_cast<Eigen::Index>(j)] = kbuf[j];
    return true;
  };
  auto v_scale = [&](std::size_t j) { return std::max(std::fabs(v[static_cast<Eigen::Index>(j)]), nominal_[S[j]]); };
  // J = ∂K/∂ẋ_S at v, one 4-point difference per column.
  auto jacobian = [&]() {
    for (std::size_t j = 0; j < p; ++j) {
      const auto c = static_cast<Eigen::Index>(j);
      const double d = first_difference_step(v_scale(j));
      Vec moved = v;
      jac.col(c).setZero();
      for (std::size_t k = 0; k < kFirstOffsets.size(); ++k) {
        moved[c] = v[c] + kFirstOffsets[k] * d;
        if (!k_at(t, x, moved, kv)) return false;
        jac.col(c) += kFirstWeights[k] / d * kv;
      }
    }
    return jac.allFinite();
  };
  // Start from the last solution (φ is continuous in (t, x), and the calls
  // come at nearby points), else from the point's ẋ_S: not from the point's
  // ẋ_S always, which IDA's difference Jacobian moves by cj·increment, far
  // from φ when the step is small.
  std::vector<double>& last = last_phi_[static_cast<std::size_t>(&s - dae_.synthesis.data())];
  for (std::size_t j = 0; j < p; ++j) v[static_cast<Eigen::Index>(j)] = last.empty() ? xdot[S[j]] : last[j];
  if (!k_at(t, x, v, k0) || !jacobian()) return kernels::EvalStatus::recoverable;
  Vec j_at = v;  // where J was computed
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(jac);
  if (!(std::fabs(lu.determinant()) > 0.0)) return kernels::EvalStatus::recoverable;
  // Newton; J is computed again while the steps are large (rows not linear
  // in ẋ_S), kept once they are small.
  bool converged = false;
  for (int it = 0; it < 30 && !converged; ++it) {
    if (it > 0 && !k_at(t, x, v, k0)) return kernels::EvalStatus::recoverable;
    const Vec step = lu.solve(-k0);
    if (!step.allFinite()) return kernels::EvalStatus::recoverable;
    converged = true;
    bool large = false;
    for (std::size_t j = 0; j < p; ++j) {
      const double relative = std::fabs(step[static_cast<Eigen::Index>(j)]) / v_scale(j);
      converged &= relative <= 1e-12;
      large |= relative > 1e-4;
    }
    v += step;
    if (large) {
      if (!jacobian()) return kernels::EvalStatus::recoverable;
      j_at = v;
      lu.compute(jac);
      if (!(std::fabs(lu.determinant()) > 0.0)) return kernels::EvalStatus::recoverable;
    }
  }
  if (!converged) return kernels::EvalStatus::recoverable;
  last.assign(p, 0.0);
  for (std::size_t j = 0; j < p; ++j) last[j] = v[static_cast<Eigen::Index>(j)];
  std::vector<double> phi(p), xs(p);
  for (std::size_t j = 0; j < p; ++j) {
    phi[j] = v[static_cast<Eigen::Index>(j)];
    xs[j] = x[S[j]];
  }

  // g(t', x') with only the states of S replaced by `xs_of_s`.
  std::vector<double> gx(x.begin(), x.end());
  double gv = 0.0;
  const ValueReference gvr = s.residual;
  const auto g_at = [&](double at, std::span<const double> xs_of_s) -> std::optional<double> {
    for (std::size_t j = 0; j < p; ++j) gx[S[j]] = xs_of_s[j];
    if (!read(at, gx, {}, {}, {&gvr, 1}, {&gv, 1})) return std::nullopt;
    return gv;
  };

  // g₁ along (1, φ).
  double span = 1.0;
  for (std::size_t j = 0; j < p; ++j)
    if (phi[j] != 0.0) span = std::min(span, scale(x, S[j]) / std::fabs(phi[j]));
  const std::optional<double> first = first_derivative_along(g_at, t, xs, phi, first_difference_step(span));
  if (!first) return kernels::EvalStatus::recoverable;
  g1 = *first;
  if (!second) return kernels::EvalStatus::ok;

  // φ̇ = −J⁻¹ (∂K/∂t + ∂K/∂x·ẋ) at ẋ_S = φ, with J at φ unless it was
  // computed within 1e-8 of the scale from there (for rows not linear in ẋ_S
  // J changes with ẋ_S; for linear ones it does not, but lsdae cannot tell).
  bool moved_far = false;
  for (std::size_t j = 0; j < p; ++j) {
    const auto c = static_cast<Eigen::Index>(j);
    moved_far |= std::fabs(v[c] - j_at[c]) > 1e-8 * v_scale(j);
  }
  if (moved_far) {
    if (!jacobian()) return kernels::EvalStatus::recoverable;
    lu.compute(jac);
    if (!(std::fabs(lu.determinant()) > 0.0)) return kernels::EvalStatus::recoverable;
  }
  double kspan = 1.0;
  for (const std::size_t i : s.kinematic_states)
    if (xdot[i] != 0.0) kspan = std::min(kspan, scale(x, i) / std::fabs(xdot[i]));
  const double hk = first_difference_step(kspan);
  std::vector<double> xk(x.begin(), x.end());
  Vec rate = Vec::Zero(P);
  for (std::size_t k = 0; k < kFirstOffsets.size(); ++k) {
    const double tau = kFirstOffsets[k] * hk;
    for (const std::size_t i : s.kinematic_states) xk[i] = x[i] + tau * xdot[i];
    if (!k_at(t + tau, xk, v, kv)) return kernels::EvalStatus::recoverable;
    rate += kFirstWeights[k] / hk * kv;
  }
  const Vec phidot_v = lu.solve(-rate);
  if (!phidot_v.allFinite()) return kernels::EvalStatus::recoverable;
  std::vector<double> phidot(p);
  for (std::size_t j = 0; j < p; ++j) phidot[j] = phidot_v[static_cast<Eigen::Index>(j)];

  // g₂: the 7-point second difference along c(τ) = (t + τ, x_S + τφ + τ²/2·φ̇).
  double span2 = span;
  for (std::size_t j = 0; j < p; ++j)
    if (phidot[j] != 0.0) span2 = std::min(span2, std::sqrt(scale(x, S[j]) / std::fabs(phidot[j])));
  const std::optional<double> value =
      second_derivative_along(g_at, t, xs, phi, phidot, second_difference_step(span2));
  if (!value) return kernels::EvalStatus::recoverable;
  g2 = *value;
  return kernels::EvalStatus::ok;
}

}  // namespace lsdae::simulation
