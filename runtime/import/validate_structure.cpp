// runtime/import/validate_structure.cpp -- the validator's <ModelStructure> rules (validator.h):
// the state vector (ContinuousStateDerivative), dependencies and dependenciesKind of every
// unknown, outputs, event indicators, initial unknowns. Severities as validate.cpp's head says.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "import/validator.h"

namespace lsdae::import::validation {

void Validator::check_unknown(const std::string& file, const Unknown& u, const char* element, bool dae, bool essential) {
  if (var(u.value_reference) == nullptr) {
    std::string message = std::string("<") + element + " valueReference=\"" + vr_text(u.value_reference) +
                          "\"> references no variable of modelDescription.xml";
    if (essential) d_.error(file, u.line, message, "fix the reference");
    else d_.conformance(file, u.line, message, "fix the reference");
    return;
  }
  // dependenciesKind: "If dependenciesKind is present, dependencies must be
  // present and must have the same number of list elements." lsdae reads
  // only `dependencies`: conformance.
  if (!u.dependencies) {
    if (u.dependencies_kind)
      d_.conformance(file, u.line,
                     std::string("<") + element + "> for " + name_of(u.value_reference) +
                         " has dependenciesKind but no dependencies",
                     "add dependencies or remove dependenciesKind");
    return;
  }
  if (u.dependencies_kind && u.dependencies_kind->size() != u.dependencies->size())
    d_.conformance(file, u.line,
                   std::string("<") + element + "> for " + name_of(u.value_reference) + " lists " +
                       count(u.dependencies->size(), "dependency", "dependencies") + " but " +
                       count(u.dependencies_kind->size(), "dependenciesKind entry", "dependenciesKind entries"),
                   "give one kind per dependency");
  // Repeats are found with a stamp per variable (one array for all
  // unknowns, not a hash set per unknown: 35 000 unknowns on a grid model).
  if (++dependency_epoch_ == 0 || dependency_stamp_.size() != md_.variables.size()) {
    dependency_stamp_.assign(md_.variables.size(), 0);
    dependency_epoch_ = 1;
  }
  for (ValueReference dep : *u.dependencies) {
    // dependencies: "the unknown depends on the knowns defined by the given
    // value references". lsdae drops a reference to no variable from the
    // sparsity pattern (no unknown of its can be meant): conformance.
    const Variable* k = var(dep);
    if (k == nullptr) {
      d_.conformance(file, u.line,
                     std::string("<") + element + "> for " + name_of(u.value_reference) + " depends on valueReference " +
                         vr_text(dep) + ", which references no variable",
                     "fix the dependencies list");
      continue;
    }
    // A repeated entry breaks no rule: warning.
    std::uint32_t& stamp = dependency_stamp_[static_cast<std::size_t>(k - md_.variables.data())];
    const bool repeated = stamp == dependency_epoch_;
    stamp = dependency_epoch_;
    if (repeated)
      d_.warning(file, u.line,
                 std::string("<") + element + "> for " + name_of(u.value_reference) + " lists " + quoted(k->name) +
                     " twice");
    // "Knowns ... are: inputs, continuous states and discrete-time states,
    // parameters, independent variable" (FMI-LS-DAE adds algebraic
    // variables and, draft 0.1, state derivatives). A list, not a "must":
    // warning.
    if (!is_known(dep, dae)) {
      // In DAE mode a continuous Float that is not a state is most likely an
      // algebraic variable the manifest forgot to declare (the published
      // fmi-ls-dae example does this): say so.
      const bool undeclared_algebraic = dae && is_float(k->type) && k->variability == Variability::continuous &&
                                        !derivative_set_.count(dep) && !residual_vrs_.count(dep);
      d_.warning(file, u.line,
                 std::string("<") + element + "> for " + name_of(u.value_reference) + " depends on " +
                     quoted(k->name) + ", which is not a known in " + (dae ? "DAE" : "ODE") + " mode" +
                     (undeclared_algebraic ? " (it is not declared in <AlgebraicVariables>)" : ""),
                 undeclared_algebraic
                     ? "if " + quoted(k->name) + " is an algebraic variable of the DAE, add <AlgebraicVariable "
                       "valueReference=\"" + vr_text(dep) + "\"/>; lsdae leaves it out of the Jacobian pattern"
                     : "dependencies list knowns: time, inputs, states, parameters" +
                           std::string(dae ? ", algebraic variables and (fully implicit) derivatives" : ""));
    }
  }
}

bool Validator::is_known(ValueReference vr, bool dae) const {
  const Variable* v = var(vr);
  if (v == nullptr) return false;
  if (v->causality == Causality::independent || v->causality == Causality::input ||
      v->causality == Causality::parameter || v->causality == Causality::structural_parameter ||
      v->causality == Causality::calculated_parameter)
    return true;
  if (v->variability == Variability::constant || v->variability == Variability::fixed ||
      v->variability == Variability::tunable || v->variability == Variability::discrete)
    return true;  // discrete variables are knowns in continuous-time mode
  if (state_set_.count(vr)) return true;
  if (dae && (algebraic_set_.count(vr) || derivative_set_.count(vr))) return true;
  return false;
}

void Validator::check_initial_unknowns(const std::string& file, const std::vector<Unknown>& list, bool dae) {
  std::unordered_set<ValueReference> indicators;
  std::unordered_set<const Variable*> seen;
  for (const auto& u : md_.structure.event_indicators) indicators.insert(u.value_reference);
  for (const auto& u : list) {
    const Variable* v = listed_variable(u);
    if (v == nullptr) continue;  // reported by check_unknown
    if (!seen.insert(v).second) {
      d_.conformance(file, u.line, "<InitialUnknown> lists " + quoted(v->name) + " twice",
                     fmi() + " does not allow duplicates in this list");
      continue;
    }
    if (indicators.count(u.value_reference)) {
      d_.conformance(file, u.line, "<InitialUnknown> lists the event indicator " + quoted(v->name),
                     fmi() + ": event indicators must not be listed as InitialUnknown");
      continue;
    }
    const auto initial = effective_initial(*v);
    const bool not_exact = initial && *initial != Initial::exact;
    const bool member = (v->causality == Causality::output && v->clocks.empty() && not_exact) ||
                        v->causality == Causality::calculated_parameter ||
                        ((state_set_.count(u.value_reference) || listed_derivatives_.count(u.value_reference)) &&
                         not_exact) ||
                        !v->clocks.empty() || (dae && algebraic_set_.count(u.value_reference));
    if (!member)
      d_.warning(file, u.line,
                 "<InitialUnknown> lists " + quoted(v->name) + " (causality=" + quoted(to_string(v->causality)) +
                     ", variability=" + quoted(to_string(v->variability)) + "), which is not an unknown of "
                     "Initialization Mode",
                 "initial unknowns are outputs and states or derivatives with initial approx/calculated, "
                 "calculated parameters" + std::string(dae ? " and algebraic variables" : "") +
                     "; lsdae does not read this list");
  }
}

const Variable* Validator::listed_variable(const Unknown& u) const {
  if (u.variable_index && *u.variable_index < md_.variables.size()) return &md_.variables[*u.variable_index];
  return var(u.value_reference);
}

std::uint64_t Validator::value_key(const Variable& v) {
  return (static_cast<std::uint64_t>(v.value_reference) << 8) | static_cast<std::uint64_t>(v.type);
}

void Validator::check_core_structure() {
  const ModelStructure& s = md_.structure;
  // <Output>: "Ordered list of all outputs, in other words, a list of value
  // references where every corresponding variable must have causality =
  // output (and every variable with causality = output must be listed
  // here)" -- and "The ordering of the variables in this list is defined by
  // the exporting tool": only the set is a rule. lsdae records outputs by
  // variable, not through this list: conformance.
  std::unordered_map<const Variable*, int> listed;  // -> line of first <Output>
  std::unordered_set<std::uint64_t> listed_values;  // FMI 2.0: value_key of the listed
  for (const auto& u : s.outputs) {
    const Variable* v = listed_variable(u);
    if (v == nullptr) continue;  // reported by check_unknown
    if (md_.fmi_major == FmiVersion::fmi2) listed_values.insert(value_key(*v));
    if (!listed.emplace(v, u.line).second) {
      d_.conformance(kMd, u.line, "<Output> lists " + quoted(v->name) + " twice",
                     "list every output once");
      continue;
    }
    if (v->causality != Causality::output)
      d_.conformance(kMd, u.line,
                     "<Output> lists " + quoted(v->name) + ", whose causality is " + quoted(to_string(v->causality)),
                     "list only causality=\"output\" variables");
  }
  for (const auto& v : md_.variables)
    if (v.causality == Causality::output && !listed.count(&v) && !listed_values.count(value_key(v)))
      d_.conformance(kMd, v.line, "variable " + quoted(v.name) + " has causality=\"output\" but no <Output> lists it",
                     fmi() + " requires one <Output> per output variable (in any order)");
  // States and derivatives. <ContinuousStateDerivative>: "Ordered list of
  // value references of all derivatives of continuous states. The order
  // defined by this list defines the order of the elements for
  // fmi3GetContinuousStates ..."; "All variables listed in these elements
  // must have attribute derivative." This list is lsdae's state vector:
  // every rule on it is an error.
  std::unordered_set<ValueReference> seen_derivatives;
  for (const auto& u : s.continuous_state_derivatives) {
    const Variable* der = var(u.value_reference);
    if (der == nullptr) continue;  // reported by check_unknown
    if (!seen_derivatives.insert(u.value_reference).second) {
      d_.error(kMd, u.line, "<ContinuousStateDerivative> lists " + quoted(der->name) + " twice");
      continue;
    }
    if (!der->derivative) {
      d_.error(kMd, u.line,
               "<ContinuousStateDerivative> lists " + quoted(der->name) +
                   ", which has no derivative attribute, so its state is unknown",
               "add derivative=\"<valueReference of the state>\" to the variable");
      continue;
    }
    // "Note that only continuous floating point variables are listed here."
    if (der->variability != Variability::continuous || !is_float(der->type)) {
      d_.error(kMd, u.line, "the state derivative " + quoted(der->name) + " is not a continuous Float variable");
      continue;
    }
    const Variable* state = var(*der->derivative);
    if (state == nullptr) continue;  // reported by check_variable
    if (!state_set_.insert(state->value_reference).second) {
      d_.error(kMd, u.line, "the state " + quoted(state->name) + " has two derivatives listed");
      continue;
    }
    result_.states.push_back(state->value_reference);
    result_.derivatives.push_back(der->value_reference);
    derivative_set_.insert(der->value_reference);
  }
  for (const auto& u : s.outputs) check_unknown(kMd, u, "Output", false);
  for (const auto& u : s.continuous_state_derivatives)
    check_unknown(kMd, u, "ContinuousStateDerivative", false, /*essential=*/true);
  for (const auto& u : s.clocked_states) check_unknown(kMd, u, "ClockedState", false);
  for (const auto& u : s.initial_unknowns) check_unknown(kMd, u, "InitialUnknown", false);
  check_initial_unknowns(kMd, s.initial_unknowns, false);
  for (const auto& u : s.event_indicators) {
    check_unknown(kMd, u, "EventIndicator", false);
    // "Only continuous variables of type Float32 and Float64 can be
    // referenced by EventIndicator." lsdae reads the indicators through
    // fmi3GetEventIndicators, not by value reference: conformance.
    const Variable* v = var(u.value_reference);
    if (v != nullptr && (!is_float(v->type) || v->variability != Variability::continuous))
      d_.conformance(kMd, u.line, "the event indicator " + quoted(v->name) + " is not a continuous Float variable");
  }
  // dependencies: "If not present, it must be assumed that the unknown
  // depends on all knowns." Legal, but costly: warning.
  for (const auto& u : s.continuous_state_derivatives)
    if (!u.dependencies) ++dense_ode_rows_;
  if (dense_ode_rows_ > 0 && !m_.present())
    d_.warning(kMd, 1,
               std::to_string(dense_ode_rows_) + " of " +
                   count(s.continuous_state_derivatives.size(), "state derivative") +
                   (dense_ode_rows_ == 1 ? " has" : " have") +
                   " no dependencies attribute, so " + (dense_ode_rows_ == 1 ? "it counts" : "they count") +
                   " as depending on everything",
               "the Jacobian of those rows is dense: each costs one column evaluation per state; export "
               "dependencies to get a sparse Jacobian");
}

}  // namespace lsdae::import::validation
