// runtime/simulation/jacobian_claims.cpp -- see jacobian_claims.h.
#include "simulation/jacobian_claims.h"

#include <algorithm>
#include <cstddef>
#include <optional>

#include "common/format.h"
#include "kernels/constant_claims.h"
#include "kernels/derivative_claims.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::simulation {

namespace {
constexpr const char* kRecheckReason =
    " (checked again: IDA's Newton iteration failed repeatedly there with a fresh Jacobian)";
}  // namespace

void distrust_false_constants(ModelEvaluation& evaluation, const structure::Pattern& iteration,
                              kernels::ConstantEntries& entries, double t, std::span<const double> y,
                              std::span<const double> yp, JacobianClaims mode, std::set<std::string>& reported,
                              bool recheck) {
  if (mode == JacobianClaims::trust || !evaluation.structure().coloring) return;
  const ModelResidual::Uncounted uncounted(evaluation.residual(0));
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
  const std::string where = evaluation.model().display_name() + ": Jacobian at t = " + format_number(t) +
                            (recheck ? std::string(kRecheckReason) : std::string());
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
                                             bool use_directional, bool check_directional, JacobianClaims mode,
                                             bool recheck, const std::vector<bool>& known_wrong) {
  DerivativeVerdict verdict{use_directional, {}, {}};
  if (mode == JacobianClaims::trust || !evaluation.structure().coloring) return verdict;
  std::optional<ModelResidual::Uncounted> uncounted(std::in_place, evaluation.residual(0));
  kernels::DerivativeCheck check =
      kernels::check_derivative_claims(evaluation.residual(0), iteration, *evaluation.structure().coloring,
                                       {t, y, yp, evaluation.nominal()}, use_directional && check_directional);
  const std::string where = evaluation.model().display_name() + ": Jacobian at t = " + format_number(t) +
                            (recheck ? std::string(kRecheckReason) : std::string());
  uncounted.reset();
  std::erase_if(check.wrong, [&](const kernels::DerivativeClaim& c) {
    return c.column < known_wrong.size() && known_wrong[c.column];
  });
  if (!check.wrong.empty()) {
    const std::string what = " → the FMU's directional derivatives are wrong in " + std::to_string(check.wrong.size()) +
                             " entr" + (check.wrong.size() == 1 ? "y" : "ies") + " → " +
                             list_claims(evaluation, check.wrong, false);
    if (mode == JacobianClaims::refuse)
      throw Error(ErrorKind::invalid, where + what +
                                          " → the FMU's fmi3GetDirectionalDerivative is wrong: run with --jacobian fd, "
                                          "or --jacobian auto (finite differences for the colours holding these "
                                          "columns then)");
    for (const kernels::DerivativeClaim& c : check.wrong) verdict.wrong_columns.push_back(c.column);
    std::sort(verdict.wrong_columns.begin(), verdict.wrong_columns.end());
    verdict.wrong_columns.erase(std::unique(verdict.wrong_columns.begin(), verdict.wrong_columns.end()),
                                verdict.wrong_columns.end());
    const structure::Coloring& coloring = *evaluation.structure().coloring;
    std::vector<bool> colour_wrong(coloring.colors, false);
    for (const std::size_t c : verdict.wrong_columns) colour_wrong[coloring.color[c]] = true;
    const auto wrong_colours = static_cast<std::size_t>(std::count(colour_wrong.begin(), colour_wrong.end(), true));
    log_warning(where + what + " → finite differences for the " + std::to_string(wrong_colours) + " of " +
                std::to_string(coloring.colors) + " Jacobian colour" + (coloring.colors == 1 ? "" : "s") +
                " holding these columns, the FMU's directional derivatives for the rest, " +
                (recheck ? "from here on" : "for this run"));
  }
  if (!check.hidden.empty()) {
    const std::string what = " → " + std::to_string(check.hidden.size()) + " dependenc" +
                             (check.hidden.size() == 1 ? "y" : "ies") + " missing from the FMU's declared " +
                             "dependencies → " + list_claims(evaluation, check.hidden, true);
    if (mode == JacobianClaims::refuse)
      throw Error(ErrorKind::invalid, where + what + " → the FMU's dependencies attributes are incomplete: correct "
                                                     "them (the Jacobian leaves these entries out)");
    if (recheck) {
      // IDA's pattern is fixed while it runs: named, not added.
      log_warning(where + what + " → not in the Jacobian for this run (found during it; correct the FMU's "
                                 "dependencies)");
    } else {
      for (const kernels::DerivativeClaim& c : check.hidden) verdict.hidden.emplace_back(c.row, c.column);
      verdict.use_directional = false;
      log_warning(where + what + " → added to the Jacobian's pattern, finite differences instead of directional "
                                 "derivatives and no linear elimination for this run (correct the FMU's dependencies)");
    }
  }
  return verdict;
}

}  // namespace lsdae::simulation
