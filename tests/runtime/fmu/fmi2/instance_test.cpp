// tests/runtime/fmu/fmi2/instance_test.cpp -- runtime/fmu/fmi2/instance.cpp through
// the one lsdae::Instance interface, on the hand-written FMI 2.0 oscillator
// (tests/runtime/cli/fmi2_oscillator_fmu.c): the FMI 2.0 state table, types
// FMI 2.0 lacks, and Najafi's optional constraint calls (declared and
// exported, declared but missing, not declared).
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/instance.h"

namespace lsdae {
namespace {

namespace fs = std::filesystem;

std::string model_description(const std::string& constraint_flags) {
  return R"xml(<?xml version="1.0"?>
<fmiModelDescription fmiVersion="2.0" modelName="Oscillator" guid="{4a1c-lsdae-fmi2-oscillator}"
    numberOfEventIndicators="1" maxNumberOfConstraints="1">
  <ModelExchange modelIdentifier="Oscillator" )xml" +
         constraint_flags + R"xml(/>
  <ModelVariables>
    <ScalarVariable name="der(v)" valueReference="900"><Real derivative="3"/></ScalarVariable>
    <ScalarVariable name="w" valueReference="7" causality="parameter" variability="fixed"><Real start="2"/></ScalarVariable>
    <ScalarVariable name="v" valueReference="41" initial="exact"><Real start="0"/></ScalarVariable>
    <ScalarVariable name="x" valueReference="5000000" causality="output" initial="exact"><Real start="1"/></ScalarVariable>
    <ScalarVariable name="der(x)" valueReference="13"><Real derivative="4"/></ScalarVariable>
    <ScalarVariable name="crossings" valueReference="7" causality="output" variability="discrete"><Integer/></ScalarVariable>
  </ModelVariables>
  <ModelStructure>
    <Outputs><Unknown index="4" dependencies="4"/><Unknown index="6" dependencies=""/></Outputs>
    <Derivatives><Unknown index="5" dependencies="3"/><Unknown index="1" dependencies="4"/></Derivatives>
  </ModelStructure>
</fmiModelDescription>)xml";
}

class Fmi2Instance : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("lsdae-fmi2-instance-test-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "binaries" / "linux64");
    fs::copy_file(LSDAE_FMI2_OSCILLATOR, dir_ / "binaries" / "linux64" / "Oscillator.so");
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::shared_ptr<Fmu> open(const std::string& flags) {
    std::ofstream(dir_ / "modelDescription.xml") << model_description(flags);
    return Fmu::open(dir_);
  }
  fs::path dir_;
};

TEST_F(Fmi2Instance, FollowsTheFmi2StateTableAndLacksFmi3Types) {
  auto fmu = open("");
  auto inst = fmu->instantiate("osc");
  EXPECT_EQ(inst->fmi_version(), FmiVersion::fmi2);
  const ValueReference x = 5000000;
  double value = 0;
  // fmi2GetReal is not allowed before Initialization Mode.
  try {
    inst->get_float64({&x, 1}, {&value, 1});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("fmi2GetReal is not allowed in Instantiated → FMI 2.0 allows it in: "
                                         "Initialization Mode"),
              std::string::npos)
        << e.what();
  }
  inst->enter_initialization_mode(1e-6, 0.0, 1.0);
  inst->exit_initialization_mode();
  // fmi2SetContinuousStates only in Continuous-Time Mode (FMI 3.0 also allows Event Mode).
  const double states[2] = {1, 0};
  EXPECT_THROW(inst->set_continuous_states(states), Error);
  inst->enter_continuous_time_mode();
  EXPECT_EQ(inst->set_continuous_states(states), CallStatus::ok);
  EXPECT_EQ(inst->number_of_continuous_states(), 2u) << "from the model description: FMI 2.0 has no call";
  EXPECT_EQ(inst->number_of_event_indicators(), 1u);
  double dx[2] = {};
  EXPECT_EQ(inst->get_continuous_state_derivatives(dx), CallStatus::ok);
  EXPECT_EQ(dx[1], -4.0) << "v' = -w^2 x";
  std::int8_t small = 0;
  try {
    inst->get_int8({&x, 1}, {&small, 1});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("is an FMI 2.0 FMU, and FMI 2.0 has no Int8 variables"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(inst->enter_configuration_mode(), Error);
  std::int32_t crossings = -1;
  const ValueReference seven = 7;
  EXPECT_EQ(inst->get_int32({&seven, 1}, {&crossings, 1}), CallStatus::ok);
  EXPECT_EQ(crossings, 0);
  inst->terminate();
}

TEST_F(Fmi2Instance, NajafiConstraintsAreUsableWhenDeclaredAndExported) {
  auto fmu = open("providesConstraints=\"true\"");
  auto inst = fmu->instantiate("osc");
  EXPECT_TRUE(inst->has_constraints());
  EXPECT_FALSE(inst->has_constraint_jacobian()) << "declared true, not withJacobian";
  EXPECT_FALSE(inst->has_projection());
  inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  inst->exit_initialization_mode();
  EXPECT_EQ(inst->number_of_constraints(), 1u);
  double c = 1;
  EXPECT_EQ(inst->constraints({&c, 1}), CallStatus::ok);
  EXPECT_EQ(c, 0.0) << "x(0)^2 + (v(0)/w)^2 - 1";
  double j = 0;
  EXPECT_THROW(inst->constraint_jacobian({&j, 2}), Error);
}

TEST_F(Fmi2Instance, ADeclaredButMissingConstraintFunctionDisablesThatPath) {
  // The binary exports no fmi2ConstraintJacobian and no fmi2Projection.
  auto fmu = open("providesConstraints=\"withJacobian\" providesProjection=\"true\"");
  auto inst = fmu->instantiate("osc");
  EXPECT_TRUE(inst->has_constraints());
  EXPECT_FALSE(inst->has_constraint_jacobian());
  EXPECT_FALSE(inst->has_projection());
  inst->enter_initialization_mode(std::nullopt, 0.0, std::nullopt);
  double p[2] = {};
  try {
    inst->projection(p, 1e-8, 10, true);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::usage);
    EXPECT_NE(std::string(e.what()).find("does not provide fmi2Projection"), std::string::npos) << e.what();
  }
}

TEST_F(Fmi2Instance, WithoutTheFlagsTheConstraintCallsAreAbsent) {
  auto fmu = open("");
  auto inst = fmu->instantiate("osc");
  EXPECT_FALSE(inst->has_constraints()) << "exported, but not declared";
  EXPECT_THROW(inst->number_of_constraints(), Error);
}

}  // namespace
}  // namespace lsdae
