// runtime/simulation/impulse_reinitialization.cpp -- integration over the
// impulse at an event (impulse_reinitialization.h).
#include "simulation/impulse_reinitialization.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <vector>

#include "common/format.h"

namespace lsdae::simulation {

namespace {

using structure::EquationRef;
using structure::UnknownKind;

ImpulseResult not_applicable(ImpulseResult r, std::string why) {
  r.applied = false;
  r.not_applicable = std::move(why);
  return r;
}

}  // namespace

ImpulseResult reinitialize_over_impulse(ModelResidual& residual, ConstraintProjector& projector,
                                        const structure::DaeSystem& system, const structure::Index1System& index1,
                                        double t, std::span<double> y, std::span<const double> yp, double tolerance,
                                        std::span<const double> nominal) {
  ImpulseResult result;
  const std::size_t n = residual.size();
  const auto& constraints = index1.projection_constraints;
  result.violation_before = projector.violation(t, y, yp);
  if (!std::isfinite(result.violation_before))
    return not_applicable(result, "the constraints cannot be evaluated at the post-event point");
  if (result.violation_before <= tolerance) return result;  // nothing violated

  // The violated constraints, one per group, and the IDA rows they replace.
  std::vector<std::size_t> violated;
  std::set<std::size_t> groups;
  {
    const auto c = projector.values();
    for (std::size_t i = 0; i < c.size(); ++i) {
      if (!(std::fabs(c[i]) > tolerance)) continue;
      violated.push_back(i);
      result.constraints += (result.constraints.empty() ? "\"" : ", \"") + system.name(constraints[i]) + "\"";
    }
  }
  for (const std::size_t i : violated) {
    if (constraints[i].kind != EquationRef::Kind::formulation)
      return not_applicable(result, "invariant \"" + system.name(constraints[i]) + "\" is violated");
    if (!groups.insert(system.formulation_group[constraints[i].id]).second)
      return not_applicable(result, "two formulations of the group of \"" + system.name(constraints[i]) +
                                        "\" are violated: a position constraint cannot be reached by a jump of the "
                                        "velocities");
  }
  std::vector<std::size_t> dynamic_rows;
  for (std::size_t k = 0; k < n; ++k) {
    const EquationRef& row = index1.rows[k];
    const bool replaced =
        row.kind == EquationRef::Kind::formulation && groups.count(system.formulation_group[row.id]) != 0;
    if (!replaced) dynamic_rows.push_back(k);
  }
  if (dynamic_rows.size() + violated.size() != n)
    return not_applicable(result, "the rows replaced by the violated constraints do not match them one for one");
  for (const auto& u : index1.unknowns)
    if (u.kind == UnknownKind::dummy_state || u.kind == UnknownKind::dummy_derivative)
      return not_applicable(result, "the system has dummy derivatives");
  if (n > kMaxImpulseUnknowns)
    return not_applicable(result, std::to_string(n) + " unknowns, more than the dense solve's " +
                                      std::to_string(kMaxImpulseUnknowns));

  // g(u) = [F_d(ẋ⁻ + Δx, x⁻, z⁻ + Λ) − F_d(ẋ⁻, x⁻, z⁻); C_V(x⁻ + Δx)], u = (Δx | Λ) by IDA unknown.
  std::vector<double> r0(n), r(n), y_work(y.begin(), y.end()), yp_work(yp.begin(), yp.end());
  if (residual.residual(t, y, yp, r0) != kernels::EvalStatus::ok)
    return not_applicable(result, "the FMU discarded the post-event point");
  const std::size_t m = n;
  auto differential = [&](std::size_t k) { return index1.unknowns[k].kind == UnknownKind::differential; };
  auto evaluate = [&](const Eigen::VectorXd& u, Eigen::VectorXd& g) -> bool {
    for (std::size_t k = 0; k < n; ++k) {
      y_work[k] = differential(k) ? y[k] : y[k] + u[static_cast<Eigen::Index>(k)];
      yp_work[k] = differential(k) ? yp[k] + u[static_cast<Eigen::Index>(k)] : yp[k];
    }
    if (residual.residual(t, y_work, yp_work, r) != kernels::EvalStatus::ok) return false;
    for (std::size_t i = 0; i < dynamic_rows.size(); ++i)
      g[static_cast<Eigen::Index>(i)] = r[dynamic_rows[i]] - r0[dynamic_rows[i]];
    for (std::size_t k = 0; k < n; ++k) y_work[k] = differential(k) ? y[k] + u[static_cast<Eigen::Index>(k)] : y[k];
    if (!std::isfinite(projector.violation(t, y_work, yp))) return false;
    const auto c = projector.values();
    for (std::size_t i = 0; i < violated.size(); ++i)
      g[static_cast<Eigen::Index>(dynamic_rows.size() + i)] = c[violated[i]];
    return true;
  };

  // Jacobian by central differences.
  Eigen::MatrixXd jac(static_cast<Eigen::Index>(m), static_cast<Eigen::Index>(n));
  Eigen::VectorXd u = Eigen::VectorXd::Zero(static_cast<Eigen::Index>(n));
  Eigen::VectorXd g_plus(static_cast<Eigen::Index>(m)), g_minus(static_cast<Eigen::Index>(m));
  const double step = std::cbrt(std::numeric_limits<double>::epsilon());
  for (std::size_t k = 0; k < n; ++k) {
    const double scale = std::max({std::fabs(y[k]), std::fabs(yp[k]), k < nominal.size() ? nominal[k] : 1.0});
    const double h = step * (scale > 0 ? scale : 1.0);
    const auto kk = static_cast<Eigen::Index>(k);
    u[kk] = h;
    const bool ok_plus = evaluate(u, g_plus);
    u[kk] = -h;
    const bool ok_minus = evaluate(u, g_minus);
    u[kk] = 0.0;
    if (!ok_plus || !ok_minus) return not_applicable(result, "the FMU discarded a point near the post-event point");
    jac.col(kk) = (g_plus - g_minus) / (2.0 * h);
  }
  Eigen::PartialPivLU<Eigen::MatrixXd> lu(jac);
  // PartialPivLU does not stop at a zero pivot (its rcond estimate can then
  // come out finite): the smallest pivot of U decides too.
  const Eigen::VectorXd pivots = lu.matrixLU().diagonal().cwiseAbs();
  const double pivot_ratio = pivots.maxCoeff() > 0 ? pivots.minCoeff() / pivots.maxCoeff() : 0.0;
  const double rcond = pivot_ratio > 0 ? lu.rcond() : 0.0;
  if (!(rcond >= 1e-12) || !(pivot_ratio >= 1e-14))
    return not_applicable(result, "the impulse equations are singular (rcond " + format_number(rcond) +
                                      "): the violated constraints cannot be reached by a jump of the velocities");

  // Newton with the fixed Jacobian; the residual is exact.
  Eigen::VectorXd g(static_cast<Eigen::Index>(m));
  const double jac_scale = jac.cwiseAbs().maxCoeff();
  for (result.iterations = 0; result.iterations < 10;) {
    if (!evaluate(u, g)) return not_applicable(result, "the FMU discarded a point of the impulse iteration");
    const Eigen::VectorXd delta = lu.solve(-g);
    if (!delta.allFinite())
      return not_applicable(result, "the impulse equations are singular: the violated constraints cannot be reached "
                                    "by a jump of the velocities");
    u += delta;
    ++result.iterations;
    if (delta.cwiseAbs().maxCoeff() <= 1e-15 * std::max(u.cwiseAbs().maxCoeff(), 1e-300)) break;
  }
  if (!evaluate(u, g)) return not_applicable(result, "the FMU discarded the point of the impulse iteration");
  const double dynamic_residual =
      dynamic_rows.empty() ? 0.0 : g.head(static_cast<Eigen::Index>(dynamic_rows.size())).cwiseAbs().maxCoeff();
  const double constraint_residual = g.tail(static_cast<Eigen::Index>(violated.size())).cwiseAbs().maxCoeff();
  if (dynamic_residual > 1e-8 * jac_scale * std::max(u.cwiseAbs().maxCoeff(), 1.0) || constraint_residual > tolerance)
    return not_applicable(result, "the impulse iteration did not converge (the dynamic rows may not be linear in "
                                  "the derivatives and algebraic variables)");
  for (std::size_t k = 0; k < n; ++k)
    if (differential(k)) y[k] += u[static_cast<Eigen::Index>(k)];
  result.violation_after = projector.violation(t, y, yp);
  result.applied = true;
  return result;
}

}  // namespace lsdae::simulation
