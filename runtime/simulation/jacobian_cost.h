// runtime/simulation/jacobian_cost.h -- --jacobian auto's cost rule: the
// FMU's directional derivatives where they are right AND cheaper than finite
// differences (issue 32; PyFMI likewise takes them only where they pay).
//
// Measured, not guessed: one Jacobian each way at the start point, timed
// with the steady clock, the fastest of up to three repetitions kept (one
// preempted repetition does not decide):
//   directional          one call per colour of the colouring the run
//                        evaluates (the varying colours where it keeps constant
//                        entries), in a row at one point, as IDA's Jacobians
//                        are made (an FMU that computes its partials once per
//                        point pays that once per Jacobian here too);
//   finite differences   one residual call per colour of the full colouring,
//                        each at the point moved along its colour.
// Before each repetition one residual call at a moved point, so that nothing
// the FMU caches for a point carries over into the next.
// Finite differences are chosen when the directional Jacobian takes at least
// kCostlier (4) times as long AND at least kWorthTiming seconds: below that
// nothing a user would notice is saved and microsecond timings are noise.
// The margin sits above what exact partials cost when computed well: the
// tangent (forward) mode of algorithmic differentiation costs at most about
// 2.5 evaluations of the function per direction (Griewank & Walther,
// Evaluating Derivatives, 2nd ed., SIAM 2008, section 4.5), and symbolic
// partials as much or less. So a directional call is taken as costlier only
// where the FMU does something else (re-evaluating its model at every call,
// finite differences of its own), not where a sanitizer, a debugger or a
// loaded machine stretches one code path a little more than the other (our
// PowerGrid FMU: 1.7-1.9x in an optimised build, 2.0-2.2x under AddressSanitizer;
// at a margin of 2 that choice flipped between builds and changed every
// counter of its run). The margin also pays for what finite differences
// lose (they approximate, and Newton may need an iteration more). The
// choice is still timed, so an FMU near the margin may be decided
// differently on two machines; `--jacobian directional` and `--jacobian fd`
// fix it.
// Cost: at most 3 × (directional colours + colours + 1) model calls per
// measurement, none of them through the integrator (its counters do not
// move). The session (integration_session_claims.cpp) measures with every
// colour first and, only where that says costlier and the run keeps constant
// entries, once more with the varying colours.
#ifndef LSDAE_RUNTIME_SIMULATION_JACOBIAN_COST_H
#define LSDAE_RUNTIME_SIMULATION_JACOBIAN_COST_H

#include <span>
#include <string>
#include <vector>

#include "kernels/residual_function.h"
#include "structure/coloring.h"

namespace lsdae::simulation {

inline constexpr double kCostlier = 4.0;
inline constexpr double kWorthTiming = 1e-3;

struct JacobianCosts {
  double directional = 0.0;         // seconds of one Jacobian by directional derivatives
  double finite_differences = 0.0;  // seconds of one Jacobian by finite differences
  std::size_t directional_colours = 0, colours = 0;
};

// `residual` must provide directional derivatives (has_jacobian_columns());
// `directional` the colouring its Jacobians evaluate, `full` the whole
// pattern's; (t, y, yp) the start point, `nominal` the unknowns' scales.
// The model is left at the point.
JacobianCosts measure_jacobian_costs(kernels::ResidualFunction& residual, const structure::Coloring& directional,
                                     const structure::Coloring& full, double t, std::span<const double> y,
                                     std::span<const double> yp, std::span<const double> nominal);

// The reason to take finite differences, for the log ("a Jacobian of the
// FMU's directional derivatives takes 9.8 ms ..."), or empty: keep them.
std::string directional_costs_more(const JacobianCosts& costs);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_JACOBIAN_COST_H
