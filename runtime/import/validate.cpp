// runtime/import/validate.cpp -- see validate.h.
#include "import/validate.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "import/dae_form.h"
#include "import/manifest_parser.h"
#include "import/model_description_parser.h"

namespace lsdae::import {

namespace {

const std::string kMd = kModelDescriptionFile;
const std::string kMf = kManifestFile;

std::string quoted(const std::string& s) { return "\"" + s + "\""; }
std::string vr_text(ValueReference vr) { return std::to_string(vr); }
// Shortest text that reads back as the same double ("0.1", "1e-08", "-1").
std::string num(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

class Validator {
 public:
  Validator(const ModelDescription& md, const Manifest& m, Diagnostics& d) : md_(md), m_(m), d_(d) {}

  ValidationResult run() {
    check_model_attributes();
    check_variables();
    check_core_structure();
    if (m_.present()) check_manifest();
    return result_;
  }

 private:
  const Variable* var(ValueReference vr) const { return md_.find(vr); }
  std::string name_of(ValueReference vr) const {
    const Variable* v = var(vr);
    return v != nullptr ? quoted(v->name) : "valueReference " + vr_text(vr);
  }

  void check_model_attributes() {
    if (!md_.model_exchange) {
      d_.error(kMd, 1,
               std::string("the FMU has no <ModelExchange> element") +
                   (md_.has_co_simulation ? " (it is a Co-Simulation FMU)" : ""),
               "lsdae simulates FMI 3.0 Model Exchange FMUs; re-export the model for Model Exchange");
    } else {
      const std::string& id = md_.model_exchange->model_identifier;
      bool ok = !id.empty() && (std::isalpha(static_cast<unsigned char>(id[0])) || id[0] == '_');
      for (char c : id) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      if (!ok)
        d_.error(kMd, md_.model_exchange->line,
                 "modelIdentifier=" + quoted(id) + " is not a valid C identifier, so it cannot name the binary",
                 "use letters, digits and underscores only");
      if (md_.model_exchange->needs_execution_tool)
        d_.warning(kMd, md_.model_exchange->line, "needsExecutionTool=\"true\": the FMU needs its exporting tool",
                   "make sure that tool is installed and licensed on this machine");
    }
    if (md_.instantiation_token.empty())
      d_.error(kMd, 1, "instantiationToken is empty", "re-export the FMU; the token ties the XML to its binary");
    const auto& e = md_.default_experiment;
    if (e.start_time && e.stop_time && *e.stop_time < *e.start_time)
      d_.error(kMd, 1,
               "DefaultExperiment stopTime=" + num(*e.stop_time) + " is before startTime=" +
                   num(*e.start_time),
               "fix the experiment or pass --start/--stop");
    if (e.tolerance && !(*e.tolerance > 0))
      d_.error(kMd, 1, "DefaultExperiment tolerance=" + num(*e.tolerance) + " is not positive");
    if (e.step_size && !(*e.step_size > 0))
      d_.error(kMd, 1, "DefaultExperiment stepSize=" + num(*e.step_size) + " is not positive");
  }

  void check_variables() {
    std::unordered_map<ValueReference, const Variable*> by_vr;
    std::unordered_map<std::string, const Variable*> by_name;
    std::unordered_set<std::string> type_names;
    for (const auto& t : md_.types) type_names.insert(t.name);
    int independents = 0;
    for (const auto& v : md_.variables) {
      auto [it, fresh] = by_vr.emplace(v.value_reference, &v);
      if (!fresh)
        d_.error(kMd, v.line,
                 "variables " + quoted(it->second->name) + " (line " + std::to_string(it->second->line) + ") and " +
                     quoted(v.name) + " share valueReference " + vr_text(v.value_reference),
                 "give every variable its own valueReference");
      auto [nit, nfresh] = by_name.emplace(v.name, &v);
      if (!nfresh)
        d_.error(kMd, v.line,
                 "the name " + quoted(v.name) + " is used twice (first at line " + std::to_string(nit->second->line) + ")",
                 "variable names must be unique");
      check_variable(v, type_names);
      if (v.causality == Causality::independent) ++independents;
    }
    if (independents == 0)
      d_.error(kMd, 1, "no variable has causality=\"independent\"",
               "FMI 3.0 requires exactly one independent variable (time)");
    else if (independents > 1)
      d_.error(kMd, 1, std::to_string(independents) + " variables have causality=\"independent\"",
               "FMI 3.0 allows exactly one");
  }

  void check_variable(const Variable& v, const std::unordered_set<std::string>& type_names) {
    const std::string what = "variable " + quoted(v.name);
    if (v.variability == Variability::continuous && !is_float(v.type))
      d_.error(kMd, v.line, what + " is " + to_string(v.type) + " with variability=\"continuous\"",
               "only Float32/Float64 variables can be continuous");
    if (!v.declared_type.empty() && !type_names.count(v.declared_type))
      d_.error(kMd, v.line, what + " has declaredType=" + quoted(v.declared_type) + ", but no such type is defined",
               "add it to <TypeDefinitions> or remove the attribute");
    switch (v.causality) {
      case Causality::parameter:
      case Causality::structural_parameter:
        if (v.variability != Variability::fixed && v.variability != Variability::tunable)
          d_.error(kMd, v.line,
                   what + " has causality=" + quoted(to_string(v.causality)) + " and variability=" +
                       quoted(to_string(v.variability)),
                   "parameters must be fixed or tunable");
        if (!v.start_text)
          d_.error(kMd, v.line, what + " is a parameter without start value", "add start=\"...\"");
        if (v.initial && *v.initial != Initial::exact)
          d_.error(kMd, v.line, what + " is a parameter with initial=" + quoted(to_string(*v.initial)),
                   "parameters take initial=\"exact\"");
        break;
      case Causality::calculated_parameter:
        if (v.variability != Variability::fixed && v.variability != Variability::tunable)
          d_.error(kMd, v.line, what + " is a calculatedParameter with variability=" + quoted(to_string(v.variability)),
                   "use fixed or tunable");
        break;
      case Causality::input:
        // Clock variables have no start attribute in FMI 3.0; input clocks are ticked by the importer.
        if (!v.start_text && v.type != VariableType::clock)
          d_.error(kMd, v.line, what + " is an input without start value", "add start=\"...\"");
        break;
      case Causality::independent:
        if (!is_float(v.type))
          d_.error(kMd, v.line, "the independent variable " + quoted(v.name) + " is " + to_string(v.type),
                   "it must be Float64 (or Float32)");
        if (v.start_text)
          d_.error(kMd, v.line, "the independent variable " + quoted(v.name) + " has a start value", "remove it");
        break;
      default:
        break;
    }
    if (v.variability == Variability::constant) {
      if (v.causality != Causality::output && v.causality != Causality::local)
        d_.error(kMd, v.line, what + " is constant with causality=" + quoted(to_string(v.causality)),
                 "constants must be output or local");
      if (!v.start_text) d_.error(kMd, v.line, what + " is constant without start value", "add start=\"...\"");
    }
    if (v.initial) {
      if ((*v.initial == Initial::exact || *v.initial == Initial::approx) && !v.start_text &&
          v.type != VariableType::clock)
        d_.error(kMd, v.line, what + " has initial=" + quoted(to_string(*v.initial)) + " but no start value",
                 "add start=\"...\" or use initial=\"calculated\"");
      if (*v.initial == Initial::calculated && v.start_text)
        d_.error(kMd, v.line, what + " has initial=\"calculated\" and a start value", "remove start or change initial");
    }
    if (v.min && v.max && *v.min > *v.max)
      d_.error(kMd, v.line, what + " has min=" + num(*v.min) + " > max=" + num(*v.max));
    if (v.start && v.min && *v.start < *v.min)
      d_.warning(kMd, v.line, what + " has start=" + *v.start_text + " below min=" + num(*v.min));
    if (v.start && v.max && *v.start > *v.max)
      d_.warning(kMd, v.line, what + " has start=" + *v.start_text + " above max=" + num(*v.max));
    if (v.nominal && !(*v.nominal > 0))
      d_.warning(kMd, v.line, what + " has nominal=" + num(*v.nominal) + ", which is not positive",
                 "FMI requires a positive nominal; lsdae uses 1 instead");
    if (v.derivative) {
      const Variable* state = var(*v.derivative);
      if (state == nullptr)
        d_.error(kMd, v.line,
                 what + " has derivative=\"" + vr_text(*v.derivative) + "\", but no variable has valueReference " +
                     vr_text(*v.derivative),
                 "fix the reference");
      else if (!is_float(state->type) || state->variability != Variability::continuous)
        d_.error(kMd, v.line,
                 what + " is the derivative of " + quoted(state->name) + ", which is not a continuous Float variable",
                 "derivatives must be of continuous Float variables");
    }
    if (v.previous && var(*v.previous) == nullptr)
      d_.error(kMd, v.line, what + " has previous=\"" + vr_text(*v.previous) + "\", which references no variable");
    for (ValueReference c : v.clocks) {
      const Variable* clock = var(c);
      if (clock == nullptr || clock->type != VariableType::clock)
        d_.error(kMd, v.line, what + " lists clock " + vr_text(c) + ", which is not a Clock variable");
    }
    for (const auto& dim : v.dimensions) {
      if (!dim.value_reference) continue;
      const Variable* size = var(*dim.value_reference);
      if (size == nullptr || !is_integer(size->type))
        d_.error(kMd, dim.line,
                 what + ": <Dimension valueReference=\"" + vr_text(*dim.value_reference) +
                     "\"> does not reference an integer structural parameter");
    }
  }

  // Dependencies and dependenciesKind of one unknown.
  void check_unknown(const std::string& file, const Unknown& u, const char* element, bool dae) {
    if (var(u.value_reference) == nullptr) {
      d_.error(file, u.line,
               std::string("<") + element + " valueReference=\"" + vr_text(u.value_reference) +
                   "\"> references no variable of modelDescription.xml",
               "fix the reference");
      return;
    }
    if (!u.dependencies) {
      if (u.dependencies_kind)
        d_.error(file, u.line,
                 std::string("<") + element + "> for " + name_of(u.value_reference) +
                     " has dependenciesKind but no dependencies",
                 "add dependencies or remove dependenciesKind");
      return;
    }
    if (u.dependencies_kind && u.dependencies_kind->size() != u.dependencies->size())
      d_.error(file, u.line,
               std::string("<") + element + "> for " + name_of(u.value_reference) + " lists " +
                   std::to_string(u.dependencies->size()) + " dependencies but " +
                   std::to_string(u.dependencies_kind->size()) + " dependenciesKind entries",
               "give one kind per dependency");
    std::unordered_set<ValueReference> seen;
    for (ValueReference dep : *u.dependencies) {
      const Variable* k = var(dep);
      if (k == nullptr) {
        d_.error(file, u.line,
                 std::string("<") + element + "> for " + name_of(u.value_reference) + " depends on valueReference " +
                     vr_text(dep) + ", which references no variable",
                 "fix the dependencies list");
        continue;
      }
      if (!seen.insert(dep).second)
        d_.warning(file, u.line,
                   std::string("<") + element + "> for " + name_of(u.value_reference) + " lists " + quoted(k->name) +
                       " twice");
      if (!is_known(dep, dae))
        d_.warning(file, u.line,
                   std::string("<") + element + "> for " + name_of(u.value_reference) + " depends on " +
                       quoted(k->name) + ", which is not a known in " + (dae ? "DAE" : "ODE") + " mode",
                   "dependencies list knowns: time, inputs, states, parameters" +
                       std::string(dae ? ", algebraic variables and (fully implicit) derivatives" : ""));
    }
  }

  bool is_known(ValueReference vr, bool dae) const {
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

  void check_core_structure() {
    const ModelStructure& s = md_.structure;
    // Outputs: exactly the causality="output" variables, in order.
    std::vector<ValueReference> declared_outputs;
    for (const auto& v : md_.variables)
      if (v.causality == Causality::output) declared_outputs.push_back(v.value_reference);
    std::vector<ValueReference> listed;
    for (const auto& u : s.outputs) {
      listed.push_back(u.value_reference);
      const Variable* v = var(u.value_reference);
      if (v != nullptr && v->causality != Causality::output)
        d_.error(kMd, u.line, "<Output> lists " + quoted(v->name) + ", whose causality is " +
                                  quoted(to_string(v->causality)),
                 "list only causality=\"output\" variables");
    }
    if (listed != declared_outputs)
      d_.error(kMd, 1,
               "<ModelStructure> lists " + std::to_string(listed.size()) + " <Output>s, but " +
                   std::to_string(declared_outputs.size()) + " variables have causality=\"output\" (or the order differs)",
               "FMI 3.0 requires one <Output> per output, in ModelVariables order");
    // States and derivatives.
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
      if (der->variability != Variability::continuous || !is_float(der->type)) {
        d_.error(kMd, u.line, "the state derivative " + quoted(der->name) + " is not a continuous Float variable");
        continue;
      }
      const Variable* state = var(*der->derivative);
      if (state == nullptr) continue;
      if (!state_set_.insert(state->value_reference).second) {
        d_.error(kMd, u.line, "the state " + quoted(state->name) + " has two derivatives listed");
        continue;
      }
      result_.states.push_back(state->value_reference);
      result_.derivatives.push_back(der->value_reference);
      derivative_set_.insert(der->value_reference);
    }
    for (const auto& u : s.outputs) check_unknown(kMd, u, "Output", false);
    for (const auto& u : s.continuous_state_derivatives) check_unknown(kMd, u, "ContinuousStateDerivative", false);
    for (const auto& u : s.clocked_states) check_unknown(kMd, u, "ClockedState", false);
    for (const auto& u : s.initial_unknowns) check_unknown(kMd, u, "InitialUnknown", false);
    for (const auto& u : s.event_indicators) {
      check_unknown(kMd, u, "EventIndicator", false);
      const Variable* v = var(u.value_reference);
      if (v != nullptr && (!is_float(v->type) || v->variability != Variability::continuous))
        d_.error(kMd, u.line, "the event indicator " + quoted(v->name) + " is not a continuous Float variable");
    }
    for (const auto& u : s.continuous_state_derivatives)
      if (!u.dependencies) ++dense_ode_rows_;
    if (dense_ode_rows_ > 0 && !m_.present())
      d_.warning(kMd, 1,
                 std::to_string(dense_ode_rows_) + " of " + std::to_string(s.continuous_state_derivatives.size()) +
                     " state derivatives have no dependencies attribute, so they count as depending on everything",
                 "the Jacobian of those rows is dense: each costs one column evaluation per state; export "
                 "dependencies to get a sparse Jacobian");
  }

  void check_manifest() {
    // The enable switch.
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
    // Algebraic variables.
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
    // Structure.
    const ModelStructure& s = m_.structure;
    for (const auto& u : s.outputs) check_unknown(kMf, u, "Output", true);
    for (const auto& u : s.continuous_state_derivatives) {
      check_unknown(kMf, u, "ContinuousStateDerivative", true);
      if (var(u.value_reference) != nullptr && !derivative_set_.count(u.value_reference))
        d_.error(kMf, u.line,
                 "<ContinuousStateDerivative> lists " + name_of(u.value_reference) +
                     ", which is not a state derivative of modelDescription.xml's ModelStructure",
                 "the manifest may refine dependencies, not add states");
    }
    for (const auto& u : s.clocked_states) check_unknown(kMf, u, "ClockedState", true);
    for (const auto& u : s.initial_unknowns) check_unknown(kMf, u, "InitialUnknown", true);
    for (const auto& u : s.event_indicators) check_unknown(kMf, u, "EventIndicator", true);

    std::unordered_map<ValueReference, int> residual_lines;
    bool fully_implicit = false;
    std::size_t dense_rows = 0;
    for (const auto& group : m_.residuals) {
      std::optional<int> previous_index;
      bool some_index = false, some_without = false;
      for (const auto& f : group.formulations) {
        const Unknown& u = f.residual;
        check_unknown(kMf, u, "Formulation", true);
        const Variable* v = var(u.value_reference);
        if (v != nullptr) {
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
        if (f.index) {
          some_index = true;
          if (*f.index < 1)
            d_.error(kMf, u.line, "the formulation " + name_of(u.value_reference) + " has index=\"" +
                                      std::to_string(*f.index) + "\"; DAE indices start at 1");
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
    for (const auto& u : m_.invariants) {
      check_unknown(kMf, u, "Invariant", true);
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
                 std::to_string(dense_rows) + " DAE-mode rows have no dependencies attribute, so they count as "
                 "depending on every known",
                 "their Jacobian rows are dense (one evaluation per unknown per Jacobian); export dependencies to "
                 "keep the Jacobian sparse");

    if (reading.counts_checked) return;
    // Counts: does the system fit one of the two forms?
    std::size_t n = result_.states.size(), m = m_.algebraic_variables.size(), rows = m_.residuals.size();
    std::size_t unknowns = fully_implicit ? n + m : m;
    std::string form = fully_implicit ? "fully implicit" : "semi-explicit";
    std::string counts = std::to_string(rows) + " residual groups, " + std::to_string(n) + " states, " +
                         std::to_string(m) + " algebraic variables";
    std::string fit = fully_implicit ? "the fully implicit form F(x', x, z) = 0 needs one residual per state "
                                       "derivative and algebraic variable (" + std::to_string(n + m) + ")"
                                     : "the semi-explicit form needs one residual per algebraic variable (" +
                                           std::to_string(m) + ")";
    if (rows < unknowns) {
      d_.error(kMf, 1,
               counts + ": too few residuals for the " + form + " form; " + fit,
               "structural analysis cannot match " + std::to_string(unknowns - rows) +
                   " unknowns to any residual; add the missing residuals or algebraic-variable declarations");
    } else if (rows > unknowns) {
      std::string other = fully_implicit ? "" : (rows == n + m ? " (it fits the fully implicit count, but no "
                                                                 "residual depends on a state derivative)"
                                                               : "");
      d_.warning(kMf, 1, counts + ": more residuals than the " + form + " form needs; " + fit + other,
                 "structural analysis will have to treat " + std::to_string(rows - unknowns) +
                     " residuals as constraints on the states (a higher-index system: some state derivatives "
                     "become algebraic) or report them as redundant");
    }
  }

  void check_dae_float(const Variable& v, int line, const char* role) {
    if (v.type != VariableType::float64)
      d_.error(kMf, line, std::string("the ") + role + " " + quoted(v.name) + " is " + to_string(v.type),
               "FMI-LS-DAE requires Float64");
    if (v.causality != Causality::local && v.causality != Causality::output)
      d_.error(kMf, line,
               std::string("the ") + role + " " + quoted(v.name) + " has causality=" + quoted(to_string(v.causality)),
               "it must be local or output");
    if (v.variability != Variability::continuous)
      d_.error(kMf, line,
               std::string("the ") + role + " " + quoted(v.name) + " has variability=" +
                   quoted(to_string(v.variability)),
               "it must be continuous");
  }

  const ModelDescription& md_;
  const Manifest& m_;
  Diagnostics& d_;
  ValidationResult result_;
  std::unordered_set<ValueReference> state_set_, derivative_set_, algebraic_set_;
  std::size_t dense_ode_rows_ = 0;
};

}  // namespace

ValidationResult validate(const ModelDescription& md, const Manifest& manifest, Diagnostics& diagnostics) {
  return Validator(md, manifest, diagnostics).run();
}

}  // namespace lsdae::import
