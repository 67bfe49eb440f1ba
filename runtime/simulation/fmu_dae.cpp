// runtime/simulation/fmu_dae.cpp -- see fmu_dae.h.
#include "simulation/fmu_dae.h"

#include <algorithm>
#include <unordered_map>

namespace lsdae::simulation {

bool FmuDae::any_synthesized() const {
  for (const auto& g : synthesized)
    for (const bool b : g)
      if (b) return true;
  return false;
}

FmuDae build_fmu_dae(const Model& fmu, bool synthesize_derivatives) {
  const ModelDescription& md = fmu.model_description();
  const Manifest& manifest = fmu.manifest();
  FmuDae dae;
  dae.state_vrs = fmu.states();
  dae.derivative_vrs = fmu.derivatives();
  for (const auto& a : manifest.algebraic_variables) dae.algebraic_vrs.push_back(a.value_reference);
  dae.fully_implicit = is_fully_implicit(fmu.form());
  dae.state_stands_for_derivative = fmu.form() == DaeForm::fully_implicit_openmodelica;
  dae.input.form = dae.fully_implicit ? structure::DaeForm::fully_implicit : structure::DaeForm::semi_explicit;

  // A value reference stands for every element of an array variable: a
  // dependency on an array state is a dependency on each of its elements.
  std::unordered_map<ValueReference, std::vector<structure::VarRef>> var_of;
  for (std::size_t i = 0; i < dae.state_vrs.size(); ++i) {
    var_of[dae.state_vrs[i]].push_back(structure::state(i));
    var_of[dae.derivative_vrs[i]].push_back(structure::derivative_of(i));
  }
  for (std::size_t j = 0; j < dae.algebraic_vrs.size(); ++j)
    var_of[dae.algebraic_vrs[j]].push_back(structure::algebraic(j));
  std::vector<DependencyKind>* kinds_out = nullptr;  // where map_deps puts the kinds
  auto map_deps = [&](const Unknown& u) -> structure::Dependencies {
    if (kinds_out != nullptr) kinds_out->clear();
    if (!u.dependencies) return std::nullopt;
    std::vector<structure::VarRef> out;
    out.reserve(u.dependencies->size());
    const bool has_kinds = u.dependencies_kind && u.dependencies_kind->size() == u.dependencies->size();
    for (std::size_t d = 0; d < u.dependencies->size(); ++d) {
      auto it = var_of.find((*u.dependencies)[d]);
      if (it == var_of.end()) continue;
      const DependencyKind kind = has_kinds ? (*u.dependencies_kind)[d] : DependencyKind::dependent;
      for (const structure::VarRef& ref : it->second) {
        out.push_back(ref);
        if (kinds_out != nullptr) kinds_out->push_back(kind);
        // OpenModelica form: the state's value reference stands for ẋ as well.
        if (dae.state_stands_for_derivative && ref.block == structure::Block::state) {
          out.push_back(structure::derivative_of(ref.index));
          if (kinds_out != nullptr) kinds_out->push_back(kind);
        }
      }
    }
    return out;
  };
  auto name_of = [&](ValueReference vr) {
    const Variable* v = md.find(vr);
    return v != nullptr ? v->name : "vr " + std::to_string(vr);
  };

  // State derivative dependencies: the manifest's in DAE mode, the core's in ODE mode.
  const auto& csd = manifest.present() ? manifest.structure.continuous_state_derivatives
                                       : md.structure.continuous_state_derivatives;
  std::unordered_map<ValueReference, const Unknown*> csd_of;
  for (const auto& u : csd) csd_of[u.value_reference] = &u;
  for (std::size_t i = 0; i < dae.state_vrs.size(); ++i) {
    structure::StateInput s;
    s.name = fmu.state_name(i);
    s.derivative_name = fmu.derivative_name(i);
    const Variable* x = md.find(dae.state_vrs[i]);
    s.select = (x != nullptr && x->initial == Initial::approx) ? structure::StateSelect::avoid
                                                               : structure::StateSelect::normal;
    dae.state_kinds.emplace_back();
    if (!dae.fully_implicit) {
      auto it = csd_of.find(dae.derivative_vrs[i]);
      kinds_out = &dae.state_kinds.back();
      if (it != csd_of.end()) s.derivative_dependencies = map_deps(*it->second);
      kinds_out = nullptr;
    }
    dae.input.states.push_back(std::move(s));
  }
  for (ValueReference vr : dae.algebraic_vrs) dae.input.algebraic.push_back(name_of(vr));
  for (const auto& group : manifest.residuals) {
    structure::ResidualInput r;
    std::vector<ValueReference> vrs;
    auto& kinds = dae.residual_kinds.emplace_back();
    for (const auto& f : group.formulations) {
      kinds_out = &kinds.emplace_back();
      r.formulations.push_back({name_of(f.residual.value_reference), f.index, map_deps(f.residual)});
      kinds_out = nullptr;
      vrs.push_back(f.residual.value_reference);
    }
    std::vector<bool> synthesized(vrs.size(), false);
    const structure::FormulationInput& last = r.formulations.back();
    const bool states_only =
        last.dependencies && !last.dependencies->empty() &&
        std::all_of(last.dependencies->begin(), last.dependencies->end(),
                    [](const structure::VarRef& v) { return v.block == structure::Block::state; });
    if (synthesize_derivatives && dae.fully_implicit && !dae.state_stands_for_derivative && states_only) {
      structure::FormulationInput d;
      d.name = "d/dt(" + last.name + ")";
      d.synthesized = true;
      dae.input.notes.push_back("\"" + d.name + "\" is not provided by the FMU: lsdae synthesizes it (d/dt " +
                                last.name + " = ∂" + last.name + "/∂x·ẋ + ∂" + last.name +
                                "/∂t by central differences of " + last.name + " along (1, ẋ), error O(h²))");
      std::vector<structure::VarRef> deps;
      for (const structure::VarRef& v : *last.dependencies) {
        deps.push_back(structure::derivative_of(v.index));
        deps.push_back(v);
      }
      // A synthesized row varies with everything it depends on: no constant entries.
      kinds.emplace_back(deps.size(), DependencyKind::dependent);
      d.dependencies = std::move(deps);
      r.formulations.push_back(std::move(d));
      vrs.push_back(vrs.back());
      synthesized.push_back(true);
    }
    dae.input.residuals.push_back(std::move(r));
    dae.residual_vrs.push_back(std::move(vrs));
    dae.synthesized.push_back(std::move(synthesized));
  }
  for (const auto& inv : manifest.invariants) {
    kinds_out = &dae.invariant_kinds.emplace_back();
    dae.input.invariants.push_back({name_of(inv.value_reference), map_deps(inv), std::nullopt, std::nullopt});
    kinds_out = nullptr;
    dae.invariant_vrs.push_back(inv.value_reference);
  }
  return dae;
}

}  // namespace lsdae::simulation
