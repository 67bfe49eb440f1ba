// First-order lag driven by a step that a time event switches on: a plain
// FMI 3.0 Model Exchange FMU with a time event (no LS-DAE manifest).
//
//   der(x) = (u - x)/T,   y = x,   x(0) = 1
//   u = 0 for time < t_switch, u = 1 for time >= t_switch   (discrete Float64)
//   T = 0.5, t_switch = 1
//
//   exact solution: x = exp(-t/T) for t < t_switch (decays towards u = 0), then
//   x = 1 + (x_s - 1) exp(-(t - t_switch)/T) with x_s = exp(-t_switch/T) (rises
//   towards u = 1). x is continuous at t_switch; der(x) jumps.
//
// u is a local with variability discrete: compute() sets it in Initialization
// Mode, afterwards only update_discrete() changes it. While time < t_switch,
// update_discrete() announces the time event next_event_time = t_switch; in the
// Event Mode at t_switch it sets u = 1 and announces nothing more.
//
// Variants: `form=ode` (manifest none): FMU TimeEvent_ode (FMI 3.0) and
// TimeEvent_fmi2 (FMI 2.0, ModelVariables reversed, y an alias of x).
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class TimeEvent final : public Model {
 public:
  explicit TimeEvent(const Config& config) : form_(config.get_choice("form", {"ode"})) {}

  void declare(Builder& b) override {
    b.model_name("TimeEvent", "First-order lag with a step input switched by a time event (plain Model Exchange, no manifest)");
    b.default_experiment({0.0, 3.0, 1e-8, 0.01});
    b.form(Form::ode);
    b.provides_partials();
    b.has_time_events();
    T_ = b.parameter("T", 0.5, "s", "time constant");
    t_switch_ = b.parameter("t_switch", 1.0, "s", "time at which u steps from 0 to 1");
    x_ = b.state("x", 1.0, "", "lag state");
    der_x_ = b.derivative(x_);
    Variable u;
    u.name = "u";
    u.description = "step input: 0 before t_switch, 1 from t_switch on";
    u.causality = Causality::local;
    u.variability = Variability::discrete;
    u.initial = Initial::calculated;
    u_ = b.add(std::move(u));
    y_ = b.output("y", "", "y = x");
    b.ode_dependencies(der_x_, {{x_, DepKind::fixed}});
    b.ode_dependencies(y_, {{x_, DepKind::constant}});
    // y is x: the FMI 2.0 variant writes y with x's value reference.
    b.alias(y_, x_);
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (c.initialization) v[u_] = c.time >= v[t_switch_] ? 1.0 : 0.0;
    v[der_x_] = (v[u_] - v[x_]) / v[T_];
    v[y_] = v[x_];
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    s.add(der_x_, x_, -1.0 / v[T_]);
    s.add(y_, x_, 1.0);
  }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate d;
    const bool on = c.time >= c.v[t_switch_];
    c.v[u_] = on ? 1.0 : 0.0;
    if (!on) d.next_event_time = c.v[t_switch_];
    return d;
  }

 private:
  std::string form_;
  ValueRef T_ = 0, t_switch_ = 0, x_ = 0, der_x_ = 0, u_ = 0, y_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(TimeEvent)
