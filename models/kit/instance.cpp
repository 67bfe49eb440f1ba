// models/kit/instance.cpp -- construction, modes, lazy evaluation and logging of
// an instance (instance.h).
#include "kit/instance.h"

#include <algorithm>
#include <cmath>
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

}  // namespace

Instance::Instance(std::string name, const std::string& token, const std::string& resource_path, bool logging_on,
                   fmi3InstanceEnvironment environment, fmi3LogMessageCallback log_callback)
    : name_(std::move(name)), resource_path_(resource_path), logging_on_(logging_on), environment_(environment),
      log_(log_callback) {
  model_log_.self = this;
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
  partials_.reset(desc_.variables.size());
  seed_by_vr_.assign(desc_.variables.size(), 0.0);
  reached_.assign(desc_.variables.size(), 0u);
  asked_at_.assign(desc_.variables.size(), 0u);
  // The fast path of fmi3GetFloat64: Float64 and not clocked (a clocked
  // variable takes the slow path, which checks its clocks).
  is_float64_.assign(desc_.variables.size() + 1, 0);  // + a 0 for every out-of-range reference
  clocked_.assign(desc_.variables.size(), 0);
  for (std::size_t vr = 0; vr < desc_.variables.size(); ++vr) {
    const Variable& var = desc_.variables[vr];
    if (var.causality == Causality::input && var.variability != Variability::continuous) discrete_inputs_ = true;
    clocked_[vr] = desc_.variables[vr].clocks.empty() ? 0 : 1;
    is_float64_[vr] = desc_.variables[vr].type == VarType::float64 && clocked_[vr] == 0 ? 1 : 0;
  }
  // compute()'s knowns (model.h): the continuous states, and in DAE mode also
  // the manifest's algebraic variables (and a fully implicit model's
  // derivatives); the time (value reference 0) is read from time_.
  knowns_apply_ = desc_.clocks.empty() && !desc_.openmodelica_form;
  knowns_ode_.assign(desc_.variables.size() + 1, 0);
  knowns_ode_[0] = 1;
  for (ValueRef x : desc_.states) knowns_ode_[x] = is_float64_[x];
  knowns_dae_ = knowns_ode_;
  for (std::size_t vr = 0; vr < desc_.variables.size(); ++vr)
    if (desc_.settable_in_dae_mode(static_cast<ValueRef>(vr))) knowns_dae_[vr] = is_float64_[vr];
  load_start_values();
  reset_clocks();
  initial_internal_state_ = model_->internal_state();
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

fmi3Status Instance::set_debug_logging(bool on, std::size_t n, const char* const categories[]) {
  std::vector<std::string> named;
  for (std::size_t i = 0; categories != nullptr && i < n; ++i)
    if (categories[i] != nullptr) named.emplace_back(categories[i]);
  // No category named: every category, logging as a whole on or off. Some
  // named: those on (logging on with them) or off (the others stay as they are).
  if (named.empty() || on) logging_on_ = on;
  for (const auto& [name, description] : desc_.log_categories) {
    const bool applies = named.empty() || std::find(named.begin(), named.end(), name) != named.end();
    if (!applies) continue;
    const auto it = std::find(model_log_on_.begin(), model_log_on_.end(), name);
    if (on && it == model_log_on_.end()) model_log_on_.push_back(name);
    if (!on && it != model_log_on_.end()) model_log_on_.erase(it);
  }
  return fmi3OK;
}

bool Instance::ModelLog::enabled(const std::string& category) const {
  if (!self->logging_on_ || self->log_ == nullptr) return false;
  return std::find(self->model_log_on_.begin(), self->model_log_on_.end(), category) != self->model_log_on_.end();
}

void Instance::ModelLog::message(const std::string& category, const std::string& text) const {
  self->log(fmi3OK, category.c_str(), text);
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
  c.event_mode = mode_ == Mode::event;
  c.log = &model_log_;
  c.discrete_epoch = discrete_epoch_;
  return c;
}

void Instance::ensure_computed() {
  if (computed_) return;
  f64_[0] = time_;
  Context c = context();
  model_->compute(c);
  computed_ = true;
  indicators_ready_ = true;
}

void Instance::ensure_indicators() {
  if (computed_ || indicators_ready_) return;
  f64_[0] = time_;
  Context c = context();
  computed_ = model_->compute_event_indicators(c);
  indicators_ready_ = true;
}

void Instance::ensure_partials() {
  if (partials_ready_) return;
  ensure_computed();
  partials_.begin(!desc_.partial_scales.empty());
  Context c = context();
  model_->partials(c, partials_);
  // A variant's false claim (claims.h): some partials scaled.
  for (const Description::PartialScale& scale : desc_.partial_scales)
    if (time_ > desc_.partial_scale_after)
      for (auto& e : partials_.entries())
        if ((scale.unknown == kNoValueRef || scale.unknown == e.unknown) &&
            (scale.known == kNoValueRef || scale.known == e.known))
          e.value *= scale.factor;
  partials_.finish();
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
  start_time_ = start_time;
  touch();
  return fmi3OK;
}

fmi3Status Instance::exit_initialization_mode() {
  if (!check_mode("fmi3ExitInitializationMode", {Mode::initialization})) return fmi3Error;
  ensure_computed();
  // The clocks' timing is fixed now; their first ticks are due from here.
  const fmi3Status duties = check_clock_duties("fmi3ExitInitializationMode");
  start_clock_schedule();
  mode_ = Mode::event;
  begin_event_mode_clocks();
  if (!desc_.clocks.empty()) touch();  // compute() of a clocked model reads Context::event_mode
  return duties;
}

fmi3Status Instance::enter_event_mode() {
  if (!check_mode("fmi3EnterEventMode", {Mode::continuous_time, Mode::event})) return fmi3Error;
  const fmi3Status missed = check_missed_ticks("fmi3EnterEventMode");
  mode_ = Mode::event;
  begin_event_mode_clocks();
  if (!desc_.clocks.empty()) touch();
  return missed;
}

fmi3Status Instance::enter_continuous_time_mode() {
  if (!check_mode("fmi3EnterContinuousTimeMode", {Mode::event})) return fmi3Error;
  for (ValueRef clock : desc_.clocks)
    if (bool_[clock] != 0) {
      log(fmi3Error, "logStatusError",
          "fmi3EnterContinuousTimeMode: clock \"" + desc_.variables[clock].name +
              "\" is still active; call fmi3UpdateDiscreteStates after fmi3SetClock (it runs the clock's "
              "partition and deactivates the clock)");
      return fmi3Error;
    }
  const fmi3Status duties = check_clock_duties("fmi3EnterContinuousTimeMode");
  mode_ = Mode::continuous_time;
  if (!desc_.clocks.empty()) touch();
  return duties;
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
  reset_clocks();
  setup_start_time_ = 0.0;
  model_->set_internal_state(initial_internal_state_);  // a latch of the last run is not this one's
  return fmi3OK;
}

}  // namespace lsdae::kit
