// models/kit/instance_values.cpp -- fmi3Get/Set of Float64, Int32 and Boolean
// values: value-reference and type checks, what may be set in which mode, and
// the rules for clocked variables (instance.h).
#include "kit/instance.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace lsdae::kit {

const fmi3ValueReference* Instance::internal_vrs(const char* function, const fmi3ValueReference vrs[], size_t n,
                                                int slot) {
  // No value references at all is a valid call (an importer may pass NULL):
  // hand back a non-null empty list, which the callers read as "nothing wrong".
  static const fmi3ValueReference kNone = 0;
  if (n == 0) return &kNone;
  if (!desc_.scattered_value_references) return vrs;
  std::vector<fmi3ValueReference>& own = vr_scratch_[slot];
  own.resize(n);
  for (size_t i = 0; i < n; ++i) {
    own[i] = desc_.internal_vr(vrs[i]);
    if (own[i] == kNoValueRef) {
      log(fmi3Error, "logStatusError",
          std::string(function) + ": value reference " + std::to_string(vrs[i]) + " does not exist");
      return nullptr;
    }
  }
  return own.data();
}

bool Instance::check_vr(const char* function, fmi3ValueReference vr, VarType type) const {
  if (vr >= desc_.variables.size()) {
    log(fmi3Error, "logStatusError",
        std::string(function) + ": value reference " + std::to_string(vr) + " does not exist (this FMU has 0.." +
            std::to_string(desc_.variables.size() - 1) + ")");
    return false;
  }
  if (desc_.variables[vr].type != type) {
    log(fmi3Error, "logStatusError",
        std::string(function) + ": variable \"" + desc_.variables[vr].name + "\" (value reference " +
            std::to_string(desc_.external_vr(vr)) + ") is not of this type");
    return false;
  }
  return true;
}

std::string Instance::set_refusal(fmi3ValueReference vr) const {
  const Variable& v = desc_.variables[vr];
  const bool before_init = mode_ == Mode::instantiated || mode_ == Mode::initialization;
  const bool running = before_init || mode_ == Mode::event || mode_ == Mode::continuous_time;
  switch (v.causality) {
    case Causality::independent: return "is the independent variable; use fmi3SetTime";
    case Causality::structural_parameter:
      return mode_ == Mode::configuration ? "" : "is a structural parameter: set it in Configuration Mode";
    case Causality::parameter:
      if (v.variability == Variability::constant) return "is a constant";
      if (before_init || (v.variability == Variability::tunable && mode_ == Mode::event)) return "";
      return "is a fixed parameter: set it before fmi3ExitInitializationMode";
    case Causality::calculated_parameter: return "is a calculated parameter";
    case Causality::input: return running ? "" : std::string("cannot be set in ") + mode_name(mode_);
    case Causality::output:
    case Causality::local: break;
  }
  if (dae_mode() && desc_.settable_in_dae_mode(vr))
    return running ? "" : std::string("cannot be set in ") + mode_name(mode_);
  if (v.initial == Initial::exact || v.initial == Initial::approx)
    return before_init ? "" : "has a start value that can only be set before fmi3ExitInitializationMode";
  if (v.derivative_of != kNoValueRef && desc_.form == Form::fully_implicit)
    return "is a state derivative; the importer writes it only in DAE mode";
  return "is calculated by the FMU and cannot be set";
}

const std::vector<std::uint8_t>& Instance::settable_now() {
  const bool dae = dae_mode();
  if (settable_valid_ && settable_mode_ == mode_ && settable_dae_ == dae) return settable_now_;
  settable_now_.assign(desc_.variables.size() + 1, 0);  // + a 0 for every out-of-range reference
  for (std::size_t vr = 0; vr < desc_.variables.size(); ++vr)
    settable_now_[vr] = desc_.variables[vr].type == VarType::float64 && clocked_[vr] == 0 &&
                                set_refusal(static_cast<fmi3ValueReference>(vr)).empty()
                            ? 1
                            : 0;
  settable_mode_ = mode_;
  settable_dae_ = dae;
  settable_valid_ = true;
  return settable_now_;
}

bool Instance::knowns_only(const fmi3ValueReference vrs[], size_t n) {
  if (!knowns_apply_ || (mode_ != Mode::continuous_time && mode_ != Mode::event)) return false;
  const std::uint8_t* known = (dae_mode() ? knowns_dae_ : knowns_ode_).data();
  const std::size_t count = desc_.variables.size();
  unsigned all = 1;
  for (size_t i = 0; i < n; ++i) all &= known[std::min<std::size_t>(vrs[i], count)];
  return all != 0;
}

fmi3Status Instance::get_float64(const fmi3ValueReference vrs[], size_t n, double values[], size_t n_values) {
  if (n != n_values) {
    log(fmi3Error, "logStatusError", "fmi3GetFloat64: nValues (" + std::to_string(n_values) +
                                         ") differs from nValueReferences (" + std::to_string(n) + ")");
    return fmi3Error;
  }
  if (!check_mode("fmi3GetFloat64", {Mode::instantiated, Mode::configuration, Mode::initialization, Mode::event,
                                     Mode::continuous_time, Mode::terminated}))
    return fmi3Error;
  // One branch-free pass decides; the slow pass only finds what to report.
  const std::size_t count = desc_.variables.size();
  const std::uint8_t* is_float64 = is_float64_.data();
  unsigned ok = 1;
  for (size_t i = 0; i < n; ++i) ok &= is_float64[std::min<std::size_t>(vrs[i], count)];
  if (ok == 0)  // a bad reference, another type or a clocked variable: check each (logs why)
    for (size_t i = 0; i < n; ++i)
      if (!check_vr("fmi3GetFloat64", vrs[i], VarType::float64) || !check_clocked_access("fmi3GetFloat64", vrs[i], false))
        return fmi3Error;
  if (mode_ != Mode::instantiated && mode_ != Mode::configuration && !computed_ && !knowns_only(vrs, n))
    ensure_computed();
  f64_[0] = time_;  // value reference 0 is the independent variable
  const double* v = f64_.data();
  for (size_t i = 0; i < n; ++i) values[i] = v[vrs[i]];
  return fmi3OK;
}

void Instance::write_float64(const ValueRef* refs, const double* values, std::size_t n) {
  double* v = f64_.data();
  std::size_t i = 0;
  while (i < n && std::bit_cast<std::uint64_t>(v[refs[i]]) == std::bit_cast<std::uint64_t>(values[i])) ++i;
  if (i == n) return;
  for (; i < n; ++i) v[refs[i]] = values[i];
  touch();
}

fmi3Status Instance::set_float64(const fmi3ValueReference vrs[], size_t n, const double values[], size_t n_values) {
  if (n != n_values) {
    log(fmi3Error, "logStatusError", "fmi3SetFloat64: nValues (" + std::to_string(n_values) +
                                         ") differs from nValueReferences (" + std::to_string(n) + ")");
    return fmi3Error;
  }
  // One branch-free pass decides; the slow pass only finds what to report.
  const std::size_t count = desc_.variables.size();
  const std::uint8_t* settable = settable_now().data();
  unsigned ok = 1;
  for (size_t i = 0; i < n; ++i) ok &= settable[std::min<std::size_t>(vrs[i], count)];
  for (size_t i = 0; ok == 0 && i < n; ++i) {
    if (settable[std::min<std::size_t>(vrs[i], count)] != 0) continue;
    if (!check_vr("fmi3SetFloat64", vrs[i], VarType::float64)) return fmi3Error;
    const std::string refusal = set_refusal(vrs[i]);
    if (!refusal.empty()) {
      log(fmi3Error, "logStatusError",
          "fmi3SetFloat64: variable \"" + desc_.variables[vrs[i]].name + "\" (value reference " +
              std::to_string(desc_.external_vr(vrs[i])) + ") " + refusal + " (" + mode_name(mode_) + ", " +
              (dae_mode() ? "DAE" : "ODE") + " mode)");
      return fmi3Error;
    }
    if (!check_clocked_access("fmi3SetFloat64", vrs[i], true)) return fmi3Error;
  }
  write_float64(vrs, values, n);
  return fmi3OK;
}

fmi3Status Instance::get_boolean(const fmi3ValueReference vrs[], size_t n, bool values[], size_t n_values) {
  if (n != n_values) {
    log(fmi3Error, "logStatusError", "fmi3GetBoolean: nValues differs from nValueReferences");
    return fmi3Error;
  }
  for (size_t i = 0; i < n; ++i)
    if (!check_vr("fmi3GetBoolean", vrs[i], VarType::boolean) || !check_clocked_access("fmi3GetBoolean", vrs[i], false))
      return fmi3Error;
  if (mode_ != Mode::instantiated && mode_ != Mode::configuration) ensure_computed();
  for (size_t i = 0; i < n; ++i) values[i] = bool_[vrs[i]] != 0;
  return fmi3OK;
}

fmi3Status Instance::get_int32(const fmi3ValueReference vrs[], size_t n, std::int32_t values[], size_t n_values) {
  if (n != n_values) {
    log(fmi3Error, "logStatusError", "fmi3GetInt32: nValues differs from nValueReferences");
    return fmi3Error;
  }
  for (size_t i = 0; i < n; ++i)
    if (!check_vr("fmi3GetInt32", vrs[i], VarType::int32) || !check_clocked_access("fmi3GetInt32", vrs[i], false))
      return fmi3Error;
  if (mode_ != Mode::instantiated && mode_ != Mode::configuration) ensure_computed();
  for (size_t i = 0; i < n; ++i) {
    const double value = f64_[vrs[i]];
    if (!(value >= -2147483648.0 && value <= 2147483647.0) || value != std::trunc(value)) {
      log(fmi3Error, "logStatusError",
          "fmi3GetInt32: the model computed " + std::to_string(value) + " for Int32 variable \"" +
              desc_.variables[vrs[i]].name + "\", which is no 32-bit integer (a bug of the model)");
      return fmi3Error;
    }
    values[i] = static_cast<std::int32_t>(value);
  }
  return fmi3OK;
}

fmi3Status Instance::set_int32(const fmi3ValueReference vrs[], size_t n, const std::int32_t values[], size_t n_values) {
  if (n != n_values) {
    log(fmi3Error, "logStatusError", "fmi3SetInt32: nValues differs from nValueReferences");
    return fmi3Error;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!check_vr("fmi3SetInt32", vrs[i], VarType::int32)) return fmi3Error;
    const std::string refusal = set_refusal(vrs[i]);
    if (!refusal.empty()) {
      log(fmi3Error, "logStatusError",
          "fmi3SetInt32: variable \"" + desc_.variables[vrs[i]].name + "\" " + refusal + " (" + mode_name(mode_) + ")");
      return fmi3Error;
    }
    if (!check_clocked_access("fmi3SetInt32", vrs[i], true)) return fmi3Error;
  }
  bool changed = false;
  for (size_t i = 0; i < n; ++i) {
    changed = changed || f64_[vrs[i]] != static_cast<double>(values[i]);
    f64_[vrs[i]] = static_cast<double>(values[i]);
  }
  if (changed) touch();
  return fmi3OK;
}

bool Instance::check_clocked_access(const char* function, fmi3ValueReference vr, bool write) const {
  if (clocked_[vr] == 0 || mode_ == Mode::initialization) return true;
  if (!write && desc_.lenient_clocked_access) return true;
  const Variable& v = desc_.variables[vr];
  std::string clocks;
  for (ValueRef c : v.clocks) {
    if (mode_ == Mode::event && bool_[c] != 0) return true;
    clocks += (clocks.empty() ? "\"" : ", \"") + desc_.variables[c].name + "\"";
  }
  log(fmi3Error, "logStatusError",
      std::string(function) + ": variable \"" + v.name + "\" is clocked by " + clocks + ", none of them active (" +
          mode_name(mode_) + "); FMI 3.0 allows " + (write ? "setting" : "getting") +
          " a clocked variable only in Initialization Mode or in Event Mode while one of its clocks is active");
  return false;
}

fmi3Status Instance::set_boolean(const fmi3ValueReference vrs[], size_t n, const bool values[], size_t n_values) {
  if (n != n_values) {
    log(fmi3Error, "logStatusError", "fmi3SetBoolean: nValues differs from nValueReferences");
    return fmi3Error;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!check_vr("fmi3SetBoolean", vrs[i], VarType::boolean)) return fmi3Error;
    const std::string refusal = set_refusal(vrs[i]);
    if (!refusal.empty()) {
      log(fmi3Error, "logStatusError",
          "fmi3SetBoolean: variable \"" + desc_.variables[vrs[i]].name + "\" " + refusal + " (" + mode_name(mode_) +
              ")");
      return fmi3Error;
    }
    if (!check_clocked_access("fmi3SetBoolean", vrs[i], true)) return fmi3Error;
  }
  for (size_t i = 0; i < n; ++i) bool_[vrs[i]] = values[i] ? 1 : 0;
  touch();
  return fmi3OK;
}

fmi3Status Instance::no_such_type(const char* function, const fmi3ValueReference vrs[], size_t n) const {
  if (n == 0) return fmi3OK;
  if (vrs[0] < desc_.variables.size())
    log(fmi3Error, "logStatusError",
        std::string(function) + ": variable \"" + desc_.variables[vrs[0]].name + "\" is not of this type");
  else
    log(fmi3Error, "logStatusError",
        std::string(function) + ": value reference " + std::to_string(vrs[0]) + " does not exist");
  return fmi3Error;
}

}  // namespace lsdae::kit
