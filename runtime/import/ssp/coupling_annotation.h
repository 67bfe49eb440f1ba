// runtime/import/ssp/coupling_annotation.h -- lsdae's acausal coupling
// annotation in an SSD (docs/ssp.md, "The coupling annotation").
//
//   <ssc:Annotation type="org.lsdae.couplings">
//     <lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0">
//       <lsdae:Coupling name="rod">
//         <lsdae:Port element="mass1" potential="v" flow="F"/>
//         <lsdae:Port element="mass2" potential="v" flow="F"/>
//       </lsdae:Coupling>
//     </lsdae:Couplings>
//   </ssc:Annotation>
//
// Meaning: lsdae/system_description.h, struct Coupling. Elements are matched
// by namespace URI, not prefix: any child in lsdae's namespace other than
// Couplings/Coupling/Port is refused with its line (a later version of the
// annotation must not be half-read); elements of other namespaces inside the
// annotation are ignored with a warning. A coupling needs a name and at least
// two ports; a port needs element, potential and flow; the same flow may not
// appear twice in one coupling.
// Contract: problems are Diagnostics; element names are returned as written
// (relative to the system that carries the annotation): the SSD reader
// resolves them.
#ifndef LSDAE_RUNTIME_IMPORT_SSP_COUPLING_ANNOTATION_H
#define LSDAE_RUNTIME_IMPORT_SSP_COUPLING_ANNOTATION_H

#include <string>
#include <vector>

#include "import/xml_document.h"
#include "lsdae/diagnostics.h"

namespace lsdae::import {

inline constexpr const char* kCouplingAnnotationType = "org.lsdae.couplings";
inline constexpr const char* kCouplingNamespace = "https://lsdae.dev/ssp/couplings/1.0";

struct CouplingPortSpec {
  std::string element, potential, flow;
  int line = 0;
};

struct CouplingSpec {
  std::string name;
  std::vector<CouplingPortSpec> ports;
  int line = 0;
};

// `annotation` is an ssc:Annotation element whose type is kCouplingAnnotationType.
std::vector<CouplingSpec> read_coupling_annotation(const XmlDocument& doc, const pugi::xml_node& annotation,
                                                   Diagnostics& diagnostics);

// The namespace URI of an element (its prefix resolved through the xmlns
// attributes of it and its ancestors; "" when unbound).
std::string namespace_uri(const pugi::xml_node& element);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_SSP_COUPLING_ANNOTATION_H
