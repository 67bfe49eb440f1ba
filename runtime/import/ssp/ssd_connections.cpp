// runtime/import/ssp/ssd_connections.cpp -- the SSD reader's connections (ssd_reading.h): the
// connection graph, relayed through system connectors, flattened into component-to-component
// connections with their composed linear transformations; coupling ports resolved to components.
#include <cstddef>
#include <optional>
#include <set>
#include <string>

#include "import/ssp/ssd_reading.h"
#include "lsdae/error.h"

namespace lsdae::import::ssd {

void Reader::flatten_connections() {
  // Every path from a component connector through system connectors to a component connector.
  // In document order of the connections that leave a component.
  for (const auto& [from, edge] : starts_) {
    std::set<Node> on_path{from};
    follow(from, edge, edge.factor, edge.offset, edge.line, on_path);
    if (relay_refused_) return;
  }
}

void Reader::follow(const Node& from, const Edge& edge, double factor, double offset, int first_line, std::set<Node>& on_path) {
  if (edge.to.component) {
    Connection c;
    c.from = {from.owner, from.connector};
    c.to = {edge.to.owner, edge.to.connector};
    c.factor = factor;
    c.offset = offset;
    c.where = where(first_line);
    out_.connections.push_back(std::move(c));
    return;
  }
  if (++relay_steps_ > kMaxRelaySteps || on_path.size() > kMaxRelayDepth) {
    if (!relay_refused_)
      diagnostics_.error(context_.file, first_line,
                         "the connections through system connectors starting here branch into more than " +
                             std::to_string(kMaxRelaySteps) + " paths or relay through more than " +
                             std::to_string(kMaxRelayDepth) + " connectors",
                         "connect the components more directly");
    relay_refused_ = true;
    return;
  }
  if (!on_path.insert(edge.to).second) {
    diagnostics_.error(context_.file, edge.line,
                       "connections form a loop through system connectors, back to " +
                           (edge.to.owner.empty() ? std::string("the root system") : "system \"" + edge.to.owner + "\"") +
                           "'s connector \"" + edge.to.connector + "\"",
                       "connect every system connector from one source");
    return;
  }
  auto it = edges_.find(edge.to);
  if (it != edges_.end())
    for (const auto& next : it->second) {
      if (relay_refused_) break;
      follow(from, next, next.factor * factor, next.factor * offset + next.offset, first_line, on_path);
    }
  on_path.erase(edge.to);
}

std::optional<std::size_t> Reader::find_component(std::size_t system_index, const std::string& name) const {
  const System& s = systems_[system_index];
  if (auto it = s.element_index.find(name); it != s.element_index.end()) {
    const Element& e = s.elements[it->second];
    if (!e.is_system) return e.index;
  }
  for (const auto& e : s.elements)
    if (e.is_system && name.size() > e.name.size() + 1 && name.compare(0, e.name.size(), e.name) == 0 &&
        name[e.name.size()] == '.')
      if (auto found = find_component(e.index, name.substr(e.name.size() + 1))) return found;
  return std::nullopt;
}

void Reader::resolve_couplings() {
  std::map<std::string, int> names;
  for (auto& [system_index, spec] : pending_couplings_) {
    const System& s = systems_[system_index];
    Coupling coupling;
    coupling.name = join(s.path, spec.name);
    coupling.where = where(spec.line);
    if (auto [it, fresh] = names.emplace(coupling.name, spec.line); !fresh) {
      diagnostics_.error(context_.file, spec.line,
                         "coupling \"" + coupling.name + "\" is declared twice (first at line " +
                             std::to_string(it->second) + ")",
                         "give every coupling its own name");
      continue;
    }
    bool ok = true;
    for (const auto& port : spec.ports) {
      auto component = find_component(system_index, port.element);
      if (!component) {
        const bool is_system = s.element_index.count(port.element) && s.elements[s.element_index.at(port.element)].is_system;
        diagnostics_.error(context_.file, port.line,
                           "coupling \"" + coupling.name + "\": <Port> element=\"" + port.element + "\" " +
                               (is_system ? "is a system, not a component"
                                          : "names no component of " +
                                                (s.path.empty() ? std::string("the root system")
                                                                : "system \"" + s.path + "\"") +
                                                " (its elements: " + names_of(s.elements) + ")"),
                           is_system ? "name the component inside it, e.g. \"" + port.element + ".<component>\""
                                     : "fix the name");
        ok = false;
        continue;
      }
      if (failed_components_.count(*component)) {
        ok = false;
        continue;
      }
      const std::string& name = out_.components[*component].name;
      coupling.ports.push_back({{name, port.potential}, {name, port.flow}});
    }
    if (ok) out_.couplings.push_back(std::move(coupling));
  }
}

}  // namespace lsdae::import::ssd
