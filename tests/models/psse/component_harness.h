// tests/models/psse/component_harness.h -- drives ONE dynamic model (a
// component, models/psse/core/component.h) without a network or an FMU: the
// model test of every model uses it (models/psse/README.md, "How to add a
// model").
//
//   ComponentHarness h(make_genrou(record, unit));
//   h.initialize({1.02, -0.0165}, {1.0, -0.0325});       // bus voltage, injected power (system base)
//   EXPECT_LT(h.largest_derivative(), 1e-12);              // at rest at t = 0
//   EXPECT_LT(h.jacobian_mismatch(), 1e-7);                // exact partials vs central differences
//
// Signals the unit's other models would set (an exciter's test: the Efd the
// machine needs, the speed ...) are given to initialize() and held there;
// inputs nobody sets read their default.
#ifndef LSDAE_TESTS_MODELS_PSSE_COMPONENT_HARNESS_H
#define LSDAE_TESTS_MODELS_PSSE_COMPONENT_HARNESS_H

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "psse/core/component.h"
#include "psse/core/registry.h"
#include "psse/core/slot.h"

namespace lsdae::psse::test {

// A .dyr record made in the test (no file).
DyrRecord record(int bus, const std::string& model, const std::string& id, std::vector<double> values);

class ComponentHarness {
 public:
  explicit ComponentHarness(std::unique_ptr<Component> component, std::vector<std::string> consumed = {},
                            double system_base = 100.0, double frequency = 60.0);

  void initialize(Complex voltage, Complex injection, const std::map<std::string, double>& signals = {});

  const ComponentSlot& slot() const { return *slot_; }
  std::vector<double>& known() { return known_; }  // [x | z | u | Vr Vi]
  const std::vector<double>& known() const { return known_; }
  std::vector<double>& parameters() { return parameters_; }
  std::vector<int>& modes() { return modes_; }
  const std::map<std::string, double>& signals() const { return signals_; }
  const std::vector<std::string>& notes() const { return notes_; }
  // The limiters that start beyond their limits (the framework reports them).
  const std::vector<std::string>& outside() const { return outside_; }
  double signal(const std::string& name) const;

  std::vector<double> outputs(double time = 0.0) const;  // [f | g | Ir Ii]
  std::vector<LimiterRecord> limiter_records(double time = 0.0) const;
  // max |f| and |g| (not the injection).
  double largest_derivative(double time = 0.0) const;
  // max |exact − central difference| / max(1, |exact|) over the local Jacobian.
  double jacobian_mismatch(double step = 1e-6) const;
  // Index of a state / algebraic by name (throws std::out_of_range).
  int state(const std::string& name) const;
  int algebraic(const std::string& name) const;
  double x(const std::string& name) const { return known_[static_cast<std::size_t>(state(name))]; }
  double z(const std::string& name) const {
    return known_[static_cast<std::size_t>(slot_->shape().states + algebraic(name))];
  }
  // Index of an input in known() (throws std::out_of_range).
  std::size_t input(const std::string& signal) const;
  // Index of a limiter by name (throws std::out_of_range).
  int limiter(const std::string& name) const;

  // Integrates the component alone for `steps` steps of `dt` with inputs and
  // bus voltage held at the values in known() (backward Euler, Newton on the
  // states and algebraic variables with the exact local Jacobian). After
  // each step every limiter's mode follows the values as at an event
  // (limiter_mode_by_value; a non-windup limit engaging puts its state at the
  // limit), so a limit engages or releases within one step of where the
  // integrator would locate it. Returns the number of mode changes. Throws
  // std::runtime_error when Newton fails.
  int advance(double dt, int steps);

 private:
  std::unique_ptr<Component> component_;
  std::unique_ptr<ComponentSlot> slot_;
  std::vector<double> known_, parameters_;
  std::vector<int> modes_;
  std::map<std::string, double> signals_;
  std::vector<std::string> notes_, outside_;
  double system_base_, frequency_;
};

}  // namespace lsdae::psse::test

#endif  // LSDAE_TESTS_MODELS_PSSE_COMPONENT_HARNESS_H
