// models/psse/fmu/model.cpp -- PsseGrid: a PSS/E case (.raw + .dyr shipped in
// resources/) with its dynamic models, as an FMI-LS-DAE FMU. One binary
// serves every case: the instance reads the case, solves the power flow and
// initializes every model (case_builder.h, system.h) -- deterministically,
// so the describer and every instance see the same variables.
//
// Configuration keys: raw, dyr (file names in resources/), form
// (semi_explicit or fully_implicit), manifest (A, DAE mode from the start),
// stop_time (default experiment), and the case options of case_builder.h
// (substitute, skip_unsupported, load_conversion, load_breakpoint,
// pv_set_points, initial_limits, faults, trips, gentrips, loadsteps, fault_buses,
// trip_branches, loadstep_buses, raw_version).
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kit/model.h"
#include "psse/case/case_builder.h"
#include "psse/system/system.h"

namespace {

using namespace lsdae::kit;

std::string resource(const Config& config, const char* key, const char* what) {
  const std::string file = config.get_string(key, "");
  if (file.empty())
    throw std::invalid_argument(std::string("model configuration: key \"") + key + "\" is missing → name the " + what +
                                " shipped in resources/ (lsdae-grid writes it)");
  return config.resource_dir() + file;
}

class PsseGrid final : public Model {
 public:
  explicit PsseGrid(const Config& config)
      : form_(config.get_choice("form", {"semi_explicit", "fully_implicit"}) == "semi_explicit" ? Form::semi_explicit
                                                                                              : Form::fully_implicit),
        stop_time_(config.get_double("stop_time", 10.0)) {
    if (config.get_string("manifest", "none") != "A" || config.get_string("enable_dae_switch", "false") != "false")
      throw std::invalid_argument("model configuration: PsseGrid needs manifest=A without enable_dae_switch "
                                  "(a DAE-only FMU)");
    lsdae::psse::BuiltCase c = lsdae::psse::build_case(resource(config, "raw", "PSS/E .raw file"),
                                                       resource(config, "dyr", "PSS/E .dyr file"),
                                                       lsdae::psse::case_options(config.values()));
    name_ = config.get_string("raw", "case");
    system_ = std::make_unique<lsdae::psse::System>(std::move(c.input), form_);
  }

  void declare(Builder& b) override {
    b.model_name("PsseGrid", "Transient stability of the PSS/E case " + name_ +
                                 " with its dynamic models (.dyr), network current balance in rectangular coordinates");
    b.default_experiment({0.0, stop_time_, 1e-6, 0.01});
    system_->declare(b);
  }
  void compute(Context& c) override { system_->compute(c); }
  // The slots with limiters alone where the System can (system.h).
  bool compute_event_indicators(Context& c) override { return system_->compute_event_indicators(c); }
  void partials(const Context& c, PartialSink& sink) override { system_->partials(c, sink); }
  DiscreteUpdate update_discrete(Context& c) override { return system_->update_discrete(c); }
  // Islands, frozen units and the limiters' last indicators live outside the
  // values: handed to the kit so that fmi3Reset (a sweep reusing the
  // instance) starts from the undisturbed state (system.h).
  std::vector<double> internal_state() const override { return system_->internal_state(); }
  void set_internal_state(const std::vector<double>& state) override { system_->set_internal_state(state); }

 private:
  Form form_;
  double stop_time_;
  std::string name_;
  std::unique_ptr<lsdae::psse::System> system_;
};

}  // namespace

LSDAE_KIT_MODEL(PsseGrid)
