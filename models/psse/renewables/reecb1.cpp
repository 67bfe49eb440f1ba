// models/psse/renewables/reecb1.cpp -- REECB1 (reecb1.h).
//
// Per unit on MBASE; V = |Vr + jVi| the terminal voltage, Vd = max(Vf, 0.01).
//   Voltage dip:   dip = V < Vdip or V > Vup; while dip, xQ, xV, Iq and Pord are frozen.
//   Filters:       Trv dVf/dt = V − Vf;   Tp dPf/dt = Pe − Pf   (PFFLAG = 1)
//   Q reference:   Qsel = Pf tan(pfaref) (PFFLAG = 1) or Qext;   Qlim = clamp(Qsel, Qmin, Qmax)
//   Injection:     Iqinj = clamp(Kqv db(Vref0 − Vf; dbd1, dbd2), Iql1, Iqh1)
//   QFLAG = 1:     Vsel = PI(Kqp, Kqi; Qlim − Qgen) in [Vmin, Vmax] (VFLAG = 1)
//                       or clamp(Qsel, Vmin, Vmax) (VFLAG = 0),
//                  Iqc  = PI(Kvp, Kvi; Vsel − Vf) in [Iqmin, Iqmax]
//   QFLAG = 0:     Tiq dIq/dt = Qlim/Vd − Iq,  Iqc = Iq
//   Commands:      Iqcmd = clamp(Iqc + Iqinj, Iqmin, Iqmax)
//                  Tpord dPord/dt = Pref − Pord, rate in [dPmin, dPmax], Pord in [Pmin, Pmax] (non-windup)
//                  Ipcmd = clamp(Pord/Vd, 0, Ipmax)
//   Current limit: PQFLAG = 0 (Q priority): Iqmax = Imax, Ipmax = √(Imax² − Iqcmd²);
//                  PQFLAG = 1 (P priority): Ipmax = Imax, Iqmax = √(Imax² − Ipcmd²); Iqmin = −Iqmax.
// PI blocks have non-windup limits on their sums (core/blocks.h); every
// limit, the dead band and the dip switches are limiters (state events).
//
// Sources (read side by side): the WECC "Solar PV Power Plant Modeling and
// Validation Guideline" (REEC_B), PowerWorld's REEC_B diagram as
// PowerSimulationsDynamics.jl reproduces it (docs, "Inner control",
// RECurrentControlB, with the active and reactive outer controls AB),
// OpenIPSL's REECB1 (written against the PSS/E Model Library), ANDES's
// REECA1/REECB1; parameter order checked against PowerSystems.jl's .dyr map.
// Where they differ, lsdae follows:
//  * Iqinj is always added, zero inside the dead band (OpenIPSL, PSD); REEC_A
//    (ANDES) switches it on during the dip only, REEC_B has no such switch.
//  * VFLAG = 0 feeds the PFFLAG selection, before the Qmin/Qmax limit, to the
//    V regulator as its voltage reference (PSD: Qext − Vt_filt; the REEC_A
//    diagram's Vref1 + Qext with no Vref1); OpenIPSL uses Vref0 there. Only
//    with QFLAG = 1 (not used by WECC240).
//  * the ramp limits dPmax, dPmin in p.u./s on dPord/dt (the documents'
//    unit; PSD); OpenIPSL limits Pref − Pord before dividing by Tpord.
//  * the dip logic on the unfiltered terminal voltage (OpenIPSL, ANDES).
//  * the current limits use the commands of the same instant (the DAE has no
//    one-step delay); at a saturated priority command the other limit is 0.
//  * the voltage of a remote bus (ICON M ≠ 0) is not measured: refused with
//    a message (lsdae's components see their own bus).
//
// Initialization from the converter's commands (signals ipcmd, iqcmd, set
// by REGCA1): Vf = V, Pord = Ipcmd Vd = Pref (signal pref), Iqinj at
// Vref0 − V (Vref0 = 0: the initial V), then the Q path backwards: Iq =
// Iqcmd − Iqinj and Qlim = Iq Vd (QFLAG = 0), or xV = Iqcmd − Iqinj, xQ = V
// with Qlim = Qgen (QFLAG = 1, VFLAG = 1); Qext = Qsel (signal qext) or
// pfaref = atan(Qsel/Pe). A reference beyond its limit is reported by the
// framework's limiter report (not clipped).
#include "psse/renewables/reecb1.h"

#include <cmath>
#include <string>

#include "psse/core/blocks.h"
#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"REMOTE", "", "bus whose voltage is controlled, 0: the terminal (ICON)"},
    {"PFFLAG", "", "1: constant power factor, 0: Q reference Qext (ICON)"},
    {"VFLAG", "", "1: Q control, 0: voltage control (ICON)"},
    {"QFLAG", "", "1: voltage/Q regulators, 0: constant Q (ICON)"},
    {"PQFLAG", "", "current limit priority, 1: P, 0: Q (ICON)"},
    {"Vdip", "p.u.", "low voltage threshold of the voltage dip logic"},
    {"Vup", "p.u.", "high voltage threshold of the voltage dip logic"},
    {"Trv", "s", "terminal voltage filter time constant"},
    {"dbd1", "p.u.", "voltage error dead band, lower threshold (<= 0)"},
    {"dbd2", "p.u.", "voltage error dead band, upper threshold (>= 0)"},
    {"Kqv", "", "reactive current injection gain"},
    {"Iqh1", "p.u.", "upper limit of the reactive current injection"},
    {"Iql1", "p.u.", "lower limit of the reactive current injection"},
    {"Vref0", "p.u.", "voltage reference of the injection, 0: the initial voltage"},
    {"Tp", "s", "electrical power filter time constant"},
    {"Qmax", "p.u.", "upper limit of the reactive power reference"},
    {"Qmin", "p.u.", "lower limit of the reactive power reference"},
    {"Vmax", "p.u.", "upper limit of the voltage reference"},
    {"Vmin", "p.u.", "lower limit of the voltage reference"},
    {"Kqp", "", "reactive power regulator proportional gain"},
    {"Kqi", "1/s", "reactive power regulator integral gain"},
    {"Kvp", "", "voltage regulator proportional gain"},
    {"Kvi", "1/s", "voltage regulator integral gain"},
    {"Tiq", "s", "reactive current time constant (QFLAG = 0)"},
    {"dPmax", "p.u./s", "power order ramp rate limit, up"},
    {"dPmin", "p.u./s", "power order ramp rate limit, down"},
    {"Pmax", "p.u.", "upper limit of the power order"},
    {"Pmin", "p.u.", "lower limit of the power order"},
    {"Imax", "p.u.", "converter current limit"},
    {"Tpord", "s", "power order time constant"},
};

constexpr double kVoltageFloor = 0.01;  // of the divisions by Vf, p.u.

// √a for a >= 0 (the current limit circle); 0 with no slope at or below 0.
template <class T>
T root(const T& a) {
  return value(a) > 0.0 ? sqrt(a) : T(0.0);
}

class Reecb1 final : public Equations<Reecb1> {
 public:
  Reecb1(const DyrRecord& record, const UnitData&)
      : Equations({record.model, Role::electrical_control, InitStage::inner_control, record.bus, record.id,
                   record.where()}) {
    const Parameters p(record, kParameters);
    p.require(p[0] == 0.0 || p[0] == record.bus, 0,
              "names a remote bus; lsdae's REECB1 controls its own terminal voltage only (set it to 0)");
    for (std::size_t i : {1u, 2u, 3u, 4u}) p.require(p[i] == 0.0 || p[i] == 1.0, i, "must be 0 or 1");
    pfflag_ = p[1] == 1.0, vflag_ = p[2] == 1.0, qflag_ = p[3] == 1.0, pqflag_ = p[4] == 1.0;
    vdip_ = p[5], vup_ = p[6], trv_ = p[7], dbd1_ = p[8], dbd2_ = p[9], kqv_ = p[10], iqh1_ = p[11], iql1_ = p[12];
    vref0_ = p[13], tp_ = p[14], qmax_ = p[15], qmin_ = p[16], vmax_ = p[17], vmin_ = p[18];
    kqp_ = p[19], kqi_ = p[20], kvp_ = p[21], kvi_ = p[22], tiq_ = p[23];
    dpmax_ = p[24], dpmin_ = p[25], pmax_ = p[26], pmin_ = p[27], imax_ = p[28], tpord_ = p[29];
    p.require(vup_ > vdip_, 6, "must exceed Vdip");
    p.require_nonnegative(7);
    p.require(dbd1_ <= 0.0, 8, "must be <= 0");
    p.require(dbd2_ >= 0.0, 9, "must be >= 0");
    p.require(iqh1_ >= iql1_, 11, "must be at least Iql1");
    p.require_nonnegative(14);
    p.require(qmax_ >= qmin_, 15, "must be at least Qmin");
    p.require(vmax_ >= vmin_, 17, "must be at least Vmin");
    if (!qflag_) p.require_positive(23);
    p.require(dpmax_ >= 0.0, 24, "must be >= 0");
    p.require(dpmin_ <= 0.0, 25, "must be <= 0");
    p.require(pmax_ >= pmin_, 26, "must be at least Pmin");
    p.require_positive(28);
    p.require_positive(29);
  }

  void declare(Layout& l) override {
    vf_ = trv_ > 0.0 ? l.state("Vf", "terminal voltage, filtered", "p.u.") : -1;
    pf_ = pfflag_ && tp_ > 0.0 ? l.state("Pf", "electrical power, filtered", "p.u.") : -1;
    xq_ = qflag_ && vflag_ ? l.state("xQ", "reactive power regulator, integrator", "p.u.") : -1;
    xv_ = qflag_ ? l.state("xV", "voltage regulator, integrator", "p.u.") : -1;
    iq_ = qflag_ ? -1 : l.state("Iq", "reactive current from the Q reference (Tiq)", "p.u.");
    pord_ = l.state("Pord", "power order", "p.u.");
    ipcmd_ = l.algebraic("Ipcmd", "active current command", "p.u.");
    iqcmd_ = l.algebraic("Iqcmd", "reactive current command (> 0 injects Q)", "p.u.");
    l.output(signal::ipcmd, Var::z(ipcmd_));
    l.output(signal::iqcmd, Var::z(iqcmd_));
    pe_ = pfflag_ ? l.input(signal::pe) : -1;
    qe_ = qflag_ && vflag_ ? l.input(signal::qe) : -1;
    pref_ = l.input(signal::pref);
    qext_ = pfflag_ ? -1 : l.input(signal::qext);
    pfaref_ = pfflag_ ? l.parameter("pfaref", "power factor angle reference", "rad") : -1;
    vref0_p_ = kqv_ != 0.0 ? l.parameter("Vref0", "voltage reference of the reactive current injection", "p.u.") : -1;
    dip_low_ = l.limiter("Vdip", LimiterKind::below);
    dip_high_ = l.limiter("Vup", LimiterKind::below);
    floor_ = l.limiter("Vfloor", LimiterKind::windup);
    db_ = kqv_ != 0.0 && dbd1_ < dbd2_ ? l.limiter("dbd", LimiterKind::windup) : -1;
    iqinj_ = kqv_ != 0.0 ? l.limiter("Iqinj", LimiterKind::windup) : -1;
    qlim_ = l.limiter("Qlim", LimiterKind::windup);
    if (xq_ >= 0) qpi_sum_ = l.limiter("Qpi", LimiterKind::windup), qpi_int_ = l.limiter("Qpi_int", LimiterKind::pi_non_windup);
    vlim_ = qflag_ && !vflag_ ? l.limiter("Vlim", LimiterKind::windup) : -1;
    if (xv_ >= 0) vpi_sum_ = l.limiter("Vpi", LimiterKind::windup), vpi_int_ = l.limiter("Vpi_int", LimiterKind::pi_non_windup);
    iq_lim_ = l.limiter("Iqcmd", LimiterKind::windup);
    p_rate_ = l.limiter("dP", LimiterKind::windup);
    p_lim_ = l.limiter("Plim", LimiterKind::non_windup, pord_);
    ip_lim_ = l.limiter("Ipcmd", LimiterKind::windup);
  }

  void initialize(InitContext& in) override {
    const double v = std::abs(in.voltage()), vd = std::max(v, kVoltageFloor);
    if (v < vdip_ || v > vup_)
      in.note("the initial voltage " + std::to_string(v) + " p.u. is outside [Vdip, Vup]: its regulators start frozen");
    const double ipcmd = in.signal(signal::ipcmd), iqcmd = in.signal(signal::iqcmd);
    if (vf_ >= 0) in.state(vf_, v);
    in.state(pord_, ipcmd * vd);
    in.set_signal(signal::pref, ipcmd * vd);
    double iqinj = 0.0;
    if (vref0_p_ >= 0) {
      const double ref = vref0_ != 0.0 ? vref0_ : v, e = ref - v;
      in.parameter(vref0_p_, ref);
      const double band = e - std::min(std::max(e, dbd1_), dbd2_);
      iqinj = std::min(std::max(kqv_ * band, iql1_), iqh1_);
    }
    const double iqc = iqcmd - iqinj;
    double qsel = 0.0;
    if (!qflag_) {
      in.state(iq_, iqc);
      qsel = iqc * vd;
    } else {
      in.state(xv_, iqc);
      if (vflag_) {
        in.state(xq_, v);
        qsel = in.signal(signal::qe);
      } else {
        qsel = v;
      }
    }
    if (pfflag_) {
      const double pe = in.signal(signal::pe);
      if (pe == 0.0)
        throw ModelError(describe() + ": PFFLAG = 1 at zero active power: no power factor to hold → use PFFLAG = 0");
      if (pf_ >= 0) in.state(pf_, pe);
      in.parameter(pfaref_, std::atan(qsel / pe));
    } else {
      in.set_signal(signal::qext, qsel);
    }
    in.algebraic(ipcmd_, ipcmd);
    in.algebraic(iqcmd_, iqcmd);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T v = hypot(f.vr(), f.vi());
    const bool below_vdip = f.below(dip_low_, v, T(vdip_));
    const bool above_vup = f.below(dip_high_, T(-v), T(-vup_));
    const bool dip = below_vdip || above_vup;
    T vf = v;
    if (vf_ >= 0) {
      vf = f.x(vf_);
      f.der(vf_, (v - vf) / trv_);
    }
    const T vd = f.clamp(floor_, vf, T(kVoltageFloor), T(kUnbounded));
    // The reactive power reference.
    T qsel;
    if (pfflag_) {
      T pf = f.u(pe_);
      if (pf_ >= 0) {
        pf = f.x(pf_);
        f.der(pf_, (f.u(pe_) - pf) / tp_);
      }
      qsel = pf * std::tan(f.p(pfaref_));
    } else {
      qsel = f.u(qext_);
    }
    const T qlim = f.clamp(qlim_, qsel, T(qmin_), T(qmax_));
    T iqinj(0.0);
    if (iqinj_ >= 0)
      iqinj = f.clamp(iqinj_, T(kqv_ * dead_band(f, db_, T(f.p(vref0_p_) - vf), dbd1_, dbd2_)), T(iql1_), T(iqh1_));
    // Power order.
    const T rate = rate_limit(f, p_rate_, T((f.u(pref_) - f.x(pord_)) / tpord_), dpmin_, dpmax_);
    const T dpord = f.hold(p_lim_, f.x(pord_), rate, T(pmin_), T(pmax_));
    f.der(pord_, dip ? T(0.0) : dpord);
    const T ip_wanted = f.x(pord_) / vd;
    // The current limit logic, in the order its priority needs.
    T ipcmd, iqcmd;
    if (pqflag_) {
      ipcmd = f.clamp(ip_lim_, ip_wanted, T(0.0), T(imax_));
      const T iqmax = f.mode(ip_lim_) == kModeHigh ? T(0.0) : root(T(imax_ * imax_ - ipcmd * ipcmd));
      iqcmd = f.clamp(iq_lim_, T(reactive(f, qsel, qlim, vf, vd, iqmax, dip) + iqinj), T(-iqmax), iqmax);
    } else {
      const T iqmax(imax_);
      iqcmd = f.clamp(iq_lim_, T(reactive(f, qsel, qlim, vf, vd, iqmax, dip) + iqinj), T(-iqmax), iqmax);
      const T ipmax = f.mode(iq_lim_) != kModeFree ? T(0.0) : root(T(imax_ * imax_ - iqcmd * iqcmd));
      ipcmd = f.clamp(ip_lim_, ip_wanted, T(0.0), ipmax);
    }
    f.res(ipcmd_, f.z(ipcmd_) - ipcmd);
    f.res(iqcmd_, f.z(iqcmd_) - iqcmd);
  }

 private:
  // The reactive current from the Q path (Iqc), writing its states' derivatives.
  template <class T>
  T reactive(Frame<T>& f, const T& qsel, const T& qlim, const T& vf, const T& vd, const T& iqmax, bool dip) const {
    if (!qflag_) {
      const T& iq = f.x(iq_);
      f.der(iq_, dip ? T(0.0) : T((qlim / vd - iq) / tiq_));
      return iq;
    }
    T vsel;
    if (vflag_)
      vsel = pi_non_windup(f, qpi_sum_, qpi_int_, xq_, T(qlim - f.u(qe_)), kqp_, kqi_, T(vmin_), T(vmax_), dip);
    else
      vsel = f.clamp(vlim_, qsel, T(vmin_), T(vmax_));
    return pi_non_windup(f, vpi_sum_, vpi_int_, xv_, T(vsel - vf), kvp_, kvi_, T(-iqmax), iqmax, dip);
  }

  bool pfflag_ = false, vflag_ = false, qflag_ = false, pqflag_ = false;
  double vdip_ = 0, vup_ = 0, trv_ = 0, dbd1_ = 0, dbd2_ = 0, kqv_ = 0, iqh1_ = 0, iql1_ = 0, vref0_ = 0, tp_ = 0;
  double qmax_ = 0, qmin_ = 0, vmax_ = 0, vmin_ = 0, kqp_ = 0, kqi_ = 0, kvp_ = 0, kvi_ = 0, tiq_ = 0;
  double dpmax_ = 0, dpmin_ = 0, pmax_ = 0, pmin_ = 0, imax_ = 0, tpord_ = 0;
  int vf_ = -1, pf_ = -1, xq_ = -1, xv_ = -1, iq_ = -1, pord_ = 0, ipcmd_ = 0, iqcmd_ = 0;
  int pe_ = -1, qe_ = -1, pref_ = 0, qext_ = -1, pfaref_ = -1, vref0_p_ = -1;
  int dip_low_ = 0, dip_high_ = 0, floor_ = 0, db_ = -1, iqinj_ = -1, qlim_ = 0, qpi_sum_ = -1, qpi_int_ = -1;
  int vlim_ = -1, vpi_sum_ = -1, vpi_int_ = -1, iq_lim_ = 0, p_rate_ = 0, p_lim_ = 0, ip_lim_ = 0;
};

}  // namespace

std::span<const ParameterSpec> reecb1_parameters() { return kParameters; }

std::unique_ptr<Component> make_reecb1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Reecb1>(record, unit);
}

}  // namespace lsdae::psse
