// Two inertias and an ideal clutch that locks at a time event and releases
// at a state event: a constraint that switches on with a jump of the
// velocities (issue 15, seed 004: ModiaMath's ideal clutch).
//
//   released:  der(w[1]) = (T1 - tc)/J1,   J2 der(w[2]) + d w[2] - tc = 0,   tc = 0
//   locked:    the same two balances and   w[1] = w[2]   (tc the clutch torque, algebraic)
//
// inertia 1 driven by the constant torque T1, inertia 2 braked by the linear
// damper d, the clutch torque tc acting on both (on inertia 2 driving it).
// The clutch locks at t = t_lock (a time event): the speeds jump to the
// common speed that conserves the angular momentum J1 w[1] + J2 w[2],
//   w+ = (J1 w[1] + J2 w[2]) / (J1 + J2),
// which the importer has to compute (the FMU does not re-initialize its
// states: it switches its equations). Locked, tc = (T1 J2 + J1 d w)/(J1 + J2)
// grows with w; the clutch releases when tc exceeds tc_max (a state event,
// indicator tc_max - tc while locked) and stays released.
//
// The residual group of the clutch, highest index first, by mode:
//   g_slip  = w[1] - w[2]           (locked)  or 0   (released)   index 2 when locked
//   g_acc   = der(w[1]) - der(w[2]) (locked)  or tc  (released)   index 1
// so the projection method integrates it in both modes (the row g_acc is
// regular in both). With dummy derivatives, released, the constraint has no
// gradient: g_slip's dependencies are declared `discrete` (its partial
// derivatives change only at events), so lsdae recognizes it as switched off
// in that mode (zero row, value exactly 0) and selects no dummy for it; the
// lock and the release change the selection.
// Config slip_kinds=dependent declares g_slip's dependencies `dependent`
// instead (the FMU then no longer says that the zero row lasts for the whole
// mode): lsdae cannot tell the released clutch from a singular constraint
// and stops at the start with exit code 8, as for any singular selection.
//
// Unlike lsdae's other models: the variables are declared tc, w[2], w[1]
// then the parameters (value references in that order), the states are
// w[2], w[1]; the clutch group comes first; the balances are written in
// different units (an acceleration for inertia 1, a torque for inertia 2),
// so any re-initialization weighted by the rows' own scaling is wrong; no
// directional derivatives; fully implicit; the mode is a discrete Float64.
#include "kit/model.h"

namespace {

using namespace lsdae::kit;

class Clutch final : public Model {
 public:
  explicit Clutch(const Config& config)
      : slip_dependent_(config.get_choice("slip_kinds", {"discrete", "dependent"}) == "dependent") {}

  void declare(Builder& b) override {
    b.model_name("Clutch", "Two inertias with an ideal clutch: locks at a time event, releases at a state event");
    b.default_experiment({0.0, 12.0, 1e-8, 0.01});
    b.form(Form::fully_implicit);
    b.has_time_events();

    tc_ = b.algebraic("tc", 0.0, "N.m", "clutch torque (on inertia 2; minus on inertia 1)");
    w2_ = b.state("w[2]", 10.0, "rad/s", "speed of inertia 2");
    w1_ = b.state("w[1]", 0.0, "rad/s", "speed of inertia 1");
    der_w2_ = b.derivative(w2_);
    der_w1_ = b.derivative(w1_);

    g_slip_ = b.residual_variable("g_slip", "w[1] - w[2] when locked, 0 when released (index 2)");
    g_acc_ = b.residual_variable("g_acc", "der(w[1]) - der(w[2]) when locked, tc when released (index 1)");
    bal1_ = b.residual_variable("bal[1]", "der(w[1]) - (T1 - tc)/J1");
    bal2_ = b.residual_variable("bal[2]", "J2*der(w[2]) + d*w[2] - tc");

    Variable locked;
    locked.name = "locked";
    locked.description = "1 while the clutch is locked, else 0";
    locked.causality = Causality::local;
    locked.variability = Variability::discrete;
    locked.initial = Initial::calculated;
    locked_ = b.add(std::move(locked));
    indicator_ = b.local("release_indicator", "N.m", "tc_max - tc while locked, 1 while released");
    momentum_ = b.output("L", "kg.m2/s", "angular momentum J1 w[1] + J2 w[2]");
    slip_ = b.output("slip", "rad/s", "w[1] - w[2]");

    t_lock_ = b.parameter("t_lock", 1.0, "s", "time at which the clutch locks");
    tc_max_ = b.parameter("tc_max", 4.9, "N.m", "torque above which the locked clutch releases");
    j1_ = b.parameter("J1", 0.8, "kg.m2", "inertia 1");
    j2_ = b.parameter("J2", 2.5, "kg.m2", "inertia 2");
    t1_ = b.parameter("T1", 5.0, "N.m", "driving torque on inertia 1");
    d_ = b.parameter("d", 0.5, "N.m.s/rad", "damping of inertia 2");

    constexpr DepKind kC = DepKind::constant;
    constexpr DepKind kF = DepKind::fixed;
    constexpr DepKind kD = DepKind::discrete;
    const DepKind slip_kind = slip_dependent_ ? DepKind::dependent : kD;
    b.residual_group({{
        {g_slip_, 0, {{w1_, slip_kind}, {w2_, slip_kind}}},
        {g_acc_, 0, {{der_w1_, kD}, {der_w2_, kD}, {tc_, kD}}},
    }});
    b.residual_group({{{bal1_, 0, {{der_w1_, kC}, {tc_, kF}}}}});
    b.residual_group({{{bal2_, 0, {{der_w2_, kF}, {w2_, kF}, {tc_, kC}}}}});
    b.event_indicator(indicator_);
    b.dae_dependencies(indicator_, {{tc_, kD}});
    b.dae_dependencies(momentum_, {{w1_, kF}, {w2_, kF}});
    b.dae_dependencies(slip_, {{w1_, kC}, {w2_, kC}});
  }

  void compute(Context& c) override {
    double* v = c.v;
    if (c.initialization) v[locked_] = c.time >= v[t_lock_] ? 1.0 : 0.0;
    const bool locked = v[locked_] != 0.0;
    const double w1 = v[w1_], w2 = v[w2_], tc = v[tc_];
    v[g_slip_] = locked ? w1 - w2 : 0.0;
    v[g_acc_] = locked ? v[der_w1_] - v[der_w2_] : tc;
    v[bal1_] = v[der_w1_] - (v[t1_] - tc) / v[j1_];
    v[bal2_] = v[j2_] * v[der_w2_] + v[d_] * w2 - tc;
    v[indicator_] = locked ? v[tc_max_] - tc : 1.0;
    v[momentum_] = v[j1_] * w1 + v[j2_] * w2;
    v[slip_] = w1 - w2;
  }

  DiscreteUpdate update_discrete(Context& c) override {
    DiscreteUpdate d;
    double* v = c.v;
    if (v[locked_] == 0.0 && !released_) {
      if (c.time >= v[t_lock_]) v[locked_] = 1.0;
      else d.next_event_time = v[t_lock_];
    } else if (v[locked_] != 0.0 && v[tc_] >= v[tc_max_]) {
      v[locked_] = 0.0;  // released for good
      released_ = true;
    }
    return d;
  }

 private:
  bool slip_dependent_ = false;
  bool released_ = false;
  ValueRef tc_ = 0, w1_ = 0, w2_ = 0, der_w1_ = 0, der_w2_ = 0;
  ValueRef g_slip_ = 0, g_acc_ = 0, bal1_ = 0, bal2_ = 0;
  ValueRef locked_ = 0, indicator_ = 0, momentum_ = 0, slip_ = 0;
  ValueRef t_lock_ = 0, tc_max_ = 0, j1_ = 0, j2_ = 0, t1_ = 0, d_ = 0;
};

}  // namespace

LSDAE_KIT_MODEL(Clutch)
