// runtime/import/ssp/ssd_reader.cpp -- see ssd_reader.h.
#include "import/ssp/ssd_reader.h"

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "import/archive.h"
#include "import/ssp/coupling_annotation.h"
#include "import/ssp/ssd_reading.h"
#include "import/xml_document.h"
#include "lsdae/error.h"
namespace lsdae::import::ssd {

std::string join(const std::string& prefix, const std::string& name) { return prefix.empty() ? name : prefix + "." + name; }

std::string names_of(const std::vector<Connector>& connectors) {
  std::string out;
  for (std::size_t i = 0; i < connectors.size() && i < 8; ++i) out += (i ? ", " : "") + connectors[i].name;
  if (connectors.size() > 8) out += ", ...";
  return out.empty() ? "none declared" : out;
}

std::string names_of(const std::vector<Element>& elements) {
  std::string out;
  for (std::size_t i = 0; i < elements.size() && i < 8; ++i) out += (i ? ", " : "") + elements[i].name;
  if (elements.size() > 8) out += ", ...";
  return out.empty() ? "none" : out;
}

namespace {

// "%20" and friends in a relative URI reference.
std::optional<std::string> percent_decode(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return std::nullopt;
    auto hex = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    const int hi = hex(text[i + 1]), lo = hex(text[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

}  // namespace

SystemDescription Reader::read() {
  const pugi::xml_node root = doc_.root();
  AttributeReader r(doc_, root, diagnostics_);
  if (local_name(root.name()) != "SystemStructureDescription") {
    r.error("the root element is <" + std::string(root.name()) + ">, not <ssd:SystemStructureDescription>",
            "give an SSP 1.0 system structure description (SystemStructure.ssd)");
    return std::move(out_);
  }
  if (auto version = r.text("version"); version && version->rfind("1.", 0) != 0 && *version != "1" &&
                                         version->rfind("2.", 0) != 0)
    r.warning("<SystemStructureDescription> version=\"" + *version + "\" is not SSP 1.0; read as 1.0",
              "check the result, or export as SSP 1.0");
  out_.name = r.text("name").value_or("");
  pugi::xml_node system;
  for (const auto& child : element_children(root)) {
    const std::string_view name = local_name(child.name());
    if (name == "System") {
      if (system) {
        AttributeReader(doc_, child, diagnostics_)
            .error("<SystemStructureDescription> has a second <System>", "keep one root system");
        continue;
      }
      system = child;
    } else if (name == "DefaultExperiment") {
      read_default_experiment(child);
    }  // Enumerations, Units, MetaData, Signature, Annotations: nothing lsdae needs
  }
  if (!system) {
    r.error("<SystemStructureDescription> has no <System>", "add the root <ssd:System>");
    return std::move(out_);
  }
  if (out_.name.empty()) out_.name = AttributeReader(doc_, system, diagnostics_).text("name").value_or("");
  systems_.emplace_back();
  read_system(system, 0, "", 0);
  flatten_connections();
  resolve_couplings();
  return std::move(out_);
}

void Reader::read_default_experiment(const pugi::xml_node& node) {
  AttributeReader r(doc_, node, diagnostics_);
  out_.start_time = r.real("startTime");
  out_.stop_time = r.real("stopTime");
  if (out_.start_time && out_.stop_time && !(*out_.stop_time > *out_.start_time))
    r.error("<DefaultExperiment> stopTime=" + std::to_string(*out_.stop_time) + " is not after startTime=" +
                std::to_string(*out_.start_time),
            "make stopTime larger than startTime");
}

std::vector<Connector> Reader::read_connectors(const pugi::xml_node& connectors_node, const std::string& owner,
                                       std::map<std::string, std::size_t>& index) {
  std::vector<Connector> connectors;
  for (const auto& node : element_children(connectors_node)) {
    if (local_name(node.name()) != "Connector") continue;
    AttributeReader r(doc_, node, diagnostics_);
    Connector c;
    c.line = r.line();
    c.name = r.required_text("name");
    if (c.name.empty()) continue;
    c.kind = r.text("kind").value_or("");
    static const std::set<std::string> kinds = {"input", "output", "inout", "parameter", "calculatedParameter"};
    if (c.kind.empty()) {
      r.error("<Connector> \"" + c.name + "\" of " + owner + " lacks the attribute kind",
              "write kind=\"input\" or kind=\"output\" (or parameter, calculatedParameter, inout)");
    } else if (!kinds.count(c.kind)) {
      r.error("<Connector> \"" + c.name + "\" of " + owner + " has kind=\"" + c.kind + "\"",
              "use one of input, output, inout, parameter, calculatedParameter");
    }
    for (const auto& t : element_children(node)) {
      const std::string_view n = local_name(t.name());
      if (n == "Real" || n == "Integer" || n == "Boolean" || n == "String" || n == "Enumeration" || n == "Binary") {
        c.type = std::string(n);
        if (auto unit = AttributeReader(doc_, t, diagnostics_).text("unit")) c.unit = *unit;
      }
    }
    if (index.count(c.name)) {
      r.error("<Connector> \"" + c.name + "\" of " + owner + " is declared twice (first at line " +
                  std::to_string(connectors[index.at(c.name)].line) + ")",
              "remove one of them");
      continue;
    }
    index.emplace(c.name, connectors.size());
    connectors.push_back(std::move(c));
  }
  return connectors;
}

std::optional<std::filesystem::path> Reader::resolve_source(const AttributeReader& r, const std::string& component,
                                                    const std::string& source, const char* what) {
  auto decoded = percent_decode(source);
  if (!decoded) {
    r.error(std::string(what) + " of " + component + ": \"" + source + "\" has a broken %-escape", "fix the URI");
    return std::nullopt;
  }
  std::string text = *decoded;
  const bool has_scheme = [&] {
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0) return false;
    return text.find_first_of("/\\") == std::string::npos || colon < text.find_first_of("/\\");
  }();
  if (context_.confined) {
    const std::string reason = has_scheme ? "is a URI with a scheme, not a path inside the package"
                                          : unsafe_member_reason(text);
    if (!reason.empty()) {
      r.error(std::string(what) + " of " + component + ": \"" + source + "\" " + reason,
              "refer to the file by its path inside the .ssp, e.g. resources/model.fmu");
      return std::nullopt;
    }
    std::filesystem::path p = context_.base / text;
    if (context_.check_files) {
      std::error_code ec;
      if (!std::filesystem::exists(p, ec)) {
        r.error(std::string(what) + " of " + component + ": the package has no file \"" + text + "\"",
                "add it to the .ssp or fix the path");
        return std::nullopt;
      }
    }
    return p;
  }
  if (text.rfind("file://", 0) == 0) {
    text.erase(0, 7);  // file:///abs/x.fmu and file://localhost/abs
    if (text.rfind("localhost/", 0) == 0) text.erase(0, 9);
  } else if (text.rfind("file:", 0) == 0) {
    text.erase(0, 5);
  } else if (has_scheme) {
    r.error(std::string(what) + " of " + component + ": \"" + source + "\" is a URI lsdae cannot fetch",
            "download the file and refer to it by a relative path");
    return std::nullopt;
  }
  std::filesystem::path p = std::filesystem::path(text).is_absolute() ? std::filesystem::path(text) : context_.base / text;
  if (context_.check_files) {
    std::error_code ec;
    if (!std::filesystem::exists(p, ec)) {
      r.error(std::string(what) + " of " + component + ": \"" + source + "\" does not exist (looked for " +
                  p.lexically_normal().string() + ")",
              "fix the path (relative to the .ssd's folder)");
      return std::nullopt;
    }
  }
  return p;
}

void Reader::read_component(const pugi::xml_node& node, std::size_t system_index, Element& element) {
  AttributeReader r(doc_, node, diagnostics_);
  const std::string type = r.text("type").value_or(kFmuType);
  const std::string label = "<Component> \"" + element.full + "\"";
  bool ok = true;
  if (type == "application/x-ssp-definition" || type == "application/x-ssp-package") {
    r.error(label + " has type=\"" + type + "\": lsdae does not read referenced SSD/SSP files as components",
            "write the subsystem as a nested <ssd:System> in this SSD");
    ok = false;
  } else if (type != kFmuType) {
    r.error(label + " has type=\"" + type + "\": lsdae simulates FMU components only",
            std::string("use an FMU (type=\"") + kFmuType + "\")");
    ok = false;
  }
  if (auto impl = r.text("implementation"); impl && *impl != "ModelExchange" && *impl != "any") {
    r.error(label + " has implementation=\"" + *impl + "\": lsdae simulates components as Model Exchange FMUs",
            "remove the attribute or write implementation=\"ModelExchange\"");
    ok = false;
  }
  auto source = r.text("source");
  std::optional<std::filesystem::path> fmu;
  if (!source || source->empty())
    r.error(label + " lacks the attribute source", "write source=\"resources/<model>.fmu\"");
  else if (ok)
    fmu = resolve_source(r, element.full, *source, "source");
  for (const auto& child : element_children(node)) {
    const std::string_view name = local_name(child.name());
    if (name == "Connectors") element.connectors = read_connectors(child, label, element.connector_index);
  }
  ComponentDescription c;
  c.name = element.full;
  if (fmu) c.fmu = *fmu;
  c.source = source.value_or("");
  c.where = where(r.line());
  for (const auto& k : element.connectors)
    c.connectors.push_back({k.name, k.kind, k.type, k.unit, where(k.line)});
  element.index = out_.components.size();
  component_index_.emplace(c.name, element.index);
  out_.components.push_back(std::move(c));
  if (!fmu) failed_components_.insert(element.index);
  (void)system_index;
  for (const auto& child : element_children(node))
    if (local_name(child.name()) == "ParameterBindings") read_bindings(child, system_index, &element);
}

void Reader::read_system(const pugi::xml_node& node, std::size_t system_index, const std::string& path, int depth) {
  systems_[system_index].path = path;
  const std::string label = path.empty() ? std::string("the root system") : "system \"" + path + "\"";
  std::vector<pugi::xml_node> connections, bindings, annotations;
  for (const auto& child : element_children(node)) {
    const std::string_view name = local_name(child.name());
    if (name == "Connectors") {
      auto connectors = read_connectors(child, label, systems_[system_index].connector_index);
      systems_[system_index].connectors = std::move(connectors);
    } else if (name == "Elements") {
      for (const auto& e : element_children(child)) read_element(e, system_index, path, depth);
    } else if (name == "Connections") {
      for (const auto& c : element_children(child))
        if (local_name(c.name()) == "Connection") connections.push_back(c);
    } else if (name == "ParameterBindings") {
      bindings.push_back(child);
    } else if (name == "SignalDictionaries") {
      AttributeReader(doc_, child, diagnostics_)
          .error("<SignalDictionaries> in " + label + ": lsdae does not support signal dictionaries",
                 "connect the connectors directly with <ssd:Connection>");
    } else if (name == "Annotations") {
      for (const auto& a : element_children(child)) {
        AttributeReader ar(doc_, a, diagnostics_);
        if (local_name(a.name()) == "Annotation" && ar.text("type").value_or("") == kCouplingAnnotationType)
          annotations.push_back(a);
      }
    }
  }
  for (const auto& c : connections) read_connection(c, system_index);
  for (const auto& b : bindings) read_bindings(b, system_index, nullptr);
  for (const auto& a : annotations)
    for (auto& spec : read_coupling_annotation(doc_, a, diagnostics_)) pending_couplings_.emplace_back(system_index, std::move(spec));
}

void Reader::read_element(const pugi::xml_node& node, std::size_t system_index, const std::string& path, int depth) {
  const std::string_view kind = local_name(node.name());
  AttributeReader r(doc_, node, diagnostics_);
  if (kind == "SignalDictionaryReference") {
    r.error("<SignalDictionaryReference> \"" + r.text("name").value_or("") +
                "\": lsdae does not support signal dictionaries",
            "connect the connectors directly with <ssd:Connection>");
    return;
  }
  if (kind != "Component" && kind != "System") {
    r.warning("<" + std::string(node.name()) + "> in <Elements> is not an SSP 1.0 element; ignored");
    return;
  }
  Element element;
  element.name = r.text("name").value_or("");
  element.line = r.line();
  if (element.name.empty()) {
    r.error("<" + std::string(kind) + "> lacks the attribute name", "name it (unique in its system)");
    return;
  }
  if (element.name.find('.') != std::string::npos)
    r.warning("<" + std::string(kind) + "> name \"" + element.name +
                  "\" contains '.', which lsdae also uses to join nested names",
              "rename it if names become ambiguous");
  if (systems_[system_index].element_index.count(element.name)) {
    r.error("<" + std::string(kind) + "> \"" + element.name + "\" is declared twice in " +
                (systems_[system_index].path.empty() ? std::string("the root system")
                                                     : "system \"" + systems_[system_index].path + "\"") +
                " (first at line " +
                std::to_string(systems_[system_index].elements[systems_[system_index].element_index.at(element.name)].line) + ")",
            "give every element of a system its own name");
    return;
  }
  element.full = join(path, element.name);
  if (kind == "System" && depth + 1 > kMaxNesting) {
    r.error("<System> \"" + element.full + "\" is nested " + std::to_string(depth + 1) +
                " systems deep, more than lsdae's limit of " + std::to_string(kMaxNesting),
            "flatten the hierarchy");
    return;
  }
  if (kind == "Component") {
    read_component(node, system_index, element);
  } else {
    element.is_system = true;
    element.index = systems_.size();
    systems_.emplace_back();
    read_system(node, element.index, element.full, depth + 1);
    element.connectors = systems_[element.index].connectors;
    element.connector_index = systems_[element.index].connector_index;
  }
  System& s = systems_[system_index];
  s.element_index.emplace(element.name, s.elements.size());
  s.elements.push_back(std::move(element));
}

std::optional<Node> Reader::end_node(const AttributeReader& r, std::size_t system_index, const char* element_attr,
                             const char* connector_attr) {
  const System& s = systems_[system_index];
  const std::string element = r.text(element_attr).value_or("");
  auto connector = r.text(connector_attr);
  if (!connector || connector->empty()) {
    r.error("<Connection> lacks the attribute " + std::string(connector_attr), "name the connector");
    return std::nullopt;
  }
  if (element.empty()) {  // the system's own connector
    if (!s.connector_index.count(*connector)) {
      r.error("<Connection> " + std::string(connector_attr) + "=\"" + *connector + "\" without " + element_attr +
                  " names a connector of " +
                  (s.path.empty() ? std::string("the root system") : "system \"" + s.path + "\"") +
                  ", which has none of that name (its connectors: " + names_of(s.connectors) + ")",
              std::string("declare it in the system's <Connectors>, or give ") + element_attr);
      return std::nullopt;
    }
    return Node{false, s.path, *connector};
  }
  auto it = s.element_index.find(element);
  if (it == s.element_index.end()) {
    r.error("<Connection> " + std::string(element_attr) + "=\"" + element + "\": no such element in " +
                (s.path.empty() ? std::string("the root system") : "system \"" + s.path + "\"") +
                " (its elements: " + names_of(s.elements) + ")",
            "fix the name or add the <Component>");
    return std::nullopt;
  }
  const Element& e = s.elements[it->second];
  if (!e.connector_index.count(*connector)) {
    r.error("<Connection> " + std::string(connector_attr) + "=\"" + *connector + "\": " +
                (e.is_system ? "system \"" : "component \"") + e.full + "\" has no connector of that name (its connectors: " +
                names_of(e.connectors) + ")",
            "declare it in the element's <Connectors> (the FMU variable's name) or fix the name");
    return std::nullopt;
  }
  if (!e.is_system && failed_components_.count(e.index)) return std::nullopt;
  return e.is_system ? Node{false, e.full, *connector} : Node{true, e.full, *connector};
}

void Reader::read_connection(const pugi::xml_node& node, std::size_t system_index) {
  AttributeReader r(doc_, node, diagnostics_);
  auto from = end_node(r, system_index, "startElement", "startConnector");
  auto to = end_node(r, system_index, "endElement", "endConnector");
  Edge edge;
  edge.line = r.line();
  for (const auto& child : element_children(node)) {
    const std::string_view name = local_name(child.name());
    AttributeReader t(doc_, child, diagnostics_);
    if (name == "LinearTransformation") {
      edge.factor = t.real("factor").value_or(1.0);
      edge.offset = t.real("offset").value_or(0.0);
    } else if (name == "BooleanMappingTransformation" || name == "IntegerMappingTransformation" ||
               name == "EnumerationMappingTransformation") {
      t.error("<" + std::string(name) + "> on a connection: lsdae supports only <LinearTransformation>",
              "map the values inside an FMU, or connect without a transformation");
      return;
    }
  }
  if (!from || !to) return;
  edge.to = *to;
  edges_[*from].push_back(edge);
  if (from->component) starts_.emplace_back(*from, edge);
}

}  // namespace lsdae::import::ssd

namespace lsdae::import {

SystemDescription parse_ssd(std::string_view text, const SsdContext& context, Diagnostics& diagnostics) {
  XmlDocument doc(text, context.file);
  return ssd::Reader(doc, context, diagnostics).read();
}

}  // namespace lsdae::import
