// Mass-spring oscillator with an <Invariant> on its energy (issue 15), shape
// B (FMI-LS-DAE 1.0.0-alpha.1), semi-explicit:
//
//   der(x) = v,   der(v) = F/m,   0 = res = F + k x,
//   invariant E = m v^2/2 + k x^2/2        (0.5 at the start, NOT zero)
//
// m = k = 1, x(0) = 1, v(0) = 0: x = cos t, v = -sin t, F = -cos t, E = 0.5.
// The invariant is a quantity constant along the exact solution; its value
// is whatever it was after initialization. An importer that projects onto
// E = 0 moves the oscillator to rest.
//
// The kit writes a shape-B residual group's leading formulations as
// <Invariant>s and its last one as the <Residual>: the group {E, res} gives
// exactly one Invariant (E) and one Residual (res). Shape B only.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class EnergyOscillator final : public Model {
 public:
  explicit EnergyOscillator(const Config& config) {
    if (config.get_choice("manifest", {"B"}) != "B") throw std::invalid_argument("EnergyOscillator: shape B only");
  }

  void declare(Builder& b) override {
    b.model_name("EnergyOscillator", "Mass-spring oscillator with an energy invariant (shape B)");
    b.default_experiment({0.0, 10.0, 1e-8, 0.01});
    b.form(Form::semi_explicit);
    b.provides_partials();
    m_ = b.parameter("m", 1.0, "kg", "mass");
    k_ = b.parameter("k", 1.0, "N/m", "spring stiffness");
    x_ = b.state("x", 1.0, "m", "position");
    v_ = b.state("v", 0.0, "m/s", "velocity");
    der_x_ = b.derivative(x_);
    der_v_ = b.derivative(v_);
    f_ = b.algebraic("F", 0.0, "N", "spring force");
    energy_ = b.residual_variable("E", "m v^2/2 + k x^2/2: constant along the solution (0.5 here)");
    res_ = b.residual_variable("res", "F + k x");
    constexpr DepKind kC = DepKind::constant, kF = DepKind::fixed, kD = DepKind::dependent;
    b.residual_group({{{energy_, 0, {{x_, kD}, {v_, kD}}}, {res_, 0, {{f_, kC}, {x_, kF}}}}});
    b.dae_dependencies(der_x_, {{v_, kC}});
    b.dae_dependencies(der_v_, {{f_, kF}});
    b.ode_dependencies(der_x_, {{v_, kC}});
    b.ode_dependencies(der_v_, {{x_, kF}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double m = v[m_], k = v[k_], x = v[x_], vel = v[v_];
    v[der_x_] = vel;
    v[energy_] = 0.5 * m * vel * vel + 0.5 * k * x * x;
    if (c.dae_mode) {
      v[der_v_] = v[f_] / m;
      v[res_] = v[f_] + k * x;
    } else {
      v[f_] = -k * x;
      v[der_v_] = -k * x / m;
      v[res_] = 0.0;
    }
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const double m = v[m_], k = v[k_];
    s.add(der_x_, v_, 1.0);
    s.add(energy_, x_, k * v[x_]);
    s.add(energy_, v_, m * v[v_]);
    if (c.dae_mode) {
      s.add(der_v_, f_, 1.0 / m);
      s.add(res_, f_, 1.0);
      s.add(res_, x_, k);
    } else {
      s.add(der_v_, x_, -k / m);
    }
  }

 private:
  ValueRef m_ = 0, k_ = 0, x_ = 0, v_ = 0, der_x_ = 0, der_v_ = 0, f_ = 0, energy_ = 0, res_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(EnergyOscillator)
