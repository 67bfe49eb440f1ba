// models/kit/xml_writer_fmi2.cpp -- modelDescription.xml for FMI 2.0 Model
// Exchange (FMI 2.0.4 specification, section 2.2 "FMI Description Schema"
// and 3.3 for <ModelExchange>), from the same Description as the 3.0 file.
//
// What differs from 3.0, and how the kit writes it:
//   * <ScalarVariable name valueReference causality variability initial>
//     with one child <Real>/<Boolean> carrying start, unit, nominal and
//     `derivative` -- the 1-based index (position in <ModelVariables>) of the
//     state, not its value reference.
//   * <ModelStructure>: <Outputs> (declared output order), <Derivatives> (the
//     state order: it defines the state vector), <InitialUnknowns> (sorted by
//     index, as 2.0 requires), each <Unknown index=".." dependencies=".."
//     dependenciesKind="..">. Dependencies are indices of knowns: continuous
//     states, inputs, the independent variable; a model dependency on
//     anything else is an error of the model. Unknowns without declared
//     dependencies get no attribute (they depend on every known).
//   * numberOfEventIndicators on <fmiModelDescription>: 2.0 event indicators
//     are no variables (the kit's indicator variables stay as locals).
//   * An alias (Builder::alias) is a second ScalarVariable with its
//     original's value reference; it never carries a start value.
//   * Najafi et al.'s extension: maxNumberOfConstraints on
//     <fmiModelDescription>, providesConstraints / providesProjection /
//     providesProjectionStep on <ModelExchange>, only when the variant
//     exports at least one constraint function (else it is a standard FMU).
#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>
#include <stdexcept>

#include "kit/xml_writer.h"
#include "kit/xml_text.h"

namespace lsdae::kit {

namespace {

using xml::escape;
using xml::number;

const char* fmi2_causality_name(const Variable& v) {
  switch (v.causality) {
    case Causality::parameter: return "parameter";
    case Causality::calculated_parameter: return "calculatedParameter";
    case Causality::input: return "input";
    case Causality::output: return "output";
    case Causality::local: return "local";
    case Causality::independent: return "independent";
    case Causality::structural_parameter: break;
  }
  throw std::invalid_argument("FMI 2.0: variable \"" + v.name +
                              "\" is a structural parameter, which FMI 2.0 does not have");
}

}  // namespace

std::string model_description_xml_fmi2(const Description& d, const std::string& model_identifier) {
  if (d.fmi_version != 2) throw std::logic_error("model_description_xml_fmi2: not an FMI 2.0 variant");
  const bool reversed = d.config.get_string("variable_order", "declared") == "reversed";

  // The written order and every variable's 1-based index.
  std::vector<ValueRef> order;
  for (const Variable& v : d.variables) order.push_back(v.value_reference);
  if (reversed) std::reverse(order.begin(), order.end());
  std::vector<std::size_t> index_of(d.variables.size(), 0);
  for (std::size_t i = 0; i < order.size(); ++i) index_of[order[i]] = i + 1;

  const std::set<ValueRef> states(d.states.begin(), d.states.end());
  auto written_vr = [&](ValueRef vr) {
    auto alias = d.aliases.find(vr);
    return d.external_vr(alias == d.aliases.end() ? vr : alias->second);
  };
  auto dependency_attributes = [&](ValueRef unknown) -> std::string {
    auto it = d.ode_dependencies.find(unknown);
    if (it == d.ode_dependencies.end()) return "";
    std::string indices, kinds;
    for (const Dependency& dep : it->second) {
      const Variable& k = d.variables[dep.known];
      const bool known = states.count(dep.known) != 0 || k.causality == Causality::input ||
                         k.causality == Causality::independent;
      if (!known)
        throw std::invalid_argument("FMI 2.0: \"" + d.variables[unknown].name + "\" depends on \"" + k.name +
                                    "\", which is no continuous state, input or independent variable (the only "
                                    "knowns of an FMI 2.0 dependency list)");
      indices += (indices.empty() ? "" : " ") + std::to_string(index_of[dep.known]);
      kinds += (kinds.empty() ? "" : " ") + std::string(dependency_kind_name(dep.kind));
    }
    return " dependencies=\"" + indices + "\" dependenciesKind=\"" + kinds + "\"";
  };

  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<fmiModelDescription\n  fmiVersion=\"2.0\"\n  modelName=\"" << escape(d.model_name) << "\"\n"
      << "  guid=\"" << d.instantiation_token << "\"\n"
      << "  description=\"" << escape(d.description) << "\"\n"
      << "  generationTool=\"lsdae FMU kit\"\n  variableNamingConvention=\"structured\"\n"
      << "  numberOfEventIndicators=\"" << d.event_indicators.size() << "\"";
  if (d.exports_constraint_functions()) out << "\n  maxNumberOfConstraints=\"" << d.max_constraints << "\"";
  out << ">\n";
  out << "  <ModelExchange modelIdentifier=\"" << escape(model_identifier) << "\""
      << " needsExecutionTool=\"false\" completedIntegratorStepNotNeeded=\"true\""
      << " canBeInstantiatedOnlyOncePerProcess=\"false\" canNotUseMemoryManagementFunctions=\"true\""
      << " canGetAndSetFMUstate=\"" << (d.can_get_and_set_state() ? "true" : "false") << "\""
      << " canSerializeFMUstate=\"" << (d.can_serialize_state() ? "true" : "false") << "\""
      << " providesDirectionalDerivative=\"" << (d.provides_partials ? "true" : "false") << "\"";
  if (d.exports_constraint_functions()) {
    const char* constraints = d.provides_constraints == Description::Constraints::with_jacobian ? "withJacobian"
                              : d.provides_constraints == Description::Constraints::values     ? "true"
                                                                                               : "false";
    out << " providesConstraints=\"" << constraints << "\" providesProjection=\""
        << (d.provides_projection ? "true" : "false") << "\" providesProjectionStep=\""
        << (d.provides_projection_step ? "true" : "false") << "\"";
  }
  out << "/>\n";

  std::set<std::string> units;
  for (const Variable& v : d.variables)
    if (!v.unit.empty() && v.type == VarType::float64) units.insert(v.unit);
  if (!units.empty()) {
    out << "  <UnitDefinitions>\n";
    for (const std::string& u : units) out << "    <Unit name=\"" << escape(u) << "\"/>\n";
    out << "  </UnitDefinitions>\n";
  }
  out << "  <LogCategories>\n"
      << "    <Category name=\"logEvents\" description=\"Event handling and mode changes\"/>\n"
      << "    <Category name=\"logStatusWarning\" description=\"Calls that return fmi2Warning\"/>\n"
      << "    <Category name=\"logStatusError\" description=\"Calls that return fmi2Error\"/>\n";
  for (const auto& [name, description] : d.log_categories)
    out << "    <Category name=\"" << escape(name) << "\" description=\"" << escape(description) << "\"/>\n";
  out << "  </LogCategories>\n";
  out << "  <DefaultExperiment startTime=\"" << number(d.experiment.start_time) << "\" stopTime=\""
      << number(d.experiment.stop_time) << "\" tolerance=\"" << number(d.experiment.tolerance) << "\" stepSize=\""
      << number(d.experiment.step_size) << "\"/>\n";

  out << "  <ModelVariables>\n";
  for (ValueRef vr : order) {
    const Variable& v = d.variables[vr];
    out << "    <!-- index " << index_of[vr] << " -->\n";
    out << "    <ScalarVariable name=\"" << escape(v.name) << "\" valueReference=\"" << written_vr(vr) << '"';
    if (!v.description.empty()) out << " description=\"" << escape(v.description) << '"';
    const Variability variability = v.type == VarType::boolean && v.variability == Variability::continuous
                                        ? Variability::discrete
                                        : v.variability;
    out << " causality=\"" << fmi2_causality_name(v) << "\" variability=\"" << variability_name(variability) << '"';
    if (v.initial == Initial::exact) out << " initial=\"exact\"";
    else if (v.initial == Initial::approx) out << " initial=\"approx\"";
    else if (v.initial == Initial::calculated) out << " initial=\"calculated\"";
    out << ">\n      <" << (v.type == VarType::boolean ? "Boolean" : "Real");
    if (v.type == VarType::float64) {
      if (!v.unit.empty()) out << " unit=\"" << escape(v.unit) << '"';
      if (v.nominal) out << " nominal=\"" << number(*v.nominal) << '"';
      if (v.derivative_of != kNoValueRef) out << " derivative=\"" << index_of[v.derivative_of] << '"';
    }
    if (v.start && v.initial != Initial::calculated) {
      if (v.type == VarType::boolean) out << " start=\"" << (*v.start != 0.0 ? "true" : "false") << '"';
      else out << " start=\"" << number(*v.start) << '"';
    }
    out << "/>\n    </ScalarVariable>\n";
  }
  out << "  </ModelVariables>\n";

  out << "  <ModelStructure>\n";
  if (!d.outputs.empty()) {
    out << "    <Outputs>\n";
    for (ValueRef vr : d.outputs)
      out << "      <Unknown index=\"" << index_of[vr] << '"' << dependency_attributes(vr) << "/>\n";
    out << "    </Outputs>\n";
  }
  if (!d.derivatives.empty()) {
    out << "    <Derivatives>\n";
    for (ValueRef vr : d.derivatives)
      out << "      <Unknown index=\"" << index_of[vr] << '"' << dependency_attributes(vr) << "/>\n";
    out << "    </Derivatives>\n";
  }
  // Initial unknowns (2.0 section 2.2.8): outputs with initial approx or
  // calculated, calculated parameters, states and derivatives with initial
  // approx or calculated; ordered by index.
  std::vector<std::size_t> initial_unknowns;
  for (const Variable& v : d.variables) {
    const bool approx_or_calculated = v.initial == Initial::approx || v.initial == Initial::calculated;
    const bool listed = (v.causality == Causality::output && approx_or_calculated) ||
                        v.causality == Causality::calculated_parameter ||
                        ((states.count(v.value_reference) != 0 || v.derivative_of != kNoValueRef) &&
                         approx_or_calculated);
    if (listed) initial_unknowns.push_back(index_of[v.value_reference]);
  }
  std::sort(initial_unknowns.begin(), initial_unknowns.end());
  if (!initial_unknowns.empty()) {
    out << "    <InitialUnknowns>\n";
    for (std::size_t index : initial_unknowns) out << "      <Unknown index=\"" << index << "\"/>\n";
    out << "    </InitialUnknowns>\n";
  }
  out << "  </ModelStructure>\n</fmiModelDescription>\n";
  return out.str();
}

}  // namespace lsdae::kit
