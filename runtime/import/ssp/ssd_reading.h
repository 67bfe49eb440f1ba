// runtime/import/ssp/ssd_reading.h -- the reader behind parse_ssd (ssd_reader.h): the tree it
// reads an SSD into (systems, their elements and connectors, the connection graph) and the one
// Reader class, whose work is spread over three files by concern: ssd_reader.cpp (the document
// read into the tree), ssd_bindings.cpp (parameter bindings), ssd_connections.cpp (connections
// flattened to component-to-component ones, couplings resolved). Internal to those three: the
// namespace is hidden, so liblsdae.so exports none of it (cmake/lsdae.map exports lsdae::*).
#ifndef LSDAE_RUNTIME_IMPORT_SSP_SSD_READING_H
#define LSDAE_RUNTIME_IMPORT_SSP_SSD_READING_H

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "import/ssp/coupling_annotation.h"
#include "import/ssp/ssd_reader.h"
#include "import/xml_document.h"

namespace lsdae::import {
namespace [[gnu::visibility("hidden")]] ssd {

inline constexpr const char* kFmuType = "application/x-fmu-sharedlibrary";
// Hostile input guards: systems nested deeper, and connector paths longer or
// more numerous than this, are refused instead of exhausting the stack or
// the time (a lattice of relaying system connectors has exponentially many
// paths).
inline constexpr int kMaxNesting = 64;
inline constexpr std::size_t kMaxRelayDepth = 256;
inline constexpr std::size_t kMaxRelaySteps = 1000000;

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

std::string join(const std::string& prefix, const std::string& name);
// The first names of a list of connectors or elements, for messages.
std::string names_of(const std::vector<Connector>& connectors);
std::string names_of(const std::vector<Element>& elements);

class Reader {
 public:
  Reader(const XmlDocument& doc, const SsdContext& context, Diagnostics& diagnostics)
      : doc_(doc), context_(context), diagnostics_(diagnostics) {}

  SystemDescription read();

 private:
  std::string where(int line) const { return context_.file + ":" + std::to_string(line); }

  // ssd_reader.cpp: the document read into systems, elements and connectors.
  void read_default_experiment(const pugi::xml_node& node);
  std::vector<Connector> read_connectors(const pugi::xml_node& connectors_node, const std::string& owner,
                                         std::map<std::string, std::size_t>& index);

  // The resolved path of an FMU source, or nullopt after an error.
  std::optional<std::filesystem::path> resolve_source(const AttributeReader& r, const std::string& component,
                                                      const std::string& source, const char* what);
  void read_component(const pugi::xml_node& node, std::size_t system_index, Element& element);
  void read_system(const pugi::xml_node& node, std::size_t system_index, const std::string& path, int depth);
  void read_element(const pugi::xml_node& node, std::size_t system_index, const std::string& path, int depth);

  // The node for one end of a connection, or nullopt after an error.
  std::optional<Node> end_node(const AttributeReader& r, std::size_t system_index, const char* element_attr,
                               const char* connector_attr);
  void read_connection(const pugi::xml_node& node, std::size_t system_index);

  // ssd_bindings.cpp: parameter bindings (inline, .ssv files), carried through the connections.
  // Applies the parameter bindings of a component (`element`) or a system.
  void read_bindings(const pugi::xml_node& bindings, std::size_t system_index, const Element* element);
  std::optional<std::string> read_ssv(const AttributeReader& r, const std::filesystem::path& path,
                                      const std::string& source);
  void bind(std::size_t component, const std::string& variable, const std::string& value, const std::string& at);

  // A system-level binding names "element.rest": the element of that system
  // whose name is the longest prefix followed by '.'.
  void bind_in_system(const AttributeReader& r, std::size_t system_index, const std::string& full_name,
                      const std::string& name, const std::string& value, const std::string& at);

  // A value bound to a system connector: set on every component connector the
  // connections carry it to, through the linear transformations on the way.
  void propagate(const Node& node, const std::string& full_name, const std::string& value, double factor,
                 double offset, const std::string& at, std::set<Node>& on_path, std::size_t& reached);

  // ssd_connections.cpp: connections flattened to component-to-component ones; couplings.
  void flatten_connections();
  void follow(const Node& from, const Edge& edge, double factor, double offset, int first_line, std::set<Node>& on_path);

  // The component a coupling port names: an element of the carrying system,
  // or "sub.comp" through nested systems.
  std::optional<std::size_t> find_component(std::size_t system_index, const std::string& name) const;

  void resolve_couplings();

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

}  // namespace ssd
}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_SSP_SSD_READING_H
