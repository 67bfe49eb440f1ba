// runtime/import/ssp/ssd_reader.h -- SystemStructure.ssd (SSP 1.0) to an
// lsdae::SystemDescription, checked and flattened (docs/ssp.md).
//
// Algorithm: one recursive pass over the ssd:System tree (elements matched by
// local name, so prefixed, default-namespace and unqualified writers read
// alike). Each system records its elements, its own connectors and its
// connections as edges between connector nodes; a connection is checked to
// name an element of that system (or none: the system's own connector) and a
// connector that element declares. Then every edge that starts at a component
// connector is followed, in document order, through system connectors (depth
// first, composing the linear transformations: to = f2·(f1·x + o1) + o2) to
// each component connector it reaches; that is one lsdae::Connection. A path that ends at a
// system connector with nothing beyond it (the root system's outputs) gives
// none. Parameter bindings: a component's own apply first, then those of the
// enclosing systems from inside out, a later value replacing an earlier one
// for the same variable (the outermost binding wins).
// Contract: every problem is a Diagnostic with the SSD's file name and the
// element's line; the returned description leaves out what was in error.
// Throws Error(xml) for malformed XML only.
// Cost: O(size of the SSD + connections × depth of nesting).
#ifndef LSDAE_RUNTIME_IMPORT_SSP_SSD_READER_H
#define LSDAE_RUNTIME_IMPORT_SSP_SSD_READER_H

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "lsdae/diagnostics.h"
#include "lsdae/system_description.h"

namespace lsdae::import {

struct SsdContext {
  std::string file = "SystemStructure.ssd";  // the name in messages and SourceLocations
  std::filesystem::path base;                // folder that relative sources and .ssv files resolve against
  // Inside an .ssp: a source must be a relative path that stays inside
  // `base` (no scheme, no absolute path, no `..` above it).
  bool confined = true;
  // Whether sources must exist (false: the fuzzer and pure parsing tests).
  bool check_files = true;
  std::uint64_t max_ssv_bytes = 512ull << 20;
};

SystemDescription parse_ssd(std::string_view text, const SsdContext& context, Diagnostics& diagnostics);

}  // namespace lsdae::import

#endif  // LSDAE_RUNTIME_IMPORT_SSP_SSD_READER_H
