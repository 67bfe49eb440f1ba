// tests/runtime/import/ssp_checks_test.cpp -- the checks of a system against
// its components' model descriptions (runtime/import/ssp/system_checks.h),
// on a description built by a program and FMUs written here: unpacked folders
// with a modelDescription.xml only (no binary is needed to check), units,
// odd value references, a Float32 port and a Co-Simulation-only FMU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "import/ssp/system_checks.h"
#include "lsdae/fmu.h"

namespace lsdae::import {
namespace {

namespace fs = std::filesystem;

const char* kAmp = R"(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Amp" instantiationToken="{amp}">
  <ModelExchange modelIdentifier="Amp"/>
  <UnitDefinitions><Unit name="V"/><Unit name="A"/></UnitDefinitions>
  <ModelVariables>
    <Float64 name="t" valueReference="900" causality="independent" variability="continuous"/>
    <Float64 name="u" valueReference="7" causality="input" unit="V" start="0"/>
    <Float64 name="i" valueReference="3" causality="output" unit="A"/>
    <Float64 name="v" valueReference="12" causality="output" unit="V"/>
    <Float32 name="i32" valueReference="40" causality="output"/>
    <Float32 name="u32" valueReference="41" causality="input" start="0"/>
    <Int16 name="n" valueReference="5" causality="input" start="0"/>
  </ModelVariables>
  <ModelStructure>
    <Output valueReference="3" dependencies="7"/>
    <Output valueReference="12" dependencies="7"/>
    <Output valueReference="40" dependencies=""/>
  </ModelStructure>
</fmiModelDescription>
)";

const char* kCoSimOnly = R"(<?xml version="1.0" encoding="UTF-8"?>
<fmiModelDescription fmiVersion="3.0" modelName="Stepper" instantiationToken="{s}">
  <CoSimulation modelIdentifier="Stepper"/>
  <ModelVariables>
    <Float64 name="time" valueReference="0" causality="independent" variability="continuous"/>
  </ModelVariables>
  <ModelStructure/>
</fmiModelDescription>
)";

class SystemChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("lsdae-ssp-checks-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    amp_ = open("amp", kAmp);
    stepper_ = open("stepper", kCoSimOnly);
  }
  void TearDown() override { fs::remove_all(root_); }
  std::shared_ptr<Fmu> open(const std::string& name, const char* md) {
    fs::create_directories(root_ / name);
    std::ofstream(root_ / name / "modelDescription.xml") << md;
    OpenOptions o;
    o.reject_invalid = false;
    return Fmu::open(root_ / name, o);
  }
  std::vector<std::string> check(const SystemDescription& s, const std::vector<std::shared_ptr<Fmu>>& fmus) {
    std::vector<ComponentModel> models;
    for (const auto& f : fmus)
      models.push_back(f ? ComponentModel{&f->model_description(), f->display_name()} : ComponentModel{});
    Diagnostics d;
    check_system(s, models, d);
    std::vector<std::string> out;
    for (const auto& x : d.items()) out.push_back(x.format());
    return out;
  }
  static ComponentDescription component(const std::string& name) {
    ComponentDescription c;
    c.name = name;
    c.where = "sys.ssd:" + std::to_string(name.size());
    return c;
  }
  fs::path root_;
  std::shared_ptr<Fmu> amp_, stepper_;
};

TEST_F(SystemChecks, UnitsMustAgreeUnlessATransformationConverts) {
  SystemDescription s;
  s.components = {component("a"), component("b")};
  s.connections.push_back({{"a", "i"}, {"b", "u"}, 1.0, 0.0, "sys.ssd:10"});   // A into V
  s.connections.push_back({{"a", "v"}, {"a", "u"}, 1.0, 0.0, "sys.ssd:11"});   // V into V
  s.connections.push_back({{"a", "i32"}, {"b", "u32"}, 1.0, 0.0, "sys.ssd:12"});  // no units
  EXPECT_EQ(check(s, {amp_, amp_}),
            std::vector<std::string>{"sys.ssd:10: error: connection a.i → b.u: units differ (\"A\" → \"V\") → connect "
                                     "variables of the same unit, or convert with <ssc:LinearTransformation "
                                     "factor=... offset=...>"});
  s.connections[0].factor = 50.0;  // a transimpedance of 50 V/A
  EXPECT_EQ(check(s, {amp_, amp_}), std::vector<std::string>{});
}

TEST_F(SystemChecks, TypeFamiliesAndCouplingPortsAreChecked) {
  SystemDescription s;
  s.components = {component("a"), component("bb")};
  s.connections.push_back({{"a", "i32"}, {"bb", "u"}, 1.0, 0.0, "sys.ssd:3"});  // Float32 → Float64: both Real
  s.connections.push_back({{"a", "i"}, {"bb", "n"}, 1.0, 0.0, "sys.ssd:4"});
  Coupling c;
  c.name = "node";
  c.where = "sys.ssd:9";
  c.ports.push_back({{"a", "v"}, {"a", "u32"}});
  c.ports.push_back({{"bb", "v"}, {"bb", "u"}});
  s.couplings.push_back(c);
  EXPECT_EQ(check(s, {amp_, amp_}),
            (std::vector<std::string>{
                "sys.ssd:4: error: connection a.i → bb.n: types differ (Float64 → Int16) → connect variables of the "
                "same type",
                "sys.ssd:9: error: coupling \"node\" port 1 (a): flow \"u32\" is Float32, not Float64 → couple Float64 "
                "variables",
                "sys.ssd:9: error: coupling \"node\" port 2 (bb): flow \"u\" is already driven (at sys.ssd:3) → a "
                "coupling's flow input is driven by the coupling alone"}));
}

TEST_F(SystemChecks, ACoSimulationOnlyComponentIsNamed) {
  SystemDescription s;
  s.components = {component("step")};
  EXPECT_EQ(check(s, {stepper_}),
            std::vector<std::string>{"sys.ssd:4: error: component \"step\": stepper has no ModelExchange interface "
                                     "(Co-Simulation only) → export the FMU for Model Exchange: lsdae integrates all "
                                     "components in one DAE"});
}

TEST_F(SystemChecks, ComponentsWithoutAnOpenFmuAreSkipped) {
  SystemDescription s;
  s.components = {component("a"), component("gone")};
  s.connections.push_back({{"gone", "y"}, {"a", "u"}, 1.0, 0.0, "sys.ssd:5"});
  s.connections.push_back({{"a", "v"}, {"nobody", "u"}, 1.0, 0.0, "sys.ssd:6"});
  EXPECT_EQ(check(s, {amp_, nullptr}),
            std::vector<std::string>{"sys.ssd:6: error: connection a.v → nobody.u: end: no component \"nobody\" in the "
                                     "system → fix the component name"});
}

}  // namespace
}  // namespace lsdae::import
