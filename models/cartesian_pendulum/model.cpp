// Cartesian pendulum written the way another exporter writes it (issue 15):
// the same physics as models/pendulum, none of its conveniences.
//
//   m der(u[1]) = -F r[1],   m der(u[2]) = -F r[2] - m g,   der(r) = u,
//   0 = r[1]^2 + r[2]^2 - l^2
//
// positions r, velocities u, F the rod force per unit length (F > 0 while the
// rod pulls: F = T/l). Start horizontal and at rest: r = (l, 0), u = 0.
// What differs from models/pendulum, on purpose:
//   * the states are r[2], u[1], r[1], u[2] in ContinuousStateDerivative
//     order (the derivatives are declared in that order), while ModelVariables
//     and the value references list r[1], r[2], u[1], u[2];
//   * the constraint group sits in the middle of five residual groups;
//   * residuals carry the mass: m der(u[i]) with dependenciesKind `fixed`
//     (a parameter coefficient);
//   * no directional derivatives unless partials=yes.
//
// Config:
//   manifest     A (draft 0.1, DAE mode from the start) or B (1.0.0-alpha.1,
//                EnableDAEParameter; ODE mode computes der() from the states)
//   formulations all: the constraint group holds the position, velocity and
//                acceleration formulations (index 3, 2, 1); shape B writes
//                the acceleration one as the <Residual>, the others as
//                <Invariant>s.
//                position: only g_pos, the original constraint -- what a
//                1.0.0-alpha.1 exporter writes for a higher-index model
//                (the release dropped <Formulation> grouping); the importer
//                has to produce the derivatives itself.
//   partials     no (default) or yes: providesDirectionalDerivatives.
//   kinematics   states (default): der(r[i]) - u[i] = 0;
//                algebraic: der(r[i]) - v[i] = 0 and v[i] - u[i] = 0 with
//                algebraic velocities v (an exporter that keeps an alias):
//                no residual gives der(r) from the states alone, so lsdae
//                cannot synthesize d2/dt2(g_pos) and must refuse;
//                coupled: with e_i = der(r[i]) - u[i],
//                res[1] = (1 + r[1]^2) e1 + e2, res[3] = e1 - (2 + cos r[2]) e2
//                (a kinematic block lsdae must solve as a whole, its
//                matrix depending on the configuration).
#include <cmath>
#include <stdexcept>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class CartesianPendulum final : public Model {
 public:
  explicit CartesianPendulum(const Config& config)
      : all_formulations_(config.get_choice("formulations", {"all", "position"}) == "all"),
        partials_(config.get_choice("partials", {"no", "yes"}) == "yes"),
        algebraic_velocities_(kinematics(config) == "algebraic"),
        coupled_(kinematics(config) == "coupled") {}

  static std::string kinematics(const Config& config) {
    const std::string k = config.get_string("kinematics", "states");
    if (k != "states" && k != "algebraic" && k != "coupled")
      throw std::invalid_argument("model configuration: kinematics = \"" + k +
                                  "\"; set it to states, algebraic or coupled");
    return k;
  }

  void declare(Builder& b) override {
    b.model_name("CartesianPendulum", "Cartesian pendulum, index 3, fully implicit, states in a permuted order");
    b.default_experiment({0.0, 10.0, 1e-8, 0.01});
    b.form(Form::fully_implicit);
    if (partials_) b.provides_partials();

    r1_ = b.state("r[1]", 0.8, "m", "horizontal position");
    r2_ = b.state("r[2]", 0.0, "m", "vertical position (up)");
    u1_ = b.state("u[1]", 0.0, "m/s", "horizontal velocity");
    u2_ = b.state("u[2]", 0.0, "m/s", "vertical velocity");
    // ContinuousStateDerivative order: r[2], u[1], r[1], u[2].
    der_r2_ = b.derivative(r2_);
    der_u1_ = b.derivative(u1_);
    der_r1_ = b.derivative(r1_);
    der_u2_ = b.derivative(u2_);
    f_ = b.algebraic("F", 0.0, "N/m", "rod force per unit length, > 0 when the rod pulls");
    if (algebraic_velocities_) {
      v1_ = b.algebraic("v[1]", 0.0, "m/s", "alias of u[1]");
      v2_ = b.algebraic("v[2]", 0.0, "m/s", "alias of u[2]");
    }

    res1_ = b.residual_variable("res[1]", algebraic_velocities_ ? "der(r[1]) - v[1]"
                                          : coupled_             ? "(1 + r[1]^2) e1 + e2, e_i = der(r[i]) - u[i]"
                                                                 : "der(r[1]) - u[1]");
    res2_ = b.residual_variable("res[2]", "m*der(u[1]) + F*r[1]");
    g_pos_ = b.residual_variable("g_pos", "r[1]^2 + r[2]^2 - l^2 (index 3)");
    if (all_formulations_) {
      g_vel_ = b.residual_variable("g_vel", "r[1]*u[1] + r[2]*u[2] (index 2)");
      g_acc_ = b.residual_variable("g_acc", "u[1]^2 + u[2]^2 + r[1]*der(u[1]) + r[2]*der(u[2]) (index 1)");
    }
    res3_ = b.residual_variable("res[3]", algebraic_velocities_ ? "der(r[2]) - v[2]"
                                          : coupled_             ? "e1 - (2 + cos r[2]) e2, e_i = der(r[i]) - u[i]"
                                                                 : "der(r[2]) - u[2]");
    if (algebraic_velocities_) {
      alias1_ = b.residual_variable("alias[1]", "v[1] - u[1]");
      alias2_ = b.residual_variable("alias[2]", "v[2] - u[2]");
    }
    res4_ = b.residual_variable("res[4]", "m*der(u[2]) + F*r[2] + m*g");

    pos_error_ = b.output("pos_error", "m2", "r[1]^2 + r[2]^2 - l^2");
    vel_error_ = b.output("vel_error", "m2/s", "r[1]*u[1] + r[2]*u[2]");
    energy_ = b.output("E", "J", "m/2 |u|^2 + m g r[2]");

    l_ = b.parameter("l", 0.8, "m", "rod length");
    m_ = b.parameter("m", 0.5, "kg", "mass");
    g_ = b.parameter("g", 9.81, "m/s2", "gravity (r[2] up)");

    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::dependent;
    const ValueRef w1 = algebraic_velocities_ ? v1_ : u1_, w2 = algebraic_velocities_ ? v2_ : u2_;
    if (coupled_)
      b.residual_group({{{res1_, 0, {{u2_, kC}, {der_r2_, kC}, {der_r1_, kD}, {r1_, kD}, {u1_, kD}}}}});
    else
      b.residual_group({{{res1_, 0, {{der_r1_, kC}, {w1, kC}}}}});
    b.residual_group({{{res2_, 0, {{der_u1_, kF}, {f_, kD}, {r1_, kD}}}}});
    if (all_formulations_) {
      b.residual_group({{
          {g_pos_, 3, {{r1_, kD}, {r2_, kD}}},
          {g_vel_, 2, {{r1_, kD}, {r2_, kD}, {u1_, kD}, {u2_, kD}}},
          {g_acc_, 1, {{r1_, kD}, {r2_, kD}, {u1_, kD}, {u2_, kD}, {der_u1_, kD}, {der_u2_, kD}}},
      }});
    } else {
      b.residual_group({{{g_pos_, 0, {{r1_, kD}, {r2_, kD}}}}});
    }
    if (coupled_)
      b.residual_group({{{res3_, 0, {{der_r1_, kC}, {u1_, kC}, {r2_, kD}, {der_r2_, kD}, {u2_, kD}}}}});
    else
      b.residual_group({{{res3_, 0, {{der_r2_, kC}, {w2, kC}}}}});
    if (algebraic_velocities_) {
      b.residual_group({{{alias1_, 0, {{v1_, kC}, {u1_, kC}}}}});
      b.residual_group({{{alias2_, 0, {{v2_, kC}, {u2_, kC}}}}});
    }
    b.residual_group({{{res4_, 0, {{der_u2_, kF}, {f_, kD}, {r2_, kD}}}}});

    b.dae_dependencies(pos_error_, {{r1_, kD}, {r2_, kD}});
    b.dae_dependencies(vel_error_, {{r1_, kD}, {r2_, kD}, {u1_, kD}, {u2_, kD}});
    b.dae_dependencies(energy_, {{r2_, kF}, {u1_, kD}, {u2_, kD}});
    // ODE mode (shape B with the switch off): der() from the states.
    b.ode_dependencies(der_r1_, {{u1_, kC}});
    b.ode_dependencies(der_r2_, {{u2_, kC}});
    b.ode_dependencies(der_u1_, {{r1_, kD}, {r2_, kD}, {u1_, kD}, {u2_, kD}});
    b.ode_dependencies(der_u2_, {{r2_, kD}, {u1_, kD}, {u2_, kD}});
    b.ode_dependencies(pos_error_, {{r1_, kD}, {r2_, kD}});
    b.ode_dependencies(vel_error_, {{r1_, kD}, {r2_, kD}, {u1_, kD}, {u2_, kD}});
    b.ode_dependencies(energy_, {{r2_, kF}, {u1_, kD}, {u2_, kD}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double l = v[l_], m = v[m_], g = v[g_];
    const double r1 = v[r1_], r2 = v[r2_], u1 = v[u1_], u2 = v[u2_];
    v[pos_error_] = r1 * r1 + r2 * r2 - l * l;
    v[vel_error_] = r1 * u1 + r2 * u2;
    v[energy_] = 0.5 * m * (u1 * u1 + u2 * u2) + m * g * r2;
    if (!c.dae_mode) {
      // ODE mode: F from the index-1 constraint with |r| = l.
      const double f = m * (u1 * u1 + u2 * u2 - g * r2) / (l * l);
      v[f_] = f;
      v[der_r1_] = u1;
      v[der_r2_] = u2;
      v[der_u1_] = -f * r1 / m;
      v[der_u2_] = -f * r2 / m - g;
      if (algebraic_velocities_) v[v1_] = u1, v[v2_] = u2;
      for (const ValueRef r : {res1_, res2_, g_pos_, g_vel_, g_acc_, res3_, res4_, alias1_, alias2_})
        if (r != kNoValueRef) v[r] = 0.0;
      return;
    }
    const double f = v[f_], du1 = v[der_u1_], du2 = v[der_u2_];
    const double w1 = algebraic_velocities_ ? v[v1_] : u1, w2 = algebraic_velocities_ ? v[v2_] : u2;
    if (algebraic_velocities_) {
      v[alias1_] = v[v1_] - u1;
      v[alias2_] = v[v2_] - u2;
    }
    const double e1 = v[der_r1_] - w1, e2 = v[der_r2_] - w2;
    v[res1_] = coupled_ ? (1 + r1 * r1) * e1 + e2 : e1;
    v[res2_] = m * du1 + f * r1;
    v[g_pos_] = r1 * r1 + r2 * r2 - l * l;
    if (all_formulations_) {
      v[g_vel_] = r1 * u1 + r2 * u2;
      v[g_acc_] = u1 * u1 + u2 * u2 + r1 * du1 + r2 * du2;
    }
    v[res3_] = coupled_ ? e1 - (2 + std::cos(r2)) * e2 : e2;
    v[res4_] = m * du2 + f * r2 + m * g;
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const double l = v[l_], m = v[m_], g = v[g_];
    const double r1 = v[r1_], r2 = v[r2_], u1 = v[u1_], u2 = v[u2_];
    s.add(pos_error_, r1_, 2 * r1);
    s.add(pos_error_, r2_, 2 * r2);
    s.add(vel_error_, r1_, u1);
    s.add(vel_error_, r2_, u2);
    s.add(vel_error_, u1_, r1);
    s.add(vel_error_, u2_, r2);
    s.add(energy_, r2_, m * g);
    s.add(energy_, u1_, m * u1);
    s.add(energy_, u2_, m * u2);
    if (!c.dae_mode) {
      const double f = m * (u1 * u1 + u2 * u2 - g * r2) / (l * l);
      const double df_du1 = 2 * m * u1 / (l * l), df_du2 = 2 * m * u2 / (l * l), df_dr2 = -m * g / (l * l);
      s.add(der_r1_, u1_, 1.0);
      s.add(der_r2_, u2_, 1.0);
      s.add(der_u1_, r1_, -f / m);
      s.add(der_u1_, r2_, -df_dr2 * r1 / m);
      s.add(der_u1_, u1_, -df_du1 * r1 / m);
      s.add(der_u1_, u2_, -df_du2 * r1 / m);
      s.add(der_u2_, r2_, -(df_dr2 * r2 + f) / m);
      s.add(der_u2_, u1_, -df_du1 * r2 / m);
      s.add(der_u2_, u2_, -df_du2 * r2 / m);
      return;
    }
    const double f = v[f_], du1 = v[der_u1_], du2 = v[der_u2_];
    if (coupled_) {
      const double e1 = v[der_r1_] - u1, e2 = v[der_r2_] - u2, a = 1 + r1 * r1, b = 2 + std::cos(r2);
      s.add(res1_, der_r1_, a);
      s.add(res1_, u1_, -a);
      s.add(res1_, r1_, 2 * r1 * e1);
      s.add(res1_, der_r2_, 1.0);
      s.add(res1_, u2_, -1.0);
      s.add(res3_, der_r1_, 1.0);
      s.add(res3_, u1_, -1.0);
      s.add(res3_, der_r2_, -b);
      s.add(res3_, u2_, b);
      s.add(res3_, r2_, std::sin(r2) * e2);
    } else {
      s.add(res1_, der_r1_, 1.0);
      s.add(res1_, algebraic_velocities_ ? v1_ : u1_, -1.0);
    }
    s.add(res2_, der_u1_, m);
    s.add(res2_, f_, r1);
    s.add(res2_, r1_, f);
    s.add(g_pos_, r1_, 2 * r1);
    s.add(g_pos_, r2_, 2 * r2);
    if (all_formulations_) {
      s.add(g_vel_, r1_, u1);
      s.add(g_vel_, r2_, u2);
      s.add(g_vel_, u1_, r1);
      s.add(g_vel_, u2_, r2);
      s.add(g_acc_, r1_, du1);
      s.add(g_acc_, r2_, du2);
      s.add(g_acc_, u1_, 2 * u1);
      s.add(g_acc_, u2_, 2 * u2);
      s.add(g_acc_, der_u1_, r1);
      s.add(g_acc_, der_u2_, r2);
    }
    if (!coupled_) {
      s.add(res3_, der_r2_, 1.0);
      s.add(res3_, algebraic_velocities_ ? v2_ : u2_, -1.0);
    }
    if (algebraic_velocities_) {
      s.add(alias1_, v1_, 1.0);
      s.add(alias1_, u1_, -1.0);
      s.add(alias2_, v2_, 1.0);
      s.add(alias2_, u2_, -1.0);
    }
    s.add(res4_, der_u2_, m);
    s.add(res4_, f_, r2);
    s.add(res4_, r2_, f);
  }

 private:
  bool all_formulations_;
  bool partials_;
  bool algebraic_velocities_;
  bool coupled_;
  ValueRef v1_ = kNoValueRef, v2_ = kNoValueRef, alias1_ = kNoValueRef, alias2_ = kNoValueRef;
  ValueRef r1_ = 0, r2_ = 0, u1_ = 0, u2_ = 0;
  ValueRef der_r1_ = 0, der_r2_ = 0, der_u1_ = 0, der_u2_ = 0, f_ = 0;
  ValueRef res1_ = 0, res2_ = 0, res3_ = 0, res4_ = 0;
  ValueRef g_pos_ = 0, g_vel_ = kNoValueRef, g_acc_ = kNoValueRef;
  ValueRef pos_error_ = 0, vel_error_ = 0, energy_ = 0;
  ValueRef l_ = 0, m_ = 0, g_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(CartesianPendulum)
