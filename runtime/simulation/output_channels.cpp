// runtime/simulation/output_channels.cpp -- see output_channels.h.
#include "simulation/output_channels.h"

#include <charconv>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "lsdae/error.h"

namespace lsdae::simulation {

bool glob_match(const std::string& pattern, const std::string& name) {
  // Iterative wildcard match with backtracking to the last '*'.
  std::size_t p = 0, s = 0, star = std::string::npos, mark = 0;
  while (s < name.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == name[s])) {
      ++p;
      ++s;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = s;
    } else if (star != std::string::npos) {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<std::string> split_output_patterns(const std::string& list) {
  std::vector<std::string> out;
  std::string current;
  int depth = 0;
  for (char c : list) {
    if (c == '[') ++depth;
    if (c == ']' && depth > 0) --depth;
    if (c == ',' && depth == 0) {
      if (!current.empty()) out.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

namespace {

bool recordable(const Variable& v) {
  return v.causality != Causality::independent && v.type != VariableType::clock;
}

}  // namespace

namespace {

bool has_role(const Variable& v, const std::string& role, const std::unordered_set<ValueReference>& states,
              const std::unordered_set<ValueReference>& derivatives) {
  if (role == "outputs") return v.causality == Causality::output;
  if (role == "inputs") return v.causality == Causality::input;
  if (role == "states") return states.count(v.value_reference) > 0;
  if (role == "derivatives") return derivatives.count(v.value_reference) > 0;
  if (role == "parameters")
    return v.causality == Causality::parameter || v.causality == Causality::calculated_parameter ||
           v.causality == Causality::structural_parameter;
  if (role == "locals") return v.causality == Causality::local;
  if (role == "algebraic")
    return (v.type == VariableType::float64 || v.type == VariableType::float32) &&
           v.variability == Variability::continuous &&
           (v.causality == Causality::local || v.causality == Causality::output) &&
           states.count(v.value_reference) == 0 && derivatives.count(v.value_reference) == 0;
  throw Error(ErrorKind::usage, "--output-roles: \"" + role +
                                    "\" is not a role → outputs, inputs, states, derivatives, algebraic, parameters "
                                    "or locals");
}

}  // namespace

std::vector<OutputChannel> select_output_channels(const Model& model, const std::vector<std::string>& patterns,
                                                  bool all, const std::vector<std::string>& roles) {
  const ModelDescription& md = model.model_description();
  std::vector<OutputChannel> out;
  auto add_all_elements = [&](const Variable& v) {
    for (std::size_t e = 0; e < v.element_count(); ++e) out.push_back({&v, e, element_name(v, e)});
  };
  if (all || (patterns.empty() && roles.empty())) {
    std::unordered_set<ValueReference> states(model.states().begin(), model.states().end());
    for (const auto& v : md.variables)
      if (recordable(v) && (all || v.causality == Causality::output || states.count(v.value_reference)))
        add_all_elements(v);
    return out;
  }
  std::unordered_set<std::string> taken;
  if (!roles.empty()) {
    const std::unordered_set<ValueReference> states(model.states().begin(), model.states().end());
    const std::unordered_set<ValueReference> derivatives(model.derivatives().begin(), model.derivatives().end());
    for (const auto& v : md.variables) {
      if (!recordable(v)) continue;
      bool wanted = false;
      for (const auto& role : roles) wanted = has_role(v, role, states, derivatives) || wanted;
      if (!wanted) continue;
      for (std::size_t e = 0; e < v.element_count(); ++e) {
        std::string name = element_name(v, e);
        if (taken.insert(name).second) out.push_back({&v, e, std::move(name)});
      }
    }
  }
  for (const auto& pattern : patterns) {
    bool matched = false;
    for (const auto& v : md.variables) {
      if (glob_match(pattern, v.name)) {
        matched = true;
        if (!recordable(v)) continue;
        for (std::size_t e = 0; e < v.element_count(); ++e) {
          std::string name = element_name(v, e);
          if (taken.insert(name).second) out.push_back({&v, e, std::move(name)});
        }
        continue;
      }
      if (!v.is_array() || !recordable(v)) continue;
      for (std::size_t e = 0; e < v.element_count(); ++e) {
        std::string name = element_name(v, e);
        if (!glob_match(pattern, name)) continue;
        matched = true;
        if (taken.insert(name).second) out.push_back({&v, e, std::move(name)});
      }
    }
    // "A[2, 3]" (with a space) names the element "A[2,3]".
    if (!matched)
      if (auto ref = md.find_element(pattern); ref && recordable(*ref->variable)) {
        matched = true;
        std::string name = element_name(*ref->variable, ref->element);
        if (taken.insert(name).second) out.push_back({ref->variable, ref->element, std::move(name)});
      }
    // "time" is every result's first column, whatever the model calls its
    // independent variable (a system has none of its own: its components'
    // are "A.time", "B.time"; an FMI 2.0 FMU may declare none).
    if (!matched && glob_match(pattern, "time")) matched = true;
    if (!matched)
      throw Error(ErrorKind::usage, "--output-vars: \"" + pattern + "\" matches no variable of " +
                                        model.display_name() + " → `lsdae info --variables " + model.path().string() +
                                        "` lists the names (array elements are named like A[2,3])");
  }
  return out;
}

OutputReader::OutputReader(std::vector<OutputChannel> channels) : channels_(std::move(channels)) {
  // One group per type; inside it each variable once, read whole.
  std::map<VariableType, std::size_t> group_of_type;
  // Element offset of a value reference in its group: FMI 2.0 aliases (one
  // value reference, several names) are read once and recorded by name.
  std::vector<std::unordered_map<ValueReference, std::size_t>> offset_in_group;
  std::vector<std::size_t> group_elements;                                          // elements read per group
  slots_.reserve(channels_.size());
  for (const auto& c : channels_) {
    const VariableType type = c.variable->type;
    auto [it, fresh] = group_of_type.emplace(type, groups_.size());
    if (fresh) {
      groups_.push_back({{}, Values(type), storage_of(type) == ValueStorage::real});
      offset_in_group.emplace_back();
      group_elements.push_back(0);
    }
    const std::size_t g = it->second;
    auto& offsets = offset_in_group[g];
    auto found = offsets.find(c.variable->value_reference);
    if (found == offsets.end()) {
      found = offsets.emplace(c.variable->value_reference, group_elements[g]).first;
      group_elements[g] += c.variable->element_count();
      groups_[g].vrs.push_back(c.variable->value_reference);
    }
    slots_.push_back({g, found->second + c.element});
  }
}

std::vector<std::string> OutputReader::names() const {
  std::vector<std::string> out;
  out.reserve(channels_.size());
  for (const auto& c : channels_) out.push_back(c.name);
  return out;
}

void OutputReader::read(Simulation& sim) {
  for (auto& g : groups_) sim.get_values(g.vrs, g.values);
}

std::string OutputReader::text(std::size_t c) const {
  const Slot& s = slots_[c];
  return groups_[s.group].values.text(s.index);
}

double OutputReader::number(std::size_t c) const {
  const Slot& s = slots_[c];
  return groups_[s.group].values.number(s.index);
}

void OutputReader::numbers(std::span<double> out) const {
  for (std::size_t c = 0; c < slots_.size(); ++c) {
    const Slot& s = slots_[c];
    const Group& g = groups_[s.group];
    out[c] = g.real ? g.values.reals[s.index] : g.values.number(s.index);
  }
}

ValueStorage OutputReader::storage(std::size_t c) const { return storage_of(channels_[c].variable->type); }

double OutputReader::real(std::size_t c) const {
  const Slot& s = slots_[c];
  return groups_[s.group].values.reals[s.index];
}

std::int64_t OutputReader::integer(std::size_t c) const {
  const Slot& s = slots_[c];
  return groups_[s.group].values.integers[s.index];
}

std::uint64_t OutputReader::unsigned_integer(std::size_t c) const {
  const Slot& s = slots_[c];
  return groups_[s.group].values.unsigned_integers[s.index];
}

std::vector<results::Column> result_columns(const std::vector<OutputChannel>& channels) {
  std::vector<results::Column> out;
  out.reserve(channels.size());
  for (const auto& c : channels)
    out.push_back({c.name, c.variable->unit, c.variable->description, c.variable->type, c.variable->causality,
                   c.variable->variability, c.variable->value_reference});
  return out;
}

bool OutputReader::is_text(std::size_t c) const {
  return storage_of(channels_[c].variable->type) == ValueStorage::text;
}

void OutputReader::append_text(std::size_t c, std::string& out) const {
  const Slot& s = slots_[c];
  const Values& v = groups_[s.group].values;
  if (v.type != VariableType::float64) {
    out += v.text(s.index);
    return;
  }
  char buffer[32];
  auto r = std::to_chars(buffer, buffer + sizeof buffer, v.reals[s.index]);
  out.append(buffer, r.ptr);
}

}  // namespace lsdae::simulation
