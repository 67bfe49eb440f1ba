// models/kit/layout.h -- layout variations of the written XML (description.h,
// "Layout variations"): what an exporter other than the kit might write, with
// the same model and binary. Applied by the describer to the text the XML
// writer produced (one element per line, value references only in the
// attributes valueReference, derivative, dependencies, clocks and previous):
//
//   value_references=scattered  every value reference v becomes
//                               Description::external_vr(v);
//   variable_order=reversed     the <ModelVariables> lines in reverse order;
//   manifest_outputs=last       the manifest's <Output> lines moved after its
//                               last <Residual> (FMI-LS-DAE draft 0.1 schema
//                               order: ContinuousStateDerivative, Residual,
//                               Output).
//
// Throws std::invalid_argument when the text is not what the writer produces.
#ifndef LSDAE_MODELS_KIT_LAYOUT_H
#define LSDAE_MODELS_KIT_LAYOUT_H

#include <string>

#include "kit/description.h"

namespace lsdae::kit {

std::string apply_layout_to_model_description(const Description& d, const std::string& xml);
std::string apply_layout_to_manifest(const Description& d, const std::string& xml);

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_LAYOUT_H
