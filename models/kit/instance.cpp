// models/kit/instance.cpp
#include "kit/instance.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "kit/xml_writer.h"

namespace lsdae::kit {

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::instantiated: return "Instantiated";
    case Mode::configuration: return "Configuration Mode";
    case Mode::initialization: return "Initialization Mode";
    case Mode::event: return "Event Mode";
    case Mode::continuous_time: return "Continuous-Time Mode";
    case Mode::terminated: return "Terminated";
  }
  return "?";
}

namespace {

// The resources/ folder from fmi3InstantiateModelExchange's resourcePath
// (a path; a file:// URI from FMI 2 habits is accepted too), ending in '/'.
std::string resource_folder(const std::string& resource_path) {
  std::string dir = resource_path;
  if (dir.rfind("file://", 0) == 0) dir = dir.substr(7);  // (fmi2Instantiate passes a path already)
  if (!dir.empty() && dir.back() != '/') dir += '/';
  return dir;
}

std::string read_config_file(const std::string& dir) {
  const std::string path = dir + kConfigFile;
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error("cannot read the model configuration \"" + path +
                             "\": pass the FMU's unpacked resources/ folder as resourcePath");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// slot = value; whether the bits changed. Setters mark the instance dirty only
// then: an importer that sets the same point again (one call per Jacobian
// colour, the output after the last residual) keeps compute()'s results and
// the partial-derivative table. Bits, not ==: -0.0 and 0.0 may compute
// differently, and a NaN set again is the same NaN.
bool store(double& slot, double value) {
  const bool changed = std::bit_cast<std::uint64_t>(slot) != std::bit_cast<std::uint64_t>(value);
  slot = value;
  return changed;
}

class CsrCollector final : public PartialSink {
 public:
  struct Entry {
    ValueRef unknown, known;
    double value;
  };
  explicit CsrCollector(std::size_t n) : n_(n) {}
  void add(ValueRef unknown, ValueRef known, double value) override {
    if (unknown >= n_ || known >= n_)
      throw std::logic_error("partials(): value reference out of range (" + std::to_string(unknown) + ", " +
                             std::to_string(known) + ")");
    entries.push_back({unknown, known, value});
  }
  std::vector<Entry> entries;

 private:
  std::size_t n_;
};

}  // namespace

Instance::Instance(std::string name, const std::string& token, const std::string& resource_path, bool logging_on,
                   fmi3InstanceEnvironment environment, fmi3LogMessageCallback log_callback)
    : name_(std::move(name)), resource_path_(resource_path), logging_on_(logging_on), environment_(environment),
      log_(log_callback) {
  const std::string resources = resource_folder(resource_path);
  Config config = parse_config(read_config_file(resources), kConfigFile);
  config.set_resource_dir(resources);
  model_ = make_model(config);
  desc_ = describe(*model_, config);
  if (token != desc_.instantiation_token)
    throw std::invalid_argument("instantiationToken \"" + token + "\" does not match this binary's \"" +
                                desc_.instantiation_token + "\": modelDescription.xml and binary differ");
  f64_.assign(desc_.variables.size(), 0.0);
  bool_.assign(desc_.variables.size(), 0);
  seed_by_vr_.assign(desc_.variables.size(), 0.0);
  is_float64_.assign(desc_.variables.size() + 1, 0);  // + a 0 for every out-of-range reference
  for (std::size_t vr = 0; vr < desc_.variables.size(); ++vr)
    is_float64_[vr] = desc_.variables[vr].type == VarType::float64 ? 1 : 0;
  load_start_values();
}

void Instance::load_start_values() {
  for (const Variable& v : desc_.variables) {
    if (!v.start) continue;
    if (v.type == VarType::boolean) bool_[v.value_reference] = *v.start != 0.0;
    else f64_[v.value_reference] = *v.start;
  }
  time_ = 0.0;
  touch();
}

void Instance::log(fmi3Status status, const char* category, const std::string& message) const {
  if (log_ == nullptr) return;
  if (status < fmi3Warning && !logging_on_) return;
  log_(environment_, status, category, message.c_str());
}

bool Instance::check_mode(const char* function, std::initializer_list<Mode> allowed) const {
  for (Mode m : allowed)
    if (m == mode_) return true;
  std::string list;
  for (Mode m : allowed) list += (list.empty() ? "" : ", ") + std::string(mode_name(m));
  log(fmi3Error, "logStatusError",
      std::string(function) + ": not allowed in " + mode_name(mode_) + " (allowed in " + list + ")");
  return false;
}

bool Instance::dae_mode() const {
  if (desc_.manifest == ManifestShape::none) return false;
  if (desc_.dae_switch == kNoValueRef) return true;
  return bool_[desc_.dae_switch] != 0;
}

Context Instance::context() {
  Context c;
  c.time = time_;
  c.v = f64_.data();
  c.b = bool_.data();
  c.dae_mode = dae_mode();
  c.initialization = mode_ == Mode::initialization;
  return c;
}

void Instance::ensure_computed() {
  if (computed_) return;
  f64_[0] = time_;
  Context c = context();
  model_->compute(c);
  computed_ = true;
}

void Instance::ensure_partials() {
  if (partials_ready_) return;
  ensure_computed();
  CsrCollector collector(desc_.variables.size());
  Context c = context();
  model_->partials(c, collector);
  const std::size_t n = desc_.variables.size();
  partial_row_start_.assign(n + 1, 0);
  for (const auto& e : collector.entries) ++partial_row_start_[e.unknown + 1];
  for (std::size_t i = 0; i < n; ++i) partial_row_start_[i + 1] += partial_row_start_[i];
  partial_known_.resize(collector.entries.size());
  partial_value_.resize(collector.entries.size());
  std::vector<std::size_t> next(partial_row_start_.begin(), partial_row_start_.end() - 1);
  for (const auto& e : collector.entries) {
    const std::size_t at = next[e.unknown]++;
    partial_known_[at] = e.known;
    partial_value_[at] = e.value;
  }
  partials_ready_ = true;
}

fmi3Status Instance::enter_configuration_mode() {
  if (!check_mode("fmi3EnterConfigurationMode", {Mode::instantiated})) return fmi3Error;
  mode_ = Mode::configuration;
  return fmi3OK;
}

fmi3Status Instance::exit_configuration_mode() {
  if (!check_mode("fmi3ExitConfigurationMode", {Mode::configuration})) return fmi3Error;
  mode_ = Mode::instantiated;
  log(fmi3OK, "logEvents", std::string("ExitConfigurationMode: ") + (dae_mode() ? "DAE mode" : "ODE mode"));
  touch();
  return fmi3OK;
}

fmi3Status Instance::enter_initialization_mode(double start_time) {
  if (!check_mode("fmi3EnterInitializationMode", {Mode::instantiated})) return fmi3Error;
  mode_ = Mode::initialization;
  time_ = start_time;
  touch();
  return fmi3OK;
}

fmi3Status Instance::exit_initialization_mode() {
  if (!check_mode("fmi3ExitInitializationMode", {Mode::initialization})) return fmi3Error;
  ensure_computed();
  mode_ = Mode::event;
  return fmi3OK;
}

fmi3Status Instance::enter_event_mode() {
  if (!check_mode("fmi3EnterEventMode", {Mode::continuous_time, Mode::event})) return fmi3Error;
  mode_ = Mode::event;
  return fmi3OK;
}

fmi3Status Instance::enter_continuous_time_mode() {
  if (!check_mode("fmi3EnterContinuousTimeMode", {Mode::event})) return fmi3Error;
  mode_ = Mode::continuous_time;
  return fmi3OK;
}

fmi3Status Instance::terminate() {
  if (!check_mode("fmi3Terminate", {Mode::event, Mode::continuous_time, Mode::initialization})) return fmi3Error;
  mode_ = Mode::terminated;
  return fmi3OK;
}

fmi3Status Instance::reset() {
  mode_ = Mode::instantiated;
  std::fill(f64_.begin(), f64_.end(), 0.0);
  std::fill(bool_.begin(), bool_.end(), std::uint8_t{0});
  load_start_values();
  return fmi3OK;
}

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
    settable_now_[vr] = desc_.variables[vr].type == VarType::float64 &&
                                set_refusal(static_cast<fmi3ValueReference>(vr)).empty()
                            ? 1
                            : 0;
  settable_mode_ = mode_;
  settable_dae_ = dae;
  settable_valid_ = true;
  return settable_now_;
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
  if (ok == 0) {
    for (size_t i = 0; i < n; ++i)
      if (!check_vr("fmi3GetFloat64", vrs[i], VarType::float64)) break;  // logs why
    return fmi3Error;
  }
  if (mode_ != Mode::instantiated && mode_ != Mode::configuration) ensure_computed();
  f64_[0] = time_;  // value reference 0 is the independent variable
  const double* v = f64_.data();
  for (size_t i = 0; i < n; ++i) values[i] = v[vrs[i]];
  return fmi3OK;
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
  }
  double* v = f64_.data();
  std::uint64_t changed = 0;  // any bit that differs
  for (size_t i = 0; i < n; ++i) {
    changed |= std::bit_cast<std::uint64_t>(v[vrs[i]]) ^ std::bit_cast<std::uint64_t>(values[i]);
    v[vrs[i]] = values[i];
  }
  if (changed != 0) touch();
  return fmi3OK;
}

fmi3Status Instance::get_boolean(const fmi3ValueReference vrs[], size_t n, bool values[], size_t n_values) {
  if (n != n_values) {
    log(fmi3Error, "logStatusError", "fmi3GetBoolean: nValues differs from nValueReferences");
    return fmi3Error;
  }
  for (size_t i = 0; i < n; ++i)
    if (!check_vr("fmi3GetBoolean", vrs[i], VarType::boolean)) return fmi3Error;
  if (mode_ != Mode::instantiated && mode_ != Mode::configuration) ensure_computed();
  for (size_t i = 0; i < n; ++i) values[i] = bool_[vrs[i]] != 0;
  return fmi3OK;
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

fmi3Status Instance::set_time(double time) {
  if (!check_mode("fmi3SetTime", {Mode::continuous_time, Mode::event})) return fmi3Error;
  if (store(time_, time)) touch();
  return fmi3OK;
}

namespace {
bool check_count(const Instance& inst, const char* function, size_t given, size_t expected) {
  if (given == expected) return true;
  inst.log(fmi3Error, "logStatusError",
           std::string(function) + ": got " + std::to_string(given) + " elements, the FMU has " +
               std::to_string(expected));
  return false;
}
}  // namespace

fmi3Status Instance::set_continuous_states(const double x[], size_t n) {
  if (!check_mode("fmi3SetContinuousStates", {Mode::continuous_time, Mode::event})) return fmi3Error;
  if (!check_count(*this, "fmi3SetContinuousStates", n, desc_.states.size())) return fmi3Error;
  double* v = f64_.data();
  const ValueRef* states = desc_.states.data();
  std::uint64_t changed = 0;  // any bit that differs
  for (size_t i = 0; i < n; ++i) {
    changed |= std::bit_cast<std::uint64_t>(v[states[i]]) ^ std::bit_cast<std::uint64_t>(x[i]);
    v[states[i]] = x[i];
  }
  if (changed != 0) touch();
  return fmi3OK;
}

fmi3Status Instance::get_continuous_states(double x[], size_t n) {
  if (!check_count(*this, "fmi3GetContinuousStates", n, desc_.states.size())) return fmi3Error;
  for (size_t i = 0; i < n; ++i) x[i] = f64_[desc_.states[i]];
  return fmi3OK;
}

fmi3Status Instance::get_derivatives(double dx[], size_t n) {
  if (!check_mode("fmi3GetContinuousStateDerivatives",
                  {Mode::initialization, Mode::event, Mode::continuous_time, Mode::terminated}))
    return fmi3Error;
  if (!check_count(*this, "fmi3GetContinuousStateDerivatives", n, desc_.derivatives.size())) return fmi3Error;
  ensure_computed();
  for (size_t i = 0; i < n; ++i) dx[i] = f64_[desc_.derivatives[i]];
  return fmi3OK;
}

fmi3Status Instance::get_nominals(double nominals[], size_t n) {
  if (!check_count(*this, "fmi3GetNominalsOfContinuousStates", n, desc_.states.size())) return fmi3Error;
  for (size_t i = 0; i < n; ++i) nominals[i] = desc_.variables[desc_.states[i]].nominal.value_or(1.0);
  return fmi3OK;
}

fmi3Status Instance::get_event_indicators(double indicators[], size_t n) {
  if (!check_mode("fmi3GetEventIndicators",
                  {Mode::initialization, Mode::event, Mode::continuous_time, Mode::terminated}))
    return fmi3Error;
  if (!check_count(*this, "fmi3GetEventIndicators", n, desc_.event_indicators.size())) return fmi3Error;
  ensure_computed();
  for (size_t i = 0; i < n; ++i) indicators[i] = f64_[desc_.event_indicators[i]];
  return fmi3OK;
}

fmi3Status Instance::get_number_of_states(size_t* n) const {
  *n = desc_.states.size();
  return fmi3OK;
}

fmi3Status Instance::get_number_of_event_indicators(size_t* n) const {
  *n = desc_.event_indicators.size();
  return fmi3OK;
}

fmi3Status Instance::update_discrete_states(bool* need_update, bool* terminate, bool* nominals_changed,
                                            bool* values_changed, bool* next_defined, double* next_time) {
  if (!check_mode("fmi3UpdateDiscreteStates", {Mode::event})) return fmi3Error;
  ensure_computed();
  Context c = context();
  const DiscreteUpdate u = model_->update_discrete(c);
  touch();
  if (need_update) *need_update = false;
  if (terminate) *terminate = u.terminate;
  if (nominals_changed) *nominals_changed = false;
  if (values_changed) *values_changed = u.values_of_states_changed;
  if (next_defined) *next_defined = u.next_event_time.has_value();
  if (next_time) *next_time = u.next_event_time.value_or(0.0);
  if (u.values_of_states_changed || u.next_event_time)
    log(fmi3OK, "logEvents",
        "UpdateDiscreteStates at t = " + std::to_string(time_) +
            (u.values_of_states_changed ? ": states re-initialized" : "") +
            (u.next_event_time ? ", next time event at " + std::to_string(*u.next_event_time) : ""));
  return fmi3OK;
}

fmi3Status Instance::completed_integrator_step(bool* enter_event_mode, bool* terminate) {
  if (!check_mode("fmi3CompletedIntegratorStep", {Mode::continuous_time})) return fmi3Error;
  if (enter_event_mode) *enter_event_mode = false;
  if (terminate) *terminate = false;
  return fmi3OK;
}

fmi3Status Instance::get_directional_derivative(const fmi3ValueReference unknowns[], size_t n_unknowns,
                                                const fmi3ValueReference knowns[], size_t n_knowns,
                                                const double seed[], size_t n_seed, double sensitivity[],
                                                size_t n_sensitivity) {
  if (!desc_.provides_partials) {
    log(fmi3Error, "logStatusError",
        "fmi3GetDirectionalDerivative: this FMU does not provide directional derivatives "
        "(providesDirectionalDerivatives=\"false\")");
    return fmi3Error;
  }
  if (!check_mode("fmi3GetDirectionalDerivative",
                  {Mode::initialization, Mode::event, Mode::continuous_time, Mode::terminated}))
    return fmi3Error;
  if (n_seed != n_knowns || n_sensitivity != n_unknowns) {
    log(fmi3Error, "logStatusError", "fmi3GetDirectionalDerivative: nSeed must equal nKnowns and nSensitivity nUnknowns");
    return fmi3Error;
  }
  for (size_t i = 0; i < n_unknowns; ++i)
    if (!check_vr("fmi3GetDirectionalDerivative (unknown)", unknowns[i], VarType::float64)) return fmi3Error;
  for (size_t j = 0; j < n_knowns; ++j)
    if (!check_vr("fmi3GetDirectionalDerivative (known)", knowns[j], VarType::float64)) return fmi3Error;
  try {
    ensure_partials();
  } catch (const std::exception& e) {
    log(fmi3Error, "logStatusError", std::string("fmi3GetDirectionalDerivative: ") + e.what());
    return fmi3Error;
  }
  for (size_t j = 0; j < n_knowns; ++j) seed_by_vr_[knowns[j]] += seed[j];
  for (size_t i = 0; i < n_unknowns; ++i) {
    double sum = 0.0;
    const ValueRef row = unknowns[i];
    for (std::size_t k = partial_row_start_[row]; k < partial_row_start_[row + 1]; ++k)
      sum += partial_value_[k] * seed_by_vr_[partial_known_[k]];
    sensitivity[i] = sum;
  }
  for (size_t j = 0; j < n_knowns; ++j) seed_by_vr_[knowns[j]] = 0.0;
  return fmi3OK;
}

}  // namespace lsdae::kit
