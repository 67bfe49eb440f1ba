// models/kit/claims.cpp -- see claims.h.
#include "kit/claims.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace lsdae::kit {

namespace {

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, separator)) out.push_back(item);
  if (!text.empty() && text.back() == separator) out.emplace_back();
  return out;
}

ValueRef by_name(const Description& d, const std::string& key, const std::string& name, bool star_allowed) {
  if (star_allowed && name == "*") return kNoValueRef;
  for (const Variable& v : d.variables)
    if (v.name == name) return v.value_reference;
  throw std::invalid_argument("model configuration: " + key + " names \"" + name +
                              "\", which is no variable of this model");
}

// Every dependency list of `unknown` (manifest, modelDescription.xml, residual formulations).
std::vector<std::vector<Dependency>*> lists_of(Description& d, ValueRef unknown) {
  std::vector<std::vector<Dependency>*> out;
  if (auto it = d.dae_dependencies.find(unknown); it != d.dae_dependencies.end()) out.push_back(&it->second);
  if (auto it = d.ode_dependencies.find(unknown); it != d.ode_dependencies.end()) out.push_back(&it->second);
  for (ResidualGroup& g : d.residual_groups)
    for (Formulation& f : g.formulations)
      if (f.residual == unknown) out.push_back(&f.dependencies);
  return out;
}

// The entries "U:K" of `key`, resolved; throws when one is malformed.
std::vector<std::pair<ValueRef, ValueRef>> entries(const Description& d, const std::string& key) {
  std::vector<std::pair<ValueRef, ValueRef>> out;
  const std::string text = d.config.get_string(key, "");
  if (text.empty()) return out;
  for (const std::string& item : split(text, ',')) {
    const auto parts = split(item, ':');
    if (parts.size() != 2)
      throw std::invalid_argument("model configuration: " + key + " entry \"" + item +
                                  "\" is not UNKNOWN:KNOWN (two variable names)");
    out.emplace_back(by_name(d, key, parts[0], false), by_name(d, key, parts[1], false));
  }
  return out;
}

std::string entry_name(const Description& d, ValueRef unknown, ValueRef known) {
  return "d(" + d.variables[unknown].name + ")/d(" + d.variables[known].name + ")";
}

}  // namespace

void apply_claims(Description& d) {
  for (const auto& [unknown, known] : entries(d, "claim_constant")) {
    bool found = false;
    for (std::vector<Dependency>* list : lists_of(d, unknown))
      for (Dependency& dep : *list) {
        if (dep.known != known) continue;
        if (dep.kind == DepKind::constant)
          throw std::invalid_argument("model configuration: claim_constant " + entry_name(d, unknown, known) +
                                      " is declared constant already: the claim would be true");
        dep.kind = DepKind::constant;
        found = true;
      }
    if (!found)
      throw std::invalid_argument("model configuration: claim_constant " + entry_name(d, unknown, known) +
                                  ": the model declares no such dependency");
  }
  for (const auto& [unknown, known] : entries(d, "claim_hidden")) {
    bool found = false;
    for (std::vector<Dependency>* list : lists_of(d, unknown))
      found = std::erase_if(*list, [k = known](const Dependency& dep) { return dep.known == k; }) > 0 || found;
    if (!found)
      throw std::invalid_argument("model configuration: claim_hidden " + entry_name(d, unknown, known) +
                                  ": the model declares no such dependency to hide");
  }
  const std::string scales = d.config.get_string("claim_partial_scale", "");
  if (scales.empty()) return;
  if (!d.provides_partials)
    throw std::invalid_argument("model configuration: claim_partial_scale needs directional derivatives, and this "
                                "variant provides none");
  for (const std::string& item : split(scales, ',')) {
    const auto parts = split(item, ':');
    double factor = 0.0;
    const std::string& f = parts.size() == 3 ? parts[2] : item;
    const auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), factor);
    if (parts.size() != 3 || ec != std::errc() || end != f.data() + f.size() || !std::isfinite(factor) ||
        factor == 1.0)
      throw std::invalid_argument("model configuration: claim_partial_scale entry \"" + item +
                                  "\" is not UNKNOWN:KNOWN:FACTOR with a finite FACTOR other than 1");
    d.partial_scales.push_back({by_name(d, "claim_partial_scale", parts[0], true),
                                by_name(d, "claim_partial_scale", parts[1], true), factor});
  }
  d.partial_scale_after = d.config.get_double("claim_partial_scale_after", d.partial_scale_after);
}

}  // namespace lsdae::kit
