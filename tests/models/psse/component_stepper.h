// tests/models/psse/component_stepper.h -- runs ONE component (driven by a
// ComponentHarness) through time with its inputs and bus voltage as the test
// sets them, so that a model test can watch its limiters engage and release.
//
// Algorithm: explicit Euler with a fixed step h; before each step the
// algebraic variables are solved by Newton on the exact local Jacobian
// (component.h: one residual per algebraic), then every limiter's mode is set
// from the values (limiter_mode_by_value, no hysteresis) and a non-windup
// state whose limiter engages is put at its limit -- the framework's rules
// (limiter.h), applied at every step instead of at located roots. A test
// checks WHAT the limits do (a held state never passes its limit, a windup
// state runs on, a mode comes back), not the time of an event.
//
// Cost per step: one Jacobian (known_count() Dual evaluations) and a few
// evaluations; a test runs some 10^4 steps of a component with 10 unknowns.
#ifndef LSDAE_TESTS_MODELS_PSSE_COMPONENT_STEPPER_H
#define LSDAE_TESTS_MODELS_PSSE_COMPONENT_STEPPER_H

#include <functional>
#include <string>
#include <vector>

#include "component_harness.h"

namespace lsdae::psse::test {

class ComponentStepper {
 public:
  explicit ComponentStepper(ComponentHarness& h) : h_(h) {}

  // Advances by `duration` in steps of `step`; after each step calls
  // `watch` (may be empty) with the time.
  void run(double duration, double step, const std::function<void(double)>& watch = {});
  // Solves the algebraic variables at the current states (Newton, <= 20 iterations).
  void solve_algebraics();
  // Sets every limiter's mode from the values (see the header comment).
  void update_modes();

  double time() const { return time_; }
  int limit_events() const { return events_; }
  // Value of a state / algebraic by name.
  double x(const std::string& name) const;
  double z(const std::string& name) const;
  // The mode of a limiter by name.
  int mode(const std::string& limiter) const;
  // Sets the bus voltage.
  void set_voltage(Complex v);

 private:
  ComponentHarness& h_;
  double time_ = 0.0;
  int events_ = 0;
};

}  // namespace lsdae::psse::test

#endif  // LSDAE_TESTS_MODELS_PSSE_COMPONENT_STEPPER_H
