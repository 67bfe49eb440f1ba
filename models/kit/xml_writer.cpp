// models/kit/xml_writer.cpp
#include "kit/xml_writer.h"
#include "kit/xml_text.h"

#include <algorithm>
#include <charconv>
#include <set>
#include <sstream>

namespace lsdae::kit {

namespace {

using xml::escape;
using xml::number;

const char* causality_name(Causality c) {
  switch (c) {
    case Causality::structural_parameter: return "structuralParameter";
    case Causality::parameter: return "parameter";
    case Causality::calculated_parameter: return "calculatedParameter";
    case Causality::input: return "input";
    case Causality::output: return "output";
    case Causality::local: return "local";
    case Causality::independent: return "independent";
  }
  return "local";
}

const char* initial_name(Initial i) {
  switch (i) {
    case Initial::exact: return "exact";
    case Initial::approx: return "approx";
    case Initial::calculated: return "calculated";
    case Initial::none: return "";
  }
  return "";
}

// ` dependencies="..." dependenciesKind="..."`, or nothing when `deps` is null
// (meaning: depends on all knowns).
std::string dependency_attributes(const std::vector<Dependency>* deps) {
  if (deps == nullptr) return "";
  std::string vrs, kinds;
  for (const Dependency& d : *deps) {
    vrs += (vrs.empty() ? "" : " ") + std::to_string(d.known);
    kinds += (kinds.empty() ? "" : " ") + std::string(dependency_kind_name(d.kind));
  }
  return " dependencies=\"" + vrs + "\" dependenciesKind=\"" + kinds + "\"";
}

const std::vector<Dependency>* lookup(const std::map<ValueRef, std::vector<Dependency>>& map, ValueRef vr) {
  auto it = map.find(vr);
  return it == map.end() ? nullptr : &it->second;
}

void unknown_element(std::ostringstream& out, const char* tag, ValueRef vr, const std::vector<Dependency>* deps,
                     const std::string& indent) {
  out << indent << '<' << tag << " valueReference=\"" << vr << '"' << dependency_attributes(deps) << "/>\n";
}

// The OpenModelica form's dependency list: each der(x) replaced by its state x,
// which then stands for both; a state named twice this way is listed once, at
// its first place, with the more general of the two kinds (constant < fixed <
// tunable < discrete < dependent).
std::vector<Dependency> state_for_derivative(const Description& d, const std::vector<Dependency>& deps) {
  std::vector<Dependency> out;
  for (Dependency dep : deps) {
    if (d.variables[dep.known].derivative_of != kNoValueRef) dep.known = d.variables[dep.known].derivative_of;
    auto same = std::find_if(out.begin(), out.end(), [&](const Dependency& o) { return o.known == dep.known; });
    if (same == out.end()) out.push_back(dep);
    else same->kind = std::max(same->kind, dep.kind);
  }
  return out;
}

// The manifest's dependency list of an unknown: as declared, or in the OpenModelica form.
const std::vector<Dependency>* manifest_dependencies(const Description& d, const std::vector<Dependency>* deps,
                                                     std::vector<Dependency>& storage) {
  if (deps == nullptr || !d.openmodelica_form) return deps;
  storage = state_for_derivative(d, *deps);
  return &storage;
}

const char* interval_variability_name(IntervalVariability i) {
  switch (i) {
    case IntervalVariability::constant: return "constant";
    case IntervalVariability::fixed: return "fixed";
    case IntervalVariability::tunable: return "tunable";
    case IntervalVariability::changing: return "changing";
    case IntervalVariability::countdown: return "countdown";
    case IntervalVariability::triggered: return "triggered";
  }
  return "triggered";
}

const char* type_tag(VarType t) {
  switch (t) {
    case VarType::float64: return "Float64";
    case VarType::boolean: return "Boolean";
    case VarType::int32: return "Int32";
    case VarType::clock: return "Clock";
  }
  return "Float64";
}

std::string vr_list(const std::vector<ValueRef>& vrs) {
  std::string out;
  for (ValueRef vr : vrs) out += (out.empty() ? "" : " ") + std::to_string(vr);
  return out;
}

// The Clock attributes of FMI 3.0's ClockType.
std::string clock_attributes(const ClockProperties& p) {
  std::string out = " intervalVariability=\"" + std::string(interval_variability_name(p.interval_variability)) + '"';
  if (p.interval_decimal) out += " intervalDecimal=\"" + number(*p.interval_decimal) + '"';
  if (p.shift_decimal) out += " shiftDecimal=\"" + number(*p.shift_decimal) + '"';
  if (p.supports_fraction) out += " supportsFraction=\"true\"";
  if (p.resolution) out += " resolution=\"" + std::to_string(*p.resolution) + '"';
  if (p.interval_counter) out += " intervalCounter=\"" + std::to_string(*p.interval_counter) + '"';
  if (p.shift_counter) out += " shiftCounter=\"" + std::to_string(*p.shift_counter) + '"';
  if (p.can_be_deactivated) out += " canBeDeactivated=\"true\"";
  return out;
}

// One <ModelVariables> element, on one line (layout.h relies on that).
std::string variable_element(const Variable& v) {
  std::ostringstream out;
  out << '<' << type_tag(v.type) << " name=\"" << escape(v.name) << "\" valueReference=\"" << v.value_reference << '"';
  if (!v.description.empty()) out << " description=\"" << escape(v.description) << '"';
  const Variability variability =
      v.type != VarType::float64 && v.variability == Variability::continuous ? Variability::discrete : v.variability;
  out << " causality=\"" << causality_name(v.causality) << "\" variability=\"" << variability_name(variability) << '"';
  if (v.type == VarType::clock) out << clock_attributes(v.clock);
  if (v.initial != Initial::none) out << " initial=\"" << initial_name(v.initial) << '"';
  if (v.type == VarType::float64 && !v.unit.empty()) out << " unit=\"" << escape(v.unit) << '"';
  if (v.type == VarType::float64 && v.nominal) out << " nominal=\"" << number(*v.nominal) << '"';
  if (v.derivative_of != kNoValueRef) out << " derivative=\"" << v.derivative_of << '"';
  if (!v.clocks.empty()) out << " clocks=\"" << vr_list(v.clocks) << '"';
  if (v.previous != kNoValueRef) out << " previous=\"" << v.previous << '"';
  if (v.start && v.initial != Initial::calculated) {
    if (v.type == VarType::boolean) out << " start=\"" << (*v.start != 0.0 ? "true" : "false") << '"';
    else if (v.type == VarType::int32) out << " start=\"" << static_cast<long long>(*v.start) << '"';
    else out << " start=\"" << number(*v.start) << '"';
  }
  out << "/>";
  return out.str();
}

}  // namespace

std::string model_description_xml(const Description& d, const std::string& model_identifier) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<fmiModelDescription\n  fmiVersion=\"3.0\"\n  modelName=\"" << escape(d.model_name) << "\"\n"
      << "  description=\"" << escape(d.description) << "\"\n"
      << "  instantiationToken=\"" << d.instantiation_token << "\"\n"
      << "  generationTool=\"lsdae FMU kit\"\n  variableNamingConvention=\"structured\">\n";
  out << "  <ModelExchange modelIdentifier=\"" << escape(model_identifier) << "\""
      << " canBeInstantiatedOnlyOncePerProcess=\"false\""
      << " canGetAndSetFMUState=\"" << (d.can_get_and_set_state() ? "true" : "false") << "\""
      << " canSerializeFMUState=\"" << (d.can_serialize_state() ? "true" : "false") << "\""
      << " providesDirectionalDerivatives=\"" << (d.provides_partials ? "true" : "false") << "\""
      << " needsCompletedIntegratorStep=\"false\"/>\n";

  std::set<std::string> units;
  for (const Variable& v : d.variables)
    if (!v.unit.empty()) units.insert(v.unit);
  if (!units.empty()) {
    out << "  <UnitDefinitions>\n";
    for (const std::string& u : units) out << "    <Unit name=\"" << escape(u) << "\"/>\n";
    out << "  </UnitDefinitions>\n";
  }
  out << "  <LogCategories>\n"
      << "    <Category name=\"logEvents\" description=\"Event handling and mode changes\"/>\n"
      << "    <Category name=\"logStatusWarning\" description=\"Calls that return fmi3Warning\"/>\n"
      << "    <Category name=\"logStatusError\" description=\"Calls that return fmi3Error\"/>\n";
  for (const auto& [name, description] : d.log_categories)
    out << "    <Category name=\"" << escape(name) << "\" description=\"" << escape(description) << "\"/>\n";
  out << "  </LogCategories>\n";
  out << "  <DefaultExperiment startTime=\"" << number(d.experiment.start_time) << "\" stopTime=\""
      << number(d.experiment.stop_time) << "\" tolerance=\"" << number(d.experiment.tolerance) << "\" stepSize=\""
      << number(d.experiment.step_size) << "\"/>\n";

  out << "  <ModelVariables>\n";
  for (const Variable& v : d.variables) out << "    " << variable_element(v) << "\n";
  out << "  </ModelVariables>\n";

  // Core ModelStructure: the ODE-mode view. An FMU that is DAE-only gives no
  // dependencies here (they could not name algebraic variables).
  const bool ode_view = !d.always_dae();
  out << "  <ModelStructure>\n";
  for (ValueRef vr : d.outputs)
    unknown_element(out, "Output", vr, ode_view ? lookup(d.ode_dependencies, vr) : nullptr, "    ");
  for (ValueRef vr : d.derivatives)
    unknown_element(out, "ContinuousStateDerivative", vr, ode_view ? lookup(d.ode_dependencies, vr) : nullptr,
                    "    ");
  for (ValueRef vr : d.clocked_states) unknown_element(out, "ClockedState", vr, nullptr, "    ");
  for (const Variable& v : d.variables) {
    if (!v.clocks.empty() || v.type == VarType::clock) continue;  // clocked variables initialize at their first tick
    const bool is_state = (v.causality == Causality::local || v.causality == Causality::output) &&
                          v.derivative_of == kNoValueRef &&
                          std::find(d.states.begin(), d.states.end(), v.value_reference) != d.states.end();
    const bool initial_unknown =
        (v.causality == Causality::output && v.initial != Initial::exact) ||
        v.causality == Causality::calculated_parameter || v.derivative_of != kNoValueRef ||
        (is_state && (v.initial == Initial::approx || v.initial == Initial::calculated));
    if (initial_unknown) unknown_element(out, "InitialUnknown", v.value_reference, nullptr, "    ");
  }
  for (ValueRef vr : d.event_indicators)
    unknown_element(out, "EventIndicator", vr, ode_view ? lookup(d.ode_dependencies, vr) : nullptr, "    ");
  out << "  </ModelStructure>\n</fmiModelDescription>\n";
  return out.str();
}

std::string manifest_xml(const Description& d) {
  if (d.manifest == ManifestShape::none) return {};
  std::ostringstream out;
  const bool shape_a = d.manifest == ManifestShape::A;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << '<' << (shape_a ? "fmiLayeredStandardManifest" : "fmiDAEManifest")
      << "\n  xmlns:fmi-ls=\"http://fmi-standard.org/fmi-ls-manifest\""
      << "\n  fmi-ls:fmi-ls-name=\"org.fmi-standard.fmi-ls-dae\""
      << "\n  fmi-ls:fmi-ls-version=\"" << (shape_a ? "0.1.0" : "1.0.0-alpha.1") << '"'
      << "\n  fmi-ls:fmi-ls-description=\"Layered standard for DAE support in FMI\">\n";
  if (d.dae_switch != kNoValueRef)
    out << "  <" << (shape_a ? "EnableDAE" : "EnableDAEParameter") << " valueReference=\"" << d.dae_switch
        << "\"/>\n";
  out << "  <AlgebraicVariables>\n";
  for (ValueRef vr : d.algebraic)
    out << "    <AlgebraicVariable valueReference=\"" << vr << "\"/> <!-- " << escape(d.variables[vr].name)
        << " -->\n";
  out << "  </AlgebraicVariables>\n  <ModelStructure>\n";
  std::vector<Dependency> storage;
  auto deps_of = [&](const std::vector<Dependency>* deps) { return manifest_dependencies(d, deps, storage); };
  for (ValueRef vr : d.outputs) unknown_element(out, "Output", vr, deps_of(lookup(d.dae_dependencies, vr)), "    ");
  // In the fully implicit form the derivatives are knowns written by the
  // importer; listing them as unknowns would contradict the residuals, so only
  // the semi-explicit form lists ContinuousStateDerivative with dependencies.
  // The OpenModelica form lists none at all: its residuals cover the state rows.
  if (!d.openmodelica_form)
    for (ValueRef vr : d.derivatives)
      unknown_element(out, "ContinuousStateDerivative", vr,
                      d.form == Form::semi_explicit ? lookup(d.dae_dependencies, vr) : nullptr, "    ");
  if (!shape_a)
    for (ValueRef vr : d.event_indicators)
      unknown_element(out, "EventIndicator", vr, deps_of(lookup(d.dae_dependencies, vr)), "    ");
  for (const ResidualGroup& g : d.residual_groups) {
    if (shape_a) {
      out << "    <Residual> <!-- " << escape(d.variables[g.formulations.front().residual].name) << " -->\n";
      for (const Formulation& f : g.formulations) {
        out << "      <Formulation valueReference=\"" << f.residual << '"';
        if (f.index != 0) out << " index=\"" << f.index << '"';
        out << dependency_attributes(&f.dependencies) << "/>\n";
      }
      out << "    </Residual>\n";
    } else {
      const Formulation& f = g.formulations.back();
      out << "    <Residual valueReference=\"" << f.residual << '"' << dependency_attributes(deps_of(&f.dependencies))
          << "/> <!-- " << escape(d.variables[f.residual].name) << " -->\n";
    }
  }
  if (!shape_a)
    for (const ResidualGroup& g : d.residual_groups)
      for (std::size_t i = 0; i + 1 < g.formulations.size(); ++i) {
        const Formulation& f = g.formulations[i];
        out << "    <Invariant valueReference=\"" << f.residual << '"' << dependency_attributes(deps_of(&f.dependencies))
            << "/> <!-- " << escape(d.variables[f.residual].name) << " -->\n";
      }
  out << "  </ModelStructure>\n</" << (shape_a ? "fmiLayeredStandardManifest" : "fmiDAEManifest") << ">\n";
  return out.str();
}

const char* variability_name(Variability v) {
  switch (v) {
    case Variability::constant: return "constant";
    case Variability::fixed: return "fixed";
    case Variability::tunable: return "tunable";
    case Variability::discrete: return "discrete";
    case Variability::continuous: return "continuous";
  }
  return "continuous";
}

const char* dependency_kind_name(DepKind k) {
  switch (k) {
    case DepKind::constant: return "constant";
    case DepKind::fixed: return "fixed";
    case DepKind::tunable: return "tunable";
    case DepKind::discrete: return "discrete";
    case DepKind::dependent: return "dependent";
  }
  return "dependent";
}

}  // namespace lsdae::kit
