// runtime/import/manifest_parser.h -- the FMI-LS-DAE manifest, shape A
// (draft 0.1) or shape B (1.0.0-alpha.1), into lsdae::Manifest.
//
// Shape detection, by the root element's local name:
//   fmiLayeredStandardManifest, fmi-ls-dae  -> shape A
//   FMILSManifest (FMI 3.0's generic root)  -> shape A, with a note
//   fmiDAEManifest                          -> shape B
//   anything else                           -> Error(xml)
// Tolerated real-world variations (each reported as a warning or note, never
// an error; the two breaks of the 1.0.0-alpha.1 schema at the end are
// conformance errors, which `simulate` tolerates too): another fmi-ls-name, an empty or missing version, extra
// attributes, the `enableDAEModeVariable="<name>"` root attribute instead of
// <EnableDAE>, a flat <Residual valueReference> in shape A, a grouped
// <Residual><Formulation> in shape B, ModelStructure children out of the
// schema's order (conformance), unknown elements (ignored with a warning), attributes that
// FMI-LS-DAE does not define on <AlgebraicVariable> (a warning naming the
// variable when the value is a value reference). A shape-B
// manifest without <EnableDAEParameter> is read as a DAE-only FMU (conformance).
// Cross-references are checked by the validator (validate.h).
// Cost: linear in the document size.
#ifndef LSDAE_RUNTIME_IMPORT_MANIFEST_PARSER_H
#define LSDAE_RUNTIME_IMPORT_MANIFEST_PARSER_H

#include <string_view>

#include "import/xml_document.h"
#include "lsdae/diagnostics.h"
#include "lsdae/manifest.h"
#include "lsdae/model_description.h"

namespace lsdae::import {

inline constexpr const char* kManifestFile = "extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml";

// `md` resolves the by-name enable switch; it may be null (then the name is kept unresolved).
Manifest parse_manifest(std::string_view xml, const ModelDescription* md, Diagnostics& diagnostics);
// The same from a parsed document (Fmu::open parses the file's buffer in place).
Manifest parse_manifest(const XmlDocument& doc, const ModelDescription* md, Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_MANIFEST_PARSER_H
