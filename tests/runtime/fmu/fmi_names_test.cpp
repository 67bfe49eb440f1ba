// tests/runtime/fmu/fmi_names_test.cpp -- runtime/fmu/fmi_names.cpp: the
// names messages use are those of the FMU's own FMI version.
#include "lsdae/fmi_names.h"

#include <gtest/gtest.h>

namespace lsdae {
namespace {

TEST(FmiNames, CallsAreNamedAsEachVersionSpellsThem) {
  EXPECT_STREQ(fmi_call_name(FmiVersion::fmi2, FmiCall::get_continuous_state_derivatives), "fmi2GetDerivatives");
  EXPECT_STREQ(fmi_call_name(FmiVersion::fmi3, FmiCall::get_continuous_state_derivatives),
               "fmi3GetContinuousStateDerivatives");
  EXPECT_STREQ(fmi_call_name(FmiVersion::fmi2, FmiCall::update_discrete_states), "fmi2NewDiscreteStates");
  EXPECT_STREQ(fmi_call_name(FmiVersion::fmi3, FmiCall::update_discrete_states), "fmi3UpdateDiscreteStates");
  EXPECT_STREQ(fmi_call_name(FmiVersion::fmi2, FmiCall::instantiate), "fmi2Instantiate");
  EXPECT_STREQ(fmi_call_name(FmiVersion::fmi3, FmiCall::instantiate), "fmi3InstantiateModelExchange");
  EXPECT_STREQ(fmi_call_name(FmiVersion::fmi2, FmiCall::get_directional_derivative), "fmi2GetDirectionalDerivative");
}

TEST(FmiNames, AccessorsFollowTheTypeNamesOfTheVersion) {
  EXPECT_EQ(fmi_accessor_name(FmiVersion::fmi2, VariableType::float64, false), "fmi2GetReal");
  EXPECT_EQ(fmi_accessor_name(FmiVersion::fmi2, VariableType::int32, true), "fmi2SetInteger");
  EXPECT_EQ(fmi_accessor_name(FmiVersion::fmi2, VariableType::enumeration, false), "fmi2GetInteger");
  EXPECT_EQ(fmi_accessor_name(FmiVersion::fmi2, VariableType::boolean, false), "fmi2GetBoolean");
  EXPECT_EQ(fmi_accessor_name(FmiVersion::fmi3, VariableType::float64, false), "fmi3GetFloat64");
  EXPECT_EQ(fmi_accessor_name(FmiVersion::fmi3, VariableType::enumeration, true), "fmi3SetInt64");
  EXPECT_STREQ(fmi_type_name(FmiVersion::fmi2, VariableType::float64), "Real");
  EXPECT_STREQ(fmi_type_name(FmiVersion::fmi2, VariableType::int32), "Integer");
  EXPECT_STREQ(fmi_type_name(FmiVersion::fmi3, VariableType::int32), "Int32");
}

TEST(FmiNames, StatusesCarryTheVersionPrefix) {
  EXPECT_EQ(fmi_status_name(FmiVersion::fmi2, 2), "fmi2Discard");
  EXPECT_EQ(fmi_status_name(FmiVersion::fmi3, 3), "fmi3Error");
  EXPECT_EQ(fmi_status_name(FmiVersion::fmi2, 5), "fmi2Pending (a Co-Simulation status)");
  EXPECT_EQ(fmi_status_name(FmiVersion::fmi3, 5), "an invalid fmi3Status (5)");
  EXPECT_EQ(fmi_status_name_for("fmi2GetReal", 3), "fmi2Error");
  EXPECT_EQ(fmi_status_name_for("fmi3GetFloat64", 3), "fmi3Error");
}

}  // namespace
}  // namespace lsdae
