// runtime/import/validate.cpp -- see validate.h.
//
// Every rule below quotes the clause of FMI 3.0 (section 2.4 "FMI Description
// Schema" of the 3.0.x text unless said otherwise) or of FMI-LS-DAE it
// enforces, and takes its severity from two questions (lsdae/diagnostics.h):
// does the standard say "must"/"shall", and can lsdae simulate the FMU without
// the rule holding?
//   must, and simulation depends on it        -> error
//   must, but simulation does not depend on it -> conformance
//   no "must" (a note, a "should", a schema example, our own advice) -> warning
// docs/fmi-ls-dae.md ("Validation rules") has the same list as a table.
#include "import/validate.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "import/dae_form.h"
#include "import/manifest_parser.h"
#include "import/model_description_parser.h"

namespace lsdae::import {

namespace {

const std::string kMd = kModelDescriptionFile;
const std::string kMf = kManifestFile;

std::string quoted(const std::string& s) { return "\"" + s + "\""; }
std::string vr_text(ValueReference vr) { return std::to_string(vr); }
// "1 state", "2 states".
std::string count(std::size_t n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}
std::string count(std::size_t n, const std::string& singular) { return count(n, singular, singular + "s"); }
// Shortest text that reads back as the same double ("0.1", "1e-08", "-1").
std::string num(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

// `initial` as written, else its default from FMI 3.0 table "Definition of
// initial" (causality x variability); nullopt where initial is not allowed
// (independent, input).
std::optional<Initial> effective_initial(const Variable& v) {
  if (v.initial) return v.initial;
  switch (v.causality) {
    case Causality::parameter:
    case Causality::structural_parameter: return Initial::exact;
    case Causality::calculated_parameter: return Initial::calculated;
    case Causality::input:
    case Causality::independent: return std::nullopt;
    case Causality::output:
    case Causality::local: return v.variability == Variability::constant ? Initial::exact : Initial::calculated;
  }
  return std::nullopt;
}

class Validator {
 public:
  Validator(const ModelDescription& md, const Manifest& m, Diagnostics& d) : md_(md), m_(m), d_(d) {}

  ValidationResult run() {
    for (const auto& u : md_.structure.continuous_state_derivatives) listed_derivatives_.insert(u.value_reference);
    check_model_attributes();
    check_variables();
    check_core_structure();
    if (m_.present()) check_manifest();
    check_start_values();
    return result_;
  }

 private:
  const Variable* var(ValueReference vr) const { return md_.find(vr); }
  std::string name_of(ValueReference vr) const {
    const Variable* v = var(vr);
    return v != nullptr ? quoted(v->name) : "valueReference " + vr_text(vr);
  }

  void check_model_attributes() {
    // "At least one element of <ModelExchange>, <CoSimulation> or
    // <ScheduledExecution> must be present to identify the type of the FMU."
    // lsdae runs Model Exchange only: error.
    if (!md_.model_exchange) {
      d_.error(kMd, 1,
               std::string("the FMU has no <ModelExchange> element") +
                   (md_.has_co_simulation ? " (it is a Co-Simulation FMU)" : ""),
               "lsdae simulates Model Exchange FMUs (FMI 2.0 and 3.0); re-export the model for Model Exchange");
    } else {
      // modelIdentifier: "Short class name according to C syntax ... also used
      // as name of the static library or DLL/SharedObject." A name that is not
      // a plain file name (empty, '/', "..") cannot name the binary safely:
      // error. Any other non-C name still names a file: conformance.
      const std::string& id = md_.model_exchange->model_identifier;
      bool c_identifier = !id.empty() && (std::isalpha(static_cast<unsigned char>(id[0])) || id[0] == '_');
      for (char c : id) c_identifier = c_identifier && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
      const bool file_name = !id.empty() && id != "." && id != ".." && id.find('/') == std::string::npos &&
                             id.find('\\') == std::string::npos && id.find('\0') == std::string::npos;
      if (!file_name)
        d_.error(kMd, md_.model_exchange->line,
                 "modelIdentifier=" + quoted(id) + " is not a valid C identifier, so it cannot name the binary",
                 "use letters, digits and underscores only");
      else if (!c_identifier)
        d_.conformance(kMd, md_.model_exchange->line,
                       "modelIdentifier=" + quoted(id) + " is not a valid C identifier (" + fmi() + ": \"Short class "
                       "name according to C syntax\"); lsdae loads binaries/<platform>/" + id + ".so anyway",
                       "use letters, digits and underscores only");
      // needsExecutionTool: "Typically, this information is only utilized
      // for information purposes": warning.
      if (md_.model_exchange->needs_execution_tool)
        d_.warning(kMd, md_.model_exchange->line, "needsExecutionTool=\"true\": the FMU needs its exporting tool",
                   "make sure that tool is installed and licensed on this machine");
    }
    // instantiationToken (a required attribute; the parser reports a missing
    // one) "may be used by the FMU to check that the XML file is compatible
    // with the implementation": an empty one is legal, only unhelpful.
    if (md_.instantiation_token.empty())
      d_.warning(kMd, 1, "instantiationToken is empty, so the FMU cannot check that its XML matches its binary",
                 "re-export the FMU; the token ties the XML to its binary");
    // DefaultExperiment: "A tool may ignore this information." No rule is
    // broken; `simulate` refuses these values with a usage error unless the
    // options replace them: warning.
    const auto& e = md_.default_experiment;
    if (e.start_time && e.stop_time && *e.stop_time < *e.start_time)
      d_.warning(kMd, 1,
                 "DefaultExperiment stopTime=" + num(*e.stop_time) + " is before startTime=" + num(*e.start_time),
                 "pass --start/--stop to simulate");
    if (e.tolerance && !(*e.tolerance > 0))
      d_.warning(kMd, 1, "DefaultExperiment tolerance=" + num(*e.tolerance) + " is not positive", "pass --rtol to simulate");
    if (e.step_size && !(*e.step_size > 0))
      d_.warning(kMd, 1, "DefaultExperiment stepSize=" + num(*e.step_size) + " is not positive",
                 "pass --output-interval to simulate");
  }

  void check_variables() {
    std::unordered_map<ValueReference, const Variable*> by_vr;
    by_vr.reserve(md_.variables.size());
    std::unordered_set<std::string> type_names;
    for (const auto& t : md_.types) type_names.insert(t.name);
    int independents = 0;
    for (const auto& v : md_.variables) {
      // "The valueReference must be unique for all variables of an FMU."
      // Every value lsdae reads or writes goes by value reference: error.
      auto [it, fresh] = by_vr.emplace(v.value_reference, &v);
      // FMI 2.0: "valueReference ... is not required to be unique. The only
      // guarantee is that valueReference is sufficiently unique for the
      // respective fmi2SetXXX and fmi2GetXXX functions": variables of one
      // type that share one are aliases of one value (Dymola and
      // OpenModelica export many); of different types they are different
      // values. Both are legal; lsdae reads each value reference once.
      if (!fresh && md_.fmi_major == FmiVersion::fmi2) {
        const bool integer_like = [](VariableType a, VariableType b) {
          auto wire = [](VariableType t) { return t == VariableType::enumeration ? VariableType::int32 : t; };
          return wire(a) == wire(b);
        }(it->second->type, v.type);
        if (integer_like && it->second->type != v.type)
          d_.warning(kMd, v.line,
                     "variables " + quoted(it->second->name) + " and " + quoted(v.name) + " share valueReference " +
                         vr_text(v.value_reference) + " but one is Integer and the other Enumeration",
                     "aliases should have the same type");
      } else if (!fresh)
        d_.error(kMd, v.line,
                 "variables " + quoted(it->second->name) + " (line " + std::to_string(it->second->line) + ") and " +
                     quoted(v.name) + " share valueReference " + vr_text(v.value_reference),
                 "give every variable its own valueReference");
      // "name attributes of list elements ... must be unique within that
      // list." lsdae addresses variables by value reference; names only
      // label results (the first one wins): conformance.
      // The model description's name index holds the first variable of each
      // name (ModelDescription::rebuild_index): no second map of every name.
      if (const auto first = md_.index_of(v.name); first && &md_.variables[*first] != &v)
        d_.conformance(kMd, v.line,
                       "the name " + quoted(v.name) + " is used twice (first at line " +
                           std::to_string(md_.variables[*first].line) + ")",
                       "variable names must be unique");
      check_variable(v, type_names);
      if (v.causality == Causality::independent) ++independents;
    }
    // "Exactly one variable of an FMU must be defined as independent." lsdae
    // passes time through fmi3SetTime and never reads that variable:
    // conformance.
    // FMI 2.0 asks for at most one ("If no variable is defined as
    // independent, it is implicitly present with name = "time""): none is fine.
    if (independents == 0 && md_.fmi_major == FmiVersion::fmi2) {
    } else if (independents == 0)
      d_.conformance(kMd, 1, "no variable has causality=\"independent\"",
                     fmi() + " requires exactly one independent variable (time)");
    else if (independents > 1)
      d_.conformance(kMd, 1, std::to_string(independents) + " variables have causality=\"independent\"",
                     fmi() + " allows at most one");
  }

  void check_variable(const Variable& v, const std::unordered_set<std::string>& type_names) {
    const std::string what = "variable " + quoted(v.name);
    // variability: "continuous: Only a variable of type == fmi3GetFloat32 or
    // type == fmi3GetFloat64 can be continuous." A non-Float variable is
    // never a state or residual (checked there): conformance.
    if (v.variability == Variability::continuous && !is_float(v.type))
      d_.conformance(kMd, v.line, what + " is " + fmi_type_name(md_.fmi_major, v.type) + " with variability=\"continuous\"",
                     md_.fmi_major == FmiVersion::fmi2 ? "only Real variables can be continuous"
                                                       : "only Float32/Float64 variables can be continuous");
    // declaredType: "If present, name of type defined with
    // <TypeDefinitions><TypeDefinition>." Only unit, nominal, min and max
    // come from it; lsdae runs without them: conformance.
    if (!v.declared_type.empty() && !type_names.count(v.declared_type))
      d_.conformance(kMd, v.line,
                     what + " has declaredType=" + quoted(v.declared_type) + ", but no such type is defined",
                     "add it to <TypeDefinitions> or remove the attribute");
    // "For <Enumeration> the attribute declaredType is required": conformance.
    if (v.type == VariableType::enumeration && v.declared_type.empty())
      d_.conformance(kMd, v.line, what + " is an Enumeration without declaredType",
                     fmi() + " requires declaredType naming the " +
                         (md_.fmi_major == FmiVersion::fmi2 ? "<SimpleType>" : "<EnumerationType>") +
                         " that defines its items");
    switch (v.causality) {
      case Causality::parameter:
      case Causality::structural_parameter:
        // parameter: "variability must be fixed or tunable"; structural
        // parameter: "The variability attribute must be fixed or tunable."
        // lsdae sets parameters before initialization either way: conformance.
        if (v.variability != Variability::fixed && v.variability != Variability::tunable)
          d_.conformance(kMd, v.line,
                         what + " has causality=" + quoted(to_string(v.causality)) + " and variability=" +
                             quoted(to_string(v.variability)),
                         "parameters must be fixed or tunable");
        // "Variables with causality = parameter or input, as well as
        // variables with variability = constant, must have a start value";
        // structural parameter: "The start attribute is mandatory." The FMU
        // keeps its own value: conformance.
        if (!v.start_text)
          d_.conformance(kMd, v.line, what + " is a parameter without start value", "add start=\"...\"");
        // parameter: "initial must be exact or not present (meaning exact)":
        // conformance.
        if (v.initial && *v.initial != Initial::exact)
          d_.conformance(kMd, v.line, what + " is a parameter with initial=" + quoted(to_string(*v.initial)),
                         "parameters take initial=\"exact\"");
        break;
      case Causality::calculated_parameter:
        // calculatedParameter: "variability must be fixed or tunable. initial
        // must be approx, calculated or not present": conformance.
        if (v.variability != Variability::fixed && v.variability != Variability::tunable)
          d_.conformance(kMd, v.line,
                         what + " is a calculatedParameter with variability=" + quoted(to_string(v.variability)),
                         "use fixed or tunable");
        if (v.initial && *v.initial == Initial::exact)
          d_.conformance(kMd, v.line, what + " is a calculatedParameter with initial=\"exact\"",
                         "calculated parameters take initial=\"approx\" or \"calculated\"");
        break;
      case Causality::input:
        // "If causality = input, a start value must be provided ... except for
        // variables of type Clock." lsdae sets no input it is not asked to:
        // conformance.
        if (!v.start_text && v.type != VariableType::clock)
          d_.conformance(kMd, v.line, what + " is an input without start value", "add start=\"...\"");
        break;
      case Causality::independent:
        // independent: "variability must be continuous ... The independent
        // variable must be defined as a floating point type without a start
        // attribute"; "the attribute initial must not be provided". lsdae
        // never reads or writes it: conformance.
        if (!is_float(v.type))
          d_.conformance(kMd, v.line, "the independent variable " + quoted(v.name) + " is " + fmi_type_name(md_.fmi_major, v.type),
                         md_.fmi_major == FmiVersion::fmi2 ? "it must be Real" : "it must be Float64 (or Float32)");
        if (v.start_text)
          d_.conformance(kMd, v.line, "the independent variable " + quoted(v.name) + " has a start value",
                         "remove it");
        if (v.initial)
          d_.conformance(kMd, v.line, "the independent variable " + quoted(v.name) + " has an initial attribute",
                         std::string("remove it; its start is the startTime of ") +
                             (md_.fmi_major == FmiVersion::fmi2 ? "fmi2SetupExperiment" : "fmi3EnterInitializationMode"));
        if (is_float(v.type) && v.variability != Variability::continuous)
          d_.conformance(kMd, v.line,
                         "the independent variable " + quoted(v.name) + " has variability=" +
                             quoted(to_string(v.variability)),
                         "it must be continuous");
        break;
      default:
        break;
    }
    if (v.variability == Variability::constant) {
      // Table "Allowed combinations of variability/causality": constant only
      // with output (7) or local (10): conformance.
      if (v.causality != Causality::output && v.causality != Causality::local)
        d_.conformance(kMd, v.line, what + " is constant with causality=" + quoted(to_string(v.causality)),
                       "constants must be output or local");
      // "... variables with variability = constant, must have a start value":
      // conformance.
      if (!v.start_text)
        d_.conformance(kMd, v.line, what + " is constant without start value", "add start=\"...\"");
    }
    if (v.initial) {
      // "If initial = exact or approx, a start value must be provided." /
      // "If initial = calculated ... it is not allowed to provide a start
      // value." lsdae reads every value from the FMU after initialization:
      // conformance.
      if ((*v.initial == Initial::exact || *v.initial == Initial::approx) && !v.start_text &&
          v.type != VariableType::clock)
        d_.conformance(kMd, v.line, what + " has initial=" + quoted(to_string(*v.initial)) + " but no start value",
                       "add start=\"...\" or use initial=\"calculated\"");
      if (*v.initial == Initial::calculated && v.start_text)
        d_.conformance(kMd, v.line, what + " has initial=\"calculated\" and a start value",
                       "remove start or change initial");
    }
    // Schema fmi3AttributeGroups.xsd: "max >= min required". lsdae does not
    // enforce bounds: conformance.
    if (v.min && v.max && *v.min > *v.max)
      d_.conformance(kMd, v.line, what + " has min=" + num(*v.min) + " > max=" + num(*v.max));
    // min/max "define the region in which the FMU is designed to operate"; a
    // start outside it is no broken rule: warning.
    if (v.start && v.min && *v.start < *v.min)
      d_.warning(kMd, v.line, what + " has start=" + *v.start_text + " below min=" + num(*v.min));
    if (v.start && v.max && *v.start > *v.max)
      d_.warning(kMd, v.line, what + " has start=" + *v.start_text + " above max=" + num(*v.max));
    // Schema: "nominal > 0.0 required". lsdae scales tolerances with 1
    // instead: conformance.
    if (v.nominal && !(*v.nominal > 0))
      d_.conformance(kMd, v.line, what + " has nominal=" + num(*v.nominal) + ", which is not positive",
                     "FMI requires a positive nominal; lsdae uses 1 instead");
    // derivative: "If present, then the variable with this attribute is the
    // derivative of the variable with value reference given in derivative";
    // ContinuousStateDerivative: "only continuous floating point variables
    // are listed here". For a listed state derivative lsdae integrates that
    // state: error. An unlisted derivative relation (FMI allows it on inputs
    // and outputs) is only informative: conformance when it dangles, and a
    // warning when it names a non-continuous variable (no "must").
    if (v.derivative) {
      const bool listed = listed_derivatives_.count(v.value_reference) > 0;
      const Variable* state = var(*v.derivative);
      if (state == nullptr) {
        std::string message = what + " has derivative=\"" + vr_text(*v.derivative) +
                              "\", but no variable has valueReference " + vr_text(*v.derivative);
        if (listed) d_.error(kMd, v.line, message, "fix the reference");
        else d_.conformance(kMd, v.line, message, "fix the reference");
      } else if (!is_float(state->type) || state->variability != Variability::continuous) {
        std::string message =
            what + " is the derivative of " + quoted(state->name) + ", which is not a continuous Float variable";
        if (listed) d_.error(kMd, v.line, message, "derivatives must be of continuous Float variables");
        else d_.warning(kMd, v.line, message, "derivatives should be of continuous Float variables");
      }
    }
    // previous: "a value reference to the variable with the previous value";
    // clocks: "a list of value references of Clock variables". lsdae does not
    // run clocks: conformance.
    if (v.previous && var(*v.previous) == nullptr)
      d_.conformance(kMd, v.line,
                     what + " has previous=\"" + vr_text(*v.previous) + "\", which references no variable");
    for (ValueReference c : v.clocks) {
      const Variable* clock = var(c);
      if (clock == nullptr || clock->type != VariableType::clock)
        d_.conformance(kMd, v.line, what + " lists clock " + vr_text(c) + ", which is not a Clock variable");
    }
    // <Dimension valueReference>: "The referenced variable must be a variable
    // of type <UInt64>, and must either be a constant ... or a structural
    // parameter." Arrays are refused above anyway: conformance.
    for (const auto& dim : v.dimensions) {
      if (!dim.value_reference) continue;
      const Variable* size = var(*dim.value_reference);
      if (size == nullptr || size->type != VariableType::uint64 ||
          (size->variability != Variability::constant && size->causality != Causality::structural_parameter))
        d_.conformance(kMd, dim.line,
                       what + ": <Dimension valueReference=\"" + vr_text(*dim.value_reference) +
                           "\"> does not reference a UInt64 constant or structural parameter");
    }
  }

  // Dependencies and dependenciesKind of one unknown. A reference to no
  // variable is an error where lsdae evaluates or sets the unknown
  // (`essential`: state derivatives, residuals, invariants) and conformance
  // elsewhere (outputs, initial unknowns, event indicators: lsdae reads those
  // by other means or not at all).
  void check_unknown(const std::string& file, const Unknown& u, const char* element, bool dae, bool essential = false) {
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

  // <InitialUnknown>: "This list consists of all variables which are not
  // clocked variables and have causality = output (with initial = approx or
  // calculated), or have causality = calculatedParameter, or are
  // continuous-time states or state derivatives ... with initial = approx or
  // calculated, or are clocked variables that the FMU wishes to initialize"
  // (FMI-LS-DAE adds algebraic variables). A definition, not a "must", and
  // lsdae does not read the list: a non-member is a warning. But event
  // indicators "must not be listed as InitialUnknown" and "The resulting list
  // is not allowed to have duplicates": conformance.
  void check_initial_unknowns(const std::string& file, const std::vector<Unknown>& list, bool dae) {
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

  // The variable an unknown lists: for FMI 2.0 the one its index named
  // (aliases share a value reference), else the one with its value reference.
  const Variable* listed_variable(const Unknown& u) const {
    if (u.variable_index && *u.variable_index < md_.variables.size()) return &md_.variables[*u.variable_index];
    return var(u.value_reference);
  }
  // One value of the FMU: its value reference and type (FMI 2.0 aliases
  // share both; an output whose alias is listed counts as listed, since
  // exporters list one variable per value).
  static std::uint64_t value_key(const Variable& v) {
    return (static_cast<std::uint64_t>(v.value_reference) << 8) | static_cast<std::uint64_t>(v.type);
  }

  void check_core_structure() {
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

  // NaN or infinite start values of IDA's unknowns. FMI 3.0: start is the
  // "Initial or guess value of variable" and its type is xs:double, whose
  // lexical space admits NaN and INF; nothing forbids them. But lsdae starts
  // the integration from the states' values (initial="exact": exactly these)
  // and iterates the algebraic variables from their guesses: no step can be
  // taken from NaN or infinity, so this is an error naming the variable.
  void check_start_values() {
    auto check = [&](ValueReference vr, const char* role) {
      const Variable* v = var(vr);
      if (v == nullptr || !v->start || std::isfinite(*v->start)) return;
      d_.error(kMd, v->line,
               "the " + std::string(role) + " " + quoted(v->name) + " has start=" + quoted(*v->start_text) +
                   ", which is not a finite number",
               "lsdae cannot integrate from NaN or infinity; give a finite start value");
    };
    for (ValueReference vr : result_.states) check(vr, "state");
    for (const auto& a : m_.algebraic_variables) check(a.value_reference, "algebraic variable");
  }

  void check_manifest() {
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

  // The roles lsdae gives manifest variables: algebraic variables are written
  // with fmi3SetFloat64, residuals and invariants read with fmi3GetFloat64, all
  // in Continuous-Time Mode. Another type cannot go through those calls, and a
  // variable that is not continuous "is fixed after initialization" /
  // "constant between events" (FMI 3.0 variability), so IDA could not move it
  // or see it move: errors. FMI-LS-DAE names no causality for these roles;
  // local or output is what exporters write: warning.
  void check_dae_float(const Variable& v, int line, const char* role) {
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

  // "FMI 2.0" / "FMI 3.0": hints name the version the FMU declares.
  std::string fmi() const { return to_string(md_.fmi_major); }

  const ModelDescription& md_;
  const Manifest& m_;
  Diagnostics& d_;
  ValidationResult result_;
  std::unordered_set<ValueReference> state_set_, derivative_set_, algebraic_set_;
  std::vector<std::uint32_t> dependency_stamp_;  // per variable: the last check_unknown that met it
  std::uint32_t dependency_epoch_ = 0;
  std::unordered_set<ValueReference> listed_derivatives_;  // core <ContinuousStateDerivative> entries
  std::unordered_set<ValueReference> residual_vrs_;        // the manifest's residuals and formulations
  std::size_t dense_ode_rows_ = 0;
};

}  // namespace

ValidationResult validate(const ModelDescription& md, const Manifest& manifest, Diagnostics& diagnostics) {
  return Validator(md, manifest, diagnostics).run();
}

}  // namespace lsdae::import
