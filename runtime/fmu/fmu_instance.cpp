// runtime/fmu/fmu_instance.cpp -- see fmu_instance.h.
#include "fmu/fmu_instance.h"

#include <cmath>

#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae {

FmuInstance::FmuInstance(InstanceContext context, std::string name)
    : Instance(std::move(name), *context.description, *context.manifest, context.display_name),
      context_(std::move(context)),
      counted_(context_.counter),
      slot_(call_record::claim_slot(this->name())),
      time_(std::nan("")) {}

FmuInstance::~FmuInstance() { call_record::release_slot(slot_); }

void FmuInstance::note_time(double time) {
  time_ = time;
  call_record::note_time(slot_, time);
}

void FmuInstance::receive_log(int status, const char* category, const char* message) {
  std::string text = "[" + name() + "] " + (category ? category : "") + ": " + (message ? message : "");
  LogLevel level = LogLevel::info;
  // OK, Warning, Discard, Error, Fatal have the same values in fmi2Status and fmi3Status.
  if (status == 1 || status == 2) level = LogLevel::warning;
  if (status == 3 || status == 4) {
    level = LogLevel::error;
    last_error_ = message ? message : "";
  }
  Logger::instance().log(level, text);
}

std::string FmuInstance::fmu_said() const {
  return last_error_.empty() ? "" : " (the FMU said: " + last_error_ + ")";
}

CallStatus FmuInstance::check(int status, FmiFunction function, bool discard_is_error) {
  if (status == 0 || status == 1) return CallStatus::ok;
  if (status == 2 && !discard_is_error) {
    ++discards_.count;
    discards_.function = fmi_function_name(function);
    discards_.time = time_;
    return CallStatus::discard;
  }
  if (status == 4) mark_failed();
  std::string todo = status == 4 ? "the instance is unusable; see the FMU's log messages above"
                                 : "see the FMU's log messages above";
  throw Error(ErrorKind::fmu_call, "instance \"" + name() + "\": " + fmi_function_name(function) + " returned " +
                                       status_name(status) + fmu_said() + " → " + todo);
}

std::string FmuInstance::absence_message(const std::string& what) const {
  const char* version = to_string(fmi_version());
  return "instance \"" + name() + "\": " + model_display_name() + " is an " + version + " FMU, and " + version +
         " has no " + what + " → use the types and calls of " + version;
}

void FmuInstance::not_exported(FmiFunction function, const std::string& consequence) const {
  throw Error(ErrorKind::binary, "instance \"" + name() + "\": the binary does not export " +
                                     fmi_function_name(function) + (consequence.empty() ? "" : " → " + consequence));
}

void FmuInstance::require_directional_derivatives() const {
  if (!provides_directional_derivatives())
    throw Error(ErrorKind::usage, "instance \"" + name() + "\": " + model_display_name() +
                                      " does not provide directional derivatives → use finite differences");
}

}  // namespace lsdae
