// runtime/import/model_description_parser.h -- modelDescription.xml (FMI 3.0)
// into lsdae::ModelDescription.
//
// Contract: the XML must be well-formed (XmlDocument throws otherwise); the
// root must be <fmiModelDescription> with fmiVersion 3.x, else
// Error(xml) -- nothing else can be trusted then. Every other problem (a
// missing or malformed attribute, an unknown element) is added to
// `diagnostics` with file:line and parsing continues, so one pass reports
// them all. Cross-reference rules (dangling references, duplicates, FMI
// variable rules) are the validator's job (validate.h), not the parser's.
// Cost: linear in the document size.
#ifndef LSDAE_RUNTIME_IMPORT_MODEL_DESCRIPTION_PARSER_H
#define LSDAE_RUNTIME_IMPORT_MODEL_DESCRIPTION_PARSER_H

#include <string_view>

#include "import/xml_document.h"
#include "lsdae/diagnostics.h"
#include "lsdae/model_description.h"

namespace lsdae::import {

inline constexpr const char* kModelDescriptionFile = "modelDescription.xml";

ModelDescription parse_model_description(std::string_view xml, Diagnostics& diagnostics);
ModelDescription parse_model_description(const XmlDocument& doc, Diagnostics& diagnostics);

// One element of the FMI 3.0 dependency type (Output, ContinuousStateDerivative,
// ..., and the manifest's Residual/Formulation/Invariant).
Unknown read_unknown(const XmlDocument& doc, const pugi::xml_node& node, Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_MODEL_DESCRIPTION_PARSER_H
