// runtime/system/composite_directional.cpp -- the directional derivatives of
// a system of FMUs: CompositeInstance::get_directional_derivative
// (composite_instance.h states the rules; docs/systems.md).
//
// d(row)/d(known)·seed is linear in the seed, so every unknown of the call is
// a fixed sum of terms, each a factor times either a seed of the call (a
// system unknown x, ẋ or z is a known of every row: its own derivative is its
// seed) or one component's directional derivative of one of its variables
// at the seeds that fall on that component. A component without a seeded
// known contributes zeros and is not called, which keeps a coloured column
// group of a system cheap: only the components its columns touch are asked.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "lsdae/error.h"
#include "system/composite_instance.h"

namespace lsdae::system {

namespace {
using Kind = Global::Kind;
constexpr std::size_t kDerivativePlansKept = 16;
}  // namespace

CompositeInstance::DerivativePlan& CompositeInstance::derivative_plan_for(std::span<const ValueReference> unknowns) {
  for (std::size_t k = 0; k < derivative_plans_.size(); ++k) {
    DerivativePlan& p = *derivative_plans_[k];
    if (p.key.size() != unknowns.size() || !std::equal(unknowns.begin(), unknowns.end(), p.key.begin())) continue;
    if (k != 0)
      std::rotate(derivative_plans_.begin(), derivative_plans_.begin() + static_cast<std::ptrdiff_t>(k),
                  derivative_plans_.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    return *derivative_plans_.front();
  }
  auto plan = std::make_unique<DerivativePlan>();
  DerivativePlan& p = *plan;
  p.key.assign(unknowns.begin(), unknowns.end());
  p.parts.resize(parts_.size());
  // While building, a component term's index is (component, position in its
  // local list); the slots are laid out once every list is known.
  std::vector<std::uint32_t> term_component;
  std::vector<std::unordered_map<ValueReference, std::size_t>> position(parts_.size());
  auto component_term = [&](std::uint32_t c, ValueReference local, double factor) {
    auto [it, fresh] = position[c].emplace(local, p.parts[c].local.size());
    if (fresh) p.parts[c].local.push_back(local);
    p.terms.push_back({false, it->second, factor});
    term_component.push_back(c);
  };
  auto seed_term = [&](ValueReference global, double factor) {
    p.terms.push_back({true, global, factor});
    term_component.push_back(0);
  };
  // The derivative of the value a system vr reads as (get_float64): a
  // kept ẋ reads as the component's f, a system unknown as itself, any other
  // component variable as the component computes it.
  auto value_term = [&](ValueReference global, double factor) {
    const Global& g = composition_.globals[global];
    if (g.kind == Kind::kept_derivative) component_term(g.component, g.local, factor);
    else if (system_unknown_[global] != 0) seed_term(global, factor);
    else component_term(g.component, g.local, factor);
  };
  for (ValueReference vr : unknowns) {
    if (vr >= composition_.globals.size())
      throw Error(ErrorKind::usage, "instance \"" + name() + "\": get_directional_derivative: unknown value reference " +
                                        std::to_string(vr) + " is not one of the system's (" +
                                        std::to_string(composition_.globals.size()) + ") → use a name");
    p.first_term.push_back(p.terms.size());
    const Global& g = composition_.globals[vr];
    switch (g.kind) {
      case Kind::component:
      case Kind::kept_derivative: value_term(vr, 1.0); break;
      case Kind::state_row: {  // ẋ_i − f_i
        const ValueReference der = composition_.derivatives[g.state];
        seed_term(der, 1.0);
        component_term(composition_.globals[der].component, composition_.globals[der].local, -1.0);
        break;
      }
      case Kind::connection_row: {  // to − factor·from − offset
        const ResolvedConnection& c = composition_.continuous[g.index];
        value_term(c.to.global, 1.0);
        value_term(c.from.global, -c.factor);
        break;
      }
      case Kind::potential_row: {  // p_1 − p_k
        const ResolvedCoupling& c = composition_.couplings[g.index];
        value_term(c.potentials[0].global, 1.0);
        value_term(c.potentials[g.port].global, -1.0);
        break;
      }
      case Kind::flow_row:  // Σ f_k
        for (const Endpoint& f : composition_.couplings[g.index].flows) value_term(f.global, 1.0);
        break;
    }
  }
  p.first_term.push_back(p.terms.size());
  std::size_t next = 0;
  for (std::uint32_t c = 0; c < parts_.size(); ++c) {
    p.parts[c].first_slot = next;
    next += p.parts[c].local.size();
    if (!p.parts[c].local.empty()) p.called.push_back(c);
  }
  p.slots.resize(next);
  for (std::size_t k = 0; k < p.terms.size(); ++k)
    if (!p.terms[k].seed) p.terms[k].index += p.parts[term_component[k]].first_slot;
  if (derivative_plans_.size() == kDerivativePlansKept) derivative_plans_.pop_back();  // the least recently used
  derivative_plans_.push_back(std::move(plan));
  std::rotate(derivative_plans_.begin(), derivative_plans_.end() - 1, derivative_plans_.end());
  return p;
}

CallStatus CompositeInstance::difference_along_seed(std::uint32_t c, std::span<const ValueReference> unknowns,
                                                    std::span<double> out) {
  DifferenceScratch& w = difference_[c];
  Instance& part = *parts_[c];
  const ComponentPart& cp = composition_.components[c];
  const std::vector<ValueReference>& knowns = known_local_[c];
  const std::vector<double>& seed = known_seed_[c];
  // The current point: the component's states, and its other seeded knowns.
  w.vrs.clear();
  w.seeds.clear();
  w.state_of.clear();
  w.x0.resize(cp.state_count);
  bool moves_states = false;
  double seed_max = 0.0;
  for (std::size_t k = 0; k < knowns.size(); ++k) {
    seed_max = std::max(seed_max, std::fabs(seed[k]));
    auto it = state_index_[c].find(knowns[k]);
    w.state_of.push_back(it == state_index_[c].end() ? std::string::npos : it->second);
    if (it != state_index_[c].end()) {
      moves_states = true;
    } else {
      w.vrs.push_back(knowns[k]);
      w.seeds.push_back(seed[k]);
    }
  }
  if (seed_max == 0.0) {
    std::fill(out.begin(), out.end(), 0.0);
    return CallStatus::ok;
  }
  CallStatus status = CallStatus::ok;
  if (moves_states) status = worst_of(status, part.get_continuous_states(w.x0));
  w.v0.resize(w.vrs.size());
  if (!w.vrs.empty()) status = worst_of(status, part.get_float64(w.vrs, w.v0));
  // h = ε^(1/3)·(the largest scale of a seeded known) / (the largest seed).
  double scale = 0.0;
  for (std::size_t k = 0, j = 0; k < knowns.size(); ++k) {
    const double value = w.state_of[k] != std::string::npos ? w.x0[w.state_of[k]] : w.v0[j++];
    auto nominal = nominal_[c].find(knowns[k]);
    scale = std::max({scale, std::fabs(value), nominal == nominal_[c].end() ? 1.0 : nominal->second});
  }
  const double h = std::cbrt(std::numeric_limits<double>::epsilon()) * scale / seed_max;
  // Writes v + step·s, reads the unknowns into `into`.
  auto evaluate_at = [&](double step, std::span<double> into) {
    CallStatus st = CallStatus::ok;
    if (moves_states) {
      w.x = w.x0;
      for (std::size_t k = 0; k < knowns.size(); ++k)
        if (w.state_of[k] != std::string::npos) w.x[w.state_of[k]] += step * seed[k];
      st = worst_of(st, part.set_continuous_states(w.x));
    }
    if (!w.vrs.empty()) {
      w.v.resize(w.vrs.size());
      for (std::size_t j = 0; j < w.vrs.size(); ++j) w.v[j] = w.v0[j] + step * w.seeds[j];
      st = worst_of(st, part.set_float64(w.vrs, w.v));
    }
    return worst_of(st, part.get_float64(unknowns, into));
  };
  w.up.resize(unknowns.size());
  status = worst_of(status, evaluate_at(h, w.up));
  status = worst_of(status, evaluate_at(-h, out));
  // Back at the point (the same values, so the component is where it was).
  if (moves_states) status = worst_of(status, part.set_continuous_states(w.x0));
  if (!w.vrs.empty()) status = worst_of(status, part.set_float64(w.vrs, w.v0));
  for (std::size_t i = 0; i < unknowns.size(); ++i) out[i] = (w.up[i] - out[i]) / (2.0 * h);
  return status;
}

CallStatus CompositeInstance::get_directional_derivative(std::span<const ValueReference> unknowns,
                                                         std::span<const ValueReference> knowns,
                                                         std::span<const double> seed,
                                                         std::span<double> sensitivity) {
  if (!provides_directional_derivatives()) {
    const std::string why = model_->directional_derivatives_note();
    throw Error(ErrorKind::usage, "instance \"" + name() + "\": " + model_display_name() + ": " +
                                      (why.empty() ? "no directional derivatives" : why) +
                                      " → use finite differences (--jacobian fd)");
  }
  require_count("get_directional_derivative (knowns/seed)", knowns, seed.size());
  require_count("get_directional_derivative (unknowns/sensitivity)", unknowns, sensitivity.size());
  // The previous call's seeds are cleared here, so that a throw leaves none behind.
  for (ValueReference vr : seeded_) seed_of_[vr] = 0.0;
  seeded_.clear();
  for (auto& l : known_local_) l.clear();
  for (auto& s : known_seed_) s.clear();
  for (std::size_t i = 0; i < knowns.size(); ++i) {
    const ValueReference vr = knowns[i];
    if (vr >= composition_.globals.size())
      throw Error(ErrorKind::usage, "instance \"" + name() + "\": get_directional_derivative: known value reference " +
                                        std::to_string(vr) + " is not one of the system's (" +
                                        std::to_string(composition_.globals.size()) + ") → use a name");
    const Global& g = composition_.globals[vr];
    if (g.kind == Kind::component) {
      known_local_[g.component].push_back(g.local);
      known_seed_[g.component].push_back(seed[i]);
    } else if (g.kind != Kind::kept_derivative) {  // a kept ẋ is no known of its FMU: only its state row sees it
      not_a_component_variable(vr, "a residual (an unknown, not a known)");
    }
    seed_of_[vr] += seed[i];
    seeded_.push_back(vr);
  }
  DerivativePlan& p = derivative_plan_for(unknowns);
  // Each component writes its own slots only (in parallel: composite_instance.h).
  const CallStatus status = for_components(p.called, p.work, [&](std::uint32_t c) {
    const DerivativePlan::Part& part = p.parts[c];
    const std::span<double> out = std::span<double>(p.slots).subspan(part.first_slot, part.local.size());
    if (known_local_[c].empty()) {
      std::fill(out.begin(), out.end(), 0.0);
      return CallStatus::ok;
    }
    if (by_differences_[c] != 0) return difference_along_seed(c, part.local, out);
    return parts_[c]->get_directional_derivative(part.local, known_local_[c], known_seed_[c], out);
  });
  for (std::size_t i = 0; i < unknowns.size(); ++i) {
    double sum = 0.0;
    for (std::size_t k = p.first_term[i]; k < p.first_term[i + 1]; ++k) {
      const DerivativePlan::Term& t = p.terms[k];
      sum += t.factor * (t.seed ? seed_of_[t.index] : p.slots[t.index]);
    }
    sensitivity[i] = sum;
  }
  return status;
}

}  // namespace lsdae::system
