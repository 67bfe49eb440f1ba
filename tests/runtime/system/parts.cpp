// Test components for systems of FMUs (tests/runtime/system): small plain
// ODE FMUs (no LS-DAE manifest; directional derivatives only with config
// partials=yes) with inputs and outputs, declared outputs first and inputs
// before states, so that their value references are ordered unlike the
// project's models.
//
// kind=first_order  (parameters T, k, d, level; config u_unit=none: u without a unit)
//   der(x) = (k·u − x)/T,   y = x + d·u          (d ≠ 0: direct feedthrough)
//   level > 0: a state event when x reaches level; x is reset to 0 there.
// kind=mass         (seed 003: one mass, force input, velocity output)
//   der(s) = v,  der(v) = (Fa + F)/m,  Fa = F0 sin(omega t),  vout = v
//   F is the force INTO the mass at its port (the coupling's flow).
#include <cmath>
#include <string>
#include <vector>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

constexpr ValueRef kTime = 0;

ValueRef input(Builder& b, const std::string& name, double start, const std::string& unit) {
  Variable v;
  v.name = name;
  v.causality = Causality::input;
  v.variability = Variability::continuous;
  v.start = start;
  v.unit = unit;
  v.description = "input " + name;
  return b.add(v);
}

// An optional key: its first allowed value when absent.
std::string optional_choice(const Config& config, const std::string& key, const std::vector<std::string>& allowed) {
  return config.values().count(key) != 0 ? config.get_choice(key, allowed) : allowed.front();
}

class SysTestParts final : public Model {
 public:
  explicit SysTestParts(const Config& config)
      : kind_(config.get_choice("kind", {"first_order", "mass"})),
        partials_(optional_choice(config, "partials", {"no", "yes"}) == "yes"),
        u_unit_(optional_choice(config, "u_unit", {"V", "none"})) {}

  void declare(Builder& b) override {
    b.model_name("SysTestParts", "a component for system tests (" + kind_ + ")");
    b.default_experiment({0.0, 2.0, 1e-8, 0.05});
    b.form(Form::ode);
    constexpr DepKind kD = DepKind::dependent;
    if (partials_) b.provides_partials();
    if (kind_ == "first_order") {
      y_ = b.output("y", "V", "x + d u");
      u_ = input(b, "u", 1.0, u_unit_ == "none" ? "" : u_unit_);
      T_ = b.parameter("T", 1.0, "s", "time constant");
      k_ = b.parameter("k", 1.0, "", "gain");
      d_ = b.parameter("d", 0.0, "", "direct feedthrough");
      level_ = b.parameter("level", 0.0, "V", "reset level (0: none)");
      x_ = b.state("x", 0.0, "V", "state");
      der_x_ = b.derivative(x_);
      indicator_ = b.local("level_minus_x", "V", "level − x (an event indicator)");
      b.event_indicator(indicator_);
      b.ode_dependencies(der_x_, {{x_, kD}, {u_, kD}});
      b.ode_dependencies(y_, {{x_, kD}, {u_, kD}});
    } else {
      vout_ = b.output("vout", "m/s", "velocity of the mass");
      F_ = input(b, "F", 0.0, "N");
      m_ = b.parameter("m", 1.0, "kg", "mass");
      F0_ = b.parameter("F0", 0.0, "N", "amplitude of the driving force");
      omega_ = b.parameter("omega", 2.0, "rad/s", "angular frequency of the driving force");
      v_ = b.state("v", 0.0, "m/s", "velocity");
      s_ = b.state("s", 0.0, "m", "position");
      der_v_ = b.derivative(v_);
      der_s_ = b.derivative(s_);
      b.state_order({der_v_, der_s_});
      b.ode_dependencies(der_s_, {{v_, kD}});
      b.ode_dependencies(der_v_, {{kTime, kD}, {F_, kD}});
      b.ode_dependencies(vout_, {{v_, kD}});
    }
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (kind_ == "first_order") {
      v[der_x_] = (v[k_] * v[u_] - v[x_]) / v[T_];
      v[y_] = v[x_] + v[d_] * v[u_];
      v[indicator_] = v[level_] > 0 ? v[level_] - v[x_] : 1.0;
    } else {
      v[der_s_] = v[v_];
      v[der_v_] = (v[F0_] * std::sin(v[omega_] * c.time) + v[F_]) / v[m_];
      v[vout_] = v[v_];
    }
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    if (kind_ == "first_order") {
      s.add(der_x_, x_, -1.0 / v[T_]);
      s.add(der_x_, u_, v[k_] / v[T_]);
      s.add(y_, x_, 1.0);
      s.add(y_, u_, v[d_]);
      if (v[level_] > 0) s.add(indicator_, x_, -1.0);
    } else {
      s.add(der_s_, v_, 1.0);
      s.add(der_v_, F_, 1.0 / v[m_]);
      s.add(vout_, v_, 1.0);
    }
  }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate u;
    if (kind_ == "first_order" && v_level(c) > 0 && c.v[x_] >= v_level(c) - 1e-6) {
      c.v[x_] = 0.0;
      u.values_of_states_changed = true;
    }
    return u;
  }

 private:
  double v_level(const Context& c) const { return c.v[level_]; }
  std::string kind_;
  bool partials_ = false;
  std::string u_unit_;
  ValueRef y_ = 0, u_ = 0, T_ = 0, k_ = 0, d_ = 0, level_ = 0, x_ = 0, der_x_ = 0, indicator_ = 0;
  ValueRef vout_ = 0, F_ = 0, m_ = 0, F0_ = 0, omega_ = 0, v_ = 0, s_ = 0, der_v_ = 0, der_s_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(SysTestParts)
