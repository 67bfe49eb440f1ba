// A pendulum FMU that can be told to misbehave at a time event, for the
// failure modes of index reduction (issue 15): the run must stop with a
// message and exit code 7, never go on (or exit 0) with a wrong answer.
//
//   der(r) = u,   m der(u[1]) = -F r[1],   m der(u[2]) = -F r[2] - m g,
//   0 = r[1]^2 + r[2]^2 - l^2              (with its derivatives, index 3/2/1)
//
// The physics of models/cartesian_pendulum (the same r, u, F, l, m, g, the
// same start: horizontal at rest; its reference applies), the conventions of
// yet another exporter:
//   * variables declared F, u[2], u[1], r[2], r[1] (value references 1-5 in
//     that order), states in the order u[1], r[2], u[2], r[1];
//   * the constraint group (position, velocity, acceleration formulations)
//     is the FIRST residual group; the force balances are written
//     F r[i] + m der(u[i]) (+ m g);
//   * no directional derivatives.
//
// The fault: parameter t_collapse (default -1: never). When t_collapse > 0
// the FMU announces a time event there, and at it re-initializes the
// position to the pivot, r := (0, 0), keeping u -- the bob jumps onto the
// pivot. There every constraint gradient vanishes (dg_pos/dr = 2r = 0): no
// choice of dummy derivatives is nonsingular, and a projection back onto
// |r| = l cannot converge (its Jacobian vanishes there). A misbehaving FMU,
// on purpose.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class CollapsingPendulum final : public Model {
 public:
  explicit CollapsingPendulum(const Config& /*config*/) {}

  void declare(Builder& b) override {
    b.model_name("CollapsingPendulum",
                 "Cartesian pendulum (index 3) whose position can be re-initialized onto the pivot by a time event");
    b.default_experiment({0.0, 10.0, 1e-8, 0.01});
    b.form(Form::fully_implicit);
    b.has_time_events();

    f_ = b.algebraic("F", 0.0, "N/m", "rod force per unit length, > 0 when the rod pulls");
    u2_ = b.state("u[2]", 0.0, "m/s", "vertical velocity");
    u1_ = b.state("u[1]", 0.0, "m/s", "horizontal velocity");
    r2_ = b.state("r[2]", 0.0, "m", "vertical position (up)");
    r1_ = b.state("r[1]", 0.8, "m", "horizontal position");
    der_u1_ = b.derivative(u1_);
    der_r2_ = b.derivative(r2_);
    der_u2_ = b.derivative(u2_);
    der_r1_ = b.derivative(r1_);

    g_pos_ = b.residual_variable("g_pos", "r[1]^2 + r[2]^2 - l^2 (index 3)");
    g_vel_ = b.residual_variable("g_vel", "r[1]*u[1] + r[2]*u[2] (index 2)");
    g_acc_ = b.residual_variable("g_acc", "u[1]^2 + u[2]^2 + r[1]*der(u[1]) + r[2]*der(u[2]) (index 1)");
    bal1_ = b.residual_variable("bal[1]", "F*r[1] + m*der(u[1])");
    bal2_ = b.residual_variable("bal[2]", "F*r[2] + m*der(u[2]) + m*g");
    kin1_ = b.residual_variable("kin[1]", "der(r[1]) - u[1]");
    kin2_ = b.residual_variable("kin[2]", "der(r[2]) - u[2]");

    pos_error_ = b.output("pos_error", "m2", "r[1]^2 + r[2]^2 - l^2");

    t_collapse_ = b.parameter("t_collapse", -1.0, "s",
                              "time at which the FMU moves the bob onto the pivot (<= 0: never)");
    l_ = b.parameter("l", 0.8, "m", "rod length");
    m_ = b.parameter("m", 0.5, "kg", "mass");
    g_ = b.parameter("g", 9.81, "m/s2", "gravity (r[2] up)");

    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::dependent;
    b.residual_group({{
        {g_pos_, 3, {{r1_, kD}, {r2_, kD}}},
        {g_vel_, 2, {{r1_, kD}, {r2_, kD}, {u1_, kD}, {u2_, kD}}},
        {g_acc_, 1, {{r1_, kD}, {r2_, kD}, {u1_, kD}, {u2_, kD}, {der_u1_, kD}, {der_u2_, kD}}},
    }});
    b.residual_group({{{bal1_, 0, {{f_, kD}, {r1_, kD}, {der_u1_, kF}}}}});
    b.residual_group({{{bal2_, 0, {{f_, kD}, {r2_, kD}, {der_u2_, kF}}}}});
    b.residual_group({{{kin1_, 0, {{der_r1_, kC}, {u1_, kC}}}}});
    b.residual_group({{{kin2_, 0, {{der_r2_, kC}, {u2_, kC}}}}});
    b.dae_dependencies(pos_error_, {{r1_, kD}, {r2_, kD}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double l = v[l_], m = v[m_], g = v[g_];
    const double r1 = v[r1_], r2 = v[r2_], u1 = v[u1_], u2 = v[u2_];
    const double f = v[f_], du1 = v[der_u1_], du2 = v[der_u2_];
    v[pos_error_] = r1 * r1 + r2 * r2 - l * l;
    v[g_pos_] = r1 * r1 + r2 * r2 - l * l;
    v[g_vel_] = r1 * u1 + r2 * u2;
    v[g_acc_] = u1 * u1 + u2 * u2 + r1 * du1 + r2 * du2;
    v[bal1_] = f * r1 + m * du1;
    v[bal2_] = f * r2 + m * du2 + m * g;
    v[kin1_] = v[der_r1_] - u1;
    v[kin2_] = v[der_r2_] - u2;
  }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate d;
    double* v = c.v;
    const double at = v[t_collapse_];
    if (at <= 0.0) return d;
    if (c.time < at) {
      d.next_event_time = at;
    } else if (!collapsed_) {
      collapsed_ = true;
      v[r1_] = 0.0;
      v[r2_] = 0.0;
      d.values_of_states_changed = true;
    }
    return d;
  }

 private:
  bool collapsed_ = false;
  ValueRef f_ = 0, u1_ = 0, u2_ = 0, r1_ = 0, r2_ = 0;
  ValueRef der_u1_ = 0, der_u2_ = 0, der_r1_ = 0, der_r2_ = 0;
  ValueRef g_pos_ = 0, g_vel_ = 0, g_acc_ = 0, bal1_ = 0, bal2_ = 0, kin1_ = 0, kin2_ = 0, pos_error_ = 0;
  ValueRef t_collapse_ = 0, l_ = 0, m_ = 0, g_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(CollapsingPendulum)
