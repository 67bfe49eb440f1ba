// tests/runtime/import/xml_fixtures.h -- small FMI 3.0 documents for the
// parser and validator tests. A semi-explicit Hello World DAE:
//   x' = y;  0 = y + 2z - x;  0 = y - 3z - 2x   (states x; algebraic y, z).
#ifndef LSDAE_TESTS_RUNTIME_IMPORT_XML_FIXTURES_H
#define LSDAE_TESTS_RUNTIME_IMPORT_XML_FIXTURES_H

#include <string>

namespace lsdae::test {

inline const std::string kVariables = R"XML(
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
    <Float64 name="x" valueReference="1" causality="local" variability="continuous" initial="exact" start="1"/>
    <Float64 name="der(x)" valueReference="2" causality="local" variability="continuous" derivative="1"/>
    <Float64 name="y" valueReference="3" causality="local" variability="continuous" initial="approx" start="0"/>
    <Float64 name="z" valueReference="4" causality="local" variability="continuous" initial="approx" start="0"/>
    <Float64 name="g[1]" valueReference="5" causality="local" variability="continuous"/>
    <Float64 name="g[2]" valueReference="6" causality="local" variability="continuous"/>
    <Boolean name="enableDAEMode" valueReference="7" causality="structuralParameter" variability="fixed" start="false"/>
)XML";

inline const std::string kStructure = R"(
    <ContinuousStateDerivative valueReference="2" dependencies="1" dependenciesKind="dependent"/>
)";

inline std::string model_description(const std::string& variables = kVariables,
                                     const std::string& structure = kStructure,
                                     const std::string& fmi_version = "3.0",
                                     const std::string& extra = "") {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion=")" + fmi_version + R"(" modelName="HelloWorld" instantiationToken="{tok}">
  <ModelExchange modelIdentifier="HelloWorld" providesDirectionalDerivatives="true"/>
)" + extra + R"(  <DefaultExperiment startTime="0" stopTime="1" tolerance="1e-6" stepSize="0.01"/>
  <ModelVariables>)" + variables + R"(  </ModelVariables>
  <ModelStructure>)" + structure + R"(  </ModelStructure>
</fmiModelDescription>
)";
}

inline const std::string kManifestBodyA = R"(
  <EnableDAE valueReference="7"/>
  <AlgebraicVariables>
    <AlgebraicVariable valueReference="3"/>
    <AlgebraicVariable valueReference="4"/>
  </AlgebraicVariables>
  <ModelStructure>
    <ContinuousStateDerivative valueReference="2" dependencies="3" dependenciesKind="constant"/>
    <Residual><Formulation valueReference="5" dependencies="1 3 4" dependenciesKind="constant constant constant"/></Residual>
    <Residual><Formulation valueReference="6" dependencies="1 3 4" dependenciesKind="constant constant constant"/></Residual>
  </ModelStructure>
)";

inline std::string manifest_a(const std::string& body = kManifestBodyA,
                              const std::string& root = "fmiLayeredStandardManifest",
                              const std::string& attributes =
                                  R"( fmi-ls:fmi-ls-name="org.fmi-standard.fmi-ls-dae" fmi-ls:fmi-ls-version="0.1.0")") {
  return R"(<?xml version="1.0" encoding="UTF-8"?>
<)" + root + R"( xmlns:fmi-ls="http://fmi-standard.org/fmi-ls-manifest")" + attributes + ">" + body + "</" + root +
         ">\n";
}

inline const std::string kManifestBodyB = R"(
  <EnableDAEParameter valueReference="7"/>
  <AlgebraicVariables>
    <AlgebraicVariable valueReference="3"/>
    <AlgebraicVariable valueReference="4"/>
  </AlgebraicVariables>
  <ModelStructure>
    <ContinuousStateDerivative valueReference="2" dependencies="3" dependenciesKind="constant"/>
    <Residual valueReference="5" dependencies="1 3 4" dependenciesKind="constant constant constant"/>
    <Residual valueReference="6" dependencies="1 3 4" dependenciesKind="constant constant constant"/>
  </ModelStructure>
)";

inline std::string manifest_b(const std::string& body = kManifestBodyB) {
  return "<?xml version=\"1.0\"?>\n<fmiDAEManifest>" + body + "</fmiDAEManifest>\n";
}

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_RUNTIME_IMPORT_XML_FIXTURES_H
