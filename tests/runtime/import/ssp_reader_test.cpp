// tests/runtime/import/ssp_reader_test.cpp -- the SSP 1.0 reader
// (runtime/import/ssp/, lsdae/ssp.h): SSDs written the way OMSimulator and
// FMPy write them, nested systems, parameter values, the coupling
// annotation, .ssp archives built here, and broken input with every message
// pinned (where → what → value seen → what to do).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "import/ssp/ssd_reader.h"
#include "import/temp_dir.h"
#include "lsdae/error.h"
#include "lsdae/ssp.h"
#include "zip_writer.h"

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;

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
Parsed parse(const std::string& text) {
  Parsed p;
  SsdContext context;
  context.check_files = false;
  context.base = "/nowhere";
  p.system = parse_ssd(text, context, p.diagnostics);
  return p;
}

const char* kHeader =
    R"(<?xml version="1.0" encoding="UTF-8"?>
<ssd:SystemStructureDescription xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" xmlns:ssm="http://ssp-standard.org/SSP1/SystemStructureParameterMapping" name="test" version="1.0">
)";

// An SSD with one root system around `body` (line 3 is <ssd:System>).
std::string ssd(const std::string& body) {
  return std::string(kHeader) + "<ssd:System name=\"root\">\n" + body + "</ssd:System>\n</ssd:SystemStructureDescription>\n";
}

// Two components a (output y, input u) and b (input u, output y), starting at line 4.
const char* kTwoComponents = R"(<ssd:Elements>
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

// OMSimulator's layout: every namespace declared, geometry, its own
// annotations, connections to the root system's connectors with an empty or
// missing element, DefaultExperiment after the system.
TEST(SspReader, ReadsAnOMSimulatorStyleDescription) {
  const std::string text = R"(<?xml version="1.0"?>
<ssd:SystemStructureDescription xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" xmlns:ssm="http://ssp-standard.org/SSP1/SystemStructureParameterMapping" xmlns:ssb="http://ssp-standard.org/SSP1/SystemStructureSignalDictionary" xmlns:oms="https://raw.githubusercontent.com/OpenModelica/OMSimulator/master/schema/oms.xsd" name="model" version="1.0">
  <ssd:System name="root">
    <ssd:Connectors>
      <ssd:Connector name="F" kind="input"><ssc:Real unit="N"/><ssd:ConnectorGeometry x="0" y="0.5"/></ssd:Connector>
      <ssd:Connector name="v" kind="output"><ssc:Real/></ssd:Connector>
    </ssd:Connectors>
    <ssd:Annotations>
      <ssc:Annotation type="org.openmodelica">
        <oms:Annotations><oms:SimulationInformation><oms:FixedStepMaster description="oms-ma" stepSize="1e-1"/></oms:SimulationInformation></oms:Annotations>
      </ssc:Annotation>
    </ssd:Annotations>
    <ssd:Elements>
      <ssd:Component name="mass" type="application/x-fmu-sharedlibrary" source="resources/0001_mass.fmu">
        <ssd:Connectors>
          <ssd:Connector name="F" kind="input"><ssc:Real unit="N"/><ssd:ConnectorGeometry x="0" y="0.5"/></ssd:Connector>
          <ssd:Connector name="v" kind="output"><ssc:Real unit="m/s"/></ssd:Connector>
        </ssd:Connectors>
        <ssd:ElementGeometry x1="10" y1="-10" x2="30" y2="10" rotation="0" iconRotation="0" iconFlip="false" iconFixedAspectRatio="false"/>
      </ssd:Component>
      <ssd:Component name="damper" type="application/x-fmu-sharedlibrary" source="resources/0002_damper.fmu">
        <ssd:Connectors>
          <ssd:Connector name="v" kind="input"><ssc:Real/></ssd:Connector>
          <ssd:Connector name="F" kind="output"><ssc:Real/></ssd:Connector>
        </ssd:Connectors>
      </ssd:Component>
    </ssd:Elements>
    <ssd:Connections>
      <ssd:Connection startElement="mass" startConnector="v" endElement="damper" endConnector="v"/>
      <ssd:Connection startElement="" startConnector="F" endElement="mass" endConnector="F"/>
      <ssd:Connection startElement="mass" startConnector="v" endConnector="v"/>
    </ssd:Connections>
  </ssd:System>
  <ssd:DefaultExperiment startTime="0" stopTime="2.5">
    <ssd:Annotations><ssc:Annotation type="org.openmodelica"><oms:Annotations><oms:SimulationInformation resultFile="model_res.mat"/></oms:Annotations></ssc:Annotation></ssd:Annotations>
  </ssd:DefaultExperiment>
</ssd:SystemStructureDescription>
)";
  Parsed p = parse(text);
  EXPECT_TRUE(p.errors().empty()) << p.all();
  EXPECT_EQ(p.system.name, "model");
  ASSERT_EQ(p.system.components.size(), 2u);
  EXPECT_EQ(p.system.components[0].name, "mass");
  EXPECT_EQ(p.system.components[0].source, "resources/0001_mass.fmu");
  EXPECT_EQ(p.system.components[0].fmu, fs::path("/nowhere/resources/0001_mass.fmu"));
  EXPECT_EQ(p.system.components[0].where, "SystemStructure.ssd:14");
  ASSERT_EQ(p.system.components[0].connectors.size(), 2u);
  EXPECT_EQ(p.system.components[0].connectors[1].unit, "m/s");
  EXPECT_EQ(p.system.components[0].connectors[1].type, "Real");
  EXPECT_EQ(p.system.components[0].connectors[1].kind, "output");
  // Only the component-to-component connection: the root's own input and
  // output are the system's interface, not an equation.
  ASSERT_EQ(p.system.connections.size(), 1u);
  EXPECT_EQ(p.system.connections[0].from.component, "mass");
  EXPECT_EQ(p.system.connections[0].from.variable, "v");
  EXPECT_EQ(p.system.connections[0].to.component, "damper");
  EXPECT_EQ(p.system.connections[0].where, "SystemStructure.ssd:29");
  EXPECT_EQ(p.system.start_time, 0.0);
  EXPECT_EQ(p.system.stop_time, 2.5);
  EXPECT_FALSE(p.system.tolerance.has_value());
}

// FMPy's quirks: the SSD namespace as the default namespace (unprefixed
// elements), no type attribute, connectors without a type element, no
// version-independent extras, a connection with a LinearTransformation.
TEST(SspReader, ReadsAnFMPyStyleDescriptionWithDefaultNamespaces) {
  const std::string text = R"(<?xml version="1.0" encoding="UTF-8"?>
<SystemStructureDescription xmlns="http://ssp-standard.org/SSP1/SystemStructureDescription" version="1.0" name="ControlledDrivetrain">
<System name="Drivetrain">
<Elements>
<Component name="Controller" source="resources/Controller.fmu">
<Connectors>
<Connector name="w_ref" kind="input"/>
<Connector name="tau" kind="output"/>
</Connectors>
</Component>
<Component name="Drivetrain" source="resources/Drivetrain%20v2.fmu">
<Connectors>
<Connector name="tau" kind="input"/>
<Connector name="w" kind="output"/>
</Connectors>
</Component>
</Elements>
<Connections>
<Connection startElement="Controller" startConnector="tau" endElement="Drivetrain" endConnector="tau">
<LinearTransformation xmlns="http://ssp-standard.org/SSP1/SystemStructureCommon" factor="2.5" offset="-1"/>
</Connection>
<Connection startElement="Drivetrain" startConnector="w" endElement="Controller" endConnector="w_ref"/>
</Connections>
</System>
</SystemStructureDescription>
)";
  Parsed p = parse(text);
  EXPECT_TRUE(p.errors().empty()) << p.all();
  EXPECT_EQ(p.system.name, "ControlledDrivetrain");
  ASSERT_EQ(p.system.components.size(), 2u);
  EXPECT_EQ(p.system.components[1].fmu, fs::path("/nowhere/resources/Drivetrain v2.fmu"));
  EXPECT_EQ(p.system.components[1].connectors[0].type, "");
  ASSERT_EQ(p.system.connections.size(), 2u);
  EXPECT_EQ(p.system.connections[0].factor, 2.5);
  EXPECT_EQ(p.system.connections[0].offset, -1.0);
  EXPECT_EQ(p.system.connections[1].factor, 1.0);
  EXPECT_EQ(p.system.connections[1].to.variable, "w_ref");
}

// Nested systems: names "sub.inner", connections through system connectors
// on both sides resolved to the components, transformations composed.
TEST(SspReader, FlattensNestedSystemsAndResolvesRelayedConnections) {
  const std::string text = ssd(R"(<ssd:Elements>
<ssd:Component name="src" source="resources/src.fmu"><ssd:Connectors>
<ssd:Connector name="y" kind="output"><ssc:Real/></ssd:Connector>
<ssd:Connector name="back" kind="input"><ssc:Real/></ssd:Connector>
</ssd:Connectors></ssd:Component>
<ssd:System name="sub">
<ssd:Connectors>
<ssd:Connector name="in" kind="input"><ssc:Real/></ssd:Connector>
<ssd:Connector name="out" kind="output"><ssc:Real/></ssd:Connector>
</ssd:Connectors>
<ssd:Elements>
<ssd:System name="inner">
<ssd:Connectors><ssd:Connector name="in" kind="input"/><ssd:Connector name="out" kind="output"/></ssd:Connectors>
<ssd:Elements>
<ssd:Component name="gain" source="resources/gain.fmu"><ssd:Connectors>
<ssd:Connector name="u" kind="input"/><ssd:Connector name="y" kind="output"/>
</ssd:Connectors></ssd:Component>
</ssd:Elements>
<ssd:Connections>
<ssd:Connection startConnector="in" endElement="gain" endConnector="u"><ssc:LinearTransformation factor="3"/></ssd:Connection>
<ssd:Connection startElement="gain" startConnector="y" endConnector="out"/>
</ssd:Connections>
</ssd:System>
</ssd:Elements>
<ssd:Connections>
<ssd:Connection startConnector="in" endElement="inner" endConnector="in"><ssc:LinearTransformation factor="2" offset="1"/></ssd:Connection>
<ssd:Connection startElement="inner" startConnector="out" endConnector="out"/>
</ssd:Connections>
</ssd:System>
</ssd:Elements>
<ssd:Connections>
<ssd:Connection startElement="src" startConnector="y" endElement="sub" endConnector="in"/>
<ssd:Connection startElement="sub" startConnector="out" endElement="src" endConnector="back"/>
</ssd:Connections>
)");
  Parsed p = parse(text);
  EXPECT_TRUE(p.errors().empty()) << p.all();
  ASSERT_EQ(p.system.components.size(), 2u);
  EXPECT_EQ(p.system.components[1].name, "sub.inner.gain");
  ASSERT_EQ(p.system.connections.size(), 2u);
  const Connection* in = nullptr;
  const Connection* out = nullptr;
  for (const auto& c : p.system.connections) (c.from.component == "src" ? in : out) = &c;
  ASSERT_TRUE(in && out);
  EXPECT_EQ(in->to.component, "sub.inner.gain");
  EXPECT_EQ(in->to.variable, "u");
  // u = 3 · (2 · y + 1) = 6 y + 3
  EXPECT_EQ(in->factor, 6.0);
  EXPECT_EQ(in->offset, 3.0);
  EXPECT_EQ(out->from.component, "sub.inner.gain");
  EXPECT_EQ(out->to.component, "src");
  EXPECT_EQ(out->to.variable, "back");
  EXPECT_EQ(out->factor, 1.0);
}

TEST(SspReader, ReadsInlineParameterValuesWithTheOutermostBindingWinning) {
  const std::string text = ssd(R"(<ssd:Elements>
<ssd:Component name="a" source="resources/a.fmu">
<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues>
<ssv:ParameterSet version="1.0" name="own"><ssv:Parameters>
<ssv:Parameter name="k"><ssv:Real value="1.5" unit="m"/></ssv:Parameter>
<ssv:Parameter name="n"><ssv:Integer value="3"/></ssv:Parameter>
<ssv:Parameter name="on"><ssv:Boolean value="true"/></ssv:Parameter>
<ssv:Parameter name="label"><ssv:String value="left wheel"/></ssv:Parameter>
</ssv:Parameters></ssv:ParameterSet>
</ssd:ParameterValues></ssd:ParameterBinding></ssd:ParameterBindings>
</ssd:Component>
</ssd:Elements>
<ssd:ParameterBindings><ssd:ParameterBinding prefix="a."><ssd:ParameterValues>
<ssv:ParameterSet version="1.0" name="system"><ssv:Parameters>
<ssv:Parameter name="k"><ssv:Real value="-2e3"/></ssv:Parameter>
<ssv:Parameter name="m.x"><ssv:Enumeration value="Option2"/></ssv:Parameter>
</ssv:Parameters></ssv:ParameterSet>
</ssd:ParameterValues></ssd:ParameterBinding></ssd:ParameterBindings>
)");
  Parsed p = parse(text);
  EXPECT_TRUE(p.errors().empty()) << p.all();
  ASSERT_EQ(p.system.components.size(), 1u);
  const auto& params = p.system.components[0].parameters;
  ASSERT_EQ(params.size(), 5u);
  EXPECT_EQ(params[0], (std::pair<std::string, std::string>("k", "-2e3")));
  EXPECT_EQ(p.system.components[0].parameters_where[0], "SystemStructure.ssd:18");
  EXPECT_EQ(params[1], (std::pair<std::string, std::string>("n", "3")));
  EXPECT_EQ(params[2], (std::pair<std::string, std::string>("on", "true")));
  EXPECT_EQ(params[3], (std::pair<std::string, std::string>("label", "left wheel")));
  EXPECT_EQ(params[4], (std::pair<std::string, std::string>("m.x", "Option2")));  // a dotted FMU variable name
}

// OMSimulator's parameters: a system connector of kind parameter, bound in
// the system's parameter set and connected on to the components' parameters
// (through a nested system, and through a transformation).
TEST(SspReader, CarriesSystemParameterConnectorsToTheComponents) {
  const std::string text = ssd(R"(<ssd:Connectors><ssd:Connector name="gain" kind="parameter"><ssc:Real/></ssd:Connector>
<ssd:Connector name="unused" kind="parameter"><ssc:Real/></ssd:Connector></ssd:Connectors>
<ssd:Elements>
<ssd:Component name="a" source="resources/a.fmu"><ssd:Connectors><ssd:Connector name="k" kind="parameter"/></ssd:Connectors></ssd:Component>
<ssd:System name="sub"><ssd:Connectors><ssd:Connector name="g" kind="parameter"/></ssd:Connectors>
<ssd:Elements><ssd:Component name="b" source="resources/b.fmu"><ssd:Connectors><ssd:Connector name="k2" kind="parameter"/></ssd:Connectors></ssd:Component></ssd:Elements>
<ssd:Connections><ssd:Connection startConnector="g" endElement="b" endConnector="k2"><ssc:LinearTransformation factor="2" offset="1"/></ssd:Connection></ssd:Connections>
</ssd:System>
</ssd:Elements>
<ssd:Connections>
<ssd:Connection startConnector="gain" endElement="a" endConnector="k"/>
<ssd:Connection startConnector="gain" endElement="sub" endConnector="g"/>
</ssd:Connections>
<ssd:ParameterBindings><ssd:ParameterBinding><ssd:ParameterValues><ssv:ParameterSet version="1.0" name="root"><ssv:Parameters>
<ssv:Parameter name="gain"><ssv:Real value="1.5"/></ssv:Parameter>
<ssv:Parameter name="unused"><ssv:Real value="7"/></ssv:Parameter>
</ssv:Parameters></ssv:ParameterSet></ssd:ParameterValues></ssd:ParameterBinding></ssd:ParameterBindings>
)");
  Parsed p = parse(text);
  EXPECT_TRUE(p.errors().empty()) << p.all();
  ASSERT_EQ(p.system.components.size(), 2u);
  EXPECT_EQ(p.system.components[0].parameters,
            (std::vector<std::pair<std::string, std::string>>{{"k", "1.5"}}));
  EXPECT_EQ(p.system.components[1].parameters,
            (std::vector<std::pair<std::string, std::string>>{{"k2", "4"}}));  // 2 · 1.5 + 1
  EXPECT_TRUE(p.system.connections.empty());
  EXPECT_NE(p.all().find("SystemStructure.ssd:19: warning: parameter \"unused\" is bound to a system connector that no "
                         "connection carries to a component; ignored"),
            std::string::npos)
      << p.all();
}

const char* kCouplings = R"(<ssd:Annotations>
<ssc:Annotation type="com.example.layout"><foo:Layout xmlns:foo="urn:foo"/></ssc:Annotation>
<ssc:Annotation type="org.lsdae.couplings">
<lsdae:Couplings xmlns:lsdae="https://lsdae.dev/ssp/couplings/1.0">
<lsdae:Coupling name="rod">
<lsdae:Port element="a" potential="y" flow="u"/>
<lsdae:Port element="b" potential="y" flow="u"/>
</lsdae:Coupling>
</lsdae:Couplings>
</ssc:Annotation>
</ssd:Annotations>
)";

TEST(SspReader, ReadsTheCouplingAnnotation) {
  Parsed p = parse(ssd(std::string(kTwoComponents) + kCouplings));
  EXPECT_TRUE(p.errors().empty()) << p.all();
  ASSERT_EQ(p.system.couplings.size(), 1u);
  const Coupling& c = p.system.couplings[0];
  EXPECT_EQ(c.name, "rod");
  EXPECT_EQ(c.where, "SystemStructure.ssd:18");
  ASSERT_EQ(c.ports.size(), 2u);
  EXPECT_EQ(c.ports[1].potential.component, "b");
  EXPECT_EQ(c.ports[1].potential.variable, "y");
  EXPECT_EQ(c.ports[1].flow.component, "b");
  EXPECT_EQ(c.ports[1].flow.variable, "u");
}

TEST(SspReader, ReadsACouplingOfANestedSystemWithItsPrefix) {
  // Another prefix for the namespace, the annotation on a nested system, a
  // port reaching into a system below it.
  const std::string text = ssd(R"(<ssd:Elements>
<ssd:System name="plant">
<ssd:Elements>
<ssd:Component name="m1" source="resources/m.fmu"/>
<ssd:System name="deep"><ssd:Elements><ssd:Component name="m2" source="resources/m.fmu"/></ssd:Elements></ssd:System>
</ssd:Elements>
<ssd:Annotations><ssc:Annotation type="org.lsdae.couplings">
<c:Couplings xmlns:c="https://lsdae.dev/ssp/couplings/1.0"><c:Coupling name="shaft">
<c:Port element="m1" potential="w" flow="tau"/><c:Port element="deep.m2" potential="w" flow="tau"/><c:Port element="m1" potential="w" flow="tau2"/>
</c:Coupling></c:Couplings>
</ssc:Annotation></ssd:Annotations>
</ssd:System>
</ssd:Elements>
)");
  Parsed p = parse(text);
  EXPECT_TRUE(p.errors().empty()) << p.all();
  ASSERT_EQ(p.system.couplings.size(), 1u);
  EXPECT_EQ(p.system.couplings[0].name, "plant.shaft");
  ASSERT_EQ(p.system.couplings[0].ports.size(), 3u);
  EXPECT_EQ(p.system.couplings[0].ports[1].flow.component, "plant.deep.m2");
}

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

// --- files: .ssd beside its FMUs, .ssp archives --------------------------------

class SspFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("lsdae-ssp-test-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    fs::create_directories(root_ / "tmp");
  }
  void TearDown() override { fs::remove_all(root_); }
  void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
  }
  SystemReadOptions options() const {
    SystemReadOptions o;
    o.temp_root = root_ / "tmp";
    return o;
  }
  fs::path root_;
};

const char* kPackaged = R"(<?xml version="1.0"?>
<ssd:SystemStructureDescription xmlns:ssc="http://ssp-standard.org/SSP1/SystemStructureCommon" xmlns:ssd="http://ssp-standard.org/SSP1/SystemStructureDescription" xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" name="packaged" version="1.0">
<ssd:System name="root">
<ssd:Elements>
<ssd:Component name="a" source="resources/a.fmu">
<ssd:ParameterBindings><ssd:ParameterBinding source="resources/a.ssv"/></ssd:ParameterBindings>
</ssd:Component>
</ssd:Elements>
</ssd:System>
</ssd:SystemStructureDescription>
)";

const char* kSsv = R"(<?xml version="1.0"?>
<ssv:ParameterSet xmlns:ssv="http://ssp-standard.org/SSP1/SystemStructureParameterValues" version="1.0" name="a">
<ssv:Parameters><ssv:Parameter name="k"><ssv:Real value="4.25"/></ssv:Parameter></ssv:Parameters>
</ssv:ParameterSet>
)";

TEST_F(SspFiles, AnSspIsUnpackedForAsLongAsTheDescriptionLives) {
  const fs::path ssp = root_ / "system.ssp";
  test::write_zip(ssp, {{"SystemStructure.ssd", kPackaged}, {"resources/a.fmu", "not really a zip"}, {"resources/a.ssv", kSsv}});
  fs::path fmu;
  {
    SystemDescription s = read_system_description(ssp, options());
    ASSERT_EQ(s.components.size(), 1u);
    fmu = s.components[0].fmu;
    EXPECT_TRUE(fs::exists(fmu)) << fmu;
    EXPECT_EQ(fmu.filename(), "a.fmu");
    EXPECT_EQ(s.source, ssp);
    ASSERT_EQ(s.components[0].parameters.size(), 1u);
    EXPECT_EQ(s.components[0].parameters[0].second, "4.25");
    EXPECT_EQ(s.components[0].parameters_where[0], "resources/a.ssv:3");
    SystemDescription copy = s;
    s = SystemDescription{};
    EXPECT_TRUE(fs::exists(fmu)) << "a copy keeps the folder";
  }
  EXPECT_FALSE(fs::exists(fmu));
  EXPECT_TRUE(fs::is_empty(root_ / "tmp"));
}

TEST_F(SspFiles, ABareSsdFindsItsFmusBesideIt) {
  write(root_ / "sys" / "models" / "a.fmu", "x");
  write(root_ / "sys" / "system.ssd", ssd(R"(<ssd:Elements><ssd:Component name="a" source="models/a.fmu"/>
<ssd:Component name="b" source="missing.fmu"/></ssd:Elements>
)"));
  Diagnostics d;
  SystemDescription s = read_system_description(root_ / "sys" / "system.ssd", options(), d);
  ASSERT_EQ(s.components.size(), 2u);
  EXPECT_EQ(s.components[0].fmu, root_ / "sys" / "models" / "a.fmu");
  EXPECT_EQ(s.storage, nullptr);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].format(), "system.ssd:5: error: source of b: \"missing.fmu\" does not exist (looked for " +
                                       (root_ / "sys" / "missing.fmu").string() +
                                       ") → fix the path (relative to the .ssd's folder)");
  // The throwing form lists every error, as invalid input.
  try {
    read_system_description(root_ / "sys" / "system.ssd", options());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::invalid);
    EXPECT_EQ(std::string(e.what()).rfind("system.ssd: the system description has 1 error(s):\n  system.ssd:5: error: source of b", 0), 0u)
        << e.what();
  }
}

TEST_F(SspFiles, ABareSsdTakesFileUrisAndParameterFilesBesideIt) {
  write(root_ / "fmus" / "a.fmu", "x");
  write(root_ / "sys" / "values" / "a.ssv", kSsv);
  write(root_ / "sys" / "system.ssd",
        ssd("<ssd:Elements><ssd:Component name=\"a\" source=\"file://" + (root_ / "fmus" / "a.fmu").string() +
            "\">\n<ssd:ParameterBindings><ssd:ParameterBinding source=\"values/a.ssv\"/>"
            "<ssd:ParameterBinding source=\"values/gone.ssv\"/></ssd:ParameterBindings>\n"
            "</ssd:Component></ssd:Elements>\n"));
  Diagnostics d;
  SystemDescription s = read_system_description(root_ / "sys" / "system.ssd", options(), d);
  ASSERT_EQ(s.components.size(), 1u);
  EXPECT_EQ(s.components[0].fmu, root_ / "fmus" / "a.fmu");
  ASSERT_EQ(s.components[0].parameters.size(), 1u);
  EXPECT_EQ(s.components[0].parameters[0].second, "4.25");
  EXPECT_EQ(s.components[0].parameters_where[0], "values/a.ssv:3");
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].format(), "system.ssd:5: error: source of <ParameterBinding>: \"values/gone.ssv\" does not "
                                   "exist (looked for " + (root_ / "sys" / "values" / "gone.ssv").string() +
                                   ") → fix the path (relative to the .ssd's folder)");
}

TEST_F(SspFiles, AnSspMemberOutsideTheArchiveIsRefusedAndNothingIsLeft) {
  const fs::path ssp = root_ / "evil.ssp";
  test::write_raw_zip(ssp, {{"SystemStructure.ssd", kPackaged}, {"../../escaped.fmu", "x"}});
  try {
    read_system_description(ssp, options());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::archive);
    EXPECT_NE(std::string(e.what()).find("../../escaped.fmu"), std::string::npos) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind("evil.ssp: ", 0), 0u) << e.what();
  }
  EXPECT_FALSE(fs::exists(root_ / "escaped.fmu"));
  EXPECT_TRUE(fs::is_empty(root_ / "tmp"));
}

TEST_F(SspFiles, AnSspWithoutSystemStructureSsdIsAnArchiveError) {
  const fs::path ssp = root_ / "folder.ssp";
  test::write_zip(ssp, {{"folder/SystemStructure.ssd", kPackaged}});
  try {
    read_system_description(ssp, options());
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::archive);
    EXPECT_EQ(std::string(e.what()),
              "folder.ssp: SystemStructure.ssd is missing at the root of the archive → an .ssp holds its default "
              "system as SystemStructure.ssd (zip the files, not their folder)");
  }
  EXPECT_TRUE(fs::is_empty(root_ / "tmp"));
}

TEST_F(SspFiles, AnSspSourceThatIsNotInThePackageIsNamed) {
  const fs::path ssp = root_ / "missing.ssp";
  test::write_zip(ssp, {{"SystemStructure.ssd", kPackaged}, {"resources/a.ssv", kSsv}});
  Diagnostics d;
  read_system_description(ssp, options(), d);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].format(),
            "SystemStructure.ssd:5: error: source of a: the package has no file \"resources/a.fmu\" → add it to the "
            ".ssp or fix the path");
}

TEST_F(SspFiles, MissingAndOddPathsAreUsageErrors) {
  for (const fs::path& p : {root_ / "none.ssp", root_}) {
    try {
      read_system_description(p, options());
      FAIL() << "no error for " << p;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::usage) << e.what();
    }
  }
  EXPECT_TRUE(is_system_file("x.SSP"));
  EXPECT_TRUE(is_system_file("dir/x.ssd"));
  EXPECT_FALSE(is_system_file("x.fmu"));
}

}  // namespace
}  // namespace lsdae::import
