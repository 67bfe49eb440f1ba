// tests/structure/test_models.h -- DaeInputs built by hand after the corpus
// models (models/<family>/README.md and their manifests in build/fmus/), so
// tests/structure needs no FMU. Dependencies are exactly those of the
// manifests, with time and parameters dropped as the runtime does.
#ifndef LSDAE_TESTS_STRUCTURE_TEST_MODELS_H
#define LSDAE_TESTS_STRUCTURE_TEST_MODELS_H

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "structure/dae_input.h"
#include "structure/dae_system.h"
#include "structure/dummy_derivatives.h"

namespace lsdae::structure::test {

// Builder: variables by name, dependencies by name ("der(x)", "x", "z").
class ModelBuilder {
 public:
  explicit ModelBuilder(DaeForm form) { input_.form = form; }
  ModelBuilder& state(const std::string& name, StateSelect select = StateSelect::normal,
                      std::vector<std::string> f_deps = {}, bool dense_f = false);
  ModelBuilder& algebraic(const std::string& name);
  // A residual group: formulations {name, index (0: none), deps}.
  struct F {
    std::string name;
    int index = 0;
    std::vector<std::string> deps;
    bool dense = false;
  };
  ModelBuilder& residual(std::vector<F> formulations);
  ModelBuilder& invariant(const std::string& name, std::vector<std::string> deps,
                          std::optional<std::size_t> group = {}, std::optional<std::size_t> level = {});
  DaeInput build() const;

 private:
  VarRef ref(const std::string& name) const;
  DaeInput input_;
  std::vector<std::vector<std::string>> f_deps_;
  std::vector<bool> dense_f_;
  std::vector<std::vector<F>> groups_;
  struct Inv {
    std::string name;
    std::vector<std::string> deps;
    std::optional<std::size_t> group, level;
  };
  std::vector<Inv> invariants_;
};

// Values by name: d(row)/d(column) → value; entries not listed are 0.
using NamedValues = std::map<std::pair<std::string, std::string>, double>;
JacobianCallback callback_from(const DaeSystem& system, NamedValues values);

DaeInput hello_world_fully_implicit();
DaeInput hello_world_semi_explicit();
DaeInput robertson_semi_explicit();
DaeInput pendulum();                 // substituted formulations c0, c1, c2 (the corpus FMU)
DaeInput pendulum_unsubstituted();   // c1 = x der(x) + y der(y), c2 with der(x), der(y)
DaeInput pendulum_without_group();   // only c0
DaeInput coupled_masses();
DaeInput two_capacitors();
DaeInput two_capacitors_without_derivative();
DaeInput cauer_low_pass();
DaeInput index2_example(int manifest_case);  // 1, 2 or 3
DaeInput transmission_line(std::size_t segments);  // the DAE form, fully implicit
DaeInput chain(std::size_t length);  // ẋ_k = z_k, z_k = x_k + z_{k-1}: index 1, tridiagonal-ish
// N masses in a row (semi-explicit): s_k' = v_k, v_k' = f(Fz_{k-1}, Fz_k), joined by
// N - 1 velocity constraints v_k - v_{k+1} grouped with their derivative in
// the Fz (index 2): one component of N - 1 coupled constraints.
DaeInput mass_chain(std::size_t masses);

// Pendulum Jacobian values of c0, c1 (and of r[1], r[2], c1', c2' for the
// unsubstituted variant) at angle theta from the downward vertical, angular
// velocity omega, L = 1.
NamedValues pendulum_values(double theta, double omega);

}  // namespace lsdae::structure::test

#endif  // LSDAE_TESTS_STRUCTURE_TEST_MODELS_H
