// models/kit/xml_writer.h -- modelDescription.xml and the FMI-LS-DAE manifest
// (shape A: draft 0.1 with grouped <Formulation>s; shape B: 1.0.0-alpha.1
// with <EnableDAEParameter>, flat <Residual>s and <Invariant>s) from a
// Description. Output is deterministic (no timestamps) so that rebuilding an
// unchanged model gives byte-identical FMUs.
#ifndef LSDAE_MODELS_KIT_XML_WRITER_H
#define LSDAE_MODELS_KIT_XML_WRITER_H

#include <string>

#include "kit/description.h"

namespace lsdae::kit {

std::string model_description_xml(const Description& d, const std::string& model_identifier);
// FMI 2.0 (d.fmi_version == 2; xml_writer_fmi2.cpp): ScalarVariables,
// 1-based indices in ModelStructure and `derivative`, one value reference
// for each Builder::alias pair, Najafi's constraint attributes. The layout
// variations variable_order=reversed and value_references=scattered are
// applied here (the indices depend on them), not by layout.h.
std::string model_description_xml_fmi2(const Description& d, const std::string& model_identifier);
// Empty when d.manifest == ManifestShape::none.
std::string manifest_xml(const Description& d);

// The attribute words FMI 2.0 and 3.0 share: `variability` and a dependency's
// kind (dependenciesKind) are spelled alike in both (xml_writer.cpp).
const char* variability_name(Variability v);
const char* dependency_kind_name(DepKind k);

inline constexpr const char* kManifestPath = "extra/org.fmi-standard.fmi-ls-dae/fmi-ls-manifest.xml";
inline constexpr const char* kConfigFile = "lsdae_model.cfg";

}  // namespace lsdae::kit

#endif  // LSDAE_MODELS_KIT_XML_WRITER_H
