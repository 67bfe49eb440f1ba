// runtime/system/composition.cpp -- see composition.h: compose() opens the
// components, numbers their variables, resolves connections and couplings and
// makes every check; the residual rows and the system's model description
// are then written by composed_description.cpp.
#include "system/composition.h"

#include <algorithm>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/values.h"
#include "system/composed_description.h"

namespace lsdae::system {

namespace {

using Kind = Global::Kind;

[[noreturn]] void refuse(const SourceLocation& where, const std::string& system, const std::string& message) {
  throw Error(ErrorKind::invalid, (where.empty() ? "system \"" + system + "\"" : where) + ": " + message);
}

std::string q(const std::string& s) { return "\"" + s + "\""; }

std::string component_list(const std::vector<ComponentPart>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

class Composer {
 public:
  Composer(const SystemDescription& d, const OpenOptions& options) : d_(d), options_(options) {
    out_ = std::make_unique<Composition>();
    out_->name = d.name.empty() ? std::string("system") : d.name;
  }

  std::unique_ptr<Composition> run() {
    open_components();
    number_variables();
    resolve_connections();
    resolve_couplings();
    check_inputs_and_parameters();
    write_description(*out_, d_, {driven_, unknown_inputs_, component_unknowns_});
    return std::move(out_);
  }

 private:
  const SystemDescription& d_;
  const OpenOptions& options_;
  std::unique_ptr<Composition> out_;
  // Inputs fed by the system (continuous or discrete connection, coupling flow), by component.
  // Per component: its inputs driven so far, with what drives each (for messages).
  std::vector<std::unordered_map<ValueReference, std::string>> driven_;
  std::vector<std::unordered_set<ValueReference>> unknown_inputs_;  // continuous: algebraic unknowns
  std::vector<std::vector<ValueReference>> component_unknowns_;     // system vrs of x, z, unknown inputs

  Composition& c() { return *out_; }

  const ModelDescription& md_of(std::uint32_t k) const { return out_->components[k].fmu->model_description(); }

  void open_components() {
    if (d_.components.empty()) refuse("", c().name, "the system has no components → add at least one");
    std::set<std::string> names;
    for (const ComponentDescription& cd : d_.components) {
      if (cd.name.empty() || cd.name.find('.') != std::string::npos)
        refuse(cd.where, c().name, "component name " + q(cd.name) +
                                       " is empty or contains a '.' (names are joined with '.') → rename it");
      if (!names.insert(cd.name).second)
        refuse(cd.where, c().name, "two components are named " + q(cd.name) + " → give each a unique name");
      ComponentPart part;
      part.name = cd.name;
      part.parameters = cd.parameters;
      try {
        part.fmu = Fmu::open(cd.fmu, options_);
      } catch (const Error& e) {
        throw Error(e.kind(), (cd.where.empty() ? "" : cd.where + ": ") + "component " + q(cd.name) + " (" +
                                  cd.fmu.string() + "): " + e.what());
      }
      const ModelDescription& md = part.fmu->model_description();
      if (!md.model_exchange)
        refuse(cd.where, c().name, "component " + q(cd.name) + ": " + part.fmu->display_name() +
                                       " has no <ModelExchange> → use a Model Exchange FMU");
      if (part.fmu->form() == DaeForm::fully_implicit_openmodelica)
        refuse(cd.where, c().name, "component " + q(cd.name) + ": " + part.fmu->display_name() +
                                       " is in the OpenModelica DAE form, where a state stands for its derivative "
                                       "too; a system cannot tell them apart → simulate it alone");
      if (md.has_arrays())
        refuse(cd.where, c().name, "component " + q(cd.name) + ": " + part.fmu->display_name() +
                                       " has array variables; systems take scalar variables only → simulate it alone");
      part.keeps_derivatives = part.fmu->form() == DaeForm::ode || part.fmu->form() == DaeForm::semi_explicit;
      c().components.push_back(std::move(part));
    }
    driven_.resize(c().components.size());
    unknown_inputs_.resize(c().components.size());
    component_unknowns_.resize(c().components.size());
  }

  void number_variables() {
    Composition& s = c();
    s.global_by_local.resize(s.components.size());
    for (std::uint32_t k = 0; k < s.components.size(); ++k) {
      ComponentPart& part = s.components[k];
      const ModelDescription& md = part.fmu->model_description();
      auto& map = s.global_by_local[k];
      for (const Variable& v : md.variables) {
        if (map.count(v.value_reference) != 0) continue;  // an FMI 2.0 alias: one value
        const auto g = static_cast<ValueReference>(s.globals.size());
        map.emplace(v.value_reference, g);
        Global ref;
        ref.kind = Kind::component;
        ref.component = k;
        ref.local = v.value_reference;
        s.globals.push_back(ref);
        Variable copy = v;
        copy.name = part.name + "." + v.name;
        copy.value_reference = g;
        copy.declared_type.clear();  // unit, nominal, min, max are already resolved
        copy.line = 0;
        s.md.variables.push_back(std::move(copy));
      }
      for (Variable& v : s.md.variables) {
        if (s.globals[v.value_reference].component != k) continue;
        if (v.derivative) v.derivative = map_or_drop(k, *v.derivative);
        if (v.previous) v.previous = map_or_drop(k, *v.previous);
        for (ValueReference& clock : v.clocks)
          if (auto g = map_or_drop(k, clock)) clock = *g;
        if (v.reinit_of) v.reinit_of = map_or_drop(k, *v.reinit_of);
      }
      part.first_state = s.states.size();
      part.state_count = part.fmu->states().size();
      for (std::size_t i = 0; i < part.state_count; ++i) {
        s.states.push_back(map.at(part.fmu->states()[i]));
        s.derivatives.push_back(map.at(part.fmu->derivatives()[i]));
        s.state_names.push_back(part.name + "." + part.fmu->state_name(i));
        s.derivative_names.push_back(part.name + "." + part.fmu->derivative_name(i));
        component_unknowns_[k].push_back(s.states.back());
        if (part.keeps_derivatives) {
          Global& der = s.globals[s.derivatives.back()];
          der.kind = Kind::kept_derivative;
          der.state = s.states.size() - 1;
        }
      }
      for (const auto& a : part.fmu->manifest().algebraic_variables)
        if (auto it = map.find(a.value_reference); it != map.end()) component_unknowns_[k].push_back(it->second);
      part.first_indicator = s.event_indicators;
      part.indicator_count = part.fmu->event_indicator_count();
      s.event_indicators += part.indicator_count;
    }
  }

  std::optional<ValueReference> map_or_drop(std::uint32_t k, ValueReference local) const {
    return system::map_or_drop(*out_, k, local);
  }

  // The component and variable a connector names, or a refusal naming what is missing.
  std::pair<std::uint32_t, const Variable*> resolve(const ConnectorRef& ref, const SourceLocation& where,
                                                    const std::string& what) const {
    const auto& parts = out_->components;
    for (std::uint32_t k = 0; k < parts.size(); ++k) {
      if (parts[k].name != ref.component) continue;
      const Variable* v = md_of(k).find(ref.variable);
      if (v == nullptr)
        refuse(where, out_->name, what + ": component " + q(ref.component) + " (" +
                                      parts[k].fmu->display_name() + ") has no variable " + q(ref.variable) +
                                      " → use a name `lsdae info --variables " + parts[k].fmu->path().string() +
                                      "` lists");
      return {k, v};
    }
    refuse(where, out_->name, what + ": no component is named " + q(ref.component) + " (components: " +
                                  component_list(parts) + ") → name one of them");
  }

  Endpoint endpoint(std::uint32_t k, const Variable& v) const {
    return {k, v.value_reference, out_->global_by_local[k].at(v.value_reference)};
  }

  static std::string label(const ConnectorRef& r) { return r.component + "." + r.variable; }

  void drive(std::uint32_t k, const Variable& v, const ConnectorRef& ref, const SourceLocation& where,
             const std::string& what) {
    const std::string by = what + (where.empty() ? std::string() : " (" + where + ")");
    if (auto [at, inserted] = driven_[k].emplace(v.value_reference, by); !inserted)
      refuse(where, out_->name, what + ": input " + q(label(ref)) + " is already driven by " + at->second +
                                    " → drive each input once");
  }

  void resolve_connections() {
    for (const Connection& conn : d_.connections) {
      const std::string what = "connection " + label(conn.from) + " → " + label(conn.to);
      auto [kf, from] = resolve(conn.from, conn.where, what);
      auto [kt, to] = resolve(conn.to, conn.where, what);
      if (from->causality != Causality::output)
        refuse(conn.where, c().name, what + ": " + q(label(conn.from)) + " has causality " +
                                         to_string(from->causality) + ", not output → start a connection at an output");
      if (to->causality != Causality::input)
        refuse(conn.where, c().name, what + ": " + q(label(conn.to)) + " has causality " +
                                         to_string(to->causality) + ", not input → end a connection at an input");
      if (from->type != to->type)
        refuse(conn.where, c().name, what + ": the types differ (" + to_string(from->type) + " → " +
                                         to_string(to->type) + ") → connect variables of one type");
      if (!from->unit.empty() && !to->unit.empty() && from->unit != to->unit)
        refuse(conn.where, c().name, what + ": the units differ (" + q(from->unit) + " → " + q(to->unit) +
                                         ") → connect variables of one unit, or convert with a factor in a "
                                         "component");
      drive(kt, *to, conn.to, conn.where, what);
      const bool continuous = to->type == VariableType::float64 && to->variability == Variability::continuous &&
                              from->variability == Variability::continuous;
      if (!is_float(to->type) && (conn.factor != 1.0 || conn.offset != 0.0))
        refuse(conn.where, c().name, what + ": a " + std::string(to_string(to->type)) + " connection has factor " +
                                         format_number(conn.factor) + " and offset " + format_number(conn.offset) +
                                         " → a transformation applies to Float64 connections only");
      ResolvedConnection r{endpoint(kf, *from), endpoint(kt, *to), conn.factor, conn.offset};
      if (to->type == VariableType::clock) {
        // An output clock drives a triggered input clock (FMI 3.0 2.2.9; SSP
        // 2.0 connectors of type Clock): the composite instance activates the
        // input clock in the Event Mode where the output clock ticks.
        if (!to->clock || to->clock->interval_variability != ClockKind::triggered)
          refuse(conn.where, c().name, what + ": " + q(label(conn.to)) + " is a " +
                                           (to->clock ? to->clock->interval_variability_text : std::string("?")) +
                                           " clock; only a triggered input clock can be driven by an output clock "
                                           "(FMI 3.0 2.2.9) → connect the output clock to a triggered input clock");
        c().clocks.push_back(r);
        continue;
      }
      if (continuous) {
        c().continuous.push_back(r);
        unknown_inputs_[kt].insert(to->value_reference);
        component_unknowns_[kt].push_back(r.to.global);
      } else {
        c().discrete.push_back(r);
      }
    }
  }

  void resolve_couplings() {
    std::set<std::string> names;
    for (const Coupling& cp : d_.couplings) {
      const std::string what = "coupling " + q(cp.name);
      if (cp.name.empty() || !names.insert(cp.name).second)
        refuse(cp.where, c().name, what + ": the name is empty or used twice → give each coupling a unique name");
      if (cp.ports.size() < 2)
        refuse(cp.where, c().name, what + ": " + std::to_string(cp.ports.size()) +
                                       " port(s) → a coupling joins at least two ports");
      ResolvedCoupling r;
      r.name = cp.name;
      std::string potential_unit, flow_unit;
      for (std::size_t p = 0; p < cp.ports.size(); ++p) {
        const CouplingPort& port = cp.ports[p];
        const std::string pw = what + " port " + std::to_string(p + 1);
        auto [kp, pot] = resolve(port.potential, cp.where, pw);
        auto [kf, flow] = resolve(port.flow, cp.where, pw);
        if (pot->causality != Causality::output || pot->type != VariableType::float64 ||
            pot->variability != Variability::continuous)
          refuse(cp.where, c().name, pw + ": the potential " + q(label(port.potential)) + " is a " +
                                         to_string(pot->variability) + " " + to_string(pot->type) + " " +
                                         to_string(pot->causality) +
                                         " → a potential is a continuous Float64 output");
        if (flow->causality != Causality::input || flow->type != VariableType::float64 ||
            flow->variability != Variability::continuous)
          refuse(cp.where, c().name, pw + ": the flow " + q(label(port.flow)) + " is a " +
                                         to_string(flow->variability) + " " + to_string(flow->type) + " " +
                                         to_string(flow->causality) + " → a flow is a continuous Float64 input");
        check_same_unit(potential_unit, *pot, cp.where, pw + ": the potential " + q(label(port.potential)));
        check_same_unit(flow_unit, *flow, cp.where, pw + ": the flow " + q(label(port.flow)));
        drive(kf, *flow, port.flow, cp.where, pw);
        r.potentials.push_back(endpoint(kp, *pot));
        r.flows.push_back(endpoint(kf, *flow));
        unknown_inputs_[kf].insert(flow->value_reference);
        component_unknowns_[kf].push_back(r.flows.back().global);
      }
      c().couplings.push_back(std::move(r));
    }
  }

  void check_same_unit(std::string& seen, const Variable& v, const SourceLocation& where, const std::string& what) {
    if (v.unit.empty()) return;
    if (seen.empty()) {
      seen = v.unit;
      return;
    }
    if (seen != v.unit)
      refuse(where, c().name, what + " has unit " + q(v.unit) + " where the other ports have " + q(seen) +
                                  " → couple variables of one unit");
  }

  void check_inputs_and_parameters() {
    for (std::uint32_t k = 0; k < c().components.size(); ++k) {
      const ComponentPart& part = c().components[k];
      const ComponentDescription& cd = d_.components[k];
      const ModelDescription& md = md_of(k);
      std::unordered_set<std::string> given;
      for (const auto& [name, text] : part.parameters) {
        auto ref = md.find_element(name);
        if (!ref || ref->variable->is_array())
          refuse(cd.where, c().name, "component " + q(part.name) + ": parameter binding " + q(name) +
                                         ": " + part.fmu->display_name() + " has no such variable → use a name " +
                                         "`lsdae info --variables " + part.fmu->path().string() + "` lists");
        try {
          (void)parse_value(*ref->variable, md, text);
        } catch (const Error& e) {
          refuse(cd.where, c().name, "component " + q(part.name) + ": parameter binding " + q(name) +
                                         " = " + q(text) + ": " + e.what());
        }
        given.insert(ref->variable->name);
      }
      for (const Variable& v : md.variables) {
        if (v.causality != Causality::input || driven_[k].count(v.value_reference) != 0) continue;
        if (!v.start_text && given.count(v.name) == 0)
          refuse(cd.where, c().name, "component " + q(part.name) + ": input " + q(v.name) +
                                         " is not connected and has no start value → connect it, or give it a "
                                         "value among the component's parameters");
      }
    }
  }
};

}  // namespace

std::unique_ptr<Composition> compose(const SystemDescription& description, const OpenOptions& options) {
  return Composer(description, options).run();
}

}  // namespace lsdae::system
