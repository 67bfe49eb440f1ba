// runtime/simulation/impulse_reinitialization.h -- the state after an event
// that switches a velocity constraint on (a clutch that locks two inertias),
// computed by integrating the DAE over the impulse, so that momentum is
// conserved, instead of projecting onto the constraint.
//
// Reference: ModiaMath (seed 004) and A. Benveniste, B. Caillaud, H.
// Elmqvist, K. Ghorbal, M. Otter, M. Pouzet, "Multi-Mode DAE Models --
// Challenges, Theory and Implementation", LNCS 10000, Springer 2019, section
// 4.2: at an event the state may jump, x⁻ → x⁺, so that the new constraints
// hold; over the infinitesimal interval the derivatives and the constraint
// reactions are Dirac impulses, ẋ = Δx·δ, z = Λ·δ, and integrating the
// dynamic equations over it leaves only their impulsive part. For equations
// linear in ẋ and z (balance equations are: M(x)·ẋ + B(x)·z + b(x, t) = 0)
//     A·Δx + B·Λ = 0,     A = ∂F_d/∂ẋ,  B = ∂F_d/∂z   (at x⁻)
//     C(x⁻ + Δx) = 0      (the violated constraints)
// -- the same n_x + n_z unknowns (Δx, Λ) as IDA's y, the same count of
// equations: the dynamic rows F_d are IDA's rows without the one row of each
// group whose constraint is violated (that row is the constraint's index-1
// formulation, replaced over the impulse by the constraint itself). For the
// clutch, J₁Δω₁ + Λ = 0, J₂Δω₂ − Λ = 0, ω₁ + Δω₁ = ω₂ + Δω₂ give
// ω⁺ = (J₁ω₁ + J₂ω₂)/(J₁ + J₂): momentum conserved, whatever the scaling of
// the FMU's rows (a minimum-norm projection would give a mean weighted by the
// error weights, (ω₁ + ω₂)/2 for equal weights).
//
// Algorithm: Newton on the system above with a dense Jacobian from central
// differences (increment ε^(1/3)·max(|v|, nominal), one column per IDA
// unknown: Δx_k moves ẋ_k in F_d and x_k in C; Λ_j moves z_j), factorized
// once (Eigen PartialPivLU); the residual A·Δx + B·Λ is evaluated EXACTLY as
// F_d(ẋ⁻ + Δx, x⁻, z⁻ + Λ) − F_d(ẋ⁻, x⁻, z⁻), so the iteration converges to
// the solution to rounding although the Jacobian is approximate (two or
// three iterations for the linear clutch). Afterwards only x changes; the
// caller lets IDACalcIC make z and ẋ consistent with the new mode.
//
// When it applies (otherwise `applied` is false with the reason, y
// unchanged, and the caller projects instead): the violated constraints are
// formulations (not invariants), one per group; the system is at most
// kMaxImpulseUnknowns unknowns (dense); the Jacobian's rcond is at least 1e-12 --
// a position constraint cannot be reached by an impulse (positions do not
// jump: the system is singular), nor a constraint whose reaction does not
// enter the dynamics. The FMU is assumed linear in ẋ and z in its dynamic
// rows; when it is not, the residual check after the iteration fails and
// `applied` is false with that reason.
//
// Contract: residual and projector belong to the same instance and index-1
// system (the projection method's); the instance is in Continuous-Time Mode
// after the event; y, yp are the post-event point at t (size N); tolerance
// is the projection tolerance (> 0). Errors: the FMU's fmi3Error (through
// ModelResidual) propagates; fmi3Discard makes `applied` false.
// Cost: per IDA unknown two residual and two constraint evaluations for the
// Jacobian, one of each per iteration; O(N³) for the factorization,
// N ≤ kMaxImpulseUnknowns.
#ifndef LSDAE_RUNTIME_SIMULATION_IMPULSE_REINITIALIZATION_H
#define LSDAE_RUNTIME_SIMULATION_IMPULSE_REINITIALIZATION_H

#include <cstddef>
#include <span>
#include <string>

#include "simulation/constraint_projection.h"
#include "simulation/model_residual.h"
#include "structure/dae_system.h"
#include "structure/index1_system.h"

namespace lsdae::simulation {

struct ImpulseResult {
  bool applied = false;         // y's differential unknowns moved to x⁺
  std::string not_applicable;   // why not, when !applied (empty: nothing was violated)
  double violation_before = 0;  // max |C| of the projection constraints at x⁻
  double violation_after = 0;   // … at x⁺
  int iterations = 0;
  std::string constraints;      // the violated constraints, quoted, comma-separated
};

inline constexpr std::size_t kMaxImpulseUnknowns = 2000;

ImpulseResult reinitialize_over_impulse(ModelResidual& residual, ConstraintProjector& projector,
                                        const structure::DaeSystem& system, const structure::Index1System& index1,
                                        double t, std::span<double> y, std::span<const double> yp, double tolerance,
                                        std::span<const double> nominal);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_IMPULSE_REINITIALIZATION_H
