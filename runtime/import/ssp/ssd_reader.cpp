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
#include "import/ssp/parameter_set.h"
#include "import/xml_document.h"
#include "lsdae/error.h"

namespace lsdae::import {

namespace {

constexpr const char* kFmuType = "application/x-fmu-sharedlibrary";
// Hostile input guards: systems nested deeper, and connector paths longer or
// more numerous than this, are refused instead of exhausting the stack or
// the time (a lattice of relaying system connectors has exponentially many
// paths).
constexpr int kMaxNesting = 64;
constexpr std::size_t kMaxRelayDepth = 256;
constexpr std::size_t kMaxRelaySteps = 1000000;

struct Connector {
  std::string name, kind, type, unit;
  int line = 0;
};

// One element of a system: a component (an FMU) or a nested system.
struct Element {
  std::string name;
  bool is_system = false;
  std::string full;                  // component: its flattened name; system: its path
  std::size_t index = 0;             // components[index] or systems[index]
  std::vector<Connector> connectors;
  std::map<std::string, std::size_t> connector_index;
  int line = 0;
};

struct System {
  std::string path;                  // "" for the root, "sub", "sub.inner"
  std::vector<Element> elements;
  std::map<std::string, std::size_t> element_index;
  std::vector<Connector> connectors;  // its own
  std::map<std::string, std::size_t> connector_index;
};

// A connector node of the flattened graph.
struct Node {
  bool component = false;
  std::string owner;  // component name or system path
  std::string connector;
  bool operator<(const Node& o) const {
    return std::tie(component, owner, connector) < std::tie(o.component, o.owner, o.connector);
  }
};

struct Edge {
  Node to;
  double factor = 1.0, offset = 0.0;
  int line = 0;
};

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

class Reader {
 public:
  Reader(const XmlDocument& doc, const SsdContext& context, Diagnostics& diagnostics)
      : doc_(doc), context_(context), diagnostics_(diagnostics) {}

  SystemDescription read() {
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

 private:
  std::string where(int line) const { return context_.file + ":" + std::to_string(line); }

  void read_default_experiment(const pugi::xml_node& node) {
    AttributeReader r(doc_, node, diagnostics_);
    out_.start_time = r.real("startTime");
    out_.stop_time = r.real("stopTime");
    if (out_.start_time && out_.stop_time && !(*out_.stop_time > *out_.start_time))
      r.error("<DefaultExperiment> stopTime=" + std::to_string(*out_.stop_time) + " is not after startTime=" +
                  std::to_string(*out_.start_time),
              "make stopTime larger than startTime");
  }

  std::vector<Connector> read_connectors(const pugi::xml_node& connectors_node, const std::string& owner,
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

  // The resolved path of an FMU source, or nullopt after an error.
  std::optional<std::filesystem::path> resolve_source(const AttributeReader& r, const std::string& component,
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

  void read_component(const pugi::xml_node& node, std::size_t system_index, Element& element) {
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

  void read_system(const pugi::xml_node& node, std::size_t system_index, const std::string& path, int depth) {
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

  void read_element(const pugi::xml_node& node, std::size_t system_index, const std::string& path, int depth) {
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

  // The node for one end of a connection, or nullopt after an error.
  std::optional<Node> end_node(const AttributeReader& r, std::size_t system_index, const char* element_attr,
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

  void read_connection(const pugi::xml_node& node, std::size_t system_index) {
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

  // Applies the parameter bindings of a component (`element`) or a system.
  void read_bindings(const pugi::xml_node& bindings, std::size_t system_index, const Element* element) {
    for (const auto& binding : element_children(bindings)) {
      if (local_name(binding.name()) != "ParameterBinding") continue;
      AttributeReader r(doc_, binding, diagnostics_);
      const std::string type = r.text("type").value_or("application/x-ssp-parameter-set");
      if (type != "application/x-ssp-parameter-set") {
        r.error("<ParameterBinding> type=\"" + type + "\": lsdae reads SSP parameter sets (ssv) only",
                "convert the values to an ssv:ParameterSet");
        continue;
      }
      const std::string prefix = r.text("prefix").value_or("");
      bool mapped = false;
      std::vector<ParameterValue> values;
      std::optional<XmlDocument> external;
      for (const auto& child : element_children(binding)) {
        const std::string_view name = local_name(child.name());
        if (name == "ParameterMapping") {
          AttributeReader(doc_, child, diagnostics_)
              .error("<ParameterMapping> (ssm): lsdae does not support parameter mappings",
                     "write the values under the FMU's variable names in the parameter set");
          mapped = true;
        } else if (name == "ParameterValues") {
          for (const auto& set : element_children(child))
            if (local_name(set.name()) == "ParameterSet") {
              auto v = read_parameter_set(doc_, set, diagnostics_);
              values.insert(values.end(), v.begin(), v.end());
            }
        }
      }
      if (mapped) continue;
      std::string file = context_.file;
      if (auto source = r.text("source"); source && !source->empty()) {
        if (!values.empty()) r.warning("<ParameterBinding> has both source and inline values; both are applied");
        if (auto path = resolve_source(r, "<ParameterBinding>", *source, "source")) {
          if (!context_.check_files) continue;
          auto text = read_ssv(r, *path, *source);
          if (!text) continue;
          try {
            external.emplace(*text, *source);
          } catch (const Error& e) {
            r.error(std::string("the parameter file of this binding is malformed XML: ") + e.what());
            continue;
          }
          const pugi::xml_node set = external->root();
          if (local_name(set.name()) != "ParameterSet") {
            r.error("<ParameterBinding> source=\"" + *source + "\" has root <" + set.name() + ">, not <ssv:ParameterSet>",
                    "refer to an SSP parameter values file (.ssv)");
            continue;
          }
          auto v = read_parameter_set(*external, set, diagnostics_);
          values.insert(values.begin(), v.begin(), v.end());
          file = *source;
        }
      }
      for (const auto& v : values) {
        const std::string at = file + ":" + std::to_string(v.line);
        const std::string name = prefix + v.name;
        if (element) {
          bind(element->index, name, v.value, at);
        } else {
          bind_in_system(r, system_index, name, name, v.value, at);
        }
      }
    }
  }

  std::optional<std::string> read_ssv(const AttributeReader& r, const std::filesystem::path& path,
                                      const std::string& source) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) {
      r.error("<ParameterBinding> source=\"" + source + "\" cannot be read (" + ec.message() + ")", "fix the path");
      return std::nullopt;
    }
    if (size > context_.max_ssv_bytes) {
      r.error("<ParameterBinding> source=\"" + source + "\" is " + std::to_string(size) + " bytes, more than the limit of " +
                  std::to_string(context_.max_ssv_bytes),
              "if genuine, raise ArchiveLimits::max_xml_bytes");
      return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    in.read(text.data(), static_cast<std::streamsize>(size));
    if (!in) {
      r.error("<ParameterBinding> source=\"" + source + "\": read failed", "check the file");
      return std::nullopt;
    }
    return text;
  }

  void bind(std::size_t component, const std::string& variable, const std::string& value, const std::string& at) {
    ComponentDescription& c = out_.components[component];
    for (std::size_t i = 0; i < c.parameters.size(); ++i)
      if (c.parameters[i].first == variable) {  // a later (outer) binding replaces an earlier one
        c.parameters[i].second = value;
        c.parameters_where[i] = at;
        return;
      }
    c.parameters.emplace_back(variable, value);
    c.parameters_where.push_back(at);
  }

  // A system-level binding names "element.rest": the element of that system
  // whose name is the longest prefix followed by '.'.
  void bind_in_system(const AttributeReader& r, std::size_t system_index, const std::string& full_name,
                      const std::string& name, const std::string& value, const std::string& at) {
    const System& s = systems_[system_index];
    if (s.connector_index.count(name)) {  // OMSimulator: a system parameter connector, connected on
      std::size_t reached = 0;
      std::set<Node> on_path;
      propagate(Node{false, s.path, name}, full_name, value, 1.0, 0.0, at, on_path, reached);
      if (reached == 0)
        diagnostics_.warning(at.substr(0, at.rfind(':')), std::atoi(at.c_str() + at.rfind(':') + 1),
                             "parameter \"" + full_name + "\" is bound to a system connector that no connection "
                                 "carries to a component; ignored",
                             "connect the system connector to the component parameters it sets");
      return;
    }
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < s.elements.size(); ++i) {
      const std::string& e = s.elements[i].name;
      if (name.size() > e.size() + 1 && name.compare(0, e.size(), e) == 0 && name[e.size()] == '.' &&
          (!best || e.size() > s.elements[*best].name.size()))
        best = i;
    }
    if (!best) {
      diagnostics_.error(at.substr(0, at.rfind(':')), std::atoi(at.c_str() + at.rfind(':') + 1),
                         "parameter \"" + full_name + "\" bound at " +
                             (s.path.empty() ? std::string("the root system") : "system \"" + s.path + "\"") +
                             " names no element or connector of it (its elements: " + names_of(s.elements) + ")",
                         "name the component's variable as \"<component>.<variable>\", or bind it at the component");
      (void)r;
      return;
    }
    const Element& e = s.elements[*best];
    const std::string rest = name.substr(e.name.size() + 1);
    if (e.is_system)
      bind_in_system(r, e.index, full_name, rest, value, at);
    else if (!failed_components_.count(e.index))
      bind(e.index, rest, value, at);
  }

  // A value bound to a system connector: set on every component connector the
  // connections carry it to, through the linear transformations on the way.
  void propagate(const Node& node, const std::string& full_name, const std::string& value, double factor,
                 double offset, const std::string& at, std::set<Node>& on_path, std::size_t& reached) {
    if (++propagate_steps_ > kMaxRelaySteps) {
      if (propagate_steps_ == kMaxRelaySteps + 1)
        diagnostics_.error(at.substr(0, at.rfind(':')), std::atoi(at.c_str() + at.rfind(':') + 1),
                           "parameter \"" + full_name + "\": the connections from its system connector branch into "
                               "more than " + std::to_string(kMaxRelaySteps) + " paths",
                           "connect the system connector more directly");
      return;
    }
    if (node.component) {
      std::string v = value;
      if (factor != 1.0 || offset != 0.0) {
        auto number = parse_double(value);
        if (!number) {
          diagnostics_.error(at.substr(0, at.rfind(':')), std::atoi(at.c_str() + at.rfind(':') + 1),
                             "parameter \"" + full_name + "\" = \"" + value +
                                 "\" reaches " + node.owner + "." + node.connector +
                                 " through a linear transformation, but is not a number",
                             "bind a number, or connect without a transformation");
          return;
        }
        char text[32];
        std::snprintf(text, sizeof text, "%.17g", factor * *number + offset);
        v = text;
      }
      if (auto it = component_index_.find(node.owner); it != component_index_.end() && !failed_components_.count(it->second)) {
        bind(it->second, node.connector, v, at);
        ++reached;
      }
      return;
    }
    if (on_path.size() > kMaxRelayDepth || !on_path.insert(node).second) return;  // a loop: reported by flattening
    if (auto it = edges_.find(node); it != edges_.end())
      for (const auto& e : it->second)
        propagate(e.to, full_name, value, e.factor * factor, e.factor * offset + e.offset, at, on_path, reached);
    on_path.erase(node);
  }

  void flatten_connections() {
    // Every path from a component connector through system connectors to a component connector.
    // In document order of the connections that leave a component.
    for (const auto& [from, edge] : starts_) {
      std::set<Node> on_path{from};
      follow(from, edge, edge.factor, edge.offset, edge.line, on_path);
      if (relay_refused_) return;
    }
  }

  void follow(const Node& from, const Edge& edge, double factor, double offset, int first_line, std::set<Node>& on_path) {
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

  // The component a coupling port names: an element of the carrying system,
  // or "sub.comp" through nested systems.
  std::optional<std::size_t> find_component(std::size_t system_index, const std::string& name) const {
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

  void resolve_couplings() {
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

  const XmlDocument& doc_;
  const SsdContext& context_;
  Diagnostics& diagnostics_;
  SystemDescription out_;
  std::vector<System> systems_;
  std::map<Node, std::vector<Edge>> edges_;
  std::vector<std::pair<Node, Edge>> starts_;  // edges leaving a component connector, in document order
  std::set<std::size_t> failed_components_;
  std::map<std::string, std::size_t> component_index_;  // flattened name -> out_.components
  std::vector<std::pair<std::size_t, CouplingSpec>> pending_couplings_;
  std::size_t relay_steps_ = 0;
  std::size_t propagate_steps_ = 0;
  bool relay_refused_ = false;
};

}  // namespace

SystemDescription parse_ssd(std::string_view text, const SsdContext& context, Diagnostics& diagnostics) {
  XmlDocument doc(text, context.file);
  return Reader(doc, context, diagnostics).read();
}

}  // namespace lsdae::import
