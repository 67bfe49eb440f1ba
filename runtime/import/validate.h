// runtime/import/validate.h -- the FMI 3.0 and FMI-LS-DAE rules that matter
// for simulation, checked on parsed data.
//
// Every finding is a Diagnostic with file:line and the names involved.
// Errors (the FMU cannot be simulated as written):
//   - duplicate value references or names; a missing independent variable;
//   - dangling references: derivative, previous, clocks, declaredType,
//     Dimension, ModelStructure entries and their dependencies, manifest
//     entries (enable switch, algebraic variables, residuals, invariants);
//   - a ContinuousStateDerivative that is not a continuous Float derivative of
//     a continuous Float state;
//   - variable rules: causality/variability/initial/start combinations,
//     continuous non-Float variables, array variables (lsdae is scalar-only);
//   - ModelExchange missing or a modelIdentifier that is not a plain file name;
//   - dependenciesKind without dependencies or of another length;
//   - manifest algebraic variables / residuals that are not Float64 local or
//     output continuous variables, or that are also states or derivatives;
//   - Formulation indices that do not decrease within a Residual;
//   - fewer residual rows than unknowns (under-determined in both forms);
//     without ContinuousStateDerivative and derivative dependencies, a count
//     that fits neither the semi-explicit nor the OpenModelica form (dae_form.h).
// Warnings (simulation proceeds): more residual rows than unknowns, dense
// (absent) dependencies, duplicate dependency entries, index gaps,
// start outside [min, max], a non-positive nominal, an enable switch that is
// not a Boolean structural parameter with start false.
// Cost: O(size of the description) with hash lookups.
#ifndef LSDAE_RUNTIME_IMPORT_VALIDATE_H
#define LSDAE_RUNTIME_IMPORT_VALIDATE_H

#include <vector>

#include "lsdae/diagnostics.h"
#include "lsdae/fmu.h"
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
