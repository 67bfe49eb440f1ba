// runtime/fmu/log_level.h -- the level at which lsdae shows a message an FMU
// logs (FmuInstance::receive_log; docs/user-guide/operations.md, "Warnings").
//
// By status: OK is info (shown with --verbose), Warning and Discard are
// warnings, Error and Fatal errors (the values agree in fmi2Status and
// fmi3Status). One exception: a Warning logged from inside the call that
// passes the tolerance (fmi2SetupExperiment, fmi3EnterInitializationMode)
// that names the tolerance. FMI 2.0 (2.1.6) and FMI 3.0 (fmi3EnterInitializationMode)
// give a Model Exchange FMU the importer's relative tolerance for its own
// algebraic solvers; an FMU that has none says it ignores the value (Dymola:
// "tolerance control not supported for fmi3ModelExchange, setting
// toleranceDefined to fmi3False"). Nothing the user can act on, and the
// result does not depend on it: info. Cost: one substring search, and only
// for Warnings logged from those two calls.
#ifndef LSDAE_RUNTIME_FMU_LOG_LEVEL_H
#define LSDAE_RUNTIME_FMU_LOG_LEVEL_H

#include <algorithm>
#include <cctype>
#include <string_view>

#include "fmu/fmi_functions.h"
#include "lsdae/log.h"

namespace lsdae {

// `in_progress`: the FMI function the FMU was in when it logged (FmiFunction::none between calls).
inline LogLevel fmu_log_level(int status, FmiFunction in_progress, std::string_view message) {
  if (status == 3 || status == 4) return LogLevel::error;
  if (status != 1 && status != 2) return LogLevel::info;
  const bool passes_tolerance =
      in_progress == FmiFunction::fmi2SetupExperiment || in_progress == FmiFunction::fmi3EnterInitializationMode;
  constexpr std::string_view kTolerance = "tolerance";
  const auto names_tolerance = [&] {
    return std::search(message.begin(), message.end(), kTolerance.begin(), kTolerance.end(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a)) == b;
           }) != message.end();
  };
  if (status == 1 && passes_tolerance && names_tolerance()) return LogLevel::info;
  return LogLevel::warning;
}

}  // namespace lsdae

#endif  // LSDAE_RUNTIME_FMU_LOG_LEVEL_H
