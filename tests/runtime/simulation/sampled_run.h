// tests/runtime/simulation/sampled_run.h -- one run of a catalog FMU over its
// default experiment, every scalar Float64 variable read at `rows` evenly
// spaced output times, and the run's statistics: for tests that compare two
// runs that differ by one option (bitwise or to a tolerance).
#ifndef LSDAE_TESTS_RUNTIME_SIMULATION_SAMPLED_RUN_H
#define LSDAE_TESTS_RUNTIME_SIMULATION_SAMPLED_RUN_H

#include <string>
#include <vector>

#include "catalog.h"
#include "lsdae/fmu.h"
#include "lsdae/simulation.h"

namespace lsdae::test {

struct SampledRun {
  std::vector<double> values;  // every scalar Float64 variable at every output time, row after row
  SimulationStats stats;
};

inline SampledRun run_sampled(const std::string& fmu, const SimulationOptions& options, int rows) {
  auto sim = Simulation::create(Fmu::open(fmu_path(fmu)), options);
  std::vector<ValueReference> vrs;
  for (const auto& v : sim->fmu().model_description().variables)
    if (v.type == VariableType::float64 && v.dimensions.empty()) vrs.push_back(v.value_reference);
  sim->initialize();
  const double start = sim->start_time(), stop = sim->stop_time();
  SampledRun r;
  std::vector<double> row(vrs.size());
  for (int k = 1; k <= rows; ++k) {
    sim->advance_to(start + (stop - start) * k / rows);
    sim->get(vrs, row);
    r.values.insert(r.values.end(), row.begin(), row.end());
  }
  r.stats = sim->statistics();
  return r;
}

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_SIMULATION_SAMPLED_RUN_H
