// runtime/import/model_description_parser.h -- modelDescription.xml (FMI 3.0,
// and FMI 2.0 through model_description_parser_fmi2.cpp) into
// lsdae::ModelDescription.
//
// Contract: the XML must be well-formed (XmlDocument throws otherwise); the
// root must be <fmiModelDescription> with fmiVersion 3.x, or 2.0 / 2.0.x
// (dispatched to parse_model_description_fmi2), else Error(xml) -- nothing
// else can be trusted then. Every other problem (a
// missing or malformed attribute, an unknown element) is added to
// `diagnostics` with file:line and parsing continues, so one pass reports
// them all. Cross-reference rules (dangling references, duplicates, FMI
// variable rules) are the validator's job (validate.h), not the parser's.
// Cost: linear in the document size.
#ifndef LSDAE_RUNTIME_IMPORT_MODEL_DESCRIPTION_PARSER_H
#define LSDAE_RUNTIME_IMPORT_MODEL_DESCRIPTION_PARSER_H

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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
// The same from a reader of the element (which may read further attributes).
Unknown read_unknown(const AttributeReader& attrs);

// FMI 2.0 modelDescription.xml (fmiVersion "2.0" or "2.0.x"); see
// model_description_parser_fmi2.cpp for the mapping onto ModelDescription.
ModelDescription parse_model_description_fmi2(const XmlDocument& doc, Diagnostics& diagnostics);

// Shared by both versions' parsers: the causality/variability/initial
// attributes (an unknown value is an error diagnostic and nullopt),
// dependenciesKind (`label()` names the element in messages; called only for one), <UnitDefinitions>,
// <DefaultExperiment> (the same attributes in FMI 2.0 and 3.0).
std::optional<Causality> read_causality(const AttributeReader& attrs);
std::optional<Variability> read_variability(const AttributeReader& attrs);
std::optional<Initial> read_initial(const AttributeReader& attrs);
std::optional<std::vector<DependencyKind>> read_dependencies_kind(const AttributeReader& attrs,
                                                                  const std::function<std::string()>& label);
void parse_units(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md, Diagnostics& diagnostics);
void parse_default_experiment(const XmlDocument& doc, const pugi::xml_node& node, ModelDescription& md,
                              Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_MODEL_DESCRIPTION_PARSER_H
