// runtime/simulation/model_dae.cpp -- see model_dae.h.
#include "simulation/model_dae.h"

#include "structure/pattern.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <unordered_map>

namespace lsdae::simulation {

bool ModelDae::any_synthesized() const {
  for (const auto& g : synthesized)
    for (const bool b : g)
      if (b) return true;
  return false;
}

namespace {

using structure::Block;
using structure::VarRef;

bool states_only(const structure::FormulationInput& f) {
  return f.dependencies && !f.dependencies->empty() &&
         std::all_of(f.dependencies->begin(), f.dependencies->end(),
                     [](const VarRef& v) { return v.block == Block::state; });
}

std::vector<std::size_t> sorted_unique(std::vector<std::size_t> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The kinematic block of the states S (model_dae.h): groups other than
// `constraint` of one formulation whose dependencies hold derivatives of S
// only (at least one), states, no algebraic variable; matched to S by
// augmenting paths (Kuhn). Returns per state of S its group, or an empty
// vector when S cannot be matched completely.
std::vector<std::size_t> kinematic_block(const ModelDae& dae, std::size_t constraint,
                                         const std::vector<std::size_t>& s_states) {
  const std::size_t n = dae.input.states.size();
  std::vector<std::size_t> local(n, structure::no_index);
  for (std::size_t k = 0; k < s_states.size(); ++k) local[s_states[k]] = k;
  std::vector<std::size_t> candidate_group;
  std::vector<std::vector<std::size_t>> reaches;  // per candidate: the local S indices of its derivatives
  for (std::size_t g = 0; g < dae.input.residuals.size(); ++g) {
    const auto& forms = dae.input.residuals[g].formulations;
    if (g == constraint || forms.size() != 1 || !forms[0].dependencies) continue;
    std::vector<std::size_t> derivs;
    bool fits = true;
    for (const VarRef& v : *forms[0].dependencies) {
      if (v.block == Block::algebraic || (v.block == Block::derivative && local[v.index] == structure::no_index))
        fits = false;
      else if (v.block == Block::derivative)
        derivs.push_back(local[v.index]);
    }
    if (!fits || derivs.empty()) continue;
    candidate_group.push_back(g);
    reaches.push_back(sorted_unique(std::move(derivs)));
  }
  std::vector<std::size_t> state_to_candidate(s_states.size(), structure::no_index);
  std::vector<std::size_t> candidate_to_state(candidate_group.size(), structure::no_index);
  std::vector<bool> visited;
  std::function<bool(std::size_t)> augment = [&](std::size_t c) {
    for (const std::size_t s : reaches[c]) {
      if (visited[s]) continue;
      visited[s] = true;
      if (state_to_candidate[s] == structure::no_index || augment(state_to_candidate[s])) {
        state_to_candidate[s] = c;
        candidate_to_state[c] = s;
        return true;
      }
    }
    return false;
  };
  for (std::size_t c = 0; c < candidate_group.size(); ++c) {
    visited.assign(s_states.size(), false);
    augment(c);
  }
  std::vector<std::size_t> out;
  for (const std::size_t c : state_to_candidate) {
    if (c == structure::no_index) return {};
    out.push_back(candidate_group[c]);
  }
  return out;
}

// Appends the synthesized formulations of group g when its last formulation
// depends on states only (model_dae.h).
void add_synthesized(ModelDae& dae, std::size_t g) {
  structure::ResidualInput& r = dae.input.residuals[g];
  structure::FormulationInput& last = r.formulations.back();
  if (!states_only(last)) return;
  ModelDae::Synthesis syn;
  syn.group = g;
  syn.first_level = r.formulations.size();
  syn.residual = dae.residual_vrs[g].back();
  syn.name = last.name;
  for (const VarRef& v : *last.dependencies) syn.states.push_back(v.index);
  syn.states = sorted_unique(std::move(syn.states));
  const std::string gname = last.name;
  auto derivative_names = [&](const std::vector<std::size_t>& states) {
    std::string out;
    for (const std::size_t i : states) {
      const auto& st = dae.input.states[i];
      out += (out.empty() ? "" : ", ") +
             (st.derivative_name.empty() ? "der(" + st.name + ")" : st.derivative_name);
    }
    return out;
  };
  const std::vector<std::size_t> block = kinematic_block(dae, g, syn.states);
  auto add = [&](std::string name, std::vector<VarRef> deps) {
    structure::FormulationInput d;
    d.name = std::move(name);
    d.synthesized = true;
    // A synthesized row varies with everything it depends on: no constant entries.
    dae.residual_kinds[g].emplace_back(deps.size(), DependencyKind::dependent);
    d.dependencies = std::move(deps);
    r.formulations.push_back(std::move(d));
    dae.residual_vrs[g].push_back(syn.residual);
    dae.synthesized[g].push_back(true);
  };
  const std::string d1 = "d/dt(" + gname + ")";
  if (block.empty()) {
    dae.input.notes.push_back("\"" + d1 + "\" is not provided by the FMU: lsdae synthesizes it (d/dt " + gname +
                              " = ∂" + gname + "/∂x·ẋ + ∂" + gname + "/∂t by central differences of " + gname +
                              " along (1, ẋ), error O(h²))");
    std::vector<VarRef> deps;
    for (const VarRef& v : *last.dependencies) {
      deps.push_back(structure::derivative_of(v.index));
      deps.push_back(v);
    }
    add(d1, std::move(deps));
    r.formulations.back().not_differentiable =
        "lsdae synthesizes one level only here: \"" + d1 + "\" contains " + derivative_names(syn.states) +
        ", and a second derivative needs residuals that give them from the states alone (a kinematic block "
        "such as der(r) = u: one residual per derivative, with no algebraic variable and no other "
        "derivative); this FMU has none";
    dae.synthesis.push_back(std::move(syn));
    return;
  }
  std::vector<std::size_t> block_states;
  for (const std::size_t kg : block) {
    syn.kinematic_vrs.push_back(dae.residual_vrs[kg][0]);
    syn.kinematic_names.push_back(dae.input.residuals[kg].formulations[0].name);
    for (const VarRef& v : *dae.input.residuals[kg].formulations[0].dependencies)
      if (v.block == Block::state) block_states.push_back(v.index);
  }
  syn.kinematic_states = sorted_unique(block_states);
  std::string block_names;
  for (const auto& name : syn.kinematic_names) block_names += (block_names.empty() ? "\"" : ", \"") + name + "\"";
  const std::string d2 = "d2/dt2(" + gname + ")";
  const std::string phi = derivative_names(syn.states) + " = φ(t, x) from " + block_names;
  dae.input.notes.push_back("\"" + d1 + "\" is not provided by the FMU: lsdae synthesizes it as a function of the "
                            "states (∂" + gname + "/∂t + ∂" + gname + "/∂x·φ with " + phi +
                            ", solved by Newton; a 4-point difference of " + gname + " along (1, φ), error O(h⁴))");
  dae.input.notes.push_back("\"" + d2 + "\" is not provided by the FMU: lsdae synthesizes it (d/dt of \"" + d1 +
                            "\" along (1, ẋ): a 7-point second difference of " + gname +
                            " along t + τ, x + τ·φ + τ²/2·φ̇, error O(h⁶))");
  std::vector<std::size_t> x_states = syn.states;
  x_states.insert(x_states.end(), syn.kinematic_states.begin(), syn.kinematic_states.end());
  x_states = sorted_unique(std::move(x_states));
  std::vector<VarRef> deps1, deps2;
  for (const std::size_t i : x_states) deps1.push_back(structure::state(i));
  for (const std::size_t i : syn.kinematic_states) deps2.push_back(structure::derivative_of(i));
  deps2.insert(deps2.end(), deps1.begin(), deps1.end());
  add(d1, std::move(deps1));
  add(d2, std::move(deps2));
  dae.synthesis.push_back(std::move(syn));
}

}  // namespace

const ModelDae::Synthesis* ModelDae::synthesis_of(std::size_t group, std::size_t level, std::size_t* order) const {
  if (!is_synthesized(group, level)) return nullptr;
  for (const Synthesis& s : synthesis)
    if (s.group == group) {
      if (order != nullptr) *order = level + 1 - s.first_level;
      return &s;
    }
  return nullptr;
}

ModelDae build_model_dae(const Model& model, bool synthesize_derivatives) {
  const ModelDescription& md = model.model_description();
  const Manifest& manifest = model.manifest();
  ModelDae dae;
  dae.state_vrs = model.states();
  dae.derivative_vrs = model.derivatives();
  for (const auto& a : manifest.algebraic_variables) dae.algebraic_vrs.push_back(a.value_reference);
  dae.fully_implicit = is_fully_implicit(model.form());
  dae.state_stands_for_derivative = model.form() == DaeForm::fully_implicit_openmodelica;
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
    s.name = model.state_name(i);
    s.derivative_name = model.derivative_name(i);
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
    dae.input.residuals.push_back(std::move(r));
    dae.residual_vrs.push_back(std::move(vrs));
    dae.synthesized.emplace_back(dae.residual_vrs.back().size(), false);
  }
  if (synthesize_derivatives && dae.fully_implicit && !dae.state_stands_for_derivative)
    for (std::size_t g = 0; g < dae.input.residuals.size(); ++g) add_synthesized(dae, g);
  for (const auto& inv : manifest.invariants) {
    kinds_out = &dae.invariant_kinds.emplace_back();
    dae.input.invariants.push_back({name_of(inv.value_reference), map_deps(inv), std::nullopt, std::nullopt});
    kinds_out = nullptr;
    dae.invariant_vrs.push_back(inv.value_reference);
  }
  return dae;
}

DaePoint empty_point(const ModelDae& dae, double t) {
  DaePoint p;
  p.t = t;
  p.x.assign(dae.state_vrs.size(), 0.0);
  p.xdot.assign(dae.state_vrs.size(), 0.0);
  p.z.assign(dae.algebraic_vrs.size(), 0.0);
  return p;
}

void read_point(Instance& instance, const ModelDae& dae, PointRead what, DaePoint& p) {
  const bool everything = what == PointRead::everything;
  if (!p.x.empty()) instance.get_continuous_states(p.x);
  if (everything && !p.z.empty()) instance.get_float64(dae.algebraic_vrs, p.z);
  if (p.x.empty() || (dae.fully_implicit && !everything)) return;
  std::vector<double> xdot(p.xdot.size());
  const CallStatus status = dae.fully_implicit ? instance.get_float64(dae.derivative_vrs, xdot)
                                               : instance.get_continuous_state_derivatives(xdot);
  if (status != CallStatus::ok) return;
  for (std::size_t i = 0; i < xdot.size(); ++i)
    if (std::isfinite(xdot[i])) p.xdot[i] = xdot[i];
}

}  // namespace lsdae::simulation
