// runtime/simulation/jacobian_claims.cpp -- see jacobian_claims.h.
#include "simulation/jacobian_claims.h"

#include <cstddef>

#include "common/format.h"
#include "kernels/constant_claims.h"
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

}  // namespace lsdae::simulation
