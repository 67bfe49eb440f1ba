// ControlledMotor: a PI speed controller (plain ODE FMU) driving a DC motor
// (LS-DAE FMU) whose speed is fed back (system case 4, README.md
// "controlled_motor"), and the one FMU that holds both (the reference).
//
// Controller (part=controller), input y_m (measured speed), Boolean input
// enable, output u (voltage):
//   r       = 0 before t_step, w_ref from t_step on      (a TIME event)
//   e       = r - y_m
//   unsat   = kp e + ki xi
//   u       = sat ? u_max : unsat        (enable false: u = 0)
//   der(xi) = sat ? 0 : e                (conditional integration: no windup)
//   the limiter's STATE event: indicator sat ? unsat - u_max : u_max - unsat;
//   at an event where it is <= 0 the limiter switches (sat = !sat).
//   u depends on y_m at the same instant: direct feedthrough.
// Motor (part=motor), input u, output speed = w, fully implicit:
//   res.i   = L der(i) + R i + k w - u
//   res.w   = J der(w) - k i + tau
//   res.phi = der(phi) - w
//   res.tau = tau - d w - engaged T_L     (tau: load torque, algebraic)
//   a STATE event engages the load T_L when the shaft angle phi reaches
//   phi_engage (indicator phi_engage - phi, then 1).
// Connected: controller.u -> motor.u, motor.speed -> controller.y_m.
// Both (part=both): the same equations in one LS-DAE FMU (fully implicit,
// u and tau algebraic, res.u = u - (sat ? u_max : unsat), res.xi =
// der(xi) - (sat ? 0 : e)), the same events.
//
// Values: kp = 1 V s/rad, ki = 2 V/rad, u_max = 6 V, w_ref = 10 rad/s,
// t_step = 0.2 s; R = 1 Ohm, L = 0.05 H, k = 0.5 V s/rad, J = 0.01 kg m^2,
// d = 0.001 N m s/rad, T_L = 0.2 N m, phi_engage = 5 rad. The step saturates
// the controller at once, it leaves saturation as the speed nears w_ref, the
// load engages later and the integrator removes the speed drop.
//
// Layout: the controller declares its inputs last and no directional
// derivatives, value references scattered; the motor declares residuals
// first and provides directional derivatives; manifest shape A, DAE mode
// from the start.
#include <stdexcept>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class ControlledMotor final : public Model {
 public:
  explicit ControlledMotor(const Config& config)
      : part_(config.get_choice("part", {"controller", "motor", "both"})),
        controller_(part_ != "motor"),
        motor_(part_ != "controller"),
        input_start_(config.get_string("input_start", "zero") == "zero") {
    const std::string start = config.get_string("input_start", "zero");
    if (start != "zero" && start != "none")
      throw std::invalid_argument("model configuration: key \"input_start\" is \"" + start +
                                  "\"; allowed values: zero, none");
  }

  void declare(Builder& b) override {
    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::dependent;
    b.default_experiment({0.0, 3.0, 1e-8, 0.01});
    if (part_ == "controller") {
      b.model_name("PIController", "PI speed controller with a setpoint step (time event) and a limiter (state event)");
      b.form(Form::ode);
    } else if (part_ == "motor") {
      b.model_name("DCMotor", "DC motor whose load engages at a shaft angle (state event), LS-DAE fully implicit");
      b.form(Form::fully_implicit);
      b.provides_partials();
    } else {
      b.model_name("ControlledMotor", "PI-controlled DC motor in one FMU (the reference of system case 4)");
      b.form(Form::fully_implicit);
    }
    if (controller_) b.has_time_events();

    if (motor_) {
      res_i_ = b.residual_variable("res.i", "L der(i) + R i + k w - u");
      res_w_ = b.residual_variable("res.w", "J der(w) - k i + tau");
      res_phi_ = b.residual_variable("res.phi", "der(phi) - w");
      res_tau_ = b.residual_variable("res.tau", "tau - d w - engaged T_L");
      i_ = b.state("i", 0.0, "A", "armature current");
      w_ = b.state("w", 0.0, "rad/s", "speed");
      phi_ = b.state("phi", 0.0, "rad", "shaft angle");
      der_i_ = b.derivative(i_);
      der_w_ = b.derivative(w_);
      der_phi_ = b.derivative(phi_);
      tau_ = b.algebraic("tau", 0.0, "N.m", "load torque on the shaft");
      R_ = b.parameter("R", 1.0, "Ohm", "armature resistance");
      L_ = b.parameter("L", 0.05, "H", "armature inductance");
      k_ = b.parameter("k", 0.5, "V.s/rad", "motor constant");
      J_ = b.parameter("J", 0.01, "kg.m2", "inertia");
      d_ = b.parameter("d", 0.001, "N.m.s/rad", "viscous friction");
      TL_ = b.parameter("T_L", 0.2, "N.m", "load torque once engaged");
      phi_engage_ = b.parameter("phi_engage", 5.0, "rad", "shaft angle at which the load engages");
      engaged_ = discrete(b, "engaged", "1 once the load is engaged");
      ind_motor_ = b.local("indicator.engage", "rad", "phi_engage - phi until engaged, then 1");
      b.event_indicator(ind_motor_);
      if (part_ == "motor") {
        speed_ = b.output("speed", "rad/s", "measured speed, w");
        b.dae_dependencies(speed_, {{w_, kC}});
      }
    }
    if (controller_) {
      xi_ = b.state("xi", 0.0, "rad", "integral of the speed error");
      der_xi_ = b.derivative(xi_);
      if (part_ == "controller") {
        u_ = b.output("u", "V", "voltage command");
      } else {
        u_ = b.algebraic("u", 0.0, "V", "voltage command");
        res_u_ = b.residual_variable("res.u", "u - (sat ? u_max : kp e + ki xi)");
        res_xi_ = b.residual_variable("res.xi", "der(xi) - (sat ? 0 : e)");
      }
      r_ = discrete(b, "r", "setpoint: 0 before t_step, w_ref from t_step on");
      sat_ = discrete(b, "sat", "1 while the limiter holds u at u_max");
      ind_ctrl_ = b.local("indicator.limit", "V", "u_max - unsat (sat: unsat - u_max)");
      b.event_indicator(ind_ctrl_);
      kp_ = b.parameter("kp", 1.0, "V.s/rad", "proportional gain");
      ki_ = b.parameter("ki", 2.0, "V/rad", "integral gain");
      u_max_ = b.parameter("u_max", 6.0, "V", "upper limit of u");
      w_ref_ = b.parameter("w_ref", 10.0, "rad/s", "setpoint after the step");
      t_step_ = b.parameter("t_step", 0.2, "s", "time of the setpoint step");
      if (part_ == "controller") {
        // Config input_start=none: y_m without a start value (a bad-input case of the systems).
        y_m_ = continuous_input(b, "y_m", "rad/s", "measured speed", input_start_);
        Variable en;
        en.type = VarType::boolean;
        en.name = "enable";
        en.description = "false: u = 0";
        en.causality = Causality::input;
        en.variability = Variability::discrete;
        en.start = 1.0;
        enable_ = b.add(std::move(en));
      }
    }
    if (part_ == "motor") {
      u_ = continuous_input(b, "u", "V", "armature voltage");
      // Residuals first in ModelVariables (declared above); the groups in another order.
      b.residual_group({{{res_tau_, 0, {{tau_, kC}, {w_, kF}}}}});
      b.residual_group({{{res_phi_, 0, {{der_phi_, kC}, {w_, kC}}}}});
      b.residual_group({{{res_w_, 0, {{der_w_, kF}, {i_, kF}, {tau_, kC}}}}});
      b.residual_group({{{res_i_, 0, {{der_i_, kF}, {i_, kF}, {w_, kF}, {u_, kC}}}}});
      b.dae_dependencies(ind_motor_, {{phi_, kC}});
      return;
    }
    const ValueRef measured = part_ == "controller" ? y_m_ : w_;
    if (part_ == "controller") {
      b.ode_dependencies(der_xi_, {{measured, kD}});
      b.ode_dependencies(u_, {{measured, kD}, {xi_, kD}});
      b.ode_dependencies(ind_ctrl_, {{measured, kD}, {xi_, kD}});
      return;
    }
    // both
    b.residual_group({{{res_i_, 0, {{der_i_, kF}, {i_, kF}, {w_, kF}, {u_, kC}}}}});
    b.residual_group({{{res_w_, 0, {{der_w_, kF}, {i_, kF}, {tau_, kC}}}}});
    b.residual_group({{{res_phi_, 0, {{der_phi_, kC}, {w_, kC}}}}});
    b.residual_group({{{res_tau_, 0, {{tau_, kC}, {w_, kF}}}}});
    b.residual_group({{{res_u_, 0, {{u_, kC}, {w_, kD}, {xi_, kD}}}}});
    b.residual_group({{{res_xi_, 0, {{der_xi_, kC}, {w_, kD}}}}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (controller_) {
      if (c.initialization) {
        v[r_] = c.time >= v[t_step_] ? v[w_ref_] : 0.0;
        v[sat_] = unsat(v) > v[u_max_] ? 1.0 : 0.0;
      }
      const bool sat = v[sat_] != 0.0;
      const double un = unsat(v);
      const double e = v[r_] - measured(v);
      const bool enabled = part_ != "controller" || c.b[enable_] != 0;
      const double u = !enabled ? 0.0 : sat ? v[u_max_] : un;
      const double dxi = sat ? 0.0 : e;
      v[ind_ctrl_] = sat ? un - v[u_max_] : v[u_max_] - un;
      if (part_ == "controller") {
        v[u_] = u;
        v[der_xi_] = dxi;
      } else {
        v[res_u_] = v[u_] - u;
        v[res_xi_] = v[der_xi_] - dxi;
      }
    }
    if (motor_) {
      if (c.initialization) v[engaged_] = v[phi_] >= v[phi_engage_] ? 1.0 : 0.0;
      v[res_i_] = v[L_] * v[der_i_] + v[R_] * v[i_] + v[k_] * v[w_] - v[u_];
      v[res_w_] = v[J_] * v[der_w_] - v[k_] * v[i_] + v[tau_];
      v[res_phi_] = v[der_phi_] - v[w_];
      v[res_tau_] = v[tau_] - v[d_] * v[w_] - v[engaged_] * v[TL_];
      v[ind_motor_] = v[engaged_] != 0.0 ? 1.0 : v[phi_engage_] - v[phi_];
      if (part_ == "motor") v[speed_] = v[w_];
    }
  }

  void partials(const Context& c, PartialSink& s) override {
    if (part_ != "motor") return;
    const double* v = c.v;
    s.add(res_i_, der_i_, v[L_]);
    s.add(res_i_, i_, v[R_]);
    s.add(res_i_, w_, v[k_]);
    s.add(res_i_, u_, -1.0);
    s.add(res_w_, der_w_, v[J_]);
    s.add(res_w_, i_, -v[k_]);
    s.add(res_w_, tau_, 1.0);
    s.add(res_phi_, der_phi_, 1.0);
    s.add(res_phi_, w_, -1.0);
    s.add(res_tau_, tau_, 1.0);
    s.add(res_tau_, w_, -v[d_]);
    s.add(speed_, w_, 1.0);
    s.add(ind_motor_, phi_, v[engaged_] != 0.0 ? 0.0 : -1.0);
  }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate d;
    double* v = c.v;
    if (controller_) {
      if (c.time >= v[t_step_]) v[r_] = v[w_ref_];
      else d.next_event_time = v[t_step_];
      // The limiter switches when its indicator has reached zero.
      const double un = unsat(v);
      const bool sat = v[sat_] != 0.0;
      const double indicator = sat ? un - v[u_max_] : v[u_max_] - un;
      if (indicator <= 0.0) v[sat_] = sat ? 0.0 : 1.0;
    }
    if (motor_ && v[engaged_] == 0.0 && v[phi_] >= v[phi_engage_]) v[engaged_] = 1.0;
    return d;
  }

 private:
  static ValueRef continuous_input(Builder& b, const std::string& name, const std::string& unit,
                                   const std::string& text, bool with_start = true) {
    Variable u;
    u.name = name;
    u.description = text;
    u.causality = Causality::input;
    u.variability = Variability::continuous;
    if (with_start) u.start = 0.0;
    u.unit = unit;
    return b.add(std::move(u));
  }
  static ValueRef discrete(Builder& b, const std::string& name, const std::string& text) {
    Variable d;
    d.name = name;
    d.description = text;
    d.causality = Causality::local;
    d.variability = Variability::discrete;
    d.initial = Initial::calculated;
    return b.add(std::move(d));
  }

  double measured(const double* v) const { return part_ == "controller" ? v[y_m_] : v[w_]; }
  double unsat(const double* v) const { return v[kp_] * (v[r_] - measured(v)) + v[ki_] * v[xi_]; }

  std::string part_;
  bool controller_, motor_, input_start_;
  ValueRef res_i_ = 0, res_w_ = 0, res_phi_ = 0, res_tau_ = 0, i_ = 0, w_ = 0, phi_ = 0;
  ValueRef der_i_ = 0, der_w_ = 0, der_phi_ = 0, tau_ = 0, R_ = 0, L_ = 0, k_ = 0, J_ = 0, d_ = 0, TL_ = 0;
  ValueRef phi_engage_ = 0, engaged_ = 0, ind_motor_ = 0, speed_ = 0;
  ValueRef xi_ = 0, der_xi_ = 0, u_ = 0, res_u_ = 0, res_xi_ = 0, r_ = 0, sat_ = 0, ind_ctrl_ = 0;
  ValueRef kp_ = 0, ki_ = 0, u_max_ = 0, w_ref_ = 0, t_step_ = 0, y_m_ = 0, enable_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(ControlledMotor)
