// tests/runtime/import/ssp_broken_test.cpp -- the SSP 1.0 reader
// (runtime/import/ssp/) on broken and hostile descriptions: every error of
// each broken SSD pinned (where → what → value seen → what to do), nesting
// and path explosions refused quickly, malformed XML, stray elements in
// lsdae's own annotation. Well-formed input: ssp_reader_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "import/ssp/ssd_reader.h"
#include "lsdae/error.h"
#include "ssd_text.h"

namespace lsdae::import {
namespace {

using test_text::kHeader;
using test_text::kTwoComponents;
using test_text::parse;
using test_text::Parsed;
using test_text::ssd;

// Each broken description gives exactly these errors (all of them, pinned).
struct BrokenCase {
  const char* name;
  std::string text;
  std::vector<std::string> errors;
};

std::vector<BrokenCase> broken_cases() {
  const std::string two = kTwoComponents;
  return {
      {"MissingElement",
       ssd(two + R"(<ssd:Connections><ssd:Connection startElement="a" startConnector="y" endElement="c" endConnector="u"/></ssd:Connections>
)"),
       {"SystemStructure.ssd:14: error: <Connection> endElement=\"c\": no such element in the root system (its "
        "elements: a, b) → fix the name or add the <Component>"}},
      {"MissingConnector",
       ssd(two + R"(<ssd:Connections><ssd:Connection startElement="a" startConnector="z" endElement="b" endConnector="u"/></ssd:Connections>
)"),
       {"SystemStructure.ssd:14: error: <Connection> startConnector=\"z\": component \"a\" has no connector of that "
        "name (its connectors: y, u) → declare it in the element's <Connectors> (the FMU variable's name) or fix the "
        "name"}},
      {"MissingSystemConnector",
       ssd(two + R"(<ssd:Connections><ssd:Connection startConnector="in" endElement="b" endConnector="u"/></ssd:Connections>
)"),
       {"SystemStructure.ssd:14: error: <Connection> startConnector=\"in\" without startElement names a connector of "
        "the root system, which has none of that name (its connectors: none declared) → declare it in the system's "
        "<Connectors>, or give startElement"}},
      {"ConnectorDeclaredTwice",
       ssd(R"(<ssd:Elements><ssd:Component name="a" source="a.fmu"><ssd:Connectors>
<ssd:Connector name="y" kind="output"/>
<ssd:Connector name="y" kind="output"/>
</ssd:Connectors></ssd:Component></ssd:Elements>
)"),
       {"SystemStructure.ssd:6: error: <Connector> \"y\" of <Component> \"a\" is declared twice (first at line 5) → "
        "remove one of them"}},
      {"ElementDeclaredTwice",
       ssd(R"(<ssd:Elements><ssd:Component name="a" source="a.fmu"/>
<ssd:Component name="a" source="b.fmu"/></ssd:Elements>
)"),
       {"SystemStructure.ssd:5: error: <Component> \"a\" is declared twice in the root system (first at line 4) → "
        "give every element of a system its own name"}},
      {"ConnectorWithoutKind",
       ssd(R"(<ssd:Elements><ssd:Component name="a" source="a.fmu"><ssd:Connectors>
<ssd:Connector name="y"/></ssd:Connectors></ssd:Component></ssd:Elements>
)"),
       {"SystemStructure.ssd:5: error: <Connector> \"y\" of <Component> \"a\" lacks the attribute kind → write "
        "kind=\"input\" or kind=\"output\" (or parameter, calculatedParameter, inout)"}},
      {"SignalDictionary",
       ssd(R"(<ssd:Elements><ssd:SignalDictionaryReference name="bus" dictionary="signals"/></ssd:Elements>
<ssd:SignalDictionaries><ssd:SignalDictionary name="signals"/></ssd:SignalDictionaries>
)"),
       {"SystemStructure.ssd:4: error: <SignalDictionaryReference> \"bus\": lsdae does not support signal "
        "dictionaries → connect the connectors directly with <ssd:Connection>",
        "SystemStructure.ssd:5: error: <SignalDictionaries> in the root system: lsdae does not support signal "
        "dictionaries → connect the connectors directly with <ssd:Connection>"}},
      {"ParameterMapping",
       ssd(R"(<ssd:Elements><ssd:Component name="a" source="a.fmu">
<ssd:ParameterBindings><ssd:ParameterBinding source="resources/p.ssv">
<ssd:ParameterMapping source="resources/map.ssm"/>
</ssd:ParameterBinding></ssd:ParameterBindings></ssd:Component></ssd:Elements>
)"),
       {"SystemStructure.ssd:6: error: <ParameterMapping> (ssm): lsdae does not support parameter mappings → write "
        "the values under the FMU's variable names in the parameter set"}},
      {"ReferencedSsd",
       ssd(R"(<ssd:Elements><ssd:Component name="sub" type="application/x-ssp-definition" source="resources/sub.ssd"/></ssd:Elements>
)"),
       {"SystemStructure.ssd:4: error: <Component> \"sub\" has type=\"application/x-ssp-definition\": lsdae does not "
        "read referenced SSD/SSP files as components → write the subsystem as a nested <ssd:System> in this SSD"}},
      {"NotAnFmu",
       ssd(R"(<ssd:Elements><ssd:Component name="x" type="application/x-python" source="resources/x.py"/></ssd:Elements>
)"),
       {"SystemStructure.ssd:4: error: <Component> \"x\" has type=\"application/x-python\": lsdae simulates FMU "
        "components only → use an FMU (type=\"application/x-fmu-sharedlibrary\")"}},
      {"CoSimulationImplementation",
       ssd(R"(<ssd:Elements><ssd:Component name="x" implementation="CoSimulation" source="resources/x.fmu"/></ssd:Elements>
)"),
       {"SystemStructure.ssd:4: error: <Component> \"x\" has implementation=\"CoSimulation\": lsdae simulates "
        "components as Model Exchange FMUs → remove the attribute or write implementation=\"ModelExchange\""}},
      {"NoSource",
       ssd(R"(<ssd:Elements><ssd:Component name="x"/></ssd:Elements>
)"),
       {"SystemStructure.ssd:4: error: <Component> \"x\" lacks the attribute source → write "
        "source=\"resources/<model>.fmu\""}},
      {"SourceEscapesThePackage",
       ssd(R"(<ssd:Elements><ssd:Component name="x" source="../../etc/x.fmu"/>
<ssd:Component name="y" source="/abs/y.fmu"/>
<ssd:Component name="z" source="https://example.com/z.fmu"/></ssd:Elements>
)"),
       {"SystemStructure.ssd:4: error: source of x: \"../../etc/x.fmu\" contains a \"..\" component → refer to the file "
        "by its path inside the .ssp, e.g. resources/model.fmu",
        "SystemStructure.ssd:5: error: source of y: \"/abs/y.fmu\" is an absolute path → refer to the file by its "
        "path inside the .ssp, e.g. resources/model.fmu",
        "SystemStructure.ssd:6: error: source of z: \"https://example.com/z.fmu\" is a URI with a scheme, not a path "
        "inside the package → refer to the file by its path inside the .ssp, e.g. resources/model.fmu"}},
      {"BooleanMapping",
       ssd(two + R"(<ssd:Connections><ssd:Connection startElement="a" startConnector="y" endElement="b" endConnector="u">
<ssc:BooleanMappingTransformation/></ssd:Connection></ssd:Connections>
)"),
       {"SystemStructure.ssd:15: error: <BooleanMappingTransformation> on a connection: lsdae supports only "
        "<LinearTransformation> → map the values inside an FMU, or connect without a transformation"}},
      {"LoopThroughSystemConnectors",
       ssd(std::string(R"(<ssd:Connectors><ssd:Connector name="p" kind="inout"/><ssd:Connector name="q" kind="inout"/></ssd:Connectors>
)") + two + R"(<ssd:Connections>
<ssd:Connection startElement="a" startConnector="y" endConnector="p"/>
<ssd:Connection startConnector="p" endConnector="q"/>
<ssd:Connection startConnector="q" endConnector="p"/>
</ssd:Connections>
)"),
       {"SystemStructure.ssd:18: error: connections form a loop through system connectors, back to the root "
        "system's connector \"p\" → connect every system connector from one source"}},
      {"BadParameterValues",
       ssd(R"(<ssd:Elements><ssd:Component name="a" source="a.fmu">
<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues><ssv:ParameterSet version="1.0" name="p"><ssv:Parameters>
<ssv:Parameter name="k"><ssv:Real value="1,5"/></ssv:Parameter>
<ssv:Parameter name="n"><ssv:Integer value="2.0"/></ssv:Parameter>
<ssv:Parameter name="b"><ssv:Boolean value="yes"/></ssv:Parameter>
<ssv:Parameter name="blob"><ssv:Binary value="00ff"/></ssv:Parameter>
<ssv:Parameter name="none"/>
</ssv:Parameters></ssv:ParameterSet></ssd:ParameterValues></ssd:ParameterBinding></ssd:ParameterBindings>
</ssd:Component></ssd:Elements>
)"),
       {"SystemStructure.ssd:6: error: parameter \"k\": <Real> value=\"1,5\" is not a number → write a number such as 1.5e-3",
        "SystemStructure.ssd:7: error: parameter \"n\": <Integer> value=\"2.0\" is not an integer → write an integer such as 3",
        "SystemStructure.ssd:8: error: parameter \"b\": <Boolean> value=\"yes\" is not a Boolean → write true or false",
        "SystemStructure.ssd:9: error: <Parameter> \"blob\": Binary values are not supported by lsdae → set the "
        "parameter in the FMU, or give it another type",
        "SystemStructure.ssd:10: error: <Parameter> \"none\" has no value element (Real, Integer, Boolean, String, "
        "Enumeration) → add one, e.g. <ssv:Real value=\"1.5\"/>"}},
      {"SystemParameterForNoElement",
       ssd(R"(<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues><ssv:ParameterSet version="1.0" name="p"><ssv:Parameters>
<ssv:Parameter name="ghost.k"><ssv:Real value="1"/></ssv:Parameter>
</ssv:Parameters></ssv:ParameterSet></ssd:ParameterValues></ssd:ParameterBinding></ssd:ParameterBindings>
)"),
       {"SystemStructure.ssd:5: error: parameter \"ghost.k\" bound at the root system names no element or connector of "
        "it (its elements: none) → name the component's variable as \"<component>.<variable>\", or bind it at the "
        "component"}},
      {"DefaultExperimentBackwards",
       std::string(kHeader) + R"(<ssd:System name="root"/>
<ssd:DefaultExperiment startTime="5" stopTime="1"/>
</ssd:SystemStructureDescription>
)",
       {"SystemStructure.ssd:4: error: <DefaultExperiment> stopTime=1.000000 is not after startTime=5.000000 → make "
        "stopTime larger than startTime"}},
      {"NoSystem",
       std::string(kHeader) + "</ssd:SystemStructureDescription>\n",
       {"SystemStructure.ssd:2: error: <SystemStructureDescription> has no <System> → add the root <ssd:System>"}},
      {"NotAnSsd",
       "<fmiModelDescription fmiVersion=\"3.0\"/>\n",
       {"SystemStructure.ssd:1: error: the root element is <fmiModelDescription>, not "
        "<ssd:SystemStructureDescription> → give an SSP 1.0 system structure description (SystemStructure.ssd)"}},
      {"CouplingUnknownLsdaeElement",
       ssd(two + R"(<ssd:Annotations><ssc:Annotation type="org.lsdae.couplings">
<lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0">
<lsdae:Coupling name="rod">
<lsdae:Port element="a" potential="y" flow="u"/>
<lsdae:Port element="b" potential="y" flow="u"/>
<lsdae:Damping value="3"/>
</lsdae:Coupling>
<lsdae:Gear ratio="2"/>
</lsdae:Couplings></ssc:Annotation></ssd:Annotations>
)"),
       {"SystemStructure.ssd:19: error: <lsdae:Damping> in <Coupling> \"rod\" is not part of lsdae's coupling "
        "annotation 1.0 (https://lsdae.dev/ssp/couplings/1.0) → use <Couplings>, <Coupling> and <Port> as "
        "docs/ssp.md shows, or a newer lsdae",
        "SystemStructure.ssd:21: error: <lsdae:Gear> in <Couplings> is not part of lsdae's coupling annotation 1.0 "
        "(https://lsdae.dev/ssp/couplings/1.0) → use <Couplings>, <Coupling> and <Port> as docs/ssp.md shows, or a "
        "newer lsdae"}},
      {"CouplingBrokenPorts",
       ssd(two + R"(<ssd:Annotations><ssc:Annotation type="org.lsdae.couplings">
<lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0">
<lsdae:Coupling name="one"><lsdae:Port element="a" potential="y" flow="u"/></lsdae:Coupling>
<lsdae:Coupling name="twice"><lsdae:Port element="a" potential="y" flow="u"/><lsdae:Port element="a" potential="y" flow="u"/></lsdae:Coupling>
<lsdae:Coupling name="lacking"><lsdae:Port element="a" flow="u"/><lsdae:Port element="b" potential="y" flow="u"/></lsdae:Coupling>
<lsdae:Coupling name="ghost"><lsdae:Port element="c" potential="y" flow="u"/><lsdae:Port element="b" potential="y" flow="u"/></lsdae:Coupling>
<lsdae:Coupling name="ghost"><lsdae:Port element="a" potential="y" flow="u"/><lsdae:Port element="b" potential="y" flow="u"/></lsdae:Coupling>
<lsdae:Coupling name="ghost"><lsdae:Port element="a" potential="y" flow="u"/><lsdae:Port element="b" potential="y" flow="u"/></lsdae:Coupling>
</lsdae:Couplings></ssc:Annotation></ssd:Annotations>
)"),
       {"SystemStructure.ssd:16: error: coupling \"one\" has 1 port(s); a coupling joins at least two → add a <Port> "
        "for every component the coupling joins",
        "SystemStructure.ssd:17: error: coupling \"twice\" has the port a.u twice → list each component's flow input once",
        "SystemStructure.ssd:18: error: <Port> of coupling \"lacking\" lacks the attribute potential → write "
        "potential=\"...\" (element: the component; potential: its output; flow: its input)",
        "SystemStructure.ssd:19: error: coupling \"ghost\": <Port> element=\"c\" names no component of the root "
        "system (its elements: a, b) → fix the name",
        "SystemStructure.ssd:20: error: coupling \"ghost\" is declared twice (first at line 19) → give every coupling "
        "its own name",
        "SystemStructure.ssd:21: error: coupling \"ghost\" is declared twice (first at line 19) → give every coupling "
        "its own name"}},
      {"CouplingInTheWrongNamespace",
       ssd(two + R"(<ssd:Annotations><ssc:Annotation type="org.lsdae.couplings">
<Couplings xmlns="https://lsdae.dev/ssp/couplings/0.9"/>
</ssc:Annotation></ssd:Annotations>
)"),
       {"SystemStructure.ssd:15: error: <Couplings> is in namespace \"https://lsdae.dev/ssp/couplings/0.9\", not "
        "lsdae's coupling namespace → declare xmlns:lsdae=\"https://lsdae.dev/ssp/couplings/1.0\" on it"}},
  };
}

class BrokenSsd : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(BrokenSsd, IsRefusedWithThePinnedMessages) {
  const BrokenCase& c = GetParam();
  Parsed p = parse(c.text);
  EXPECT_EQ(p.errors(), c.errors) << p.all();
}

INSTANTIATE_TEST_SUITE_P(SspReader, BrokenSsd, ::testing::ValuesIn(broken_cases()),
                         [](const ::testing::TestParamInfo<BrokenCase>& param) { return std::string(param.param.name); });

// Hostile shapes: nesting deeper than the stack should carry, and a lattice of
// relaying system connectors with 2^40 paths, are refused quickly.
TEST(SspReader, DeepNestingAndPathExplosionsAreRefused) {
  std::string deep;
  for (int i = 0; i < 70; ++i) deep += "<ssd:Elements><ssd:System name=\"s" + std::to_string(i) + "\">\n";
  for (int i = 0; i < 70; ++i) deep += "</ssd:System></ssd:Elements>\n";
  Parsed nested = parse(ssd(deep));
  ASSERT_EQ(nested.errors().size(), 1u) << nested.all();
  EXPECT_NE(nested.errors()[0].find("SystemStructure.ssd:68: error: <System> \"s0.s1."), std::string::npos);
  EXPECT_NE(nested.errors()[0].find("is nested 65 systems deep, more than lsdae's limit of 64 → flatten the hierarchy"),
            std::string::npos)
      << nested.all();

  std::string connectors = "<ssd:Connectors>", connections = "<ssd:Connections>\n";
  for (int i = 0; i <= 40; ++i) {
    for (const char* k : {"p", "a", "b"})
      connectors += "<ssd:Connector name=\"" + std::string(k) + std::to_string(i) + "\" kind=\"inout\"/>";
    const std::string n = std::to_string(i), next = std::to_string(i + 1);
    if (i < 40)
      connections += "<ssd:Connection startConnector=\"p" + n + "\" endConnector=\"a" + n + "\"/><ssd:Connection startConnector=\"p" + n +
                     "\" endConnector=\"b" + n + "\"/><ssd:Connection startConnector=\"a" + n + "\" endConnector=\"p" + next +
                     "\"/><ssd:Connection startConnector=\"b" + n + "\" endConnector=\"p" + next + "\"/>\n";
  }
  connections += "<ssd:Connection startElement=\"a\" startConnector=\"y\" endConnector=\"p0\"/>\n"
                 "<ssd:Connection startConnector=\"p40\" endElement=\"b\" endConnector=\"u\"/>\n</ssd:Connections>\n";
  Parsed lattice = parse(ssd(connectors + "</ssd:Connectors>\n" + kTwoComponents + connections));
  ASSERT_EQ(lattice.errors().size(), 1u) << lattice.all();
  EXPECT_NE(lattice.errors()[0].find("branch into more than 1000000 paths"), std::string::npos) << lattice.all();
}

TEST(SspReader, MalformedXmlIsAnXmlError) {
  try {
    parse(ssd("<ssd:Elements>"));
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::xml);
    EXPECT_NE(std::string(e.what()).find("SystemStructure.ssd:"), std::string::npos) << e.what();
  }
}

TEST(SspReader, OtherAnnotationsAreIgnoredButStrayElementsInOursAreWarned) {
  Parsed p = parse(ssd(std::string(kTwoComponents) + R"(<ssd:Annotations>
<ssc:Annotation type="org.lsdae.couplings">
<lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0"/>
<other:Note xmlns:other="urn:other"/>
</ssc:Annotation></ssd:Annotations>
)"));
  EXPECT_TRUE(p.errors().empty()) << p.all();
  EXPECT_NE(p.all().find("SystemStructure.ssd:17: warning: <other:Note> in the coupling annotation is not in lsdae's "
                         "namespace; ignored"),
            std::string::npos)
      << p.all();
}

}  // namespace
}  // namespace lsdae::import
