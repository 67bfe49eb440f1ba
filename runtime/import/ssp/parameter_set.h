// runtime/import/ssp/parameter_set.h -- the values of an ssv:ParameterSet
// (SSP 1.0 SystemStructureParameterValues), inline in an SSD or in an .ssv file.
//
// Each ssv:Parameter name= carries one typed child: ssv:Real, ssv:Integer,
// ssv:Boolean, ssv:String or ssv:Enumeration with a value attribute. Values
// are kept as text (the component parses them strictly for the FMU
// variable's type); Real and Integer are checked to be numbers and Boolean to
// be true/false/1/0 here, so a typo gets its line. ssv:Binary is refused.
// Contract: problems are Diagnostics with the document's file and line.
#ifndef LSDAE_RUNTIME_IMPORT_SSP_PARAMETER_SET_H
#define LSDAE_RUNTIME_IMPORT_SSP_PARAMETER_SET_H

#include <string>
#include <vector>

#include "import/xml_document.h"
#include "lsdae/diagnostics.h"

namespace lsdae::import {

struct ParameterValue {
  std::string name;
  std::string value;
  std::string type;  // "Real", "Integer", "Boolean", "String", "Enumeration"
  std::string unit;  // Real only; empty when not given
  int line = 0;
};

// `parameter_set` is an ssv:ParameterSet element of `doc`.
std::vector<ParameterValue> read_parameter_set(const XmlDocument& doc, const pugi::xml_node& parameter_set,
                                               Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_SSP_PARAMETER_SET_H
