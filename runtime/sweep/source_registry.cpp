// runtime/sweep/source_registry.cpp -- the scenario sources models register
// by name (lsdae/sweep.h register_scenario_source, scenario_sources).
#include <algorithm>
#include <mutex>
#include <vector>

#include "lsdae/error.h"
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

// The sources of one name as one: the union of their options, and a make
// that asks each source with `serves` first.
ScenarioSource merged(std::vector<ScenarioSource> same) {
  if (same.size() == 1) return std::move(same.front());
  ScenarioSource out = same.front();
  for (std::size_t i = 1; i < same.size(); ++i)
    for (const ScenarioSourceOption& o : same[i].options)
      if (std::none_of(out.options.begin(), out.options.end(), [&](const auto& k) { return k.name == o.name; }))
        out.options.push_back(o);
  out.kind.clear();
  out.serves = nullptr;
  out.make = [same = std::move(same)](const Model& model, const ScenarioSourceArguments& arguments) {
    for (const ScenarioSource& s : same)
      if (s.serves && s.serves(model)) return s.make(model, arguments);
    for (const ScenarioSource& s : same)
      if (!s.serves) return s.make(model, arguments);
    std::string kinds;
    for (const ScenarioSource& s : same) kinds += (kinds.empty() ? "" : ", ") + s.kind;
    throw Error(ErrorKind::usage, "--" + same.front().name + ": \"" + model.path().string() +
                                      "\" is none of the models these scenarios map onto (" + kinds +
                                      ") → sweep one of those FMUs, or give the scenarios as a --scenarios table");
  };
  return out;
}

}  // namespace

void register_scenario_source(ScenarioSource source) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (const auto& s : registry())
    if (s.name == source.name && s.kind == source.kind) return;
  registry().push_back(std::move(source));
}

std::vector<ScenarioSource> scenario_sources() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  std::vector<ScenarioSource> out;
  std::vector<std::string> names;
  for (const auto& s : registry())
    if (std::find(names.begin(), names.end(), s.name) == names.end()) names.push_back(s.name);
  for (const std::string& name : names) {
    std::vector<ScenarioSource> same;
    for (const auto& s : registry())
      if (s.name == name) same.push_back(s);
    out.push_back(merged(std::move(same)));
  }
  return out;
}

}  // namespace lsdae::sweep
