// SliderCrank: a slider on a crank that latches at the top of its stroke, with
// an event indicator that sits exactly at 0 after the latching event
// (README.md; the pattern of issue 32's slider-crank FMU).
//
//   der(phi) = w                                phi(0) = 0, w = 2 pi rad/s
//   free:     p = r (1 - cos phi)               (the slider follows the crank)
//   latched:  p = p_latch                       (a latch holds it at the top)
//   event indicator  z = p - p_latch
//   state event (z <= 0 -> z > 0):  latched := true, the latch releases
//                                   `dwell` later (a time event)
//
//   r = 1, p_latch = 1.5, dwell = 0.4: the slider latches at t = 1/3 + k and is
//   released at t = 1/3 + 0.4 + k, where p = 1 - cos(2 pi (1/3 + 0.4)) < p_latch.
//
// While latched z = p - p_latch is exactly 0. FMI 3.0 (3.1.1) defines a state
// event as a change of domain between z > 0 and z <= 0: at the latching
// event z passes from z <= 0 to z > 0 (the event), and the FMU's own update
// puts it at 0, in the domain z <= 0, where it stays until the release: no
// further event. (FMI 3.0 also asks the FMU to leave Event Mode with z != 0,
// which this FMU, like the exporter of issue 32's FMU, does not do.) An
// importer that takes z = 0 for a crossing enters Event Mode again and again
// at the latching time.
//
// Config key form = ode | semi_explicit (manifest A): in the DAE form p is an
// algebraic variable with the residual g = p - (latched ? p_latch : r (1 - cos phi)),
// so z is computed from the value the importer's Newton iteration gives p.
#include <cmath>
#include <numbers>
#include <string>

#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class SliderCrank final : public Model {
 public:
  explicit SliderCrank(const Config& config) : form_(config.get_choice("form", {"ode", "semi_explicit"})) {}

  void declare(Builder& b) override {
    b.model_name("SliderCrank", "A slider that latches at the top of its stroke; its event indicator stays at 0 while "
                                "latched (" + form_ + " form)");
    b.default_experiment({0.0, 2.0, 1e-6, 0.01});
    b.form(form_ == "ode" ? Form::ode : Form::semi_explicit);
    b.provides_partials();
    b.has_time_events();
    w_ = b.parameter("w", 2.0 * std::numbers::pi, "rad/s", "crank speed");
    r_ = b.parameter("r", 1.0, "m", "crank radius (the stroke is 2 r)");
    p_latch_ = b.parameter("p_latch", 1.5, "m", "slider position where the latch catches it");
    dwell_ = b.parameter("dwell", 0.4, "s", "time the latch holds the slider");
    Variable latched;
    latched.type = VarType::boolean;
    latched.name = "latched";
    latched.description = "the latch holds the slider";
    latched.variability = Variability::discrete;
    latched.initial = Initial::exact;
    latched.start = 0.0;
    latched_ = b.add(std::move(latched));
    Variable release;
    release.name = "t_release";
    release.description = "when the latch lets go";
    release.variability = Variability::discrete;
    release.initial = Initial::exact;
    release.start = 0.0;
    release.unit = "s";
    t_release_ = b.add(std::move(release));
    phi_ = b.state("phi", 0.0, "rad", "crank angle");
    der_phi_ = b.derivative(phi_);
    if (form_ == "ode") {
      p_ = b.output("p", "m", "slider position");
    } else {
      p_ = b.algebraic("p", 0.0, "m", "slider position");
      g_ = b.residual_variable("g", "p - (latched ? p_latch : r (1 - cos phi))");
    }
    z_ = b.local("z", "m", "event indicator: p - p_latch");
    b.event_indicator(z_);
    b.ode_dependencies(der_phi_, {});
    b.ode_dependencies(z_, {{phi_, DepKind::dependent}});
    if (form_ == "ode") {
      b.ode_dependencies(p_, {{phi_, DepKind::dependent}});
    } else {
      b.dae_dependencies(der_phi_, {});
      b.dae_dependencies(z_, {{p_, DepKind::constant}});
      b.residual_group({{{g_, 1, {{p_, DepKind::constant}, {phi_, DepKind::dependent}}}}});
    }
  }

  void compute(Context& c) override {
    double* v = c.v;
    const double p_crank = v[r_] * (1.0 - std::cos(v[phi_]));
    const double p_target = c.b[latched_] ? v[p_latch_] : p_crank;
    if (c.dae_mode) {
      v[g_] = v[p_] - p_target;
    } else {
      v[p_] = p_target;
    }
    v[der_phi_] = v[w_];
    v[z_] = v[p_] - v[p_latch_];
  }

  void partials(const Context& c, PartialSink& s) override {
    const double* v = c.v;
    const double dp_dphi = c.b[latched_] ? 0.0 : v[r_] * std::sin(v[phi_]);
    if (c.dae_mode) {
      s.add(g_, p_, 1.0);
      s.add(g_, phi_, -dp_dphi);
      s.add(z_, p_, 1.0);
    } else {
      s.add(p_, phi_, dp_dphi);
      s.add(z_, phi_, dp_dphi);
    }
  }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate u;
    double* v = c.v;
    if (c.b[latched_] && c.time >= v[t_release_]) c.b[latched_] = 0;
    if (!c.b[latched_] && v[r_] * (1.0 - std::cos(v[phi_])) > v[p_latch_]) {
      c.b[latched_] = 1;  // z passed from <= 0 to > 0: the latch catches the slider
      v[t_release_] = c.time + v[dwell_];
    }
    if (c.b[latched_]) u.next_event_time = v[t_release_];
    return u;
  }

 private:
  std::string form_;
  ValueRef w_ = 0, r_ = 0, p_latch_ = 0, dwell_ = 0, latched_ = 0, t_release_ = 0, phi_ = 0, der_phi_ = 0, p_ = 0,
           g_ = 0, z_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(SliderCrank)
