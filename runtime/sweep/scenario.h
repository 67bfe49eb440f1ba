// runtime/sweep/scenario.h -- one scenario of a sweep: an id and the values
// set (by name, as text, parsed for the variable's type by Simulation::set)
// on top of the settings every scenario shares.
//
// The id names the scenario in the summary (and in --resume); it is unique
// within a sweep. The sets are applied in order after the sweep's common
// --set values, so a scenario's value wins.
#ifndef LSDAE_RUNTIME_SWEEP_SCENARIO_H
#define LSDAE_RUNTIME_SWEEP_SCENARIO_H

#include <string>
#include <utility>
#include <vector>

namespace lsdae::sweep {

struct Scenario {
  std::string id;
  std::vector<std::pair<std::string, std::string>> sets;  // name → text value
};

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_SCENARIO_H
