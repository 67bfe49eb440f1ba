// runtime/simulation/constraint_projection_messages.h -- the projection's
// thresholds of (near) singularity and every message of it, in the house
// shape where → what → value seen → what to do (constraint_projection.h,
// "Errors"). Private to the ConstraintProjector's files:
//   constraint_projection.cpp          the Newton projection, A = J D⁻¹ Jᵀ and its LDLᵀ
//   constraint_projection_setup.cpp    the constructor: what moves, J's pattern and colouring, A's pattern
//   constraint_projection_jacobian.cpp C and J evaluated (directional derivatives or differences)
#ifndef LSDAE_RUNTIME_SIMULATION_CONSTRAINT_PROJECTION_MESSAGES_H
#define LSDAE_RUNTIME_SIMULATION_CONSTRAINT_PROJECTION_MESSAGES_H

#include <cstddef>
#include <string>
#include <vector>

#include "simulation/constraint_projection.h"

namespace lsdae::simulation::projection_messages {

// A pivot of A = J D⁻¹ Jᵀ at most this fraction of its diagonal entry means
// the constraint's W-gradient lies within ~1e-6 rad of the span of the
// others': the correction would be amplified ~1e6, so we call it singular.
inline constexpr double kPivotTolerance = 1e-12;
// A condition estimate of the equilibrated A at least this large (the
// W-gradients of two constraints within ~1e-3 rad of each other), or a first
// Newton correction this many times the size of the states it moves (a
// W-gradient that nearly vanishes), makes a projection that does not
// converge "nearly singular" rather than "too far from the constraints":
// tighter tolerances do not help there.
inline constexpr double kNearlySingular = 1e6;

// The names of `which` quoted, at most ten.
std::string quoted(const std::vector<std::string>& names, const std::vector<std::size_t>& which);

std::string bad_option(const char* name, const std::string& value, const char* rule);
std::string no_directional(const std::string& fmu);
std::string state_equation(const std::string& name);
std::string synthesized(const std::string& name);
std::string synthesized_directional();
std::string mismatched_system(std::size_t unknowns, std::size_t residual_size);
std::string unreachable(const std::string& name);
std::string wrong_size(const char* what, std::size_t seen, std::size_t expected);
std::string bad_tolerance(double tolerance);
std::string bad_weight(std::size_t unknown, double w);
std::string not_finite(double t, const std::string& name, double value);
std::string condition_text(double condition);
std::string singular(double t, const std::string& names, double violation, double condition);
std::string nearly_singular(double t, const std::string& names, const ConditionReport& c, int iterations,
                            double before, double violation, double target);
std::string not_converged(double t, int iterations, const std::string& names, double violation, double target,
                          double condition);

}  // namespace lsdae::simulation::projection_messages

#endif  // LSDAE_RUNTIME_SIMULATION_CONSTRAINT_PROJECTION_MESSAGES_H
