// runtime/import/validator.h -- the validator of validate.h, one class whose rules are spread
// over three files by what they read: validate.cpp (the description's own rules: model
// attributes, variables, start values, and the wording helpers below), validate_structure.cpp
// (<ModelStructure>), validate_manifest.cpp (the FMI-LS-DAE manifest). Internal to those three:
// the namespace is hidden, so liblsdae.so exports none of it (cmake/lsdae.map exports lsdae::*).
// Every rule quotes the clause it enforces; validate.cpp's head says how a severity is chosen.
#ifndef LSDAE_RUNTIME_IMPORT_VALIDATOR_H
#define LSDAE_RUNTIME_IMPORT_VALIDATOR_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "import/manifest_parser.h"
#include "import/model_description_parser.h"
#include "import/validate.h"

namespace lsdae::import {
namespace [[gnu::visibility("hidden")]] validation {

inline const std::string kMd = kModelDescriptionFile;
inline const std::string kMf = kManifestFile;

std::string quoted(const std::string& s);
std::string vr_text(ValueReference vr);
// "1 state", "2 states".
std::string count(std::size_t n, const std::string& singular, const std::string& plural);
std::string count(std::size_t n, const std::string& singular);
// Shortest text that reads back as the same double ("0.1", "1e-08", "-1").
std::string num(double value);
// `initial` as written, else its default from FMI 3.0 table "Definition of
// initial" (causality x variability); nullopt where initial is not allowed
// (independent, input).
std::optional<Initial> effective_initial(const Variable& v);

class Validator {
 public:
  Validator(const ModelDescription& md, const Manifest& m, Diagnostics& d) : md_(md), m_(m), d_(d) {}

  ValidationResult run();

 private:
  const Variable* var(ValueReference vr) const { return md_.find(vr); }
  std::string name_of(ValueReference vr) const;

  void check_model_attributes();
  void check_variables();
  void check_variable(const Variable& v, const std::unordered_set<std::string>& type_names);
  // NaN or infinite start values of IDA's unknowns. FMI 3.0: start is the
  // "Initial or guess value of variable" and its type is xs:double, whose
  // lexical space admits NaN and INF; nothing forbids them. But lsdae starts
  // the integration from the states' values (initial="exact": exactly these)
  // and iterates the algebraic variables from their guesses: no step can be
  // taken from NaN or infinity, so this is an error naming the variable.
  void check_start_values();

  // validate_structure.cpp: <ModelStructure> (the state vector, dependencies, initial unknowns).
  // Dependencies and dependenciesKind of one unknown. A reference to no
  // variable is an error where lsdae evaluates or sets the unknown
  // (`essential`: state derivatives, residuals, invariants) and conformance
  // elsewhere (outputs, initial unknowns, event indicators: lsdae reads those
  // by other means or not at all).
  void check_unknown(const std::string& file, const Unknown& u, const char* element, bool dae, bool essential = false);
  bool is_known(ValueReference vr, bool dae) const;

  // <InitialUnknown>: "This list consists of all variables which are not
  // clocked variables and have causality = output (with initial = approx or
  // calculated), or have causality = calculatedParameter, or are
  // continuous-time states or state derivatives ... with initial = approx or
  // calculated, or are clocked variables that the FMU wishes to initialize"
  // (FMI-LS-DAE adds algebraic variables). A definition, not a "must", and
  // lsdae does not read the list: a non-member is a warning. But event
  // indicators "must not be listed as InitialUnknown" and "The resulting list
  // is not allowed to have duplicates": conformance.
  void check_initial_unknowns(const std::string& file, const std::vector<Unknown>& list, bool dae);

  // The variable an unknown lists: for FMI 2.0 the one its index named
  // (aliases share a value reference), else the one with its value reference.
  const Variable* listed_variable(const Unknown& u) const;
  // One value of the FMU: its value reference and type (FMI 2.0 aliases
  // share both; an output whose alias is listed counts as listed, since
  // exporters list one variable per value).
  static std::uint64_t value_key(const Variable& v);
  void check_core_structure();

  // validate_manifest.cpp: the FMI-LS-DAE manifest (the DAE's variables, residuals, invariants).
  void check_manifest();

  // The roles lsdae gives manifest variables: algebraic variables are written
  // with fmi3SetFloat64, residuals and invariants read with fmi3GetFloat64, all
  // in Continuous-Time Mode. Another type cannot go through those calls, and a
  // variable that is not continuous "is fixed after initialization" /
  // "constant between events" (FMI 3.0 variability), so IDA could not move it
  // or see it move: errors. FMI-LS-DAE names no causality for these roles;
  // local or output is what exporters write: warning.
  void check_dae_float(const Variable& v, int line, const char* role);

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

}  // namespace validation
}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_VALIDATOR_H
