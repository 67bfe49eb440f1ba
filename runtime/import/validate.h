// runtime/import/validate.h -- the FMI 3.0 and FMI-LS-DAE rules that matter
// for simulation, checked on parsed data.
//
// Every finding is a Diagnostic with file:line and the names involved, and a
// severity decided by two questions (lsdae/diagnostics.h): does FMI 3.0 or
// FMI-LS-DAE say "must", and can lsdae simulate the FMU without the rule?
// validate.cpp, validate_structure.cpp and validate_manifest.cpp quote the
// clause at every rule; docs/fmi-ls-dae.md
// ("Validation rules") tabulates them. In short:
// Errors (lsdae cannot simulate the FMU as written):
//   - no ModelExchange; a modelIdentifier that is not a plain file name;
//   - duplicate value references; an array Dimension whose size cannot be
//     resolved;
//   - the state vector: a ContinuousStateDerivative that dangles, repeats,
//     lacks or breaks its derivative attribute, is not continuous Float, or a
//     state with two derivatives; a NaN or infinite start of a state or an
//     algebraic variable;
//   - the manifest's DAE: a dangling or non-Boolean enable switch; algebraic
//     variables, residuals, invariants that dangle, repeat, are not Float64 or
//     not continuous, or take two roles; Formulation indices that contradict
//     the document order; fewer residual rows than unknowns; without
//     ContinuousStateDerivative and derivative dependencies, a count that fits
//     neither the semi-explicit nor the OpenModelica form (dae_form.h).
// Conformance errors (a "must" broken that simulation does not depend on):
//   duplicate names, not exactly one independent variable, causality /
//   variability / initial / start combinations, undefined declaredType, min >
//   max, nominal <= 0, dangling previous/clocks/Dimension and non-essential
//   ModelStructure references, dependenciesKind without or unlike
//   dependencies, outputs not listed (the order of <Output> is free),
//   non-continuous event indicators, duplicate or event-indicator initial
//   unknowns.
// Warnings (no rule broken): DefaultExperiment values simulate cannot use,
// start outside [min, max], dense (absent) dependencies, duplicate dependency
// entries, dependencies on non-knowns, initial unknowns outside the defined
// set, more residual rows than unknowns, index gaps or indices < 1, enable
// switch or manifest roles with an unusual causality or start.
// Cost: O(size of the description) with hash lookups.
#ifndef LSDAE_RUNTIME_IMPORT_VALIDATE_H
#define LSDAE_RUNTIME_IMPORT_VALIDATE_H

#include <vector>

#include "lsdae/dae_form.h"
#include "lsdae/diagnostics.h"
#include "lsdae/manifest.h"
#include "lsdae/model_description.h"

namespace lsdae::import {

struct ValidationResult {
  DaeForm form = DaeForm::ode;
  std::vector<ValueReference> states;       // ContinuousStateDerivative order
  std::vector<ValueReference> derivatives;  // same order
};

ValidationResult validate(const ModelDescription& md, const Manifest& manifest, Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_VALIDATE_H
