// An exponential decay and an undamped oscillator, exported the way foreign
// exporters do it rather than the way the kit does by default: residual
// variables declared first (one of them an output), states and outputs listed
// in an order of their own, parameters left out of the dependencies, `fixed`
// dependenciesKind for coefficients made of parameters, and no directional
// derivatives (lsdae must use finite differences).
//
//   x' = -k x                 x(0) = 1     x = e^(-k t)
//   p' = v                    p(0) = 1     p = cos(w t)
//   v' = f,  f = -w^2 p       v(0) = 0     v = -w sin(w t)
//   s = x + p                              (an algebraic variable in DAE mode)
//   k = 0.5, w = 2
// Outputs: sum = s, twice_v = 2 v, and the residual rs = s - x - p (zero
// along the solution; an output on purpose).
//
// Variants (config key `form`):
//   ode             no manifest; f and s are calculated locals, rs = 0.
//   semi_explicit   algebraic f, s; residuals rf = f + w^2 p, rs = s - x - p;
//                   der(v) = f from fmi3GetContinuousStateDerivatives.
//   fully_implicit  also rx = der(x) + k x, rp = der(p) - v, rv = der(v) - f
//                   over the derivatives the importer writes.
// The kit's layout keys (value_references, variable_order, manifest_outputs)
// are set per FMU in CMakeLists.txt.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class UnusualOscillator final : public Model {
 public:
  explicit UnusualOscillator(const Config& config)
      : form_(config.get_choice("form", {"ode", "semi_explicit", "fully_implicit"})) {}

  void declare(Builder& b) override {
    b.model_name("UnusualOscillator", "decay and oscillator in an unusual layout (" + form_ + " form)");
    b.default_experiment({0.0, 5.0, 1e-8, 0.05});
    b.form(form_ == "ode" ? Form::ode : form_ == "semi_explicit" ? Form::semi_explicit : Form::fully_implicit);
    const bool dae = form_ != "ode";
    const bool implicit = form_ == "fully_implicit";
    // Residuals first: the smallest value references, the first variables.
    {
      Variable r;
      r.name = "rs";
      r.description = "s - x - p (an output that is also a residual)";
      r.causality = Causality::output;
      r.initial = Initial::calculated;
      rs_ = b.add(r);
    }
    if (dae) rf_ = b.residual_variable("rf", "f + w^2 p");
    if (implicit) {
      rv_ = b.residual_variable("rv", "der(v) - f");
      rx_ = b.residual_variable("rx", "der(x) + k x");
      rp_ = b.residual_variable("rp", "der(p) - v");
    }
    w_ = b.parameter("w", 2.0, "rad/s", "angular frequency");
    x_ = b.state("x", 1.0, "", "decaying state");
    p_ = b.state("p", 1.0, "m", "position");
    v_ = b.state("v", 0.0, "m/s", "velocity");
    der_x_ = b.derivative(x_);
    der_p_ = b.derivative(p_);
    der_v_ = b.derivative(v_);
    sum_ = b.output("sum", "", "x + p");
    twice_v_ = b.output("twice_v", "m/s", "2 v");
    k_ = b.parameter("k", 0.5, "1/s", "decay rate");
    if (dae) {
      f_ = b.algebraic("f", 0.0, "m/s2", "acceleration -w^2 p");
      s_ = b.algebraic("s", 0.0, "", "x + p");
    } else {
      f_ = b.local("f", "m/s2", "acceleration -w^2 p");
      s_ = b.local("s", "", "x + p");
    }
    // Neither declaration order nor (reversed) ModelVariables order.
    b.state_order({der_p_, der_x_, der_v_});
    b.output_order({twice_v_, rs_, sum_});

    // ODE mode: from the states alone; k and w are left out (parameters).
    b.ode_dependencies(der_x_, {{x_, DepKind::fixed}});
    b.ode_dependencies(der_p_, {{v_, DepKind::constant}});
    b.ode_dependencies(der_v_, {{p_, DepKind::fixed}});
    b.ode_dependencies(sum_, {{x_, DepKind::constant}, {p_, DepKind::constant}});
    b.ode_dependencies(twice_v_, {{v_, DepKind::constant}});
    b.ode_dependencies(rs_, {});
    if (!dae) return;

    const std::vector<Dependency> rs_deps = {{s_, DepKind::constant}, {x_, DepKind::constant}, {p_, DepKind::constant}};
    b.dae_dependencies(sum_, {{s_, DepKind::constant}});
    b.dae_dependencies(twice_v_, {{v_, DepKind::constant}});
    b.dae_dependencies(rs_, rs_deps);
    if (!implicit) {
      b.dae_dependencies(der_x_, {{x_, DepKind::fixed}});
      b.dae_dependencies(der_p_, {{v_, DepKind::constant}});
      b.dae_dependencies(der_v_, {{f_, DepKind::constant}});
    }
    // Residual groups in their own order, not that of the algebraic variables.
    b.residual_group({{{rs_, 0, rs_deps}}});
    if (implicit) b.residual_group({{{rv_, 0, {{der_v_, DepKind::constant}, {f_, DepKind::constant}}}}});
    b.residual_group({{{rf_, 0, {{f_, DepKind::constant}, {p_, DepKind::fixed}}}}});
    if (implicit) {
      b.residual_group({{{rp_, 0, {{v_, DepKind::constant}, {der_p_, DepKind::constant}}}}});
      b.residual_group({{{rx_, 0, {{x_, DepKind::fixed}, {der_x_, DepKind::constant}}}}});
    }
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double k = v[k_], w2 = v[w_] * v[w_];
    if (form_ == "ode" || !c.dae_mode) {
      v[f_] = -w2 * v[p_];
      v[s_] = v[x_] + v[p_];
      v[der_x_] = -k * v[x_];
      v[der_p_] = v[v_];
      v[der_v_] = -w2 * v[p_];
      v[sum_] = v[x_] + v[p_];
      v[twice_v_] = 2.0 * v[v_];
      v[rs_] = 0.0;
      return;
    }
    v[rs_] = v[s_] - v[x_] - v[p_];
    v[rf_] = v[f_] + w2 * v[p_];
    v[sum_] = v[s_];
    v[twice_v_] = 2.0 * v[v_];
    if (form_ == "semi_explicit") {
      v[der_x_] = -k * v[x_];
      v[der_p_] = v[v_];
      v[der_v_] = v[f_];
    } else {
      v[rx_] = v[der_x_] + k * v[x_];
      v[rp_] = v[der_p_] - v[v_];
      v[rv_] = v[der_v_] - v[f_];
    }
  }

 private:
  std::string form_;
  ValueRef rs_ = 0, rf_ = 0, rv_ = 0, rx_ = 0, rp_ = 0, w_ = 0, k_ = 0;
  ValueRef x_ = 0, p_ = 0, v_ = 0, der_x_ = 0, der_p_ = 0, der_v_ = 0, sum_ = 0, twice_v_ = 0, f_ = 0, s_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(UnusualOscillator)
