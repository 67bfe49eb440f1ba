// runtime/simulation/jacobian_claims.cpp -- see jacobian_claims.h.
#include "simulation/jacobian_claims.h"

#include <cstddef>

#include "common/format.h"
#include "kernels/constant_claims.h"
#include "kernels/derivative_claims.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::simulation {

void distrust_false_constants(ModelEvaluation& evaluation, const structure::Pattern& iteration,
                              kernels::ConstantEntries& entries, double t, std::span<const double> y,
                              std::span<const double> yp, JacobianClaims mode, std::set<std::string>& reported) {
  if (mode == JacobianClaims::trust || !evaluation.structure().coloring) return;
  const kernels::ClaimCheck check = kernels::check_constant_claims(
      evaluation.residual(0), iteration, *evaluation.structure().coloring, entries,
      {t, y, yp, evaluation.nominal()});
  if (check.false_claims.empty()) return;
  std::string listed;
  std::size_t fresh = 0;
  for (const kernels::FalseClaim& c : check.false_claims) {
    entries.lifetime[c.entry] = kernels::EntryLifetime::varying;
    const std::string row = evaluation.row_name(c.row), unknown = evaluation.unknown_name(c.column);
    if (!reported.insert(row + "/" + unknown).second) continue;
    if (fresh++ < 8)
      listed += std::string(fresh > 1 ? "; " : "") + "d \"" + row + "\" / d " + (c.derivative_part ? "der(" : "") +
                unknown + (c.derivative_part ? ")" : "") + " is " + format_number(c.at_point) + " there and " +
                format_number(c.at_perturbed) + " at a perturbed point";
  }
  if (fresh == 0) return;
  if (fresh > 8) listed += "; and " + std::to_string(fresh - 8) + " more";
  const std::string where = evaluation.model().display_name() + ": Jacobian at t = " + format_number(t);
  const std::string what = " → " + std::to_string(fresh) +
                           " entr" + (fresh == 1 ? "y" : "ies") +
                           " declared constant (dependenciesKind) vary → ";
  if (mode == JacobianClaims::refuse)
    throw Error(ErrorKind::invalid, where + what + listed +
                                        " → the FMU's manifest is wrong: correct its dependenciesKind, or run with "
                                        "--jacobian auto (these entries evaluated at every Jacobian)");
  log_warning(where + what + listed +
              " → evaluated at every Jacobian instead of once (--jacobian check stops on a false claim; "
              "correct the FMU's dependenciesKind)");
}

namespace {

std::string list_claims(ModelEvaluation& evaluation, const std::vector<kernels::DerivativeClaim>& claims,
                        bool hidden) {
  std::string listed;
  std::size_t shown = 0;
  for (const kernels::DerivativeClaim& c : claims) {
    if (shown++ == 8) {
      listed += "; and " + std::to_string(claims.size() - 8) + " more";
      break;
    }
    const std::string unknown = evaluation.unknown_name(c.column);
    listed += std::string(shown > 1 ? "; " : "") + "d \"" + evaluation.row_name(c.row) + "\" / d " +
              (c.derivative_part ? "der(" + unknown + ")" : unknown) + " is " + format_number(c.measured) +
              " by central differences" +
              (hidden ? " (not in the declared dependencies)" : ", " + format_number(c.claimed) + " by the FMU");
  }
  return listed;
}

}  // namespace

DerivativeVerdict distrust_false_derivatives(ModelEvaluation& evaluation, const structure::Pattern& iteration,
                                             double t, std::span<const double> y, std::span<const double> yp,
                                             bool use_directional, bool check_directional, JacobianClaims mode) {
  DerivativeVerdict verdict{use_directional, {}};
  if (mode == JacobianClaims::trust || !evaluation.structure().coloring) return verdict;
  const kernels::DerivativeCheck check =
      kernels::check_derivative_claims(evaluation.residual(0), iteration, *evaluation.structure().coloring,
                                       {t, y, yp, evaluation.nominal()}, use_directional && check_directional);
  const std::string where = evaluation.model().display_name() + ": Jacobian at t = " + format_number(t);
  if (!check.wrong.empty()) {
    const std::string what = " → the FMU's directional derivatives are wrong in " + std::to_string(check.wrong.size()) +
                             " entr" + (check.wrong.size() == 1 ? "y" : "ies") + " → " +
                             list_claims(evaluation, check.wrong, false);
    if (mode == JacobianClaims::refuse)
      throw Error(ErrorKind::invalid, where + what + " → the FMU's fmi3GetDirectionalDerivative is wrong: run with "
                                                     "--jacobian fd, or --jacobian auto (finite differences then)");
    log_warning(where + what + " → finite differences instead of the FMU's directional derivatives for this run");
    verdict.use_directional = false;
  }
  if (!check.hidden.empty()) {
    for (const kernels::DerivativeClaim& c : check.hidden) verdict.hidden.emplace_back(c.row, c.column);
    verdict.use_directional = false;
    const std::string what = " → " + std::to_string(check.hidden.size()) + " dependenc" +
                             (check.hidden.size() == 1 ? "y" : "ies") + " missing from the FMU's declared " +
                             "dependencies → " + list_claims(evaluation, check.hidden, true);
    if (mode == JacobianClaims::refuse)
      throw Error(ErrorKind::invalid, where + what + " → the FMU's dependencies attributes are incomplete: correct "
                                                     "them (the Jacobian leaves these entries out)");
    log_warning(where + what + " → added to the Jacobian's pattern, finite differences instead of directional "
                               "derivatives and no linear elimination for this run (correct the FMU's dependencies)");
  }
  return verdict;
}

}  // namespace lsdae::simulation
