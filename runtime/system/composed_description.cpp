// runtime/system/composed_description.cpp -- see composed_description.h.
#include "system/composed_description.h"

#include <algorithm>

namespace lsdae::system {

std::optional<ValueReference> map_or_drop(const Composition& s, std::uint32_t k, ValueReference local) {
  const auto& map = s.global_by_local[k];
  auto it = map.find(local);
  if (it == map.end()) return std::nullopt;
  return it->second;
}

namespace {

using Kind = Global::Kind;

class DescriptionWriter {
 public:
  DescriptionWriter(Composition& s, const SystemDescription& d, const Resolution& r)
      : out_(&s), d_(d), driven_(r.driven), unknown_inputs_(r.unknown_inputs),
        component_unknowns_(r.component_unknowns) {}

  void run() {
    build_manifest();
    finish_model_description();
  }

 private:
  Composition* out_;
  const SystemDescription& d_;
  const std::vector<std::unordered_map<ValueReference, std::string>>& driven_;
  const std::vector<std::unordered_set<ValueReference>>& unknown_inputs_;
  const std::vector<std::vector<ValueReference>>& component_unknowns_;

  Composition& c() { return *out_; }
  const ModelDescription& md_of(std::uint32_t k) const { return out_->components[k].fmu->model_description(); }
  std::optional<ValueReference> map_or_drop(std::uint32_t k, ValueReference local) const {
    return system::map_or_drop(*out_, k, local);
  }

  // What system unknowns the value of `e` depends on: itself (when it is an
  // unknown, the structure keeps it), plus its <Output>'s dependencies in the
  // mode the component runs in, or all of the component's unknowns when the
  // FMU gives none.
  std::vector<ValueReference> dependencies_of_value(const Endpoint& e) const {
    std::vector<ValueReference> deps{e.global};
    const ComponentPart& part = out_->components[e.component];
    const Manifest& manifest = part.fmu->manifest();
    const auto& outputs =
        manifest.present() ? manifest.structure.outputs : part.fmu->model_description().structure.outputs;
    for (const Unknown& u : outputs) {
      if (u.value_reference != e.local) continue;
      if (!u.dependencies) break;
      for (ValueReference vr : *u.dependencies)
        if (auto g = map_or_drop(e.component, vr)) deps.push_back(*g);
      return deps;
    }
    const auto& own = component_unknowns_[e.component];
    if (std::find(own.begin(), own.end(), e.global) != own.end()) return deps;  // an unknown itself
    deps.insert(deps.end(), own.begin(), own.end());
    return deps;
  }

  Unknown map_unknown(std::uint32_t k, const Unknown& u) const {
    Unknown out;
    out.value_reference = out_->global_by_local[k].at(u.value_reference);
    if (u.dependencies) {
      out.dependencies.emplace();
      const bool kinds = u.dependencies_kind && u.dependencies_kind->size() == u.dependencies->size();
      if (kinds) out.dependencies_kind.emplace();
      for (std::size_t i = 0; i < u.dependencies->size(); ++i) {
        auto g = map_or_drop(k, (*u.dependencies)[i]);
        if (!g) continue;
        out.dependencies->push_back(*g);
        if (kinds) out.dependencies_kind->push_back((*u.dependencies_kind)[i]);
      }
    }
    return out;
  }

  ValueReference add_row_variable(const std::string& name, const std::string& description, Global ref) {
    const auto g = static_cast<ValueReference>(c().globals.size());
    c().globals.push_back(ref);
    Variable v;
    v.name = name;
    v.value_reference = g;
    v.type = VariableType::float64;
    v.causality = Causality::local;
    v.variability = Variability::continuous;
    v.initial = Initial::calculated;
    v.description = description;
    c().md.variables.push_back(std::move(v));
    return g;
  }

  void add_group(Unknown row) {
    ResidualGroup g;
    g.formulations.push_back({std::move(row), std::nullopt});
    c().manifest.residuals.push_back(std::move(g));
  }

  void build_manifest() {
    Composition& s = c();
    Manifest& m = s.manifest;
    m.shape = ManifestShape::draft_0_1;
    m.root_element = "system";
    m.ls_name = "org.lsdae.system";
    for (std::uint32_t k = 0; k < s.components.size(); ++k)
      for (const auto& a : s.components[k].fmu->manifest().algebraic_variables)
        if (auto g = map_or_drop(k, a.value_reference)) m.algebraic_variables.push_back({*g, 0});
    for (const auto& r : s.continuous) m.algebraic_variables.push_back({r.to.global, 0});
    for (const auto& r : s.couplings)
      for (const auto& f : r.flows) m.algebraic_variables.push_back({f.global, 0});

    // 1. The components' equations.
    for (std::uint32_t k = 0; k < s.components.size(); ++k) {
      const ComponentPart& part = s.components[k];
      const Manifest& cm = part.fmu->manifest();
      if (part.keeps_derivatives) {
        const auto& csd = cm.present() ? cm.structure.continuous_state_derivatives
                                       : part.fmu->model_description().structure.continuous_state_derivatives;
        for (std::size_t i = 0; i < part.state_count; ++i) {
          const std::size_t state = part.first_state + i;
          Global ref;
          ref.kind = Kind::state_row;
          ref.component = k;
          ref.state = state;
          Unknown row;
          row.value_reference = add_row_variable(
              part.name + ".residual(" + part.fmu->derivative_name(i) + ")",
              "der(x) − f(x, u, t) of " + part.name + " (lsdae: the component computes f)", ref);
          std::vector<ValueReference> deps{s.derivatives[state]};
          const ValueReference der_local = part.fmu->derivatives()[i];
          auto it = std::find_if(csd.begin(), csd.end(), [&](const Unknown& u) { return u.value_reference == der_local; });
          if (it != csd.end() && it->dependencies) {
            for (ValueReference vr : *it->dependencies)
              if (auto g = map_or_drop(k, vr)) deps.push_back(*g);
          } else {
            deps.insert(deps.end(), component_unknowns_[k].begin(), component_unknowns_[k].end());
          }
          row.dependencies = std::move(deps);
          add_group(std::move(row));
        }
      }
      for (const ResidualGroup& group : cm.residuals) {
        ResidualGroup mapped;
        for (const Formulation& f : group.formulations) mapped.formulations.push_back({map_unknown(k, f.residual), f.index});
        m.residuals.push_back(std::move(mapped));
      }
      for (const Unknown& inv : cm.invariants) m.invariants.push_back(map_unknown(k, inv));
    }
    // 2. Continuous connections.
    for (std::size_t i = 0; i < s.continuous.size(); ++i) {
      const ResolvedConnection& r = s.continuous[i];
      Global ref;
      ref.kind = Kind::connection_row;
      ref.index = i;
      const std::string from = s.md.variables[r.from.global].name, to = s.md.variables[r.to.global].name;
      Unknown row;
      row.value_reference = add_row_variable("connect(" + from + "," + to + ")",
                                             to + " − factor·" + from + " − offset (a connection)", ref);
      std::vector<ValueReference> deps{r.to.global};
      for (ValueReference g : dependencies_of_value(r.from)) deps.push_back(g);
      row.dependencies = std::move(deps);
      add_group(std::move(row));
    }
    // 3. Couplings.
    for (std::size_t i = 0; i < s.couplings.size(); ++i) {
      const ResolvedCoupling& r = s.couplings[i];
      const auto first = dependencies_of_value(r.potentials[0]);
      for (std::size_t p = 1; p < r.potentials.size(); ++p) {
        Global ref;
        ref.kind = Kind::potential_row;
        ref.index = i;
        ref.port = p;
        Unknown row;
        row.value_reference = add_row_variable(r.name + ".potential[" + std::to_string(p + 1) + "]",
                                               "p_1 − p_" + std::to_string(p + 1) + " (coupling " + r.name + ")", ref);
        std::vector<ValueReference> deps = first;
        for (ValueReference g : dependencies_of_value(r.potentials[p])) deps.push_back(g);
        std::sort(deps.begin(), deps.end());
        deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
        row.dependencies = std::move(deps);
        add_group(std::move(row));
      }
      Global ref;
      ref.kind = Kind::flow_row;
      ref.index = i;
      Unknown row;
      row.value_reference = add_row_variable(r.name + ".flows", "Σ f_k (coupling " + r.name + ")", ref);
      std::vector<ValueReference> deps;
      for (const auto& f : r.flows) deps.push_back(f.global);
      row.dependencies = std::move(deps);
      add_group(std::move(row));
    }
  }

  void finish_model_description() {
    Composition& s = c();
    ModelDescription& md = s.md;
    md.fmi_major = FmiVersion::fmi3;
    md.fmi_version = "3.0";
    md.model_name = s.name;
    md.generation_tool = "lsdae (system of " + std::to_string(s.components.size()) + " FMUs)";
    ModelExchange me;
    me.model_identifier = s.name;
    for (const auto& part : s.components) {
      const ModelExchange& cme = *part.fmu->model_description().model_exchange;
      me.can_be_instantiated_only_once_per_process |= cme.can_be_instantiated_only_once_per_process;
      me.needs_completed_integrator_step |= cme.needs_completed_integrator_step;
    }
    md.model_exchange = me;
    // The system's DefaultExperiment, else the first component's that has one.
    auto pick = [&](std::optional<double> own, auto member) {
      if (own) return own;
      for (const auto& part : s.components)
        if (auto v = part.fmu->model_description().default_experiment.*member) return v;
      return std::optional<double>{};
    };
    md.default_experiment.start_time = pick(d_.start_time, &DefaultExperiment::start_time);
    md.default_experiment.stop_time = pick(d_.stop_time, &DefaultExperiment::stop_time);
    md.default_experiment.tolerance = pick(d_.tolerance, &DefaultExperiment::tolerance);
    md.default_experiment.step_size = pick(d_.step_size, &DefaultExperiment::step_size);
    for (ValueReference der : s.derivatives) {
      Unknown u;
      u.value_reference = der;
      md.structure.continuous_state_derivatives.push_back(std::move(u));
    }
    for (std::uint32_t k = 0; k < s.components.size(); ++k) {
      const Manifest& cm = s.components[k].fmu->manifest();
      const auto& outputs = cm.present() ? cm.structure.outputs : md_of(k).structure.outputs;
      for (const Unknown& u : outputs) md.structure.outputs.push_back(map_unknown(k, u));
    }
    // Inputs fed by the system are unknowns now, no longer inputs to set.
    for (Variable& v : md.variables) {
      const Global& g = s.globals[v.value_reference];
      if (g.kind == Kind::component && v.type == VariableType::clock && v.causality == Causality::input &&
          driven_[g.component].count(g.local) != 0) {
        // It ticks exactly when the output clock driving it ticks: to the
        // simulation an output clock of the system (asked, never activated).
        v.causality = Causality::output;
      } else if (g.kind == Kind::component && v.causality == Causality::input &&
          unknown_inputs_[g.component].count(g.local) != 0) {
        v.causality = Causality::local;
        v.initial = Initial::approx;
      } else if (g.kind == Kind::component && v.causality == Causality::input &&
                 driven_[g.component].count(g.local) != 0) {
        v.causality = Causality::local;  // a discrete connection's input: set by the system
        v.initial = Initial::calculated;
      }
    }
    md.rebuild_index();
  }
};

}  // namespace

void write_description(Composition& s, const SystemDescription& d, const Resolution& r) {
  DescriptionWriter(s, d, r).run();
}

}  // namespace lsdae::system
