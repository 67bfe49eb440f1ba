// Planar pendulum in Cartesian coordinates (index 3; seed 000, section 4.1).
//
//   der(x)  = vx,            der(y)  = vy,
//   der(vx) = lambda*x,      der(vy) = lambda*y - g,
//   0       = x^2 + y^2 - L^2
//
// y axis up, unit-mass form: lambda = -T/(m L) with T the rod tension (so
// lambda < 0 while the rod pulls); m only scales the energy output. Start
// horizontal and at rest: x = L, y = 0, vx = vy = 0 (all fixed), lambda = 0.
// Exact solution with Jacobi elliptic functions (reference/make_reference.py).
//
// One form (config form=fully_implicit, manifest shape A, DAE mode from the start):
//   r[1] = der(x) - vx,  r[2] = der(y) - vy,
//   r[3] = der(vx) - lambda*x,  r[4] = der(vy) - lambda*y + g
// over der(x..vy) (written by the importer), x, y, vx, vy and lambda, plus one
// residual group for the position constraint, highest index first. The
// higher formulations eliminate derivatives with the model's own
// differential equations, as an equation-based exporter does:
//   c0 = x^2 + y^2 - L^2                            index 3
//   c1 = x*vx + y*vy        (d(c0/2)/dt, der(x) = vx, der(y) = vy)   index 2
//   c2 = vx^2 + vy^2 + x*der(vx) + y*der(vy)  (d(c1)/dt, same)      index 1
// Outputs: drift_pos = x^2 + y^2 - L^2, drift_vel = x*vx + y*vy,
//          energy = m/2 (vx^2 + vy^2) + m g y.
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class Pendulum final : public Model {
 public:
  explicit Pendulum(const Config& config) : form_(config.get_choice("form", {"fully_implicit"})) {}

  void declare(Builder& b) override {
    b.model_name("Pendulum", "Planar pendulum in Cartesian coordinates, index 3 (" + form_ + " form)");
    b.default_experiment({0.0, 10.0, 1e-8, 0.01});
    b.form(Form::fully_implicit);
    b.provides_partials();

    L_ = b.parameter("L", 1.0, "m", "rod length");
    g_ = b.parameter("g", 9.81, "m/s2", "gravity (y axis up)");
    m_ = b.parameter("m", 1.0, "kg", "mass (scales the energy output only)");

    x_ = b.state("x", 1.0, "m", "horizontal position");
    y_ = b.state("y", 0.0, "m", "vertical position (up)");
    vx_ = b.state("vx", 0.0, "m/s", "horizontal velocity");
    vy_ = b.state("vy", 0.0, "m/s", "vertical velocity");
    der_x_ = b.derivative(x_);
    der_y_ = b.derivative(y_);
    der_vx_ = b.derivative(vx_);
    der_vy_ = b.derivative(vy_);
    lambda_ = b.algebraic("lambda", 0.0, "1/s2", "constraint multiplier, -(rod tension)/(m L)");

    r1_ = b.residual_variable("r[1]", "der(x) - vx");
    r2_ = b.residual_variable("r[2]", "der(y) - vy");
    r3_ = b.residual_variable("r[3]", "der(vx) - lambda*x");
    r4_ = b.residual_variable("r[4]", "der(vy) - lambda*y + g");
    c0_ = b.residual_variable("c0", "x^2 + y^2 - L^2 (position constraint, index 3)");
    c1_ = b.residual_variable("c1", "x*vx + y*vy (d(c0/2)/dt, index 2)");
    c2_ = b.residual_variable("c2", "vx^2 + vy^2 + x*der(vx) + y*der(vy) (d(c1)/dt, index 1)");

    drift_pos_ = b.output("drift_pos", "m2", "x^2 + y^2 - L^2");
    drift_vel_ = b.output("drift_vel", "m2/s", "x*vx + y*vy");
    energy_ = b.output("energy", "J", "m/2 (vx^2 + vy^2) + m g y");

    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::dependent;
    b.residual_group({{{r1_, 0, {{vx_, kC}, {der_x_, kC}}}}});
    b.residual_group({{{r2_, 0, {{vy_, kC}, {der_y_, kC}}}}});
    b.residual_group({{{r3_, 0, {{x_, kD}, {der_vx_, kC}, {lambda_, kD}}}}});
    b.residual_group({{{r4_, 0, {{y_, kD}, {der_vy_, kC}, {lambda_, kD}}}}});
    b.residual_group({{
        {c0_, 3, {{x_, kD}, {y_, kD}}},
        {c1_, 2, {{x_, kD}, {y_, kD}, {vx_, kD}, {vy_, kD}}},
        {c2_, 1, {{x_, kD}, {y_, kD}, {vx_, kD}, {vy_, kD}, {der_vx_, kD}, {der_vy_, kD}}},
    }});

    b.dae_dependencies(drift_pos_, {{x_, kD}, {y_, kD}});
    b.dae_dependencies(drift_vel_, {{x_, kD}, {y_, kD}, {vx_, kD}, {vy_, kD}});
    b.dae_dependencies(energy_, {{y_, kF}, {vx_, kD}, {vy_, kD}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double L = v[L_], g = v[g_], m = v[m_];
    const double x = v[x_], y = v[y_], vx = v[vx_], vy = v[vy_];
    const double lambda = v[lambda_];
    const double dvx = v[der_vx_], dvy = v[der_vy_];

    v[r1_] = v[der_x_] - vx;
    v[r2_] = v[der_y_] - vy;
    v[r3_] = dvx - lambda * x;
    v[r4_] = dvy - lambda * y + g;

    const double drift_pos = x * x + y * y - L * L;
    const double drift_vel = x * vx + y * vy;
    v[c0_] = drift_pos;
    v[c1_] = drift_vel;
    v[c2_] = vx * vx + vy * vy + x * dvx + y * dvy;

    v[drift_pos_] = drift_pos;
    v[drift_vel_] = drift_vel;
    v[energy_] = 0.5 * m * (vx * vx + vy * vy) + m * g * y;
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const double g = v[g_], m = v[m_];
    const double x = v[x_], y = v[y_], vx = v[vx_], vy = v[vy_];
    const double lambda = v[lambda_];
    const double dvx = v[der_vx_], dvy = v[der_vy_];

    s.add(r1_, der_x_, 1.0);
    s.add(r1_, vx_, -1.0);
    s.add(r2_, der_y_, 1.0);
    s.add(r2_, vy_, -1.0);
    s.add(r3_, der_vx_, 1.0);
    s.add(r3_, lambda_, -x);
    s.add(r3_, x_, -lambda);
    s.add(r4_, der_vy_, 1.0);
    s.add(r4_, lambda_, -y);
    s.add(r4_, y_, -lambda);

    for (const ValueRef unknown : {c0_, drift_pos_}) {
      s.add(unknown, x_, 2.0 * x);
      s.add(unknown, y_, 2.0 * y);
    }
    for (const ValueRef unknown : {c1_, drift_vel_}) {
      s.add(unknown, x_, vx);
      s.add(unknown, y_, vy);
      s.add(unknown, vx_, x);
      s.add(unknown, vy_, y);
    }
    s.add(c2_, x_, dvx);
    s.add(c2_, y_, dvy);
    s.add(c2_, vx_, 2.0 * vx);
    s.add(c2_, vy_, 2.0 * vy);
    s.add(c2_, der_vx_, x);
    s.add(c2_, der_vy_, y);

    s.add(energy_, y_, m * g);
    s.add(energy_, vx_, m * vx);
    s.add(energy_, vy_, m * vy);
  }

 private:
  std::string form_;
  ValueRef L_ = 0, g_ = 0, m_ = 0;
  ValueRef x_ = 0, y_ = 0, vx_ = 0, vy_ = 0;
  ValueRef der_x_ = 0, der_y_ = 0, der_vx_ = 0, der_vy_ = 0;
  ValueRef lambda_ = 0;
  ValueRef r1_ = 0, r2_ = 0, r3_ = 0, r4_ = 0, c0_ = 0, c1_ = 0, c2_ = 0;
  ValueRef drift_pos_ = 0, drift_vel_ = 0, energy_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(Pendulum)
