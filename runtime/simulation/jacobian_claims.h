// runtime/simulation/jacobian_claims.h -- the constant Jacobian entries an
// FMU declares, checked before IDA relies on them (issue 32).
//
// classify_jacobian_entries (jacobian_constancy.h) turns the manifest's
// dependenciesKind into entries evaluated once; those claims are someone
// else's code. distrust_false_constants() judges them with
// kernels::check_constant_claims (central differences of the residual at the
// run's point and at a perturbed one) and, per SimulationOptions::
// jacobian_claims:
//   fall_back  a false entry becomes `varying` (evaluated at every Jacobian)
//              and is named in one warning (once per run and entry);
//   trust      nothing is checked (the caller does not call this);
//   refuse     a false claim throws Error(ErrorKind::invalid) naming it.
// Cost: kernels/constant_claims.h (a few residual calls per colour of the
// columns holding claimed entries); none of them goes through IDA, so the
// integrator's counters do not move.
#ifndef LSDAE_RUNTIME_SIMULATION_JACOBIAN_CLAIMS_H
#define LSDAE_RUNTIME_SIMULATION_JACOBIAN_CLAIMS_H

#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kernels/compressed_jacobian.h"
#include "lsdae/simulation.h"
#include "simulation/model_evaluation.h"
#include "structure/pattern.h"

namespace lsdae::simulation {

// `entries` per CSC entry of `iteration` (the evaluation's iteration
// pattern, coloured by evaluation.structure().coloring); (t, y, yp) the
// point IDA is about to start from. `reported`: the entries already named
// in this run ("row/unknown"), kept by the caller across IDA restarts.
// `recheck`: the check runs again during the run (jacobian_recheck.h); the
// warning says so and why.
void distrust_false_constants(ModelEvaluation& evaluation, const structure::Pattern& iteration,
                              kernels::ConstantEntries& entries, double t, std::span<const double> y,
                              std::span<const double> yp, JacobianClaims mode, std::set<std::string>& reported,
                              bool recheck = false);

// The directional derivatives and the dependency pattern, checked once at
// the start (kernels/derivative_claims.h: central differences of the
// residual per colour). `check_directional`: the FMU's directional
// derivatives are compared (--jacobian auto and check; a forced
// `directional` and `fd` look for hidden dependencies only). Per `mode`:
//   fall_back  wrong directional derivatives: one warning naming the
//              entries, and their columns listed in `wrong_columns`: the
//              colours holding them are taken by finite differences, the
//              others by the FMU's directional derivatives (as PyFMI's
//              choice per column); a hidden dependency: one warning, the entry listed in
//              `hidden` for the caller to add to the Jacobian's pattern, finite
//              differences (the FMU's derivatives follow its pattern) and no
//              linear elimination (it would solve another system);
//   refuse     either throws Error(ErrorKind::invalid) naming the entries;
//   trust      nothing is checked.
// With `recheck` (during the run, jacobian_recheck.h) a hidden dependency
// cannot be added to the integrator's pattern any more: it is named in the
// warning and left out of `hidden`; wrong derivatives fall back as above,
// but for the columns in `known_wrong` (already taken by finite differences:
// not named again).
struct DerivativeVerdict {
  bool use_directional = false;  // directional derivatives still to be used (where right)
  // Unknowns (iteration-matrix columns) whose directional derivatives are wrong, ascending.
  std::vector<std::size_t> wrong_columns;
  // Dependencies outside the declared pattern: (row, unknown) of the iteration matrix.
  std::vector<std::pair<std::size_t, std::size_t>> hidden;
};
DerivativeVerdict distrust_false_derivatives(ModelEvaluation& evaluation, const structure::Pattern& iteration,
                                             double t, std::span<const double> y, std::span<const double> yp,
                                             bool use_directional, bool check_directional, JacobianClaims mode,
                                             bool recheck = false, const std::vector<bool>& known_wrong = {});

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_JACOBIAN_CLAIMS_H
