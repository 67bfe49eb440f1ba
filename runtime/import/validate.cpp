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

#include "import/validator.h"

namespace lsdae::import::validation {

std::string quoted(const std::string& s) { return "\"" + s + "\""; }
std::string vr_text(ValueReference vr) { return std::to_string(vr); }
std::string count(std::size_t n, const std::string& singular, const std::string& plural) {
  return std::to_string(n) + " " + (n == 1 ? singular : plural);
}
std::string count(std::size_t n, const std::string& singular) { return count(n, singular, singular + "s"); }
std::string num(double value) {
  char text[32];
  auto [end, ec] = std::to_chars(text, text + sizeof text, value);
  return ec == std::errc() ? std::string(text, end) : std::to_string(value);
}

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

ValidationResult Validator::run() {
  for (const auto& u : md_.structure.continuous_state_derivatives) listed_derivatives_.insert(u.value_reference);
  check_model_attributes();
  check_variables();
  check_core_structure();
  if (m_.present()) check_manifest();
  check_start_values();
  return result_;
}

std::string Validator::name_of(ValueReference vr) const {
  const Variable* v = var(vr);
  return v != nullptr ? quoted(v->name) : "valueReference " + vr_text(vr);
}

void Validator::check_model_attributes() {
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

void Validator::check_variables() {
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

void Validator::check_variable(const Variable& v, const std::unordered_set<std::string>& type_names) {
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

void Validator::check_start_values() {
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

}  // namespace lsdae::import::validation

namespace lsdae::import {

ValidationResult validate(const ModelDescription& md, const Manifest& manifest, Diagnostics& diagnostics) {
  return validation::Validator(md, manifest, diagnostics).run();
}

}  // namespace lsdae::import
