// Bouncing ball: a plain FMI 3.0 Model Exchange FMU with a state event and a
// re-initialization of the states (no LS-DAE manifest).
//
//   der(h) = v
//   der(v) = -g                  flying
//   der(v) = 0                   resting: h <= 0 and v == 0 (the floor carries the ball)
//   h_indicator = h (flying), 1 (resting)
//
//   state event when h_indicator crosses 0 from above (h <= 0, v < 0):
//       h := 0,  v := -e v                        (rebound)
//       if -e v < v_min:  h := 0, v := 0          (the ball rests for good)
//
//   h(0) = 1, v(0) = 0, g = 9.81, e = 0.7, v_min = 0.1. The ball comes to rest at
//   its 11th impact, t = 2.4991 s (reference/bounce_times.csv).
//
//   Config key v_min (default 0.1) sets the parameter's start value. With
//   v_min = 0 the ball bounces infinitely often: the impacts accumulate at the
//   Zeno time t_inf = sqrt(2 h0/g) (1 + e)/(1 - e) = 2.5586 s, where h = v = 0,
//   and the ball rests on the floor from then on (BouncingBall_zeno,
//   reference/BouncingBall_zeno.csv).
//
// Resting is a property of the state, not a separate discrete flag: the
// re-initialization puts the ball exactly at h = 0, v = 0, where both
// derivatives are exactly 0, so every integrator keeps it there. Flight never
// reaches that set (v < 0 at every impact), so der(v) is a function of the
// continuous states alone. Its dependence on h and v is a jump on that set:
// declared, kind dependent, partial 0 everywhere else. The event indicator is a
// dedicated Float64 local (an FMI 3.0 EventIndicator references a variable);
// it is 1 at rest so that a resting ball never sits on the indicator's zero.
//
// Variants: `form=ode` (manifest none): FMU BouncingBall_ode (FMI 3.0) and
// BouncingBall_fmi2 (FMI 2.0, value_references=scattered).
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class BouncingBall final : public Model {
 public:
  explicit BouncingBall(const Config& config)
      : form_(config.get_choice("form", {"ode"})), v_min_start_(config.get_double("v_min", 0.1)) {}

  void declare(Builder& b) override {
    b.model_name("BouncingBall", "Bouncing ball with a state event at the floor (plain Model Exchange, no manifest)");
    b.default_experiment({0.0, 3.0, 1e-8, 0.01});
    b.form(Form::ode);
    b.provides_partials();
    g_ = b.parameter("g", 9.81, "m/s2", "gravity acceleration");
    e_ = b.parameter("e", 0.7, "", "coefficient of restitution");
    v_min_ = b.parameter("v_min", v_min_start_, "m/s", "the ball rests when its rebound speed is below v_min");
    h_ = b.state("h", 1.0, "m", "height of the ball above the floor");
    der_h_ = b.derivative(h_);
    v_ = b.state("v", 0.0, "m/s", "velocity of the ball (upwards positive)");
    der_v_ = b.derivative(v_);
    indicator_ = b.local("h_indicator", "m", "event indicator: h while the ball flies, 1 when it rests");
    b.event_indicator(indicator_);
    b.ode_dependencies(der_h_, {{v_, DepKind::constant}});
    b.ode_dependencies(der_v_, {{h_, DepKind::dependent}, {v_, DepKind::dependent}});
    b.ode_dependencies(indicator_, {{h_, DepKind::dependent}, {v_, DepKind::dependent}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    const bool rest = resting(v);
    v[der_h_] = v[v_];
    v[der_v_] = rest ? 0.0 : -v[g_];
    v[indicator_] = rest ? 1.0 : v[h_];
  }

  // Off the rest set (where the derivatives jump) only these are nonzero.
  void partials(const Context& c, PartialSink& s) override {
    s.add(der_h_, v_, 1.0);
    if (!resting(c.v)) s.add(indicator_, h_, 1.0);
  }

  // At an impact (h <= 0 while falling) the ball rebounds with e times its
  // speed, or rests when that rebound would be slower than v_min. The event
  // when h leaves 0 upwards after a rebound (FMI 3.0 counts z <= 0 -> z > 0 as
  // a domain change too) finds h > 0 and changes nothing.
  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate u;
    double* v = c.v;
    if (resting(v) || v[h_] > 0.0 || v[v_] > 0.0) return u;
    const double rebound = -v[e_] * v[v_];
    v[h_] = 0.0;
    v[v_] = rebound < v[v_min_] ? 0.0 : rebound;
    u.values_of_states_changed = true;
    return u;
  }

 private:
  bool resting(const double* v) const { return v[h_] <= 0.0 && v[v_] == 0.0; }

  std::string form_;
  double v_min_start_;
  ValueRef g_ = 0, e_ = 0, v_min_ = 0, h_ = 0, der_h_ = 0, v_ = 0, der_v_ = 0, indicator_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(BouncingBall)
