// models/psse/governors/gast.cpp -- GAST (gast.h).
//
// Per unit on MBASE; Δω the speed deviation, Pm the mechanical power:
//     u = min(Pref − Δω/R,  AT + KT (AT − Tx))            low-value gate
//     T1 dPv/dt = u − Pv,       Pv non-windup in [VMIN, VMAX]
//     T2 dPt/dt = Pv − Pt
//     T3 dTx/dt = Pt − Tx
//     Pm = Pt − Dturb Δω
// PSS/E Model Library "GAST" (PowerWorld GAST_PTI: the speed enters through
// 1/R, the load limit AT + KT (AT − Tx) through a low-value gate, the valve
// limits on the T1 lag); PowerSimulationsDynamics.jl's GasTG reads the same.
// The gate switches as a state event (Frame::low_select).
//
// Initialization: Pv = Pt = Tx = Pm, Pref = Pm. When the load limit is below
// Pref at the operating point (AT < Pm for KT > −1), the gate starts on the
// load limit: noted at initialization (the gate, LimiterKind::select, is not
// reported by the framework); a valve outside [VMIN, VMAX] is reported by the
// framework (limiter "Pv").
#include "psse/governors/gast.h"

#include <cstdio>
#include <string>

#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

constexpr ParameterSpec kParameters[] = {
    {"R", "p.u.", "speed droop"},
    {"T1", "s", "fuel valve time constant"},
    {"T2", "s", "combustion chamber (turbine) time constant"},
    {"T3", "s", "load limit (exhaust temperature measurement) time constant"},
    {"AT", "p.u.", "ambient temperature load limit"},
    {"KT", "p.u.", "load limit feedback gain"},
    {"VMAX", "p.u.", "maximum fuel valve opening"},
    {"VMIN", "p.u.", "minimum fuel valve opening"},
    {"Dturb", "p.u.", "turbine damping"},
};

class Gast final : public Equations<Gast> {
 public:
  Gast(const DyrRecord& record, const UnitData&)
      : Equations({record.model, Role::governor, InitStage::outer_control, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    for (std::size_t i : {0u, 1u, 2u, 3u}) p.require_positive(i);
    p.require(true, 4, "must be a finite number");
    p.require_nonnegative(5);
    p.require(p[6] >= p[7], 6, "must be at least VMIN");
    p.require(true, 8, "must be a finite number");
    r_ = p[0], t1_ = p[1], t2_ = p[2], t3_ = p[3], at_ = p[4], kt_ = p[5], vmax_ = p[6], vmin_ = p[7], dturb_ = p[8];
  }

  void declare(Layout& l) override {
    pv_ = l.state("Pv", "fuel valve opening", "");
    pt_ = l.state("Pt", "turbine power", "");
    tx_ = l.state("Tx", "exhaust temperature (load limit feedback)", "");
    pm_ = l.algebraic("Pm", "mechanical power, p.u. on MBASE");
    speed_ = l.input(signal::speed);
    l.output(signal::pm, Var::z(pm_));
    pref_ = l.parameter("Pref", "load reference, p.u. on MBASE");
    gate_ = l.limiter("gate", LimiterKind::select);
    valve_ = l.limiter("Pv", LimiterKind::non_windup, pv_);
  }

  void initialize(InitContext& in) override {
    const double pm = in.signal(signal::pm);
    for (int i : {pv_, pt_, tx_}) in.state(i, pm);
    in.algebraic(pm_, pm);
    in.parameter(pref_, pm);
    const double limit = at_ + kt_ * (at_ - pm);
    if (limit < pm - 1e-9)
      in.note("the load limit AT + KT (AT − Pm) = " + number(limit) + " is below the power reference " +
              number(pm) + " at the operating point: the gate passes the load limit and the unit is not "
              "at rest");
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& pv = f.x(pv_);
    const T& pt = f.x(pt_);
    const T& tx = f.x(tx_);
    const T& dw = f.u(speed_);
    const T u = f.low_select(gate_, f.p(pref_) - dw / r_, at_ + kt_ * (at_ - tx));
    f.der(pv_, f.hold(valve_, pv, (u - pv) / t1_, T(vmin_), T(vmax_)));
    f.der(pt_, (pv - pt) / t2_);
    f.der(tx_, (pt - tx) / t3_);
    f.res(pm_, f.z(pm_) - (pt - dturb_ * dw));
  }

 private:
  double r_ = 0, t1_ = 0, t2_ = 0, t3_ = 0, at_ = 0, kt_ = 0, vmax_ = 0, vmin_ = 0, dturb_ = 0;
  int pv_ = 0, pt_ = 0, tx_ = 0, pm_ = 0, speed_ = 0, pref_ = 0, gate_ = 0, valve_ = 0;
};

}  // namespace

std::span<const ParameterSpec> gast_parameters() { return kParameters; }

std::unique_ptr<Component> make_gast(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Gast>(record, unit);
}

}  // namespace lsdae::psse
