// runtime/import/validate_manifest.cpp -- the validator's FMI-LS-DAE manifest rules
// (validator.h): the enable switch, algebraic variables, residuals and their formulations,
// invariants, and the DAE form they give (dae_form.h). Severities as validate.cpp's head says.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "import/dae_form.h"
#include "import/validator.h"

namespace lsdae::import::validation {

void Validator::check_manifest() {
  for (const auto& group : m_.residuals)
    for (const auto& f : group.formulations) residual_vrs_.insert(f.residual.value_reference);
  // The enable switch. lsdae sets it with fmi3SetBoolean in Configuration
  // Mode, so a dangling or non-Boolean switch stops simulation: error.
  // "Boolean structural parameter, start false" is the exporters'
  // convention (shared notes; the alpha.1 text names an "enable DAE
  // parameter"), not a "must" of the text: warning.
  if (m_.enable_dae) {
    const Variable* sw = var(*m_.enable_dae);
    if (sw == nullptr) {
      d_.error(kMf, m_.enable_dae_line,
               "the DAE enable switch references valueReference " + vr_text(*m_.enable_dae) + ", which is no variable",
               "name the Boolean structural parameter that switches DAE mode on");
    } else {
      if (sw->type != VariableType::boolean)
        d_.error(kMf, m_.enable_dae_line,
                 "the DAE enable switch " + quoted(sw->name) + " is " + to_string(sw->type) + ", not Boolean");
      if (sw->causality != Causality::structural_parameter)
        d_.warning(kMf, m_.enable_dae_line,
                   "the DAE enable switch " + quoted(sw->name) + " has causality=" +
                       quoted(to_string(sw->causality)) + ", expected \"structuralParameter\"",
                   "lsdae sets it in Configuration Mode anyway");
      if (sw->start && *sw->start != 0.0)
        d_.warning(kMf, m_.enable_dae_line,
                   "the DAE enable switch " + quoted(sw->name) + " starts true; the FMU is in DAE mode by default");
    }
  }
  // Algebraic variables. FMI-LS-DAE: "The value reference for the algebraic
  // variable present in the ModelVariables of the modelDescription.xml."
  // lsdae writes each one as an IDA unknown: a dangling or repeated entry,
  // or one that is also a state or derivative, is an error.
  std::unordered_set<ValueReference> seen;
  for (const auto& a : m_.algebraic_variables) {
    const Variable* v = var(a.value_reference);
    if (v == nullptr) {
      d_.error(kMf, a.line,
               "<AlgebraicVariable valueReference=\"" + vr_text(a.value_reference) +
                   "\"> references no variable of modelDescription.xml",
               "fix the reference");
      continue;
    }
    if (!seen.insert(a.value_reference).second) {
      d_.error(kMf, a.line, "the algebraic variable " + quoted(v->name) + " is listed twice");
      continue;
    }
    check_dae_float(*v, a.line, "algebraic variable");
    if (state_set_.count(v->value_reference) || derivative_set_.count(v->value_reference))
      d_.error(kMf, a.line,
               "the algebraic variable " + quoted(v->name) + " is also a continuous state or a state derivative",
               "list it in one role only");
    algebraic_set_.insert(a.value_reference);
  }
  // Structure. The manifest's ModelStructure: "are *re*-defined and
  // overwrite the corresponding ModelStructure present in the
  // modelDescription.xml". Its derivatives and residuals are IDA's rows
  // (essential); its outputs, initial unknowns and event indicators are not
  // read by lsdae.
  const ModelStructure& s = m_.structure;
  for (const auto& u : s.outputs) check_unknown(kMf, u, "Output", true);
  for (const auto& u : s.continuous_state_derivatives) {
    check_unknown(kMf, u, "ContinuousStateDerivative", true, /*essential=*/true);
    if (var(u.value_reference) != nullptr && !derivative_set_.count(u.value_reference))
      d_.error(kMf, u.line,
               "<ContinuousStateDerivative> lists " + name_of(u.value_reference) +
                   ", which is not a state derivative of modelDescription.xml's ModelStructure",
               "the manifest may refine dependencies, not add states");
  }
  for (const auto& u : s.clocked_states) check_unknown(kMf, u, "ClockedState", true);
  for (const auto& u : s.initial_unknowns) check_unknown(kMf, u, "InitialUnknown", true);
  check_initial_unknowns(kMf, s.initial_unknowns, true);
  for (const auto& u : s.event_indicators) check_unknown(kMf, u, "EventIndicator", true);

  std::unordered_map<ValueReference, int> residual_lines;
  bool fully_implicit = false;
  std::size_t dense_rows = 0;
  for (const auto& group : m_.residuals) {
    std::optional<int> previous_index;
    bool some_index = false, some_without = false;
    for (const auto& f : group.formulations) {
      const Unknown& u = f.residual;
      // <Formulation valueReference>: "The value reference of the residual
      // variable, which must be present in the ModelVariables element":
      // lsdae reads it as a row of IDA's residual, error.
      check_unknown(kMf, u, "Formulation", true, /*essential=*/true);
      const Variable* v = var(u.value_reference);
      if (v != nullptr) {
        // "each formulation inside one residual element must reference
        // unique variables in the FMU": a repeated residual is a repeated
        // row, error.
        auto [it, fresh] = residual_lines.emplace(u.value_reference, u.line);
        if (!fresh)
          d_.error(kMf, u.line,
                   "the residual " + quoted(v->name) + " is listed twice (first at line " + std::to_string(it->second) + ")");
        check_dae_float(*v, u.line, "residual");
        if (algebraic_set_.count(u.value_reference) || state_set_.count(u.value_reference) ||
            derivative_set_.count(u.value_reference))
          d_.error(kMf, u.line,
                   "the residual " + quoted(v->name) + " is also a state, derivative or algebraic variable");
      }
      if (!u.dependencies) ++dense_rows;
      if (u.dependencies)
        for (ValueReference dep : *u.dependencies)
          if (derivative_set_.count(dep)) fully_implicit = true;
      // index: "Optional attribute indicating the DAE index of the original
      // constraint". Several formulations are "the same constraint
      // differentiated to successive orders": lsdae takes the document
      // order as original first, so indices that contradict that order
      // would be misread (error); a gap, a missing index or an index below
      // 1 break no rule (warning; the structural analysis computes its own).
      if (f.index) {
        some_index = true;
        if (*f.index < 1)
          d_.warning(kMf, u.line,
                     "the formulation " + name_of(u.value_reference) + " has index=\"" + std::to_string(*f.index) +
                         "\"; DAE indices start at 1",
                     "lsdae ignores it: the structural analysis computes the index itself");
        if (previous_index && *f.index >= *previous_index)
          d_.error(kMf, u.line,
                   "Formulation indices are out of order in the <Residual> at line " + std::to_string(group.line) +
                       ": " + name_of(u.value_reference) + " has index " + std::to_string(*f.index) +
                       " after index " + std::to_string(*previous_index),
                   "list the original constraint first (highest index), then each derivative (index one lower)");
        else if (previous_index && *f.index != *previous_index - 1)
          d_.warning(kMf, u.line,
                     "Formulation index jumps from " + std::to_string(*previous_index) + " to " +
                         std::to_string(*f.index) + " in the <Residual> at line " + std::to_string(group.line),
                     "each formulation should be the derivative of the one before (index one lower)");
        previous_index = f.index;
      } else {
        some_without = true;
      }
    }
    if (some_index && some_without)
      d_.warning(kMf, group.line, "some <Formulation>s of this <Residual> have an index and some do not",
                 "give every formulation of a group its index");
  }
  // <Invariant> (1.0.0-alpha.1 schema): lsdae reads it to project the
  // solution, so a dangling one is an error.
  for (const auto& u : m_.invariants) {
    check_unknown(kMf, u, "Invariant", true, /*essential=*/true);
    const Variable* v = var(u.value_reference);
    if (v != nullptr) check_dae_float(*v, u.line, "invariant");
  }
  // The form, and the OpenModelica form's count rule, in dae_form.h.
  const DaeFormReading reading = read_dae_form(m_, result_.states.size(), fully_implicit, d_);
  result_.form = reading.form;
  if (result_.form == DaeForm::semi_explicit)
    for (const auto& u : s.continuous_state_derivatives)
      if (!u.dependencies) ++dense_rows;
  if (dense_rows > 0)
    d_.warning(kMf, 1,
               count(dense_rows, "DAE-mode row") + (dense_rows == 1 ? " has" : " have") +
                   " no dependencies attribute, so " + (dense_rows == 1 ? "it counts" : "they count") +
                   " as depending on every known",
               "their Jacobian rows are dense (one evaluation per unknown per Jacobian); export dependencies to "
               "keep the Jacobian sparse");

  if (reading.counts_checked) return;
  // Counts: does the system fit one of the two forms?
  std::size_t n = result_.states.size(), m = m_.algebraic_variables.size(), rows = m_.residuals.size();
  std::size_t unknowns = fully_implicit ? n + m : m;
  std::string form = fully_implicit ? "fully implicit" : "semi-explicit";
  std::string counts = count(rows, "residual group") + ", " + count(n, "state") + ", " +
                       count(m, "algebraic variable");
  std::string fit = fully_implicit ? "the fully implicit form F(x', x, z) = 0 needs one residual per state "
                                     "derivative and algebraic variable (" + std::to_string(n + m) + ")"
                                   : "the semi-explicit form needs one residual per algebraic variable (" +
                                         std::to_string(m) + ")";
  if (rows < unknowns) {
    d_.error(kMf, 1,
             counts + ": too few residuals for the " + form + " form; " + fit,
             "structural analysis cannot match " + count(unknowns - rows, "unknown") +
                 " to any residual; add the missing residuals or algebraic-variable declarations");
  } else if (rows > unknowns) {
    std::string other = fully_implicit ? "" : (rows == n + m ? " (it fits the fully implicit count, but no "
                                                               "residual depends on a state derivative)"
                                                             : "");
    d_.warning(kMf, 1, counts + ": more residuals than the " + form + " form needs; " + fit + other,
               "structural analysis will have to treat " + count(rows - unknowns, "residual") +
                   " as constraints on the states (a higher-index system: some state derivatives "
                   "become algebraic) or report them as redundant");
  }
}

void Validator::check_dae_float(const Variable& v, int line, const char* role) {
  if (v.type != VariableType::float64)
    d_.error(kMf, line, std::string("the ") + role + " " + quoted(v.name) + " is " + to_string(v.type),
             "FMI-LS-DAE requires Float64");
  if (v.causality != Causality::local && v.causality != Causality::output)
    d_.warning(kMf, line,
               std::string("the ") + role + " " + quoted(v.name) + " has causality=" + quoted(to_string(v.causality)),
               "it should be local or output; lsdae uses it anyway");
  if (v.variability != Variability::continuous)
    d_.error(kMf, line,
             std::string("the ") + role + " " + quoted(v.name) + " has variability=" +
                 quoted(to_string(v.variability)),
             "it must be continuous");
}

}  // namespace lsdae::import::validation
