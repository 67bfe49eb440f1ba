// runtime/simulation/constraint_projection_messages.cpp -- see constraint_projection_messages.h.
#include "simulation/constraint_projection_messages.h"

#include <cmath>

#include "common/format.h"

namespace lsdae::simulation::projection_messages {

namespace {
constexpr const char* kWhere = "constraint projection: ";
}  // namespace

std::string quoted(const std::vector<std::string>& names, const std::vector<std::size_t>& which) {
  constexpr std::size_t kShown = 10;
  std::string out;
  for (std::size_t i = 0; i < which.size() && i < kShown; ++i) out += (i == 0 ? "\"" : ", \"") + names[which[i]] + "\"";
  if (which.size() > kShown) out += " and " + std::to_string(which.size() - kShown) + " more";
  return out;
}

std::string bad_option(const char* name, const std::string& value, const char* rule) {
  return std::string(kWhere) + "option " + name + " = " + value + " " + rule + " → fix the option";
}
std::string no_directional(const std::string& fmu) {
  return std::string(kWhere) + fmu + " provides no directional derivatives → use finite differences "
         "(ProjectionOptions::Jacobian::automatic)";
}
std::string state_equation(const std::string& name) {
  return std::string(kWhere) + "\"" + name + "\" is a state equation, not a constraint → pass "
         "Index1System::projection_constraints";
}
std::string synthesized(const std::string& name) {
  return std::string(kWhere) + "constraint \"" + name + "\" is a derivative lsdae synthesizes along (1, ẋ) (the "
         "FMU provides only the original constraint), a function of the derivatives, not of the states, so "
         "projecting the states cannot enforce it → use the dummy-derivative method (--constraints dummy, the "
         "default), or export the derivative formulations";
}
std::string synthesized_directional() {
  return std::string(kWhere) + "the constraints include derivatives lsdae synthesizes, which have no directional "
         "derivatives → use finite differences (ProjectionOptions::Jacobian::automatic)";
}
std::string mismatched_system(std::size_t unknowns, std::size_t residual_size) {
  return std::string(kWhere) + "the index-1 system has " + std::to_string(unknowns) +
         " unknowns but the residual has " + std::to_string(residual_size) + " → build both from the same system";
}
std::string unreachable(const std::string& name) {
  return std::string(kWhere) + "constraint \"" + name + "\" depends on no differential state, so projecting the "
         "differential states cannot enforce it → use the dummy-derivative method (--constraints dummy)";
}
std::string wrong_size(const char* what, std::size_t seen, std::size_t expected) {
  return std::string(kWhere) + what + " has " + std::to_string(seen) + " entries, expected " +
         std::to_string(expected) + " (one per IDA unknown) → pass IDA's vectors";
}
std::string bad_tolerance(double tolerance) {
  return std::string(kWhere) + "tolerance " + format_number(tolerance) + " is not positive and finite → pass the drift "
         "tolerance (e.g. the integrator's atol)";
}
std::string bad_weight(std::size_t unknown, double w) {
  return std::string(kWhere) + "error weight of IDA unknown " + std::to_string(unknown) + " is " + format_number(w) +
         ", not positive and finite → pass IDA's error weights (IDAGetErrWeights)";
}
std::string not_finite(double t, const std::string& name, double value) {
  return std::string(kWhere) + "at t = " + format_number(t) + ": constraint \"" + name + "\" evaluates to " + format_number(value) +
         " → the point is outside the model's domain; check the step before the projection";
}
std::string condition_text(double condition) {
  return std::isfinite(condition) ? format_number(condition) : std::string("infinite");
}
std::string singular(double t, const std::string& names, double violation, double condition) {
  return std::string(kWhere) + "at t = " + format_number(t) + ": the constraint Jacobian is singular: " + names +
         " depend(s) on the other constraints or has a zero gradient here (condition estimate " +
         condition_text(condition) + ", max |C| = " + format_number(violation) +
         ") → the constraints are redundant or degenerate at this point: remove duplicated invariants, or use "
         "--constraints dummy";
}
std::string nearly_singular(double t, const std::string& names, const ConditionReport& c, int iterations,
                            double before, double violation, double target) {
  const std::string why =
      c.condition >= kNearlySingular
          ? names + " nearly depend(s) on the other constraints here (condition estimate " +
                condition_text(c.condition) + ")"
          : "the gradient of " + names + " nearly vanishes here (condition estimate " + condition_text(c.condition) +
                ", but the first Newton correction is " + format_number(c.step_ratio) +
                " times the size of the states it moves)";
  return std::string(kWhere) + "at t = " + format_number(t) + ": the constraint Jacobian is nearly singular: " + why +
         "; no convergence in " + std::to_string(iterations) + " Newton iterations (max |C| = " +
         format_number(before) + " at the start, " + format_number(violation) + " after them, target " +
         format_number(target) +
         ") → the constraints are degenerate at this point (a singular configuration of the model, or nearly "
         "duplicated constraints), which tighter tolerances do not cure: check the start values and parameters, "
         "remove a redundant constraint, or use --constraints dummy";
}
std::string not_converged(double t, int iterations, const std::string& names, double violation, double target,
                          double condition) {
  return std::string(kWhere) + "at t = " + format_number(t) + ": no convergence in " + std::to_string(iterations) +
         " Newton iterations: max |C| = " + format_number(violation) + " (target " + format_number(target) +
         "), largest at " + names + " (condition estimate " + condition_text(condition) +
         ") → the point is too far from the constraints: tighten the integration tolerances or the maximum step "
         "so the drift between projections stays small";
}

}  // namespace lsdae::simulation::projection_messages
