// runtime/import/ssp/system_checks.cpp -- see system_checks.h.
#include "import/ssp/system_checks.h"

#include <cstdlib>
#include <map>
#include <string>
#include <utility>

#include "import/xml_document.h"

namespace lsdae::import {

namespace {

// The SSP connector type family of an FMU variable type ("Real", "Integer", ...).
std::string ssp_family(VariableType type) {
  switch (type) {
    case VariableType::float32:
    case VariableType::float64: return "Real";
    case VariableType::int8:
    case VariableType::uint8:
    case VariableType::int16:
    case VariableType::uint16:
    case VariableType::int32:
    case VariableType::uint32:
    case VariableType::int64:
    case VariableType::uint64: return "Integer";
    case VariableType::boolean: return "Boolean";
    case VariableType::string: return "String";
    case VariableType::enumeration: return "Enumeration";
    case VariableType::binary: return "Binary";
    case VariableType::clock: return "Clock";
  }
  return "?";
}

class Checker {
 public:
  Checker(const SystemDescription& system, const std::vector<ComponentModel>& models, Diagnostics& diagnostics)
      : system_(system), models_(models), diagnostics_(diagnostics) {
    for (std::size_t i = 0; i < system.components.size(); ++i) index_.emplace(system.components[i].name, i);
  }

  void run() {
    for (std::size_t i = 0; i < system_.components.size(); ++i) check_component(i);
    for (const auto& c : system_.connections) check_connection(c);
    for (const auto& c : system_.couplings) check_coupling(c);
  }

 private:
  void error(const SourceLocation& where, std::string message, std::string hint) {
    std::string file = where;
    int line = 0;
    if (auto colon = where.rfind(':'); colon != std::string::npos) {
      line = std::atoi(where.c_str() + colon + 1);
      file = where.substr(0, colon);
    }
    diagnostics_.error(std::move(file), line, std::move(message), std::move(hint));
  }

  const ComponentModel* model_of(const std::string& component) const {
    auto it = index_.find(component);
    if (it == index_.end() || it->second >= models_.size() || models_[it->second].description == nullptr)
      return nullptr;
    return &models_[it->second];
  }

  // The variable, or null after reporting it missing (null too when the FMU is not open).
  const Variable* variable(const ConnectorRef& ref, const SourceLocation& where, const std::string& role) {
    auto it = index_.find(ref.component);
    if (it == index_.end()) {
      error(where, role + ": no component \"" + ref.component + "\" in the system", "fix the component name");
      return nullptr;
    }
    const ComponentModel* model = model_of(ref.component);
    if (!model) return nullptr;
    const Variable* v = model->description->find(ref.variable);
    if (!v)
      error(where,
            role + ": " + model->display_name + " (component \"" + ref.component + "\") has no variable \"" +
                ref.variable + "\"",
            "use the FMU's variable name (`lsdae info " + model->display_name + " --variables`)");
    return v;
  }

  void check_component(std::size_t i) {
    if (i >= models_.size() || models_[i].description == nullptr) return;
    const ComponentDescription& c = system_.components[i];
    const ComponentModel& model = models_[i];
    const ModelDescription& md = *model.description;
    if (!md.model_exchange)
      error(c.where,
            "component \"" + c.name + "\": " + model.display_name + " has no ModelExchange interface" +
                (md.has_co_simulation ? " (Co-Simulation only)" : ""),
            "export the FMU for Model Exchange: lsdae integrates all components in one DAE");
    for (const auto& k : c.connectors) {
      const Variable* v = variable({c.name, k.name}, k.where, "<Connector> \"" + k.name + "\"");
      if (!v) continue;
      const bool kind_ok = k.kind.empty() || k.kind == "inout" || k.kind == to_string(v->causality) ||
                           (k.kind == "parameter" && v->causality == Causality::structural_parameter);
      if (!kind_ok)
        error(k.where,
              "<Connector> \"" + k.name + "\" of \"" + c.name + "\" has kind=\"" + k.kind + "\", but the FMU's variable is " +
                  to_string(v->causality),
              std::string("write kind=\"") + to_string(v->causality) + "\"");
      if (!k.type.empty() && k.type != ssp_family(v->type))
        error(k.where,
              "<Connector> \"" + k.name + "\" of \"" + c.name + "\" is declared " + k.type + ", but the FMU's variable is " +
                  to_string(v->type),
              "declare it as ssc:" + ssp_family(v->type));
      if (!k.unit.empty() && !v->unit.empty() && k.unit != v->unit)
        error(k.where,
              "<Connector> \"" + k.name + "\" of \"" + c.name + "\" has unit \"" + k.unit + "\", but the FMU's variable has \"" +
                  v->unit + "\"",
              "declare the FMU's unit (SSP 1.0 converts units only between connectors)");
    }
    for (std::size_t p = 0; p < c.parameters.size(); ++p) {
      const auto& [name, value] = c.parameters[p];
      const SourceLocation where = p < c.parameters_where.size() ? c.parameters_where[p] : c.where;
      const Variable* v = variable({c.name, name}, where, "parameter \"" + name + "\"");
      if (!v) continue;
      if (v->causality == Causality::output || v->causality == Causality::calculated_parameter ||
          v->causality == Causality::independent || v->variability == Variability::constant)
        error(where,
              "parameter \"" + name + "\" of \"" + c.name + "\": the FMU's variable is " + to_string(v->causality) +
                  (v->variability == Variability::constant ? " and constant" : "") + ", not settable",
              "bind parameters, inputs or variables with a start value the FMU lets be set");
      bool ok = true;
      switch (ssp_family(v->type)[0]) {
        case 'R': ok = parse_double(value).has_value(); break;
        case 'I': ok = parse_int64(value).has_value(); break;
        case 'B': ok = value == "true" || value == "false" || value == "1" || value == "0"; break;
        default: break;
      }
      if (!ok)
        error(where,
              "parameter \"" + name + "\" of \"" + c.name + "\": value \"" + value + "\" does not fit the FMU's " +
                  to_string(v->type) + " variable",
              "give a value of that type");
    }
  }

  void check_connection(const Connection& c) {
    const std::string label = "connection " + c.from.component + "." + c.from.variable + " → " + c.to.component + "." +
                              c.to.variable;
    const Variable* from = variable(c.from, c.where, label + ": start");
    const Variable* to = variable(c.to, c.where, label + ": end");
    if (to) {
      auto [it, fresh] = driven_.emplace(c.to.component + "\x1f" + c.to.variable, c.where);
      if (!fresh)
        error(c.where, label + ": input \"" + c.to.variable + "\" of \"" + c.to.component + "\" is already driven (at " +
                           it->second + ")",
              "drive each input from one output");
    }
    if (!from || !to) return;
    if (from->causality != Causality::output && from->causality != Causality::parameter &&
        from->causality != Causality::calculated_parameter)
      error(c.where, label + ": the start \"" + c.from.variable + "\" is " + to_string(from->causality) +
                         ", not an output",
            "start the connection at an output (start is the source, end the input it drives)");
    if (to->causality != Causality::input)
      error(c.where, label + ": the end \"" + c.to.variable + "\" is " + to_string(to->causality) + ", not an input",
            to->causality == Causality::output ? "swap start and end: a connection runs from an output to an input"
                                               : "end the connection at an input");
    if (ssp_family(from->type) != ssp_family(to->type))
      error(c.where, label + ": types differ (" + to_string(from->type) + " → " + to_string(to->type) + ")",
            "connect variables of the same type");
    else if ((c.factor != 1.0 || c.offset != 0.0) && ssp_family(from->type) != "Real" && ssp_family(from->type) != "Integer")
      error(c.where, label + ": a linear transformation on a " + std::string(to_string(from->type)) + " connection",
            "remove the <LinearTransformation>");
    if (!from->unit.empty() && !to->unit.empty() && from->unit != to->unit && c.factor == 1.0 && c.offset == 0.0)
      error(c.where, label + ": units differ (\"" + from->unit + "\" → \"" + to->unit + "\")",
            "connect variables of the same unit, or convert with <ssc:LinearTransformation factor=... offset=...>");
  }

  void check_coupling(const Coupling& c) {
    for (std::size_t k = 0; k < c.ports.size(); ++k) {
      const auto& port = c.ports[k];
      const std::string label = "coupling \"" + c.name + "\" port " + std::to_string(k + 1) + " (" + port.flow.component + ")";
      if (const Variable* p = variable(port.potential, c.where, label + ": potential")) {
        if (p->causality != Causality::output)
          error(c.where, label + ": potential \"" + port.potential.variable + "\" is " + to_string(p->causality) +
                             ", not an output",
                "name an output of the component (a velocity, a voltage)");
        if (p->type != VariableType::float64)
          error(c.where, label + ": potential \"" + port.potential.variable + "\" is " + to_string(p->type) +
                             ", not Float64",
                "couple Float64 variables");
      }
      if (const Variable* f = variable(port.flow, c.where, label + ": flow")) {
        if (f->causality != Causality::input)
          error(c.where, label + ": flow \"" + port.flow.variable + "\" is " + to_string(f->causality) +
                             ", not an input",
                "name an input of the component (a force, a current) that the coupling drives");
        if (f->type != VariableType::float64)
          error(c.where, label + ": flow \"" + port.flow.variable + "\" is " + to_string(f->type) + ", not Float64",
                "couple Float64 variables");
        auto [it, fresh] = driven_.emplace(port.flow.component + "\x1f" + port.flow.variable, c.where);
        if (!fresh)
          error(c.where, label + ": flow \"" + port.flow.variable + "\" is already driven (at " + it->second + ")",
                "a coupling's flow input is driven by the coupling alone");
      }
    }
  }

  const SystemDescription& system_;
  const std::vector<ComponentModel>& models_;
  Diagnostics& diagnostics_;
  std::map<std::string, std::size_t> index_;
  std::map<std::string, SourceLocation> driven_;
};

}  // namespace

void check_system(const SystemDescription& system, const std::vector<ComponentModel>& models,
                  Diagnostics& diagnostics) {
  Checker(system, models, diagnostics).run();
}

}  // namespace lsdae::import
