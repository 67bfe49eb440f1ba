// runtime/import/ssp/ssd_bindings.cpp -- the SSD reader's parameter bindings (ssd_reading.h):
// <ssd:ParameterBindings> of components and systems, inline or from an .ssv file, a value bound
// to a system connector carried to the component connectors the connections reach, through
// their linear transformations.
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "import/archive.h"
#include "import/ssp/parameter_set.h"
#include "import/ssp/ssd_reading.h"
#include "lsdae/error.h"

namespace lsdae::import::ssd {

void Reader::read_bindings(const pugi::xml_node& bindings, std::size_t system_index, const Element* element) {
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

std::optional<std::string> Reader::read_ssv(const AttributeReader& r, const std::filesystem::path& path,
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

void Reader::bind(std::size_t component, const std::string& variable, const std::string& value, const std::string& at) {
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

void Reader::bind_in_system(const AttributeReader& r, std::size_t system_index, const std::string& full_name,
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

void Reader::propagate(const Node& node, const std::string& full_name, const std::string& value, double factor,
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

}  // namespace lsdae::import::ssd
