// tests/runtime/import/ssp_reader_test.cpp -- the SSP 1.0 reader
// (runtime/import/ssp/, lsdae/ssp.h): SSDs written the way OMSimulator and
// FMPy write them, nested systems, parameter values, the coupling
// annotation. Broken input: ssp_broken_test.cpp; files and archives:
// ssp_files_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "import/ssp/ssd_reader.h"
#include "lsdae/ssp.h"
#include "ssd_text.h"

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;

using test_text::kTwoComponents;
using test_text::parse;
using test_text::Parsed;
using test_text::ssd;

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

}  // namespace
}  // namespace lsdae::import
