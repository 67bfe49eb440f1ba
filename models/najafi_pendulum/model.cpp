// Najafi pendulum: the index-reduced planar pendulum of Najafi et al.
// (seed 000, sections 2.2 and 4.1) as an ODE FMU with the constraint
// extension of their section 3 (see README.md).
//
//   F       = (g y - (vx^2 + vy^2)) / L^2    (the paper's (5) for L = 1)
//   der(x)  = vx,   der(y) = vy
//   der(vx) = F x,  der(vy) = F y - g
//   outputs drift = x^2 + y^2 - L^2, totalEnergy = (vx^2 + vy^2)/2 + g y
//
//   constraints (the hidden constraints (7), the second one halved):
//     C[0] = x^2 + y^2 - L^2,   C[1] = x vx + y vy
//   and with energy_constraint=true the paper's third one, as a residual:
//     C[2] = totalEnergy - E0,   E0 = totalEnergy at initialization
//
//   x(0) = L, y(0) = 0, vx(0) = vy(0) = 0 (horizontal, at rest), g = 9.81, L = 1.
//
// Config keys: form=ode (the only form), fmi=2|3, energy_constraint=true|false
// (default false), directional=true|false (default true: partial derivatives
// for fmi2GetDirectionalDerivative), and the kit's provides_constraints /
// provides_projection / provides_projection_step switches. The projection
// functions come from the kit (projection.h) over C and its Jacobian.
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class NajafiPendulum final : public Model {
 public:
  explicit NajafiPendulum(const Config& config)
      : form_(config.get_choice("form", {"ode"})),
        energy_(config.get_string("energy_constraint", "false") == "true"),
        directional_(config.get_string("directional", "true") == "true") {
    if (config.get_string("energy_constraint", "false") != "true" &&
        config.get_string("energy_constraint", "false") != "false")
      config.get_choice("energy_constraint", {"true", "false"});  // throws naming the key
    if (config.get_string("directional", "true") != "true" && config.get_string("directional", "true") != "false")
      config.get_choice("directional", {"true", "false"});
  }

  void declare(Builder& b) override {
    b.model_name("NajafiPendulum", std::string("Index-reduced planar pendulum with ") +
                                       (energy_ ? "three constraints (length, velocity, energy)"
                                                : "its two hidden constraints") +
                                       " (Najafi et al.)");
    b.default_experiment({0.0, energy_ ? 300.0 : 10.0, 1e-6, energy_ ? 0.2 : 0.01});
    b.form(Form::ode);
    if (directional_) b.provides_partials();
    g_ = b.parameter("g", 9.81, "m/s2", "gravity acceleration");
    L_ = b.parameter("L", 1.0, "m", "rod length");
    x_ = b.state("x", 1.0, "m", "horizontal position");
    y_ = b.state("y", 0.0, "m", "vertical position (up)");
    vx_ = b.state("vx", 0.0, "m/s", "horizontal velocity");
    vy_ = b.state("vy", 0.0, "m/s", "vertical velocity");
    der_x_ = b.derivative(x_);
    der_y_ = b.derivative(y_);
    der_vx_ = b.derivative(vx_);
    der_vy_ = b.derivative(vy_);
    F_ = b.local("F", "1/s2", "rod force per unit mass and length, (g y - (vx^2 + vy^2))/L^2");
    drift_ = b.output("drift", "m2", "x^2 + y^2 - L^2");
    energy_out_ = b.output("totalEnergy", "J/kg", "(vx^2 + vy^2)/2 + g y per unit mass");
    if (energy_) {
      Variable e0;
      e0.name = "E0";
      e0.description = "totalEnergy at initialization (the energy constraint's target)";
      e0.causality = Causality::calculated_parameter;
      e0.variability = Variability::fixed;
      e0.initial = Initial::calculated;
      e0.unit = "J/kg";
      E0_ = b.add(std::move(e0));
    }
    b.ode_dependencies(der_x_, {{vx_, DepKind::constant}});
    b.ode_dependencies(der_y_, {{vy_, DepKind::constant}});
    b.ode_dependencies(der_vx_, {{x_, DepKind::dependent}, {y_, DepKind::dependent}, {vx_, DepKind::dependent},
                                 {vy_, DepKind::dependent}});
    b.ode_dependencies(der_vy_, {{y_, DepKind::dependent}, {vx_, DepKind::dependent}, {vy_, DepKind::dependent}});
    b.ode_dependencies(drift_, {{x_, DepKind::dependent}, {y_, DepKind::dependent}});
    b.ode_dependencies(energy_out_, {{y_, DepKind::fixed}, {vx_, DepKind::dependent}, {vy_, DepKind::dependent}});
    b.constraints(energy_ ? 3 : 2, true);
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double x = v[x_], y = v[y_], vx = v[vx_], vy = v[vy_], g = v[g_], L = v[L_];
    v[F_] = (g * y - (vx * vx + vy * vy)) / (L * L);
    v[der_x_] = vx;
    v[der_y_] = vy;
    v[der_vx_] = v[F_] * x;
    v[der_vy_] = v[F_] * y - g;
    v[drift_] = x * x + y * y - L * L;
    v[energy_out_] = (vx * vx + vy * vy) / 2 + g * y;
    if (energy_ && c.initialization) v[E0_] = v[energy_out_];
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const double x = v[x_], y = v[y_], vx = v[vx_], vy = v[vy_], g = v[g_], L2 = v[L_] * v[L_];
    const double F = (g * y - (vx * vx + vy * vy)) / L2;
    s.add(der_x_, vx_, 1.0);
    s.add(der_y_, vy_, 1.0);
    s.add(der_vx_, x_, F);
    s.add(der_vx_, y_, x * g / L2);
    s.add(der_vx_, vx_, -2 * vx * x / L2);
    s.add(der_vx_, vy_, -2 * vy * x / L2);
    s.add(der_vy_, y_, F + y * g / L2);
    s.add(der_vy_, vx_, -2 * vx * y / L2);
    s.add(der_vy_, vy_, -2 * vy * y / L2);
    s.add(drift_, x_, 2 * x);
    s.add(drift_, y_, 2 * y);
    s.add(energy_out_, y_, g);
    s.add(energy_out_, vx_, vx);
    s.add(energy_out_, vy_, vy);
  }

  void constraint_residuals(const Context& c, double C[]) override {
    const double* v = c.v;
    const double x = v[x_], y = v[y_], vx = v[vx_], vy = v[vy_];
    C[0] = x * x + y * y - v[L_] * v[L_];
    C[1] = x * vx + y * vy;
    if (energy_) C[2] = (vx * vx + vy * vy) / 2 + v[g_] * y - v[E0_];
  }

  void constraint_jacobian(const Context& c, ConstraintJacobianSink& s) override {
    const double* v = c.v;
    s.add(0, x_, 2 * v[x_]);
    s.add(0, y_, 2 * v[y_]);
    s.add(1, x_, v[vx_]);
    s.add(1, y_, v[vy_]);
    s.add(1, vx_, v[x_]);
    s.add(1, vy_, v[y_]);
    if (energy_) {
      s.add(2, y_, v[g_]);
      s.add(2, vx_, v[vx_]);
      s.add(2, vy_, v[vy_]);
    }
  }

 private:
  std::string form_;
  bool energy_ = false;
  bool directional_ = true;
  ValueRef g_ = 0, L_ = 0, x_ = 0, y_ = 0, vx_ = 0, vy_ = 0, der_x_ = 0, der_y_ = 0, der_vx_ = 0, der_vy_ = 0, F_ = 0,
           drift_ = 0, energy_out_ = 0, E0_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(NajafiPendulum)
