// tests/runtime/fmu/log_level_test.cpp -- runtime/fmu/log_level.h: the level
// of an FMU's log message; a Warning that only says the FMU ignores the
// tolerance, logged from the call that passes it, is info.
#include "fmu/log_level.h"

#include <gtest/gtest.h>

namespace lsdae {
namespace {

// Dymola 2024x's message (issue 29), as its FMI 3.0 Model Exchange FMUs log it.
constexpr const char* kDymola =
    "fmi3EnterInitializationMode: tolerance control not supported for fmi3ModelExchange, setting toleranceDefined "
    "to fmi3False";

TEST(FmuLogLevel, StatusDecidesTheLevel) {
  EXPECT_EQ(fmu_log_level(0, FmiFunction::fmi3SetTime, "ok"), LogLevel::info);
  EXPECT_EQ(fmu_log_level(1, FmiFunction::fmi3GetContinuousStateDerivatives, "x < 0"), LogLevel::warning);
  EXPECT_EQ(fmu_log_level(2, FmiFunction::fmi3GetContinuousStateDerivatives, "discarded"), LogLevel::warning);
  EXPECT_EQ(fmu_log_level(3, FmiFunction::fmi3EnterInitializationMode, "tolerance too small"), LogLevel::error);
  EXPECT_EQ(fmu_log_level(4, FmiFunction::fmi2SetupExperiment, "fatal"), LogLevel::error);
}

TEST(FmuLogLevel, IgnoringTheToleranceIsInfoInTheCallThatPassesIt) {
  EXPECT_EQ(fmu_log_level(1, FmiFunction::fmi3EnterInitializationMode, kDymola), LogLevel::info);
  EXPECT_EQ(fmu_log_level(1, FmiFunction::fmi2SetupExperiment, "Tolerance ignored"), LogLevel::info);
}

TEST(FmuLogLevel, OtherWarningsStayWarnings) {
  // The same words from any other call, a Discard, or a Warning of the call that names no tolerance.
  EXPECT_EQ(fmu_log_level(1, FmiFunction::fmi3ExitInitializationMode, kDymola), LogLevel::warning);
  EXPECT_EQ(fmu_log_level(1, FmiFunction::none, kDymola), LogLevel::warning);
  EXPECT_EQ(fmu_log_level(2, FmiFunction::fmi3EnterInitializationMode, kDymola), LogLevel::warning);
  EXPECT_EQ(fmu_log_level(1, FmiFunction::fmi3EnterInitializationMode, "start value of x out of range"),
            LogLevel::warning);
  EXPECT_EQ(fmu_log_level(1, FmiFunction::fmi2SetupExperiment, ""), LogLevel::warning);
}

}  // namespace
}  // namespace lsdae
