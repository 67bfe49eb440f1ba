// runtime/sweep/source_registry.cpp -- the scenario sources models register
// by name (lsdae/sweep.h register_scenario_source, scenario_sources).
#include <mutex>
#include <vector>

#include "lsdae/sweep.h"

namespace lsdae::sweep {

namespace {

std::mutex& registry_mutex() {
  static std::mutex mutex;
  return mutex;
}

std::vector<ScenarioSource>& registry() {
  static std::vector<ScenarioSource> sources;
  return sources;
}

}  // namespace

void register_scenario_source(ScenarioSource source) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (const auto& s : registry())
    if (s.name == source.name) return;
  registry().push_back(std::move(source));
}

std::vector<ScenarioSource> scenario_sources() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  return registry();
}

}  // namespace lsdae::sweep
