// tests/models/psse/system_driver.h -- a PSS/E case's System driven as the
// kit drives it (Initialization Mode, the first update, Continuous-Time Mode
// at one discrete epoch, events moving the epoch), on the kit's own
// description of its variables, without an FMU: for the tests of the
// System's evaluations and events (indicators_test.cpp, event_solver_test.cpp).
#ifndef LSDAE_TESTS_MODELS_PSSE_SYSTEM_DRIVER_H
#define LSDAE_TESTS_MODELS_PSSE_SYSTEM_DRIVER_H

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "kit/description.h"
#include "kit/model.h"
#include "psse/case/case_builder.h"
#include "psse/system/system.h"

namespace lsdae::psse::test {

// The System as the kit sees it (PsseGrid without its resources folder).
class DrivenCaseModel final : public kit::Model {
 public:
  explicit DrivenCaseModel(SystemInput input) : system(std::move(input), kit::Form::semi_explicit) {}
  void declare(kit::Builder& b) override {
    b.model_name("DrivenCase", "a PSS/E case driven by the tests");
    system.declare(b);
  }
  void compute(kit::Context& c) override { system.compute(c); }
  System system;
};

class SystemDriver {
 public:
  // Builds the ladder case `folder` with `dyr`, declares it, and runs it as
  // the kit does up to Continuous-Time Mode: an initialization compute(),
  // the first update. `impedance_loads`: the ladder's loads as constant
  // impedance (else the case's constant-power loads, with their low-voltage
  // switch). Every case has a fault at `fault_bus` from 0.5 to 0.6 s.
  void open(const std::string& data_dir, const std::string& folder, const std::string& dyr, int fault_bus,
            bool impedance_loads = true) {
    std::map<std::string, std::string> settings{{"faults", std::to_string(fault_bus) + ":0.5:0.6:0:0.01"}};
    if (impedance_loads) settings["load_conversion"] = "0,100,0,100";
    BuiltCase c = build_case(data_dir + "/" + folder + "/ThreeBusMulti.raw", data_dir + "/" + folder + "/" + dyr,
                             case_options(settings));
    model = std::make_unique<DrivenCaseModel>(std::move(c.input));
    desc = kit::describe(*model, kit::Config(std::map<std::string, std::string>{{"manifest", "A"}}));
    v.assign(desc.variables.size(), 0.0);
    b.assign(desc.variables.size(), 0);
    for (const kit::Variable& var : desc.variables) v[var.value_reference] = var.start.value_or(0.0);
    ASSERT_FALSE(desc.event_indicators.empty());
    kit::Context init = context();
    init.initialization = true;
    model->system.compute(init);
    next_epoch();
    kit::Context event = context();
    event.event_mode = true;
    model->system.update_discrete(event);
    next_epoch();  // Continuous-Time Mode
    time = 0.4;
  }
  kit::Context context() {
    kit::Context c;
    c.time = time;
    c.v = v.data();
    c.b = b.data();
    c.dae_mode = true;
    c.discrete_epoch = epoch;
    return c;
  }
  void next_epoch() { ++epoch; }
  // Moves the point: every state and algebraic variable by a relative
  // `scale` around its value, alternating in sign (a different point, with
  // the machine voltages and the controllers' signals all changed).
  void move(double scale) {
    int k = 0;
    for (kit::ValueRef vr : desc.states) v[vr] *= 1.0 + scale * ((k++ % 2 == 0) ? 1.0 : -0.5);
    for (kit::ValueRef vr : desc.algebraic) v[vr] *= 1.0 + scale * ((k++ % 2 == 0) ? -0.5 : 1.0);
  }
  // An event at the current point, as the kit runs one: Event Mode at a new
  // epoch, a compute(), update_discrete(), then Continuous-Time Mode at the
  // next epoch. Returns the limit events it counted.
  double event() {
    next_epoch();
    kit::Context e = context();
    e.event_mode = true;
    model->system.compute(e);
    const double before = v[events_vr()];
    model->system.update_discrete(e);
    next_epoch();
    return v[events_vr()] - before;
  }
  kit::ValueRef events_vr() const {
    for (const kit::Variable& var : desc.variables)
      if (var.name == "limits.events") return var.value_reference;
    ADD_FAILURE() << "no limits.events";
    return 0;
  }

  std::unique_ptr<DrivenCaseModel> model;
  kit::Description desc;
  std::vector<double> v;
  std::vector<std::uint8_t> b;
  std::uint64_t epoch = 1;
  double time = 0.0;
};

}  // namespace lsdae::psse::test

#endif  // LSDAE_TESTS_MODELS_PSSE_SYSTEM_DRIVER_H
