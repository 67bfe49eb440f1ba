// Hello World DAE (FMI-LS-DAE draft, section 2, "Hello World DAE Example").
//
//   x' = y,   y + 2 z = x,   y - 3 z = 2 x,        x(0) = x0 = 1
//   exact solution: x = x0 e^(7t/5), y = 7x/5, z = -x/5
//
// Variants (config key `form`):
//   fully_implicit  residuals r[1] = der(x) - y, r[2] = y + 2z - x,
//                   r[3] = y - 3z - 2x over x' (written by the importer), x, y, z.
//   semi_explicit   der(x) = y from fmi3GetContinuousStateDerivatives, residuals
//                   g[1] = y + 2z - x, g[2] = y - 3z - 2x over x, y, z.
//   ode             no manifest: der(x) = 7x/5, y and z are outputs.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class HelloWorld final : public Model {
 public:
  explicit HelloWorld(const Config& config)
      : form_(config.get_choice("form", {"fully_implicit", "semi_explicit", "ode"})) {}

  void declare(Builder& b) override {
    b.model_name("HelloWorld", "Hello World DAE of the FMI-LS-DAE draft (" + form_ + " form)");
    b.default_experiment({0.0, 1.0, 1e-8, 0.01});
    b.form(form_ == "fully_implicit" ? Form::fully_implicit
           : form_ == "semi_explicit" ? Form::semi_explicit
                                      : Form::ode);
    b.provides_partials();
    x_ = b.state("x", 1.0, "", "differential variable");
    der_x_ = b.derivative(x_);
    // ODE mode (the ode form, or a DAE form whose enable switch is off):
    // der(x) = 7x/5 and y, z follow from x.
    b.ode_dependencies(der_x_, {{x_, DepKind::constant}});
    if (form_ == "ode") {
      y_ = b.output("y", "", "y = 7x/5");
      z_ = b.output("z", "", "z = -x/5");
      b.ode_dependencies(y_, {{x_, DepKind::constant}});
      b.ode_dependencies(z_, {{x_, DepKind::constant}});
      return;
    }
    y_ = b.algebraic("y", 0.0, "", "algebraic variable");
    z_ = b.algebraic("z", 0.0, "", "algebraic variable");
    if (form_ == "fully_implicit") {
      r1_ = b.residual_variable("r[1]", "der(x) - y");
      b.residual_group({{{r1_, 0, {{der_x_, DepKind::constant}, {y_, DepKind::constant}}}}});
    } else {
      b.dae_dependencies(der_x_, {{y_, DepKind::constant}});
    }
    r2_ = b.residual_variable(form_ == "fully_implicit" ? "r[2]" : "g[1]", "y + 2z - x");
    r3_ = b.residual_variable(form_ == "fully_implicit" ? "r[3]" : "g[2]", "y - 3z - 2x");
    b.residual_group({{{r2_, 0, {{x_, DepKind::constant}, {y_, DepKind::constant}, {z_, DepKind::constant}}}}});
    b.residual_group({{{r3_, 0, {{x_, DepKind::constant}, {y_, DepKind::constant}, {z_, DepKind::constant}}}}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (form_ == "ode" || !c.dae_mode) {
      v[der_x_] = 1.4 * v[x_];
      v[y_] = 1.4 * v[x_];
      v[z_] = -0.2 * v[x_];
      return;
    }
    if (form_ == "fully_implicit") v[r1_] = v[der_x_] - v[y_];
    else v[der_x_] = v[y_];
    v[r2_] = v[y_] + 2.0 * v[z_] - v[x_];
    v[r3_] = v[y_] - 3.0 * v[z_] - 2.0 * v[x_];
  }

  void partials(const Context& c, PartialSink& s) override {
    if (form_ == "ode" || !c.dae_mode) {
      s.add(der_x_, x_, 1.4);
      s.add(y_, x_, 1.4);
      s.add(z_, x_, -0.2);
      return;
    }
    if (form_ == "fully_implicit") {
      s.add(r1_, der_x_, 1.0);
      s.add(r1_, y_, -1.0);
    } else {
      s.add(der_x_, y_, 1.0);
    }
    s.add(r2_, y_, 1.0);
    s.add(r2_, z_, 2.0);
    s.add(r2_, x_, -1.0);
    s.add(r3_, y_, 1.0);
    s.add(r3_, z_, -3.0);
    s.add(r3_, x_, -2.0);
  }

 private:
  std::string form_;
  ValueRef x_ = 0, der_x_ = 0, y_ = 0, z_ = 0, r1_ = 0, r2_ = 0, r3_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(HelloWorld)
