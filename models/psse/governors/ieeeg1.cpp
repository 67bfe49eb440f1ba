// models/psse/governors/ieeeg1.cpp -- IEEEG1 (ieeeg1.h).
//
// Per unit on MBASE; Δω the speed deviation, Pm the mechanical power:
//     LL = K (1 + s T2)/(1 + s T1) Δω      (T1 dxLL/dt = Δω − xLL, LL = K (xLL + T2/T1 (Δω − xLL)))
//     dGV/dt = clamp((P0 − LL − GV)/T3, Uc, Uo),   GV non-windup in [PMIN, PMAX]
//     Ti dxi/dt = x(i−1) − xi  for the stages i = 1..4 (x0 = GV; T4 T5 T6 T7)
//     Pm = (K1 + K2) x1 + (K3 + K4) x2 + (K5 + K6) x3 + (K7 + K8) x4
// PSS/E Model Library "IEEEG1" (the same diagram in PowerWorld and OpenIPSL:
// the rate limits Uo/Uc on the input of the valve integrator, the position
// limits PMAX/PMIN on the integrator itself, hence non-windup).
//
// Interpretations:
//  * A stage whose time constant is 0 passes its input through (PSS/E does
//    the same: ACTIVSg2000 has T5 = 0 and T7 = 0 records); T1 = 0 makes the
//    speed block the gain K, and then T2 must be 0 too.
//  * JBUS = 0 (one shaft): the high- and low-pressure fractions both drive
//    this machine. A cross-compound unit (JBUS ≠ 0) is refused with a message.
//
// Initialization: GV = Pm/ΣK, x1..x4 = GV, xLL = 0, P0 = GV. A valve outside
// [PMIN, PMAX] is reported by the framework (limiter "GV").
#include "psse/governors/ieeeg1.h"

#include <string>

#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"JBUS", "", "bus of the low-pressure machine of a cross-compound unit (0: one shaft)"},
    {"M", "", "machine id of the low-pressure machine (cross-compound only)"},
    {"K", "p.u.", "governor gain (reciprocal of droop)"},
    {"T1", "s", "governor lag time constant"},
    {"T2", "s", "governor lead time constant"},
    {"T3", "s", "valve positioner time constant"},
    {"Uo", "p.u./s", "maximum valve opening velocity"},
    {"Uc", "p.u./s", "maximum valve closing velocity (< 0)"},
    {"PMAX", "p.u.", "maximum valve opening"},
    {"PMIN", "p.u.", "minimum valve opening"},
    {"T4", "s", "inlet piping / steam bowl time constant"},
    {"K1", "", "fraction of HP shaft power after the first stage"},
    {"K2", "", "fraction of LP shaft power after the first stage"},
    {"T5", "s", "second stage (reheater) time constant"},
    {"K3", "", "fraction of HP shaft power after the second stage"},
    {"K4", "", "fraction of LP shaft power after the second stage"},
    {"T6", "s", "third stage time constant"},
    {"K5", "", "fraction of HP shaft power after the third stage"},
    {"K6", "", "fraction of LP shaft power after the third stage"},
    {"T7", "s", "fourth stage time constant"},
    {"K7", "", "fraction of HP shaft power after the fourth stage"},
    {"K8", "", "fraction of LP shaft power after the fourth stage"},
};

constexpr std::size_t kStageT[4] = {10, 13, 16, 19};  // T4 T5 T6 T7

class Ieeeg1 final : public Equations<Ieeeg1> {
 public:
  Ieeeg1(const DyrRecord& record, const UnitData&)
      : Equations({record.model, Role::governor, InitStage::outer_control, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    p.require(p[0] == 0.0, 0, "cross-compound units (a second machine) are not supported",
              "set JBUS to 0, or substitute or skip the model");
    p.require_nonnegative(3);
    p.require_nonnegative(4);
    p.require(p[3] > 0.0 || p[4] == 0.0, 4, "must be 0 when T1 is 0 (a lead without a lag has no state form)");
    p.require_positive(5);
    p.require(p[6] >= 0.0, 6, "must be >= 0");
    p.require(p[7] <= 0.0, 7, "must be <= 0");
    p.require(p[8] >= p[9], 8, "must be at least PMIN");
    for (std::size_t i : kStageT) p.require_nonnegative(i);
    for (std::size_t i : {2u, 11u, 12u, 14u, 15u, 17u, 18u, 20u, 21u}) p.require(true, i, "must be a finite number");
    k_ = p[2], t1_ = p[3], t2_ = p[4], t3_ = p[5], uo_ = p[6], uc_ = p[7], pmax_ = p[8], pmin_ = p[9];
    for (int s = 0; s < 4; ++s) {
      stage_t_[s] = p[kStageT[s]];
      stage_k_[s] = p[kStageT[s] + 1] + p[kStageT[s] + 2];
      sum_k_ += stage_k_[s];
    }
    p.require(sum_k_ > 0.0, 11, "the fractions K1..K8 must add up to more than 0");
  }

  void declare(Layout& l) override {
    ll_ = t1_ > 0.0 ? l.state("xLL", "speed lead-lag state", "") : -1;
    gv_ = l.state("GV", "valve position", "");
    for (int s = 0; s < 4; ++s)
      stage_[s] = stage_t_[s] > 0.0 ? l.state("x" + std::to_string(s + 1), "turbine stage " + std::to_string(s + 1), "")
                                    : -1;
    pm_ = l.algebraic("Pm", "mechanical power, p.u. on MBASE");
    speed_ = l.input(signal::speed);
    l.output(signal::pm, Var::z(pm_));
    pref_ = l.parameter("Pref", "load reference P0, p.u. valve position");
    rate_ = l.limiter("U", LimiterKind::windup);
    valve_ = l.limiter("GV", LimiterKind::non_windup, gv_);
  }

  void initialize(InitContext& in) override {
    const double pm = in.signal(signal::pm);
    const double gv = pm / sum_k_;
    if (ll_ >= 0) in.state(ll_, 0.0);
    in.state(gv_, gv);
    for (int s = 0; s < 4; ++s)
      if (stage_[s] >= 0) in.state(stage_[s], gv);
    in.algebraic(pm_, pm);
    in.parameter(pref_, gv);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& dw = f.u(speed_);
    T ll = k_ * dw;
    if (ll_ >= 0) {
      const T& x = f.x(ll_);
      f.der(ll_, (dw - x) / t1_);
      ll = k_ * (x + (t2_ / t1_) * (dw - x));
    }
    const T& gv = f.x(gv_);
    const T rate = f.clamp(rate_, (f.p(pref_) - ll - gv) / t3_, T(uc_), T(uo_));
    f.der(gv_, f.hold(valve_, gv, rate, T(pmin_), T(pmax_)));
    T in = gv, pm = T(0.0);
    for (int s = 0; s < 4; ++s) {
      T out = in;
      if (stage_[s] >= 0) {
        out = f.x(stage_[s]);
        f.der(stage_[s], (in - out) / stage_t_[s]);
      }
      pm = pm + stage_k_[s] * out;
      in = out;
    }
    f.res(pm_, f.z(pm_) - pm);
  }

 private:
  double k_ = 0, t1_ = 0, t2_ = 0, t3_ = 0, uo_ = 0, uc_ = 0, pmax_ = 0, pmin_ = 0, sum_k_ = 0;
  double stage_t_[4] = {}, stage_k_[4] = {};
  int ll_ = -1, gv_ = 0, stage_[4] = {-1, -1, -1, -1}, pm_ = 0, speed_ = 0, pref_ = 0, rate_ = 0, valve_ = 0;
};

}  // namespace

std::span<const ParameterSpec> ieeeg1_parameters() { return kParameters; }

std::unique_ptr<Component> make_ieeeg1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Ieeeg1>(record, unit);
}

}  // namespace lsdae::psse
