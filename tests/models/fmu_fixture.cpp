// tests/models/fmu_fixture.cpp
#include "fmu_fixture.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <pugixml.hpp>
#include <sstream>
#include <stdexcept>

namespace lsdae::test {

std::vector<CatalogEntry> read_catalog() {
  std::ifstream in(LSDAE_FMU_CATALOG);
  if (!in) throw std::runtime_error(std::string("cannot read the FMU catalog ") + LSDAE_FMU_CATALOG);
  std::vector<CatalogEntry> entries;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    std::vector<std::string> fields;
    std::stringstream ss(line);
    std::string field;
    while (std::getline(ss, field, '\t')) fields.push_back(field);
    fields.resize(6);
    entries.push_back({fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]});
  }
  return entries;
}

bool CatalogEntry::pending_on(const std::string& feature) const {
  std::stringstream ss(pending);
  std::string item;
  while (std::getline(ss, item, ','))
    if (item == feature) return true;
  return false;
}

std::map<std::string, std::string> read_model_config(const std::string& stage_dir) {
  const std::string path = stage_dir + "/resources/lsdae_model.cfg";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::map<std::string, std::string> out;
  std::string line;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (line.empty() || line[0] == '#' || eq == std::string::npos) continue;
    out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

namespace {

// Line numbers of element offsets: a sorted table of newline positions per
// document, so that a 10 MB manifest does not cost a scan per element.
class LineTable {
 public:
  explicit LineTable(const std::string& text) {
    for (std::size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') newlines_.push_back(i);
  }
  int line_of(const pugi::xml_node& node) const {
    const auto offset = static_cast<std::size_t>(node.offset_debug());
    return 1 + static_cast<int>(std::lower_bound(newlines_.begin(), newlines_.end(), offset) - newlines_.begin());
  }

 private:
  std::vector<std::size_t> newlines_;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::vector<fmi3ValueReference> parse_vrs(const char* text, const std::string& where) {
  std::vector<fmi3ValueReference> out;
  std::istringstream in(text);
  std::string token;
  while (in >> token) {
    char* end = nullptr;
    const unsigned long v = std::strtoul(token.c_str(), &end, 10);
    if (*end != '\0') throw std::runtime_error(where + ": \"" + token + "\" is not a value reference");
    out.push_back(static_cast<fmi3ValueReference>(v));
  }
  return out;
}

std::vector<std::string> parse_words(const char* text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

XmlUnknown parse_unknown(const pugi::xml_node& node, const LineTable& lines, const std::string& file) {
  XmlUnknown u;
  u.line = lines.line_of(node);
  const std::string where = file + ":" + std::to_string(u.line);
  if (!node.attribute("valueReference")) throw std::runtime_error(where + ": <" + std::string(node.name()) + "> has no valueReference");
  u.vr = node.attribute("valueReference").as_uint();
  if (node.attribute("dependencies")) {
    u.has_dependencies = true;
    u.dependencies = parse_vrs(node.attribute("dependencies").value(), where);
  }
  if (node.attribute("dependenciesKind")) u.kinds = parse_words(node.attribute("dependenciesKind").value());
  if (node.attribute("index")) u.index = node.attribute("index").as_int();
  return u;
}

}  // namespace

std::vector<fmi3ValueReference> ParsedFmu::derivatives() const {
  std::vector<fmi3ValueReference> out;
  const auto& list = shape.empty() ? core_derivatives : (dae_derivatives.empty() ? core_derivatives : dae_derivatives);
  for (const auto& u : list) out.push_back(u.vr);
  return out;
}

std::vector<fmi3ValueReference> ParsedFmu::states() const {
  std::vector<fmi3ValueReference> out;
  for (fmi3ValueReference d : derivatives()) out.push_back(*var(d).derivative);
  return out;
}

ParsedFmu parse_fmu(const std::string& stage_dir) {
  ParsedFmu p;
  const std::string md_path = stage_dir + "/modelDescription.xml";
  const std::string md_text = read_text(md_path);
  pugi::xml_document doc;
  auto result = doc.load_buffer(md_text.data(), md_text.size());
  if (!result) throw std::runtime_error(md_path + ": " + result.description());
  const LineTable md_lines(md_text);
  auto root = doc.child("fmiModelDescription");
  if (!root) throw std::runtime_error(md_path + ": no <fmiModelDescription>");
  p.token = root.attribute("instantiationToken").value();
  auto me = root.child("ModelExchange");
  p.model_identifier = me.attribute("modelIdentifier").value();
  p.provides_directional = me.attribute("providesDirectionalDerivatives").as_bool();
  for (auto node : root.child("ModelVariables").children()) {
    XmlVariable v;
    v.type = node.name();
    v.name = node.attribute("name").value();
    v.vr = node.attribute("valueReference").as_uint();
    v.causality = node.attribute("causality").as_string("local");
    v.variability = node.attribute("variability").as_string("continuous");
    v.initial = node.attribute("initial").value();
    if (node.attribute("derivative")) v.derivative = node.attribute("derivative").as_uint();
    if (node.attribute("clocks")) v.clocks = parse_vrs(node.attribute("clocks").value(), md_path);
    if (node.attribute("previous")) v.previous = node.attribute("previous").as_uint();
    v.interval_variability = node.attribute("intervalVariability").value();
    if (node.attribute("intervalDecimal")) v.interval_decimal = node.attribute("intervalDecimal").as_double();
    if (node.attribute("shiftDecimal")) v.shift_decimal = node.attribute("shiftDecimal").as_double();
    if (v.type == "Clock") p.clocks.push_back(v.vr);
    v.line = md_lines.line_of(node);
    p.by_vr[v.vr] = p.variables.size();
    p.by_name[v.name] = v.vr;
    p.variables.push_back(v);
  }
  auto ms = root.child("ModelStructure");
  for (auto node : ms.children()) {
    const std::string tag = node.name();
    XmlUnknown u = parse_unknown(node, md_lines, md_path);
    if (tag == "Output") p.core_outputs.push_back(u);
    else if (tag == "ContinuousStateDerivative") p.core_derivatives.push_back(u);
    else if (tag == "EventIndicator") p.core_event_indicators.push_back(u);
    else if (tag == "InitialUnknown") p.core_initial_unknowns.push_back(u);
    else if (tag == "ClockedState") p.core_clocked_states.push_back(u);
  }

  const std::string mf_path = stage_dir + "/extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml";
  std::ifstream probe(mf_path);
  if (!probe) return p;
  const std::string mf_text = read_text(mf_path);
  pugi::xml_document mdoc;
  result = mdoc.load_buffer(mf_text.data(), mf_text.size());
  if (!result) throw std::runtime_error(mf_path + ": " + result.description());
  const LineTable mf_lines(mf_text);
  auto mroot = mdoc.document_element();
  const std::string root_name = mroot.name();
  p.shape = root_name == "fmiDAEManifest" ? "B" : "A";
  for (auto node : mroot.children()) {
    const std::string tag = node.name();
    if (tag == "EnableDAE" || tag == "EnableDAEParameter") p.dae_switch = node.attribute("valueReference").as_uint();
    else if (tag == "AlgebraicVariables")
      for (auto a : node.children("AlgebraicVariable")) p.algebraic.push_back(a.attribute("valueReference").as_uint());
    else if (tag == "ModelStructure")
      for (auto u : node.children()) {
        const std::string utag = u.name();
        if (utag == "Output") p.dae_outputs.push_back(parse_unknown(u, mf_lines, mf_path));
        else if (utag == "ContinuousStateDerivative") p.dae_derivatives.push_back(parse_unknown(u, mf_lines, mf_path));
        else if (utag == "EventIndicator") p.dae_event_indicators.push_back(parse_unknown(u, mf_lines, mf_path));
        else if (utag == "Invariant") p.invariants.push_back(parse_unknown(u, mf_lines, mf_path));
        else if (utag == "Residual") {
          std::vector<XmlUnknown> group;
          if (p.shape == "B") group.push_back(parse_unknown(u, mf_lines, mf_path));
          else
            for (auto f : u.children("Formulation")) group.push_back(parse_unknown(f, mf_lines, mf_path));
          p.residual_groups.push_back(group);
        }
      }
  }
  for (const auto& g : p.residual_groups)
    for (const auto& f : g)
      for (auto d : f.dependencies)
        if (p.by_vr.count(d) && p.var(d).derivative) p.fully_implicit = true;
  if (!p.fully_implicit && p.dae_derivatives.empty() && !p.core_derivatives.empty() &&
      p.residual_groups.size() == p.core_derivatives.size() + p.algebraic.size())
    p.fully_implicit = p.state_stands_for_derivative = true;
  return p;
}

Fmi3Functions load_binary(const std::string& stage_dir, const std::string& identifier) {
  Fmi3Functions f;
  const std::string path = stage_dir + "/binaries/x86_64-linux/" + identifier + ".so";
  f.handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (f.handle == nullptr) throw std::runtime_error("dlopen " + path + ": " + dlerror());
  auto resolve = [&](auto& slot, const char* symbol) {
    void* s = dlsym(f.handle, symbol);
    if (s == nullptr) throw std::runtime_error(path + ": missing symbol " + symbol);
    slot = reinterpret_cast<std::remove_reference_t<decltype(slot)>>(s);
  };
  resolve(f.instantiate, "fmi3InstantiateModelExchange");
  resolve(f.free_instance, "fmi3FreeInstance");
  resolve(f.enter_configuration, "fmi3EnterConfigurationMode");
  resolve(f.exit_configuration, "fmi3ExitConfigurationMode");
  resolve(f.enter_initialization, "fmi3EnterInitializationMode");
  resolve(f.exit_initialization, "fmi3ExitInitializationMode");
  resolve(f.enter_continuous_time, "fmi3EnterContinuousTimeMode");
  resolve(f.enter_event, "fmi3EnterEventMode");
  resolve(f.update_discrete_states, "fmi3UpdateDiscreteStates");
  resolve(f.set_time, "fmi3SetTime");
  resolve(f.get_float64, "fmi3GetFloat64");
  resolve(f.set_float64, "fmi3SetFloat64");
  resolve(f.get_fmu_state, "fmi3GetFMUState");
  resolve(f.set_fmu_state, "fmi3SetFMUState");
  resolve(f.free_fmu_state, "fmi3FreeFMUState");
  resolve(f.serialized_fmu_state_size, "fmi3SerializedFMUStateSize");
  resolve(f.serialize_fmu_state, "fmi3SerializeFMUState");
  resolve(f.deserialize_fmu_state, "fmi3DeserializeFMUState");
  resolve(f.set_boolean, "fmi3SetBoolean");
  resolve(f.get_boolean, "fmi3GetBoolean");
  resolve(f.set_states, "fmi3SetContinuousStates");
  resolve(f.get_states, "fmi3GetContinuousStates");
  resolve(f.get_derivatives, "fmi3GetContinuousStateDerivatives");
  resolve(f.get_event_indicators, "fmi3GetEventIndicators");
  resolve(f.get_directional_derivative, "fmi3GetDirectionalDerivative");
  resolve(f.terminate, "fmi3Terminate");
  resolve(f.get_version, "fmi3GetVersion");
  resolve(f.set_debug_logging, "fmi3SetDebugLogging");
  resolve(f.get_int32, "fmi3GetInt32");
  resolve(f.get_clock, "fmi3GetClock");
  resolve(f.set_clock, "fmi3SetClock");
  resolve(f.get_interval_decimal, "fmi3GetIntervalDecimal");
  resolve(f.get_interval_fraction, "fmi3GetIntervalFraction");
  resolve(f.get_shift_decimal, "fmi3GetShiftDecimal");
  resolve(f.get_shift_fraction, "fmi3GetShiftFraction");
  resolve(f.set_interval_decimal, "fmi3SetIntervalDecimal");
  resolve(f.set_interval_fraction, "fmi3SetIntervalFraction");
  resolve(f.set_shift_decimal, "fmi3SetShiftDecimal");
  resolve(f.set_shift_fraction, "fmi3SetShiftFraction");
  return f;
}

void unload_binary(Fmi3Functions& f) {
  if (f.handle != nullptr) dlclose(f.handle);
  f.handle = nullptr;
}

void LogSink::callback(fmi3InstanceEnvironment env, fmi3Status status, fmi3String category, fmi3String message) {
  auto* sink = static_cast<LogSink*>(env);
  sink->messages.push_back(std::to_string(static_cast<int>(status)) + " [" + (category ? category : "") + "] " +
                           (message ? message : ""));
}

ReferenceTable read_reference(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read reference " + path);
  ReferenceTable t;
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error(path + ": empty");
  // Column names may contain commas only inside [] (they do not); split on ','.
  std::stringstream header(line);
  std::string name;
  while (std::getline(header, name, ',')) t.columns.push_back(name);
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
    std::vector<double> row;
    std::stringstream ss(line);
    std::string cell;
    while (std::getline(ss, cell, ',')) row.push_back(std::strtod(cell.c_str(), nullptr));
    if (row.size() != t.columns.size())
      throw std::runtime_error(path + ":" + std::to_string(line_number) + ": " + std::to_string(row.size()) +
                               " values for " + std::to_string(t.columns.size()) + " columns");
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace lsdae::test
