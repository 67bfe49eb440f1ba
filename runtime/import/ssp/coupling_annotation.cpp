// runtime/import/ssp/coupling_annotation.cpp -- see coupling_annotation.h.
#include "import/ssp/coupling_annotation.h"

#include <set>
#include <string_view>
#include <utility>

namespace lsdae::import {

std::string namespace_uri(const pugi::xml_node& element) {
  const std::string_view name = element.name();
  const auto colon = name.find(':');
  const std::string attribute =
      colon == std::string_view::npos ? std::string("xmlns") : "xmlns:" + std::string(name.substr(0, colon));
  for (pugi::xml_node n = element; n && n.type() == pugi::node_element; n = n.parent()) {
    pugi::xml_attribute a = n.attribute(attribute.c_str());
    if (!a.empty()) return a.value();
  }
  return {};
}

namespace {

bool in_lsdae_namespace(const pugi::xml_node& node) { return namespace_uri(node) == kCouplingNamespace; }

// An lsdae element other than the expected one: refused (a later version must not be half-read).
void unexpected(const XmlDocument& doc, const pugi::xml_node& node, const std::string& where, Diagnostics& diagnostics) {
  AttributeReader r(doc, node, diagnostics);
  if (in_lsdae_namespace(node))
    r.error("<" + std::string(node.name()) + "> in " + where + " is not part of lsdae's coupling annotation 1.0 (" +
                kCouplingNamespace + ")",
            "use <Couplings>, <Coupling> and <Port> as docs/ssp.md shows, or a newer lsdae");
  else
    r.warning("<" + std::string(node.name()) + "> in " + where + " is not in lsdae's namespace; ignored",
              std::string("declare xmlns:lsdae=\"") + kCouplingNamespace + "\" if it is meant for lsdae");
}

CouplingPortSpec read_port(const XmlDocument& doc, const pugi::xml_node& node, const std::string& coupling,
                           Diagnostics& diagnostics) {
  AttributeReader r(doc, node, diagnostics);
  CouplingPortSpec port;
  port.line = r.line();
  for (auto [field, name] : {std::pair{&port.element, "element"}, std::pair{&port.potential, "potential"},
                             std::pair{&port.flow, "flow"}}) {
    auto value = r.text(name);
    if (!value || value->empty())
      r.error("<Port> of coupling \"" + coupling + "\" lacks the attribute " + name,
              std::string("write ") + name + "=\"...\" (element: the component; potential: its output; flow: its input)");
    else
      *field = *value;
  }
  return port;
}

}  // namespace

std::vector<CouplingSpec> read_coupling_annotation(const XmlDocument& doc, const pugi::xml_node& annotation,
                                                   Diagnostics& diagnostics) {
  std::vector<CouplingSpec> couplings;
  bool found = false;
  for (const auto& couplings_node : element_children(annotation)) {
    if (!in_lsdae_namespace(couplings_node) || local_name(couplings_node.name()) != "Couplings") {
      if (local_name(couplings_node.name()) == "Couplings") {
        AttributeReader r(doc, couplings_node, diagnostics);
        const std::string uri = namespace_uri(couplings_node);
        r.error("<" + std::string(couplings_node.name()) + "> is in namespace \"" + uri +
                    "\", not lsdae's coupling namespace",
                std::string("declare xmlns:lsdae=\"") + kCouplingNamespace + "\" on it");
        found = true;
        continue;
      }
      unexpected(doc, couplings_node, "the coupling annotation", diagnostics);
      continue;
    }
    found = true;
    for (const auto& coupling_node : element_children(couplings_node)) {
      if (!in_lsdae_namespace(coupling_node) || local_name(coupling_node.name()) != "Coupling") {
        unexpected(doc, coupling_node, "<Couplings>", diagnostics);
        continue;
      }
      AttributeReader r(doc, coupling_node, diagnostics);
      CouplingSpec coupling;
      coupling.line = r.line();
      coupling.name = r.text("name").value_or("");
      if (coupling.name.empty()) r.error("<Coupling> lacks the attribute name", "name it, e.g. name=\"rod\"");
      std::set<std::pair<std::string, std::string>> flows;
      bool ports_ok = true;
      for (const auto& port_node : element_children(coupling_node)) {
        if (!in_lsdae_namespace(port_node) || local_name(port_node.name()) != "Port") {
          unexpected(doc, port_node, "<Coupling> \"" + coupling.name + "\"", diagnostics);
          if (in_lsdae_namespace(port_node)) ports_ok = false;
          continue;
        }
        CouplingPortSpec port = read_port(doc, port_node, coupling.name, diagnostics);
        if (port.element.empty() || port.potential.empty() || port.flow.empty()) {
          ports_ok = false;
          continue;
        }
        if (!flows.emplace(port.element, port.flow).second) {
          AttributeReader(doc, port_node, diagnostics)
              .error("coupling \"" + coupling.name + "\" has the port " + port.element + "." + port.flow + " twice",
                     "list each component's flow input once");
          ports_ok = false;
          continue;
        }
        coupling.ports.push_back(std::move(port));
      }
      if (ports_ok && coupling.ports.size() < 2)
        r.error("coupling \"" + coupling.name + "\" has " + std::to_string(coupling.ports.size()) +
                    " port(s); a coupling joins at least two",
                "add a <Port> for every component the coupling joins");
      if (!coupling.name.empty() && ports_ok && coupling.ports.size() >= 2) couplings.push_back(std::move(coupling));
    }
  }
  if (!found)
    AttributeReader(doc, annotation, diagnostics)
        .warning(std::string("the annotation of type \"") + kCouplingAnnotationType + "\" has no <lsdae:Couplings>",
                 std::string("write <lsdae:Couplings xmlns:lsdae=\"") + kCouplingNamespace + "\"> inside it");
  return couplings;
}

}  // namespace lsdae::import
