// runtime/simulation/fmu_constraint_projection.h -- keeps an FMU's states on
// the constraint manifold the FMU itself declares with Najafi et al.'s FMI 2.0
// extension (fmi2GetNumberOfConstraints, fmi2Constraint,
// fmi2ConstraintJacobian, fmi2Projection; "Simulation of high-index DAEs and
// ODEs with constraints in FMI", section 3; docs/fmi2.md).
//
// Algorithm. With the FMU's time and states set to an accepted IDA point x:
// m = fmi2GetNumberOfConstraints (the active count, which may change at
// events), C = fmi2Constraint (first m values); the violation is max_i |C_i|.
// project(x) moves x onto C = 0, to a target of `target_fraction` × the
// tolerance, by one of three paths chosen once from what the FMU offers:
//   fmu_projection      fmi2Projection(P, target, limit, apply = true), the
//                       states read back (fmi2GetContinuousStates);
//   jacobian            Gauss–Newton, minimum-norm step S = -D⁺ C with
//                       D = fmi2ConstraintJacobian (row-major, m × nx), D⁺ its
//                       pseudo-inverse (Eigen's complete orthogonal
//                       decomposition: S is the least-squares solution of
//                       D S = -C of smallest Euclidean norm, also where D loses rank);
//   projection_step     (no fmi2ConstraintJacobian) Gauss–Newton with the
//                       FMU's own step S = fmi2ProjectionStep at x (Najafi
//                       et al.: S = -Dᵀ(D Dᵀ)⁻¹C, the same minimum-norm step
//                       with the FMU's exact D, which lsdae cannot read);
//   finite_differences  the same with D by forward differences of
//                       fmi2Constraint (increment sqrt(eps)·max(|x_j|, 1)).
// With fmi2ConstraintJacobian, lsdae's own step is preferred to
// fmi2ProjectionStep: the same step where D has full row rank, and still the
// least-squares step of smallest norm where it does not (the FMU's formula
// needs D Dᵀ invertible).
// Contract: the instance is in continuous-time mode; on return from
// project() the FMU holds the returned states. A Discard from any of the
// calls, or an iteration that does not reach the target within
// iteration_limit steps, gives result.failed with the reason (the caller stops
// the run); an fmi2Error is the instance's Error(fmu_call) naming the
// function.
#ifndef LSDAE_SIMULATION_FMU_CONSTRAINT_PROJECTION_H
#define LSDAE_SIMULATION_FMU_CONSTRAINT_PROJECTION_H

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "lsdae/instance.h"

namespace lsdae::simulation {

enum class FmuProjectionPath { fmu_projection, jacobian, projection_step, finite_differences };
std::string to_string(FmuProjectionPath path);

struct FmuConstraintValues {
  bool discarded = false;
  std::size_t active = 0;   // fmi2GetNumberOfConstraints
  double violation = 0.0;   // max_i |C_i| over the active ones
  std::size_t worst = 0;    // where it is largest
};

struct FmuProjectionResult {
  bool projected = false;
  std::string failed;       // empty: success; else why (Discard, no convergence)
  double violation_before = 0.0, violation_after = 0.0;
  double correction = 0.0;  // max_j |x_new_j - x_old_j|
  std::size_t iterations = 0;
};

class FmuConstraintProjector {
 public:
  // `states`: the FMU's number of continuous states; `max_constraints`:
  // maxNumberOfConstraints; the path from the instance's has_*().
  FmuConstraintProjector(Instance& instance, std::size_t states, std::size_t max_constraints);
  FmuProjectionPath path() const { return path_; }
  // The constraints at the FMU's current time and states.
  FmuConstraintValues measure();
  // Projects x (the FMU's current states) onto C = 0, to max|C| <= target.
  FmuProjectionResult project(std::span<double> x, double target, std::size_t iteration_limit = 20);

 private:
  bool jacobian_at(std::span<double> x, std::size_t m);  // fills jac_ (m × nx); false on Discard
  Instance& instance_;
  std::size_t nx_, max_;
  FmuProjectionPath path_;
  std::vector<double> c_, jac_, c_plus_;
};

}  // namespace lsdae::simulation

#endif
