// tests/models/corpus_session.h -- the model corpus test's driver of one FMU
// instance (corpus_test.cpp): instantiated, driven to Continuous-Time Mode in
// DAE or ODE mode through the fmi3 functions directly (fmu_fixture.h), clocks
// ticked as an importer would (clock_driver.h).
#ifndef LSDAE_TESTS_MODELS_CORPUS_SESSION_H
#define LSDAE_TESTS_MODELS_CORPUS_SESSION_H

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "clock_driver.h"
#include "fmu_fixture.h"

namespace lsdae::test {

// One instance, driven to Continuous-Time Mode in DAE or ODE mode.
class Session {
 public:
  // `tick_at_start`: activate the clocks due at the start in the first Event
  // Mode (false: leave them for handle_event at the start time).
  Session(const CatalogEntry& entry, const ParsedFmu& fmu, bool dae_mode, bool tick_at_start = true)
      : fmu_(fmu), states_(fmu.states()) {
    for (std::size_t i = 0; i < states_.size(); ++i) state_index_[states_[i]] = i;
    fns_ = load_binary(entry.stage_dir, fmu.model_identifier);
    const std::string resources = entry.stage_dir + "/resources/";
    inst_ = fns_.instantiate(entry.name.c_str(), fmu.token.c_str(), resources.c_str(), false, false, &log_,
                             &LogSink::callback);
    if (inst_ == nullptr) throw std::runtime_error("instantiate failed: " + joined_log());
    if (fmu.dae_switch) {
      expect_ok(fns_.enter_configuration(inst_), "EnterConfigurationMode");
      const fmi3ValueReference vr = *fmu.dae_switch;
      const bool on = dae_mode;
      expect_ok(fns_.set_boolean(inst_, &vr, 1, &on, 1), "SetBoolean(enable)");
      expect_ok(fns_.exit_configuration(inst_), "ExitConfigurationMode");
    }
    expect_ok(fns_.enter_initialization(inst_, false, 0.0, 0.0, false, 0.0), "EnterInitializationMode");
    clocks_ = std::make_unique<ClockDriver>(fns_, inst_, fmu, log_);
    clocks_->read_initial_timing(0.0);
    expect_ok(fns_.exit_initialization(inst_), "ExitInitializationMode");
    event_iteration(0.0, tick_at_start);
  }

  // One event iteration at the current time (Event Mode and back), with the
  // time-based clocks due now activated.
  void handle_event(double t) {
    expect_ok(fns_.enter_event(inst_), "EnterEventMode");
    event_iteration(t);
  }
  void event_iteration(double t, bool tick = true) {
    const auto ticked = tick ? clocks_->activate_due(t) : std::vector<fmi3ValueReference>{};
    bool need = false, term = false, nom = false, val = false, next = false;
    double next_time = 0;
    expect_ok(fns_.update_discrete_states(inst_, &need, &term, &nom, &val, &next, &next_time), "UpdateDiscreteStates");
    next_time_event_ = next ? std::optional<double>(next_time) : std::nullopt;
    clocks_->after_update(t, ticked);
    expect_ok(fns_.enter_continuous_time(inst_), "EnterContinuousTimeMode");
  }
  std::optional<double> next_time_event_;
  std::unique_ptr<ClockDriver> clocks_;
  ~Session() {
    if (inst_ != nullptr) fns_.free_instance(inst_);
    unload_binary(fns_);
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void expect_ok(fmi3Status s, const char* what) {
    if (s != fmi3OK) throw std::runtime_error(std::string(what) + " returned " + std::to_string(s) + ": " + joined_log());
  }
  std::string joined_log() const {
    std::string all;
    for (const auto& m : log_.messages) all += m + "\n";
    return all;
  }

  void set(fmi3ValueReference vr, double value) {
    if (fmu_.var(vr).causality == "independent") {
      set_time(value);
    } else if (auto it = state_index_.find(vr); it != state_index_.end()) {
      std::vector<double> x(states_.size());
      expect_ok(fns_.get_states(inst_, x.data(), x.size()), "GetContinuousStates");
      x[it->second] = value;
      expect_ok(fns_.set_states(inst_, x.data(), x.size()), "SetContinuousStates");
    } else {
      expect_ok(fns_.set_float64(inst_, &vr, 1, &value, 1), "SetFloat64");
    }
  }
  double get(fmi3ValueReference vr) {
    double v = 0;
    expect_ok(fns_.get_float64(inst_, &vr, 1, &v, 1), "GetFloat64");
    return v;
  }
  std::vector<double> get(const std::vector<fmi3ValueReference>& vrs) {
    std::vector<double> v(vrs.size());
    if (!vrs.empty()) expect_ok(fns_.get_float64(inst_, vrs.data(), vrs.size(), v.data(), v.size()), "GetFloat64");
    return v;
  }
  std::vector<double> directional(const std::vector<fmi3ValueReference>& unknowns, fmi3ValueReference known) {
    std::vector<double> out(unknowns.size());
    const double seed = 1.0;
    expect_ok(fns_.get_directional_derivative(inst_, unknowns.data(), unknowns.size(), &known, 1, &seed, 1, out.data(),
                                              out.size()),
              "GetDirectionalDerivative");
    return out;
  }
  // A probe moves time past clock ticks without activating them: the kit's
  // warning about the missed tick is expected there.
  void set_time(double t) {
    const fmi3Status status = fns_.set_time(inst_, t);
    if (!(status == fmi3Warning && !fmu_.clocks.empty())) expect_ok(status, "SetTime");
  }

  Fmi3Functions fns_;
  fmi3Instance inst_ = nullptr;
  LogSink log_;
  const ParsedFmu& fmu_;
  const std::vector<fmi3ValueReference> states_;
  std::map<fmi3ValueReference, std::size_t> state_index_;
};

}  // namespace lsdae::test

#endif  // LSDAE_TESTS_MODELS_CORPUS_SESSION_H
