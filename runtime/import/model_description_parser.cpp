// runtime/import/model_description_parser.cpp -- see model_description_parser.h.
#include "import/model_description_parser.h"

#include <array>
#include <functional>
#include <utility>

#include "lsdae/error.h"

namespace lsdae::import {

namespace {

struct TypeName {
  const char* element;
  VariableType type;
};
constexpr std::array<TypeName, 15> kTypes{{
    {"Float32", VariableType::float32}, {"Float64", VariableType::float64}, {"Int8", VariableType::int8},
    {"UInt8", VariableType::uint8},     {"Int16", VariableType::int16},     {"UInt16", VariableType::uint16},
    {"Int32", VariableType::int32},     {"UInt32", VariableType::uint32},   {"Int64", VariableType::int64},
    {"UInt64", VariableType::uint64},   {"Boolean", VariableType::boolean}, {"String", VariableType::string},
    {"Binary", VariableType::binary},   {"Enumeration", VariableType::enumeration},
    {"Clock", VariableType::clock},
}};

std::optional<VariableType> variable_type(std::string_view element) {
  for (const auto& t : kTypes)
    if (element == t.element) return t.type;
  return std::nullopt;
}

template <typename Enum, std::size_t N>
std::optional<Enum> lookup(const std::array<std::pair<const char*, Enum>, N>& table, std::string_view text) {
  for (const auto& [name, value] : table)
    if (text == name) return value;
  return std::nullopt;
}

constexpr std::array<std::pair<const char*, Causality>, 7> kCausalities{{
    {"parameter", Causality::parameter},
    {"calculatedParameter", Causality::calculated_parameter},
    {"input", Causality::input},
    {"output", Causality::output},
    {"local", Causality::local},
    {"independent", Causality::independent},
    {"structuralParameter", Causality::structural_parameter},
}};
constexpr std::array<std::pair<const char*, Variability>, 5> kVariabilities{{
    {"constant", Variability::constant},
    {"fixed", Variability::fixed},
    {"tunable", Variability::tunable},
    {"discrete", Variability::discrete},
    {"continuous", Variability::continuous},
}};
constexpr std::array<std::pair<const char*, Initial>, 3> kInitials{{
    {"exact", Initial::exact}, {"approx", Initial::approx}, {"calculated", Initial::calculated}}};
constexpr std::array<std::pair<const char*, DependencyKind>, 6> kDependencyKinds{{
    {"independent", DependencyKind::independent},
    {"constant", DependencyKind::constant},
    {"fixed", DependencyKind::fixed},
    {"tunable", DependencyKind::tunable},
    {"discrete", DependencyKind::discrete},
    {"dependent", DependencyKind::dependent},
}};

// An integer min/max as a double: UInt64 bounds may exceed INT64_MAX, so they
// are read unsigned (like UInt64 start values).
std::optional<double> integer_bound(const AttributeReader& attrs, std::string_view name, VariableType type) {
  if (type == VariableType::uint64) {
    if (auto x = attrs.uint64(name)) return static_cast<double>(*x);
  } else if (auto x = attrs.int64(name)) {
    return static_cast<double>(*x);
  }
  return std::nullopt;
}

template <typename Enum, std::size_t N>
std::optional<Enum> read_enum(const AttributeReader& attrs, std::string_view name,
                              const std::array<std::pair<const char*, Enum>, N>& table) {
  auto text = attrs.view(name);
  if (!text) return std::nullopt;
  auto value = lookup(table, *text);
  if (!value) {
    std::string allowed;
    for (const auto& entry : table) allowed += (allowed.empty() ? "" : ", ") + std::string(entry.first);
    attrs.error("<" + attrs.element() + "> " + std::string(name) + "=\"" + std::string(*text) + "\" is not a valid value",
                "use one of " + allowed);
  }
  return value;
}

}  // namespace

std::optional<Causality> read_causality(const AttributeReader& attrs) { return read_enum(attrs, "causality", kCausalities); }
std::optional<Variability> read_variability(const AttributeReader& attrs) {
  return read_enum(attrs, "variability", kVariabilities);
}
std::optional<Initial> read_initial(const AttributeReader& attrs) { return read_enum(attrs, "initial", kInitials); }

std::optional<std::vector<DependencyKind>> read_dependencies_kind(const AttributeReader& a,
                                                                  const std::function<std::string()>& label) {
  auto count = a.token_count("dependenciesKind");
  if (!count) return std::nullopt;
  // In place, one enum per token: no vector of 10^7 strings for a list of 10^7 kinds.
  std::vector<DependencyKind> parsed;
  parsed.reserve(*count);
  a.tokens("dependenciesKind", [&](std::string_view token) {
    auto kind = lookup(kDependencyKinds, token);
    if (!kind) {
      a.error("<" + a.element() + " " + label() + "> dependenciesKind has the unknown value \"" + std::string(token) +
                  "\"",
              "use independent, constant, fixed, tunable, discrete or dependent");
      parsed.push_back(DependencyKind::dependent);
    } else {
      parsed.push_back(*kind);
    }
  });
  return parsed;
}

namespace {

void parse_model_exchange(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md, Diagnostics& d) {
  AttributeReader a(doc, node, d);
  ModelExchange me;
  me.line = a.line();
  me.model_identifier = a.required_text("modelIdentifier");
  me.needs_execution_tool = a.boolean("needsExecutionTool", false);
  me.can_be_instantiated_only_once_per_process = a.boolean("canBeInstantiatedOnlyOncePerProcess", false);
  me.can_get_and_set_fmu_state = a.boolean("canGetAndSetFMUState", false);
  me.can_serialize_fmu_state = a.boolean("canSerializeFMUState", false);
  me.provides_directional_derivatives = a.boolean("providesDirectionalDerivatives", false);
  me.provides_adjoint_derivatives = a.boolean("providesAdjointDerivatives", false);
  me.provides_per_element_dependencies = a.boolean("providesPerElementDependencies", false);
  me.needs_completed_integrator_step = a.boolean("needsCompletedIntegratorStep", false);
  me.provides_evaluate_discrete_states = a.boolean("providesEvaluateDiscreteStates", false);
  md.model_exchange = std::move(me);
}

}  // namespace

void parse_default_experiment(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md,
                              Diagnostics& d) {
  AttributeReader e(doc, node, d);
  md.default_experiment.start_time = e.real("startTime");
  md.default_experiment.stop_time = e.real("stopTime");
  md.default_experiment.tolerance = e.real("tolerance");
  md.default_experiment.step_size = e.real("stepSize");
}

void parse_units(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md, Diagnostics& d) {
  for (const auto& unit : element_children(node)) {
    AttributeReader a(doc, unit, d);
    if (local_name(unit.name()) != "Unit") {
      a.warning("unknown element <" + a.element() + "> in <UnitDefinitions> is ignored");
      continue;
    }
    UnitDefinition def;
    def.line = a.line();
    def.name = a.required_text("name");
    for (const auto& child : element_children(unit)) {
      if (local_name(child.name()) != "BaseUnit") continue;
      AttributeReader b(doc, child, d);
      def.factor = b.real("factor").value_or(1.0);
      def.offset = b.real("offset").value_or(0.0);
    }
    md.units.push_back(std::move(def));
  }
}

namespace {

void parse_types(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md, Diagnostics& d) {
  for (const auto& type_node : element_children(node)) {
    AttributeReader a(doc, type_node, d);
    std::string_view element = local_name(type_node.name());
    if (element.size() < 5 || element.substr(element.size() - 4) != "Type") {
      a.warning("unknown element <" + a.element() + "> in <TypeDefinitions> is ignored");
      continue;
    }
    auto type = variable_type(element.substr(0, element.size() - 4));
    if (!type) {
      a.warning("unknown type definition <" + a.element() + "> is ignored");
      continue;
    }
    TypeDefinition def;
    def.line = a.line();
    def.type = *type;
    def.name = a.required_text("name");
    def.unit = a.text("unit").value_or("");
    def.nominal = a.real("nominal");
    if (is_float(*type)) {
      def.min = a.real("min");
      def.max = a.real("max");
    } else if (is_integer(*type) || *type == VariableType::enumeration) {
      def.min = integer_bound(a, "min", *type);
      def.max = integer_bound(a, "max", *type);
    }
    if (*type == VariableType::enumeration) {
      for (const auto& item : element_children(type_node)) {
        if (local_name(item.name()) != "Item") continue;
        AttributeReader ia(doc, item, d);
        std::string name = ia.required_text("name");
        auto value = ia.int64("value");
        if (!value) ia.error("<Item name=\"" + name + "\"> lacks a valid value", "add value=\"<integer>\"");
        def.items.emplace_back(name, value.value_or(0));
      }
    }
    md.types.push_back(std::move(def));
  }
}

// The attributes of a <Clock> (FMI 3.0 2.4.7.5). A missing or unknown
// intervalVariability is left absent: the validator and the simulation name it.
ClockAttributes read_clock_attributes(const AttributeReader& a) {
  static constexpr std::array<std::pair<const char*, ClockKind>, 6> kKinds{{
      {"constant", ClockKind::constant},
      {"fixed", ClockKind::fixed},
      {"tunable", ClockKind::tunable},
      {"changing", ClockKind::changing},
      {"countdown", ClockKind::countdown},
      {"triggered", ClockKind::triggered},
  }};
  ClockAttributes c;
  c.interval_variability_text = a.text("intervalVariability").value_or("");
  for (const auto& [text, kind] : kKinds)
    if (c.interval_variability_text == text) c.interval_variability = kind;
  c.can_be_deactivated = a.boolean("canBeDeactivated", false);
  c.priority = a.uint32("priority");
  c.interval_decimal = a.real("intervalDecimal");
  c.shift_decimal = a.real("shiftDecimal").value_or(0.0);
  c.supports_fraction = a.boolean("supportsFraction", false);
  c.resolution = a.uint64("resolution");
  c.interval_counter = a.uint64("intervalCounter");
  c.shift_counter = a.uint64("shiftCounter").value_or(0);
  return c;
}

void parse_variable(const XmlDocument& doc, const pugi::xml_node& node, VariableType type, ModelDescription& md,
                    Diagnostics& d) {
  AttributeReader a(doc, node, d);
  // Filled where it lies (the list is reserved): a Variable is 500 bytes, and
  // moving 10^5 of them in from a local was a tenth of a large FMU's parse.
  Variable& v = md.variables.emplace_back();
  v.line = a.line();
  v.type = type;
  v.name = a.required_text("name");
  v.value_reference = a.uint32("valueReference", true).value_or(0);
  v.description = a.text("description").value_or("");
  v.causality = read_enum(a, "causality", kCausalities).value_or(Causality::local);
  v.variability = read_enum(a, "variability", kVariabilities)
                      .value_or(is_float(type) ? Variability::continuous : Variability::discrete);
  v.initial = read_enum(a, "initial", kInitials);
  v.declared_type = a.text("declaredType").value_or("");
  v.can_handle_multiple_set_per_time_instant = a.boolean("canHandleMultipleSetPerTimeInstant", true);
  v.intermediate_update = a.boolean("intermediateUpdate", false);
  v.previous = a.uint32("previous");
  if (auto clocks = a.uint32_list("clocks")) v.clocks = *clocks;
  v.start_text = a.text("start");
  if (is_float(type)) {
    v.derivative = a.uint32("derivative");
    v.reinit = a.boolean("reinit", false);
    v.nominal = a.real("nominal");
    v.min = a.real("min");
    v.max = a.real("max");
    v.unit = a.text("unit").value_or("");
    if (v.start_text && v.start_text->find_first_of(" \t\n") == std::string::npos) v.start = a.real("start");
  } else if (is_integer(type) || type == VariableType::enumeration) {
    v.min = integer_bound(a, "min", type);
    v.max = integer_bound(a, "max", type);
    if (v.start_text && v.start_text->find_first_of(" \t\n") == std::string::npos) {
      if (v.type == VariableType::uint64) {
        if (auto x = a.uint64("start")) v.start = static_cast<double>(*x);
      } else if (auto x = a.int64("start")) {
        v.start = static_cast<double>(*x);
      }
    }
  } else if (type == VariableType::clock) {
    v.clock = read_clock_attributes(a);
  } else if (type == VariableType::boolean) {
    if (v.start_text && v.start_text->find_first_of(" \t\n") == std::string::npos)
      v.start = a.boolean("start", false) ? 1.0 : 0.0;
  }
  for (const auto& child : element_children(node)) {
    std::string_view element = local_name(child.name());
    AttributeReader ca(doc, child, d);
    if (element == "Dimension") {
      Dimension dim;
      dim.line = ca.line();
      dim.start = ca.uint64("start");
      dim.value_reference = ca.uint32("valueReference");
      if (!dim.start && !dim.value_reference)
        ca.error("<Dimension> of \"" + v.name + "\" has neither start nor valueReference", "add one of them");
      v.dimensions.push_back(dim);
    } else if (element == "Start") {
      // String/Binary start values: <Start value="..."/>, one per element.
      if (auto value = ca.text("value")) v.start_text = v.start_text ? *v.start_text + " " + *value : *value;
    } else if (element == "Alias" || element == "Annotations" || element == "Item") {
      // display-only aliases and tool annotations do not matter for simulation
    } else {
      ca.warning("unknown element <" + std::string(element) + "> in variable \"" + v.name + "\" is ignored");
    }
  }
  // declaredType supplies unit, nominal, min and max the variable does not set.
  if (!v.declared_type.empty()) {
    for (const auto& def : md.types) {
      if (def.name != v.declared_type) continue;
      if (v.unit.empty()) v.unit = def.unit;
      if (!v.nominal) v.nominal = def.nominal;
      if (!v.min) v.min = def.min;
      if (!v.max) v.max = def.max;
      break;
    }
  }
}

void parse_structure(const XmlDocument& doc, const pugi::xml_node& node, ModelStructure& s, Diagnostics& d) {
  for (const auto& child : element_children(node)) {
    std::string_view element = local_name(child.name());
    if (element == "Output") s.outputs.push_back(read_unknown(doc, child, d));
    else if (element == "ContinuousStateDerivative") s.continuous_state_derivatives.push_back(read_unknown(doc, child, d));
    else if (element == "ClockedState") s.clocked_states.push_back(read_unknown(doc, child, d));
    else if (element == "InitialUnknown") s.initial_unknowns.push_back(read_unknown(doc, child, d));
    else if (element == "EventIndicator") s.event_indicators.push_back(read_unknown(doc, child, d));
    else
      d.warning(doc.file(), doc.line_of(child),
                "unknown element <" + std::string(element) + "> in <ModelStructure> is ignored");
  }
}

}  // namespace

Unknown read_unknown(const XmlDocument& doc, const pugi::xml_node& node, Diagnostics& d) {
  return read_unknown(AttributeReader(doc, node, d));
}

Unknown read_unknown(const AttributeReader& a) {
  Unknown u;
  u.line = a.line();
  u.value_reference = a.uint32("valueReference", true).value_or(0);
  u.dependencies = a.uint32_list("dependencies");
  // The label is made only for a message.
  u.dependencies_kind = read_dependencies_kind(
      a, [vr = u.value_reference] { return "valueReference=\"" + std::to_string(vr) + "\""; });
  return u;
}

namespace {

// Each <Dimension> is a fixed size (start) or the start value of a
// structural parameter (FMI 3.0 §2.4.7.4: an Int/UInt variable with
// causality structuralParameter). Arrays are fixed-size for lsdae: a size
// parameter changed in Configuration Mode is not followed.
void resolve_array_shapes(const XmlDocument& doc, ModelDescription& md, Diagnostics& d) {
  for (auto& v : md.variables) {
    if (v.dimensions.empty()) continue;
    std::vector<std::uint64_t> shape;
    for (const Dimension& dim : v.dimensions) {
      if (dim.start) {
        shape.push_back(*dim.start);
        continue;
      }
      if (!dim.value_reference) break;
      const Variable* size = md.find(*dim.value_reference);
      std::string problem;
      if (size == nullptr)
        problem = "names valueReference " + std::to_string(*dim.value_reference) + ", which no variable has";
      else if (!is_integer(size->type))
        problem = "names \"" + size->name + "\", which is " + to_string(size->type) + ", not an integer type";
      else if (!size->start || *size->start < 0)
        problem = "names \"" + size->name + "\", which has no non-negative start value";
      if (!problem.empty()) {
        d.error(doc.file(), dim.line, "<Dimension> of \"" + v.name + "\" " + problem,
                "give the Dimension a start, or point it at an integer structural parameter with a start");
        break;
      }
      shape.push_back(static_cast<std::uint64_t>(*size->start));
    }
    if (shape.size() == v.dimensions.size()) v.shape = std::move(shape);
  }
}

}  // namespace

ModelDescription parse_model_description(std::string_view xml, Diagnostics& diagnostics) {
  XmlDocument doc(xml, kModelDescriptionFile);
  return parse_model_description(doc, diagnostics);
}

ModelDescription parse_model_description(const XmlDocument& doc, Diagnostics& d) {
  pugi::xml_node root = doc.root();
  if (local_name(root.name()) != "fmiModelDescription")
    throw Error(ErrorKind::xml, doc.file() + ":" + std::to_string(doc.line_of(root)) + ": the root element is <" +
                                    root.name() + ">, expected <fmiModelDescription> → is this an FMU?");
  AttributeReader a(doc, root, d);
  ModelDescription md;
  md.fmi_version = a.text("fmiVersion").value_or("");
  if (md.fmi_version == "2.0" || md.fmi_version.rfind("2.0.", 0) == 0) return parse_model_description_fmi2(doc, d);
  if (md.fmi_version.rfind("3.", 0) != 0) {
    std::string hint = md.fmi_version.rfind("1.", 0) == 0 || md.fmi_version.rfind("2.", 0) == 0
                           ? "lsdae reads FMI 2.0 and FMI 3.0; export the model as FMI 3.0 (or 2.0) Model Exchange"
                           : "set fmiVersion=\"3.0\" (or \"2.0\")";
    throw Error(ErrorKind::xml, doc.file() + ":" + std::to_string(a.line()) + ": fmiVersion=\"" + md.fmi_version +
                                    "\" is not FMI 2.0 or 3.x → " + hint);
  }
  // Both attributes are required by the schema (use="required"), but lsdae
  // runs without them: modelName only labels the FMU, and a missing token is
  // passed to fmi3InstantiateModelExchange as "" (the FMU decides whether to
  // accept it). A conformance error, not a stop (lsdae/diagnostics.h).
  for (const char* required : {"modelName", "instantiationToken"})
    if (!a.has(required))
      d.conformance(doc.file(), a.line(), "<fmiModelDescription> lacks the required attribute " + std::string(required),
                    "add it");
  md.model_name = a.text("modelName").value_or("");
  md.instantiation_token = a.text("instantiationToken").value_or("");
  md.description = a.text("description").value_or("");
  md.author = a.text("author").value_or("");
  md.version = a.text("version").value_or("");
  md.generation_tool = a.text("generationTool").value_or("");
  md.generation_date_and_time = a.text("generationDateAndTime").value_or("");
  md.variable_naming_convention = a.text("variableNamingConvention").value_or("flat");

  for (const auto& child : element_children(root)) {
    std::string_view element = local_name(child.name());
    if (element == "ModelExchange") {
      parse_model_exchange(doc, child, md, d);
    } else if (element == "CoSimulation") {
      md.has_co_simulation = true;
    } else if (element == "ScheduledExecution") {
      md.has_scheduled_execution = true;
    } else if (element == "UnitDefinitions") {
      parse_units(doc, child, md, d);
    } else if (element == "TypeDefinitions") {
      parse_types(doc, child, md, d);
    } else if (element == "DefaultExperiment") {
      parse_default_experiment(doc, child, md, d);
    } else if (element == "ModelVariables") {
      const std::vector<pugi::xml_node> variables = element_children(child);
      md.variables.reserve(md.variables.size() + variables.size());  // no moves of 10^5 Variables while growing
      for (const auto& var : variables) {
        auto type = variable_type(local_name(var.name()));
        if (!type) {
          d.warning(doc.file(), doc.line_of(var),
                    "unknown element <" + std::string(local_name(var.name())) + "> in <ModelVariables> is ignored");
          continue;
        }
        parse_variable(doc, var, *type, md, d);
      }
    } else if (element == "ModelStructure") {
      parse_structure(doc, child, md.structure, d);
    } else if (element == "LogCategories" || element == "Annotations" || element == "BuildConfiguration") {
      // not needed for simulation
    } else {
      d.warning(doc.file(), doc.line_of(child),
                "unknown element <" + std::string(element) + "> in <fmiModelDescription> is ignored");
    }
  }
  md.rebuild_index();
  resolve_array_shapes(doc, md, d);
  return md;
}

}  // namespace lsdae::import
