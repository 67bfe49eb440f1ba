// tests/runtime/import/ssd_text.h -- SSD text and parsing for the SSP reader's
// tests (ssp_reader_test.cpp, ssp_broken_test.cpp, ssp_files_test.cpp): the
// document header with every SSP 1.0 namespace, an SSD with one root system
// around a body, two components to connect, and parse() with the reader's own
// rules only (the FMU files are not looked for).
#ifndef LSDAE_TESTS_RUNTIME_IMPORT_SSD_TEXT_H
#define LSDAE_TESTS_RUNTIME_IMPORT_SSD_TEXT_H

#include <string>
#include <vector>

#include "import/ssp/ssd_reader.h"

namespace lsdae::import::test_text {

inline constexpr const char* kHeader =
    R"(<?xml version="1.0" encoding="UTF-8"?>
<ssd:SystemStructureDescription xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" xmlns:ssm="http://ssp-standard.org/SSP1/SystemStructureParameterMapping" name="test" version="1.0">
)";

// An SSD with one root system around `body` (line 3 is <ssd:System>).
inline std::string ssd(const std::string& body) {
  return std::string(kHeader) + "<ssd:System name=\"root\">\n" + body + "</ssd:System>\n</ssd:SystemStructureDescription>\n";
}

struct Parsed {
  SystemDescription system;
  Diagnostics diagnostics;
  std::vector<std::string> errors() const {
    std::vector<std::string> out;
    for (const auto& d : diagnostics.items())
      if (d.severity == Severity::error) out.push_back(d.format());
    return out;
  }
  std::string all() const {
    std::string out;
    for (const auto& d : diagnostics.items()) out += d.format() + "\n";
    return out;
  }
};

// Parses without looking for the FMU files (the reader's own rules only).
inline Parsed parse(const std::string& text) {
  Parsed p;
  SsdContext context;
  context.check_files = false;
  context.base = "/nowhere";
  p.system = parse_ssd(text, context, p.diagnostics);
  return p;
}

// Two components a (output y, input u) and b (input u, output y), starting at line 4.
inline constexpr const char* kTwoComponents = R"(<ssd:Elements>
<ssd:Component name="a" source="resources/a.fmu"><ssd:Connectors>
<ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
<ssd:Connector name="u" kind="input"><ssc:Real/></ssd:Connector>
</ssd:Connectors></ssd:Component>
<ssd:Component name="b" source="resources/b.fmu"><ssd:Connectors>
<ssd:Connector name="u" kind="input"><ssc:Real/></ssd:Connector>
<ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
</ssd:Connectors></ssd:Component>
</ssd:Elements>
)";

}  // namespace lsdae::import::test_text

#endif  // LSDAE_TESTS_RUNTIME_IMPORT_SSD_TEXT_H
