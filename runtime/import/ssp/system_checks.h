// runtime/import/ssp/system_checks.h -- the checks of a SystemDescription
// that need the components' model descriptions (`lsdae validate x.ssp`).
//
// For every component whose model description is given (null entries are
// skipped: their FMU failed to open and was reported already):
//   - Model Exchange: lsdae simulates components as ME FMUs;
//   - declared connectors: the FMU has the variable; the declared kind fits
//     its causality (input/output/parameter); the declared type (ssc:Real...)
//     fits its type; the declared unit is the variable's unit;
//   - parameter bindings: the variable exists, is not an output or local
//     computed by the FMU (parameter, input, or a start value the FMU lets
//     be set), and the text parses for its type;
// For every connection: both variables exist; `from` is an output (or a
// parameter/calculatedParameter driving an input: SSP allows it), `to` an
// input; both are the same kind of type (Float64/Float32 with Float,
// integers with integers, Boolean, String, Enumeration); units equal when
// both are given and no transformation converts them (factor 1, offset 0);
// an input driven by two connections. For every coupling port: the
// potential is a Float64 output, the flow a Float64 input; the flow not also
// driven by a connection or another coupling.
// Each finding is a Diagnostic at the SSD line of the element it concerns
// (SourceLocation split into file and line), message naming the component,
// the variable and the value seen.
// Cost: O(connections + couplings + connectors) hash lookups.
#ifndef LSDAE_RUNTIME_IMPORT_SSP_SYSTEM_CHECKS_H
#define LSDAE_RUNTIME_IMPORT_SSP_SYSTEM_CHECKS_H

#include <string>
#include <vector>

#include "lsdae/diagnostics.h"
#include "lsdae/model_description.h"
#include "lsdae/system_description.h"

namespace lsdae::import {

// What the checks know of one component's FMU: its model description (null:
// the FMU did not open) and its name in messages (the FMU's file name).
struct ComponentModel {
  const ModelDescription* description = nullptr;
  std::string display_name;
};

// `models[i]` is the model of system.components[i]; the descriptions must
// outlive the call.
void check_system(const SystemDescription& system, const std::vector<ComponentModel>& models,
                  Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_SSP_SYSTEM_CHECKS_H
