// models/psse/governors/hygov.cpp -- HYGOV (hygov.h).
//
// Per unit on MBASE; Δω the speed deviation, Pm the mechanical power:
//     Tf de/dt = nref − Δω − R c − e                       filter
//     c = (1 + s Tr)/(r Tr s) e, as the state equation of its output:
//         dc/dt = (de/dt)/r + e/(r Tr),   rate limited to [−VELM, VELM],
//                                        c non-windup in [GMIN, GMAX]
//     Tg dg/dt = c − g                                      gate servo
//     h = (q/g)²,   TW dq/dt = 1 − h                        penstock (head 1 at rest)
//     Pm = At h (q − qNL) − Dturb g Δω
// PSS/E Model Library "HYGOV", whose states are e, c, g and q (so the PI
// block's output c is itself the state that the velocity limit VELM and the
// position limits GMAX/GMIN act on: a non-windup PI). PowerWorld's HYGOV
// diagram draws the same limits on the PI block. PowerSimulationsDynamics.jl
// (HydroTurbineGov) keeps the integral part as its state and rate-limits only
// that part; we follow PSS/E's state choice, which the PSS/E trajectories in
// ../shared/data/grids/psse/HYGOV and EXST1 check (docs/psse-governors.md).
//
// Initialization: q = Pm/At + qNL (h = 1), g = c = q, e = 0, nref = R c. A
// gate outside [GMIN, GMAX] is reported by the framework (limiter "c").
#include "psse/governors/hygov.h"

#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"R", "p.u.", "permanent droop"},
    {"r", "p.u.", "temporary droop"},
    {"Tr", "s", "governor time constant"},
    {"Tf", "s", "filter time constant"},
    {"Tg", "s", "gate servo time constant"},
    {"VELM", "p.u./s", "gate velocity limit"},
    {"GMAX", "p.u.", "maximum gate limit"},
    {"GMIN", "p.u.", "minimum gate limit"},
    {"TW", "s", "water time constant"},
    {"At", "p.u.", "turbine gain"},
    {"Dturb", "p.u.", "turbine damping"},
    {"qNL", "p.u.", "no-load water flow"},
};

class Hygov final : public Equations<Hygov> {
 public:
  Hygov(const DyrRecord& record, const UnitData&)
      : Equations({record.model, Role::governor, InitStage::outer_control, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    for (std::size_t i : {1u, 2u, 3u, 4u, 5u}) p.require_positive(i);
    p.require(p[6] > p[7], 6, "must exceed GMIN");
    p.require_nonnegative(7);
    p.require_positive(8);
    p.require_positive(9);
    p.require(true, 10, "must be a finite number");
    p.require_nonnegative(11);
    big_r_ = p[0], r_ = p[1], tr_ = p[2], tf_ = p[3], tg_ = p[4], velm_ = p[5], gmax_ = p[6], gmin_ = p[7];
    tw_ = p[8], at_ = p[9], dturb_ = p[10], qnl_ = p[11];
  }

  void declare(Layout& l) override {
    e_ = l.state("e", "filter output", "");
    c_ = l.state("c", "desired gate opening", "");
    g_ = l.state("g", "gate opening", "");
    q_ = l.state("q", "turbine flow", "");
    pm_ = l.algebraic("Pm", "mechanical power, p.u. on MBASE");
    speed_ = l.input(signal::speed);
    l.output(signal::pm, Var::z(pm_));
    nref_ = l.parameter("nref", "speed reference, p.u.");
    velocity_ = l.limiter("VELM", LimiterKind::windup);
    gate_ = l.limiter("c", LimiterKind::non_windup, c_);
  }

  void initialize(InitContext& in) override {
    const double pm = in.signal(signal::pm);
    const double q = pm / at_ + qnl_;
    in.state(e_, 0.0);
    in.state(c_, q);
    in.state(g_, q);
    in.state(q_, q);
    in.algebraic(pm_, pm);
    in.parameter(nref_, big_r_ * q);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& e = f.x(e_);
    const T& c = f.x(c_);
    const T& g = f.x(g_);
    const T& q = f.x(q_);
    const T& dw = f.u(speed_);
    const T de = (f.p(nref_) - dw - big_r_ * c - e) / tf_;
    const T rate = f.clamp(velocity_, de / r_ + e / (r_ * tr_), T(-velm_), T(velm_));
    f.der(e_, de);
    f.der(c_, f.hold(gate_, c, rate, T(gmin_), T(gmax_)));
    f.der(g_, (c - g) / tg_);
    const T ratio = q / g;
    const T h = ratio * ratio;
    f.der(q_, (1.0 - h) / tw_);
    f.res(pm_, f.z(pm_) - (at_ * h * (q - qnl_) - dturb_ * g * dw));
  }

 private:
  double big_r_ = 0, r_ = 0, tr_ = 0, tf_ = 0, tg_ = 0, velm_ = 0, gmax_ = 0, gmin_ = 0;
  double tw_ = 0, at_ = 0, dturb_ = 0, qnl_ = 0;
  int e_ = 0, c_ = 0, g_ = 0, q_ = 0, pm_ = 0, speed_ = 0, nref_ = 0, velocity_ = 0, gate_ = 0;
};

}  // namespace

std::span<const ParameterSpec> hygov_parameters() { return kParameters; }

std::unique_ptr<Component> make_hygov(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Hygov>(record, unit);
}

}  // namespace lsdae::psse
