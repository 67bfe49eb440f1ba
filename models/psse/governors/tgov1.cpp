// models/psse/governors/tgov1.cpp -- TGOV1 (tgov1.h).
//
// Per unit on MBASE; Δω the speed deviation (signal speed), Pm the
// mechanical POWER (signal pm; the machine divides by 1 + Δω for the torque,
// machine_frame.h):
//     T1 dPv/dt = (Pref − Δω)/R − Pv,       Pv non-windup in [VMIN, VMAX]
//     T3 dx2/dt = Pv − x2
//     Pm = x2 + (T2/T3)(Pv − x2) − Dt Δω
// PSS/E Model Library "TGOV1"; PowerWorld's TGOV1 diagram; the same as
// PowerSimulationsDynamics.jl's SteamTurbineGov1 and GridKit's TGOV1 README
// (both read for the signs). The valve limits are drawn on the lag block
// itself, hence non-windup (IEEE Std 421.5-2016 Annex E.3 semantics).
//
// Initialization: Pv = x2 = Pm, Pref = R Pm (Δω = 0). A valve position
// outside [VMIN, VMAX] is reported by the framework (limiter "Pv").
#include "psse/governors/tgov1.h"

#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"R", "p.u.", "permanent droop"},
    {"T1", "s", "valve (steam bowl) time constant"},
    {"VMAX", "p.u.", "maximum valve position"},
    {"VMIN", "p.u.", "minimum valve position"},
    {"T2", "s", "reheater lead time constant"},
    {"T3", "s", "reheater lag time constant"},
    {"Dt", "p.u.", "turbine damping"},
};

class Tgov1 final : public Equations<Tgov1> {
 public:
  Tgov1(const DyrRecord& record, const UnitData&)
      : Equations({record.model, Role::governor, InitStage::outer_control, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    p.require_positive(0);
    p.require_positive(1);
    p.require(p[2] >= p[3], 2, "must be at least VMIN");
    p.require_nonnegative(4);
    p.require_positive(5);
    p.require(true, 6, "must be a finite number");
    r_ = p[0], t1_ = p[1], vmax_ = p[2], vmin_ = p[3], t2_ = p[4], t3_ = p[5], dt_ = p[6];
  }

  void declare(Layout& l) override {
    pv_ = l.state("Pv", "valve position", "");
    x2_ = l.state("x2", "reheater lead-lag state", "");
    pm_ = l.algebraic("Pm", "mechanical power, p.u. on MBASE");
    speed_ = l.input(signal::speed);
    l.output(signal::pm, Var::z(pm_));
    pref_ = l.parameter("Pref", "load reference, p.u. on MBASE times R");
    valve_ = l.limiter("Pv", LimiterKind::non_windup, pv_);
  }

  void initialize(InitContext& in) override {
    const double pm = in.signal(signal::pm);
    in.state(pv_, pm);
    in.state(x2_, pm);
    in.algebraic(pm_, pm);
    in.parameter(pref_, r_ * pm);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& pv = f.x(pv_);
    const T& x2 = f.x(x2_);
    const T& dw = f.u(speed_);
    f.der(pv_, f.hold(valve_, pv, ((f.p(pref_) - dw) / r_ - pv) / t1_, T(vmin_), T(vmax_)));
    f.der(x2_, (pv - x2) / t3_);
    f.res(pm_, f.z(pm_) - (x2 + (t2_ / t3_) * (pv - x2) - dt_ * dw));
  }

 private:
  double r_ = 0, t1_ = 0, vmax_ = 0, vmin_ = 0, t2_ = 0, t3_ = 0, dt_ = 0;
  int pv_ = 0, x2_ = 0, pm_ = 0, speed_ = 0, pref_ = 0, valve_ = 0;
};

}  // namespace

std::span<const ParameterSpec> tgov1_parameters() { return kParameters; }

std::unique_ptr<Component> make_tgov1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Tgov1>(record, unit);
}

}  // namespace lsdae::psse
