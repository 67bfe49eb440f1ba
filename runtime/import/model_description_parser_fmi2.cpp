// runtime/import/model_description_parser_fmi2.cpp -- FMI 2.0
// modelDescription.xml (FMI 2.0.x section 2.2) into the one
// lsdae::ModelDescription; see model_description_parser.h for the contract.
//
// The mapping, so that nothing above import/ knows it read FMI 2.0:
//   fmiModelDescription guid          -> instantiation_token
//   numberOfEventIndicators           -> number_of_event_indicators
//   maxNumberOfConstraints (Najafi)   -> max_number_of_constraints
//   <ModelExchange> flags             -> ModelExchange (providesDirectionalDerivative
//                                        -> provides_directional_derivatives,
//                                        canGetAndSetFMUstate, canSerializeFMUstate,
//                                        completedIntegratorStepNotNeeded -> !needs_completed_integrator_step,
//                                        providesConstraints false|true|withJacobian,
//                                        providesProjection, providesProjectionStep)
//   <SimpleType name><Real|Integer|Boolean|String|Enumeration>
//                                     -> TypeDefinition (Float64, Int32, Boolean, String, Enumeration)
//   <ScalarVariable><Real|...>        -> Variable of the same types; variability defaults to
//                                        continuous for Real and discrete otherwise (FMI 2.0 says
//                                        "continuous", which only Real may be)
//   derivative="k" (1-based index into ModelVariables)
//                                     -> Variable::derivative, the value reference of variable k
//   <Outputs|Derivatives|InitialUnknowns><Unknown index dependencies dependenciesKind>
//                                     -> ModelStructure outputs / continuous_state_derivatives /
//                                        initial_unknowns, indices turned into value references
// An index that points at no variable is an error diagnostic with file:line
// (the reference is dropped); so is a derivative that points nowhere or at a
// non-Real variable. The `dependencies` of <Derivatives> that point nowhere
// are errors (lsdae builds its Jacobian pattern from them); of the other
// lists conformance errors. Several variables may share a value reference
// (FMI 2.0 aliases); the validator accepts that when they have the same type.
#include <string>
#include <vector>

#include "import/model_description_parser.h"
#include "lsdae/error.h"

namespace lsdae::import {

namespace {

std::optional<VariableType> fmi2_type(std::string_view element) {
  if (element == "Real") return VariableType::float64;
  if (element == "Integer") return VariableType::int32;
  if (element == "Boolean") return VariableType::boolean;
  if (element == "String") return VariableType::string;
  if (element == "Enumeration") return VariableType::enumeration;
  return std::nullopt;
}

void parse_fmi2_model_exchange(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md, Diagnostics& d) {
  AttributeReader a(doc, node, d);
  ModelExchange me;
  me.line = a.line();
  me.model_identifier = a.required_text("modelIdentifier");
  me.needs_execution_tool = a.boolean("needsExecutionTool", false);
  me.needs_completed_integrator_step = !a.boolean("completedIntegratorStepNotNeeded", false);
  me.can_be_instantiated_only_once_per_process = a.boolean("canBeInstantiatedOnlyOncePerProcess", false);
  me.can_not_use_memory_management_functions = a.boolean("canNotUseMemoryManagementFunctions", false);
  me.can_get_and_set_fmu_state = a.boolean("canGetAndSetFMUstate", false);
  me.can_serialize_fmu_state = a.boolean("canSerializeFMUstate", false);
  me.provides_directional_derivatives = a.boolean("providesDirectionalDerivative", false);
  if (auto c = a.text("providesConstraints")) {
    if (*c == "true") me.provides_constraints = ModelExchange::Constraints::values;
    else if (*c == "withJacobian") me.provides_constraints = ModelExchange::Constraints::with_jacobian;
    else if (*c != "false")
      a.error("<ModelExchange> providesConstraints=\"" + *c + "\" is not a valid value",
              "use false, true or withJacobian");
  }
  me.provides_projection = a.boolean("providesProjection", false);
  me.provides_projection_step = a.boolean("providesProjectionStep", false);
  md.model_exchange = std::move(me);
}

void parse_fmi2_types(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md, Diagnostics& d) {
  for (const auto& simple : element_children(node)) {
    AttributeReader a(doc, simple, d);
    if (local_name(simple.name()) != "SimpleType") {
      a.warning("unknown element <" + a.element() + "> in <TypeDefinitions> is ignored");
      continue;
    }
    TypeDefinition def;
    def.line = a.line();
    def.name = a.required_text("name");
    bool typed = false;
    for (const auto& child : element_children(simple)) {
      auto type = fmi2_type(local_name(child.name()));
      if (!type) continue;
      typed = true;
      AttributeReader t(doc, child, d);
      def.type = *type;
      def.unit = t.text("unit").value_or("");
      if (*type == VariableType::float64) {
        def.nominal = t.real("nominal");
        def.min = t.real("min");
        def.max = t.real("max");
      } else if (*type == VariableType::int32 || *type == VariableType::enumeration) {
        if (auto x = t.int64("min")) def.min = static_cast<double>(*x);
        if (auto x = t.int64("max")) def.max = static_cast<double>(*x);
      }
      if (*type == VariableType::enumeration)
        for (const auto& item : element_children(child)) {
          if (local_name(item.name()) != "Item") continue;
          AttributeReader ia(doc, item, d);
          std::string name = ia.required_text("name");
          auto value = ia.int64("value");
          if (!value) ia.error("<Item name=\"" + name + "\"> lacks a valid value", "add value=\"<integer>\"");
          def.items.emplace_back(name, value.value_or(0));
        }
      break;
    }
    if (!typed) {
      a.error("<SimpleType name=\"" + def.name + "\"> has no <Real>, <Integer>, <Boolean>, <String> or <Enumeration>",
              "add the element that gives its type");
      continue;
    }
    md.types.push_back(std::move(def));
  }
}

// The derivative index of each variable (1-based; 0 none), resolved after all are read.
struct PendingDerivative {
  std::size_t variable;
  std::uint32_t index;
  int line;
};

void parse_scalar_variable(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md,
                           std::vector<PendingDerivative>& derivatives, Diagnostics& d) {
  AttributeReader a(doc, node, d);
  Variable v;
  v.line = a.line();
  v.name = a.required_text("name");
  v.value_reference = a.uint32("valueReference", true).value_or(0);
  v.description = a.text("description").value_or("");
  v.causality = read_causality(a).value_or(Causality::local);
  if (v.causality == Causality::structural_parameter)
    a.error("variable \"" + v.name + "\": causality=\"structuralParameter\" does not exist in FMI 2.0",
            "use parameter");
  auto variability = read_variability(a);
  v.initial = read_initial(a);
  v.can_handle_multiple_set_per_time_instant = a.boolean("canHandleMultipleSetPerTimeInstant", true);
  pugi::xml_node typed;
  for (const auto& child : element_children(node)) {
    std::string_view element = local_name(child.name());
    if (fmi2_type(element)) {
      if (typed) {
        AttributeReader(doc, child, d)
            .error("variable \"" + v.name + "\" has more than one type element", "keep exactly one");
        continue;
      }
      typed = child;
    } else if (element != "Annotations") {
      AttributeReader(doc, child, d)
          .warning("unknown element <" + std::string(element) + "> in variable \"" + v.name + "\" is ignored");
    }
  }
  if (!typed) {
    a.error("<ScalarVariable name=\"" + v.name + "\"> has no <Real>, <Integer>, <Boolean>, <String> or <Enumeration>",
            "add the element that gives its type");
    return;
  }
  AttributeReader t(doc, typed, d);
  v.type = *fmi2_type(local_name(typed.name()));
  v.variability = variability.value_or(v.type == VariableType::float64 ? Variability::continuous
                                                                       : Variability::discrete);
  v.declared_type = t.text("declaredType").value_or("");
  v.start_text = t.text("start");
  switch (v.type) {
    case VariableType::float64:
      if (auto k = t.uint32("derivative")) derivatives.push_back({md.variables.size(), *k, t.line()});
      v.reinit = t.boolean("reinit", false);
      v.nominal = t.real("nominal");
      v.min = t.real("min");
      v.max = t.real("max");
      v.unit = t.text("unit").value_or("");
      if (v.start_text) v.start = t.real("start");
      break;
    case VariableType::int32:
    case VariableType::enumeration:
      if (auto x = t.int64("min")) v.min = static_cast<double>(*x);
      if (auto x = t.int64("max")) v.max = static_cast<double>(*x);
      if (v.start_text)
        if (auto x = t.int64("start")) v.start = static_cast<double>(*x);
      break;
    case VariableType::boolean:
      if (v.start_text) v.start = t.boolean("start", false) ? 1.0 : 0.0;
      break;
    default:
      break;
  }
  if (!v.declared_type.empty())
    for (const auto& def : md.types) {
      if (def.name != v.declared_type) continue;
      if (v.unit.empty()) v.unit = def.unit;
      if (!v.nominal) v.nominal = def.nominal;
      if (!v.min) v.min = def.min;
      if (!v.max) v.max = def.max;
      break;
    }
  md.variables.push_back(std::move(v));
}

// One <Unknown> of a ModelStructure list, its indices turned into value references.
void read_unknowns(const XmlDocument& doc, const pugi::xml_node& list, const ModelDescription& md, bool essential,
                   std::vector<Unknown>& out, Diagnostics& d) {
  const std::string list_name(local_name(list.name()));
  const std::size_t n = md.variables.size();
  for (const auto& node : element_children(list)) {
    AttributeReader a(doc, node, d);
    if (local_name(node.name()) != "Unknown") {
      a.warning("unknown element <" + a.element() + "> in <" + list_name + "> is ignored");
      continue;
    }
    Unknown u;
    u.line = a.line();
    auto index = a.uint32("index", true);
    if (!index) continue;
    if (*index < 1 || *index > n) {
      a.error("<" + list_name + "><Unknown index=\"" + std::to_string(*index) + "\"> points at no variable (" +
                  "ModelVariables has " + std::to_string(n) + ", counted from 1)",
              "index is the 1-based position of the variable in <ModelVariables>");
      continue;
    }
    const Variable& unknown = md.variables[*index - 1];
    u.value_reference = unknown.value_reference;
    u.variable_index = *index - 1;
    const std::string label = "index=\"" + std::to_string(*index) + "\" (\"" + unknown.name + "\")";
    if (auto deps = a.uint32_list("dependencies")) {
      std::vector<ValueReference> vrs;
      vrs.reserve(deps->size());
      for (std::uint32_t k : *deps) {
        if (k < 1 || k > n) {
          const std::string message = "<" + list_name + "><Unknown " + label + "> depends on index " +
                                      std::to_string(k) + ", which points at no variable";
          if (essential) a.error(message, "dependencies are 1-based positions in <ModelVariables>");
          else d.conformance(doc.file(), u.line, message, "dependencies are 1-based positions in <ModelVariables>");
          continue;
        }
        vrs.push_back(md.variables[k - 1].value_reference);
      }
      u.dependencies = std::move(vrs);
    }
    u.dependencies_kind = read_dependencies_kind(a, [&label] { return label; });
    if (u.dependencies && u.dependencies_kind && u.dependencies_kind->size() != u.dependencies->size())
      u.dependencies_kind.reset();  // mismatched after dropping entries; the rest is still usable
    out.push_back(std::move(u));
  }
}

}  // namespace

ModelDescription parse_model_description_fmi2(const XmlDocument& doc, Diagnostics& d) {
  pugi::xml_node root = doc.root();
  AttributeReader a(doc, root, d);
  ModelDescription md;
  md.fmi_major = FmiVersion::fmi2;
  md.fmi_version = a.text("fmiVersion").value_or("2.0");
  // Both are use="required" in fmi2ModelDescription.xsd; lsdae runs without
  // them (a missing guid is passed as "" and the FMU decides): conformance,
  // as for FMI 3.0's instantiationToken.
  for (const char* required : {"modelName", "guid"})
    if (!a.has(required))
      d.conformance(doc.file(), a.line(), "<fmiModelDescription> lacks the required attribute " + std::string(required),
                    "add it");
  md.model_name = a.text("modelName").value_or("");
  md.instantiation_token = a.text("guid").value_or("");
  md.description = a.text("description").value_or("");
  md.author = a.text("author").value_or("");
  md.version = a.text("version").value_or("");
  md.generation_tool = a.text("generationTool").value_or("");
  md.generation_date_and_time = a.text("generationDateAndTime").value_or("");
  md.variable_naming_convention = a.text("variableNamingConvention").value_or("flat");
  if (auto n = a.uint32("numberOfEventIndicators")) md.number_of_event_indicators = *n;
  else md.number_of_event_indicators = 0;
  if (auto n = a.uint32("maxNumberOfConstraints")) md.max_number_of_constraints = *n;

  std::vector<PendingDerivative> derivatives;
  pugi::xml_node structure;
  for (const auto& child : element_children(root)) {
    std::string_view element = local_name(child.name());
    if (element == "ModelExchange") {
      parse_fmi2_model_exchange(doc, child, md, d);
    } else if (element == "CoSimulation") {
      md.has_co_simulation = true;
    } else if (element == "UnitDefinitions") {
      parse_units(doc, child, md, d);
    } else if (element == "TypeDefinitions") {
      parse_fmi2_types(doc, child, md, d);
    } else if (element == "DefaultExperiment") {
      parse_default_experiment(doc, child, md, d);
    } else if (element == "ModelVariables") {
      for (const auto& var : element_children(child)) {
        if (local_name(var.name()) != "ScalarVariable") {
          d.warning(doc.file(), doc.line_of(var),
                    "unknown element <" + std::string(local_name(var.name())) + "> in <ModelVariables> is ignored");
          continue;
        }
        parse_scalar_variable(doc, var, md, derivatives, d);
      }
    } else if (element == "ModelStructure") {
      structure = child;  // read after the variables: its indices point into them
    } else if (element == "LogCategories" || element == "VendorAnnotations") {
      // not needed for simulation
    } else {
      d.warning(doc.file(), doc.line_of(child),
                "unknown element <" + std::string(element) + "> in <fmiModelDescription> is ignored");
    }
  }
  const std::size_t n = md.variables.size();
  for (const auto& p : derivatives) {
    Variable& v = md.variables[p.variable];
    if (p.index < 1 || p.index > n) {
      d.error(doc.file(), p.line,
              "variable \"" + v.name + "\" has derivative=\"" + std::to_string(p.index) +
                  "\", which points at no variable (ModelVariables has " + std::to_string(n) + ", counted from 1)",
              "derivative is the 1-based position of the state in <ModelVariables>");
      continue;
    }
    const Variable& state = md.variables[p.index - 1];
    if (state.type != VariableType::float64) {
      d.error(doc.file(), p.line,
              "variable \"" + v.name + "\" has derivative=\"" + std::to_string(p.index) + "\", which is \"" +
                  state.name + "\" (" + (state.type == VariableType::int32 ? "Integer" : to_string(state.type)) +
                  ", not Real)",
              "a derivative points at a Real variable");
      continue;
    }
    v.derivative = state.value_reference;
  }
  if (structure) {
    for (const auto& list : element_children(structure)) {
      std::string_view element = local_name(list.name());
      if (element == "Outputs") read_unknowns(doc, list, md, false, md.structure.outputs, d);
      else if (element == "Derivatives") read_unknowns(doc, list, md, true, md.structure.continuous_state_derivatives, d);
      else if (element == "InitialUnknowns") read_unknowns(doc, list, md, false, md.structure.initial_unknowns, d);
      else
        d.warning(doc.file(), doc.line_of(list),
                  "unknown element <" + std::string(element) + "> in <ModelStructure> is ignored");
    }
  }
  md.rebuild_index();
  return md;
}

}  // namespace lsdae::import
