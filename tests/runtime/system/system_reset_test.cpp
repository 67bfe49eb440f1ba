// Simulation::reset() on a System (lsdae/simulation.h, composite_instance.h):
// fmi3Reset takes every component back to its own defaults, so the composite
// instance must give them again what the system description says -- the
// parameter values of the SSP and the DAE switch of components with an
// LS-DAE manifest. A run after reset() equals a run of a new Simulation.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "lsdae/simulation.h"
#include "lsdae/ssp.h"
#include "lsdae/system.h"

namespace lsdae {
namespace {

std::filesystem::path ssp(const std::string& name) { return std::filesystem::path(LSDAE_SYSTEM_DIR) / (name + ".ssp"); }

struct Run {
  std::vector<std::vector<double>> values;  // per output point, per variable
  long steps = 0, residual_calls = 0;
};

Run run(Simulation& sim, const std::vector<std::string>& names) {
  Run r;
  sim.initialize();
  for (int k = 1; k <= 10; ++k) {
    sim.advance_to(sim.start_time() + (sim.stop_time() - sim.start_time()) * k / 10);
    std::vector<double> row;
    for (const auto& n : names) row.push_back(sim.get(n));
    r.values.push_back(row);
  }
  r.steps = sim.statistics().steps;
  r.residual_calls = sim.statistics().residual_calls;
  return r;
}

void expect_reset_equals_fresh(const std::string& system_name, const std::vector<std::string>& names,
                               const std::vector<std::pair<std::string, std::string>>& perturb) {
  auto system = System::create(read_system_description(ssp(system_name)));
  SimulationOptions options;
  options.stop_time = 1.0;
  auto fresh = Simulation::create(system, options);
  const Run expected = run(*fresh, names);
  fresh = nullptr;

  auto sim = Simulation::create(system, options);
  // A different run first (other values set on the components), then reset.
  for (const auto& [name, value] : perturb) sim->set(name, value);
  const Run other = run(*sim, names);
  EXPECT_NE(other.values, expected.values) << "the perturbation should change the run";
  sim->reset();
  const Run again = run(*sim, names);
  EXPECT_EQ(again.values, expected.values) << system_name;
  EXPECT_EQ(again.steps, expected.steps);
  EXPECT_EQ(again.residual_calls, expected.residual_calls);
}

// mass1's m = 1, F0 = 1 come from the SSP's parameter set (the FMU's own
// defaults are m = 2, F0 = 0): lost after fmi3Reset unless set again.
TEST(SystemReset, KeepsTheParameterValuesOfTheDescription) {
  expect_reset_equals_fresh("coupled_masses", {"mass1.v", "mass2.v", "mass2.F"}, {{"mass1.F0", "3"}});
}

// LoopSecond has an LS-DAE manifest with an enable switch: after fmi3Reset
// the component is an ODE FMU again unless the switch is set again.
TEST(SystemReset, SwitchesTheComponentsBackIntoDaeMode) {
  expect_reset_equals_fresh("algebraic_loop", {"first.x1", "second.x2", "second.w"}, {{"first.a", "0.8"}});
}

}  // namespace
}  // namespace lsdae
