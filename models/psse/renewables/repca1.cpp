// models/psse/renewables/repca1.cpp -- REPCA1 (repca1.h).
//
// Per unit on MBASE; V the terminal voltage, P + jQ the unit's output (pe,
// qe), I = conj((P + jQ)/V) its current.
//   Measured:   RefFlag = 1: y = |V − (Rc + jXc) I| (VCFlag = 1) or V + Kc Q (VCFlag = 0);
//               RefFlag = 0: y = Q.        Tfltr dyf/dt = y − yf
//   Q loop:     e = clamp(db(Vref − yf or Qref − yf; dbd1, dbd2), emin, emax)
//               Qpi = PI(Kp, Ki; e) in [Qmin, Qmax], integrator frozen while V < Vfrz
//               Qext = Qpi (1 + s Tft)/(1 + s Tfv)
//   P loop:     Tp dPf/dt = P − Pf;  Δf the bus frequency deviation (core/bus_frequency.h)
//     (Fflag=1) d = db(Fref − Δf; fdbd1, fdbd2),  droop = Ddn min(d, 0) + Dup max(d, 0)
//               Ppi = PI(Kpg, Kig; clamp(Plant_pref − Pf + droop, femin, femax)) in [Pmin, Pmax]
//               Tlag dPref/dt = Ppi − Pref
//     (Fflag=0) Pref is not produced: the electrical control holds its initial Pref.
// The PIs have non-windup limits on their sums (core/blocks.h); the dead
// bands, limits, the freeze and the droop's sign are limiters (state events).
//
// Sources (read side by side): the WECC "Solar PV Power Plant Modeling and
// Validation Guideline" and "Second Generation Wind Turbine Models" (REPC_A),
// PowerWorld's REPC_A as PowerSimulationsDynamics.jl reproduces it (docs,
// "Outer control", Active/ReactiveRenewableControllerAB), OpenIPSL's REPCA1
// (written against the PSS/E Model Library), ANDES's REPCA1; parameter order
// checked against PowerSystems.jl's .dyr map. Where they differ, lsdae
// follows:
//  * both PIs with non-windup limits (the WECC convention, PSD); OpenIPSL
//    clamps the active PI's output only.
//  * the frequency is the terminal bus's, measured (bus_frequency.h, Tf =
//    0.02 s) when a droop gain is non-zero; PSD uses the system frequency
//    (1 at an infinite bus), PSS/E its network's bus frequency. With Ddn =
//    Dup = 0 (WECC240) the measurement is left out: it could change nothing.
//  * the regulated voltage and the measured flow are the generator
//    terminal's (the .dyr's bus 0 and branch 0 0, as in WECC240 and PSD's
//    tests); a remote bus or a monitored branch is refused with a message
//    (lsdae's components see their own bus only).
//  * Vfrz compares the unfiltered regulated voltage (OpenIPSL); no freeze when
//    Vfrz <= 0.
//
// Initialization from the electrical control's references (signals qext and
// pref, set by REECB1) and the unit's output: yf = y, the reference Vref or
// Qref = y (zero error), xQ = Qll = Qext; Pf = P, Plant_pref = P, Fref = 0,
// xP = Plag = Pref. A reference beyond its limit is reported by the
// framework's limiter report.
#include "psse/renewables/repca1.h"

#include <cmath>
#include <numbers>
#include <string>

#include "psse/core/blocks.h"
#include "psse/core/bus_frequency.h"
#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"BUS", "", "regulated bus, 0: the terminal (ICON)"},
    {"FROM", "", "monitored branch, from bus, 0: the generator's output (ICON)"},
    {"TO", "", "monitored branch, to bus (ICON)"},
    {"CKT", "", "monitored branch, circuit id (ICON)", true},
    {"VCFlag", "", "1: line drop compensation, 0: reactive droop (ICON)"},
    {"RefFlag", "", "1: voltage control, 0: reactive power control (ICON)"},
    {"Fflag", "", "1: active power control with frequency droop, 0: constant Pref (ICON)"},
    {"Tfltr", "s", "voltage or reactive power measurement filter time constant"},
    {"Kp", "", "reactive power / voltage regulator proportional gain"},
    {"Ki", "1/s", "reactive power / voltage regulator integral gain"},
    {"Tft", "s", "lead time constant"},
    {"Tfv", "s", "lag time constant"},
    {"Vfrz", "p.u.", "voltage below which the regulator's integrator is frozen"},
    {"Rc", "p.u.", "line drop compensation resistance"},
    {"Xc", "p.u.", "line drop compensation reactance"},
    {"Kc", "", "reactive droop gain"},
    {"emax", "p.u.", "upper limit of the error"},
    {"emin", "p.u.", "lower limit of the error"},
    {"dbd1", "p.u.", "error dead band, lower threshold (<= 0)"},
    {"dbd2", "p.u.", "error dead band, upper threshold (>= 0)"},
    {"Qmax", "p.u.", "upper limit of the regulator's output"},
    {"Qmin", "p.u.", "lower limit of the regulator's output"},
    {"Kpg", "", "active power regulator proportional gain"},
    {"Kig", "1/s", "active power regulator integral gain"},
    {"Tp", "s", "active power measurement filter time constant"},
    {"fdbd1", "p.u.", "frequency dead band, lower threshold (<= 0)"},
    {"fdbd2", "p.u.", "frequency dead band, upper threshold (>= 0)"},
    {"femax", "p.u.", "upper limit of the power error"},
    {"femin", "p.u.", "lower limit of the power error"},
    {"Pmax", "p.u.", "upper limit of the active power reference"},
    {"Pmin", "p.u.", "lower limit of the active power reference"},
    {"Tlag", "s", "active power reference lag time constant"},
    {"Ddn", "p.u./p.u.", "droop gain for over-frequency (down regulation)"},
    {"Dup", "p.u./p.u.", "droop gain for under-frequency (up regulation)"},
};

class Repca1 final : public Equations<Repca1> {
 public:
  Repca1(const DyrRecord& record, const UnitData& unit)
      : Equations({record.model, Role::plant_control, InitStage::outer_control, record.bus, record.id,
                   record.where()}),
        freq_(BusFrequency::kDefaultFilter, 2.0 * std::numbers::pi * unit.frequency) {
    const Parameters p(record, kParameters);
    p.require(p[0] == 0.0 || p[0] == record.bus, 0,
              "names a remote bus; lsdae's REPCA1 regulates its own terminal voltage only (set it to 0)");
    p.require(p[1] == 0.0 && p[2] == 0.0, p[1] != 0.0 ? 1 : 2,
              "names a monitored branch; lsdae's REPCA1 measures the generator's own output only (set FROM and "
              "TO to 0)");
    for (std::size_t i : {4u, 5u, 6u}) p.require(p[i] == 0.0 || p[i] == 1.0, i, "must be 0 or 1");
    vcflag_ = p[4] == 1.0, refflag_ = p[5] == 1.0, fflag_ = p[6] == 1.0;
    tfltr_ = p[7], kp_ = p[8], ki_ = p[9], tft_ = p[10], tfv_ = p[11], vfrz_ = p[12], rc_ = p[13], xc_ = p[14];
    kc_ = p[15], emax_ = p[16], emin_ = p[17], dbd1_ = p[18], dbd2_ = p[19], qmax_ = p[20], qmin_ = p[21];
    kpg_ = p[22], kig_ = p[23], tp_ = p[24], fdbd1_ = p[25], fdbd2_ = p[26], femax_ = p[27], femin_ = p[28];
    pmax_ = p[29], pmin_ = p[30], tlag_ = p[31], ddn_ = p[32], dup_ = p[33];
    p.require_nonnegative(7);
    p.require_nonnegative(10);
    p.require_nonnegative(11);
    p.require(tft_ == 0.0 || tfv_ > 0.0, 11, "must be > 0 when Tft > 0 (a lead without a lag)");
    p.require(emax_ >= emin_, 16, "must be at least emin");
    p.require(dbd1_ <= 0.0, 18, "must be <= 0");
    p.require(dbd2_ >= 0.0, 19, "must be >= 0");
    p.require(qmax_ >= qmin_, 20, "must be at least Qmin");
    p.require_nonnegative(24);
    p.require(fdbd1_ <= 0.0, 25, "must be <= 0");
    p.require(fdbd2_ >= 0.0, 26, "must be >= 0");
    p.require(femax_ >= femin_, 27, "must be at least femin");
    p.require(pmax_ >= pmin_, 29, "must be at least Pmin");
    p.require_nonnegative(31);
    p.require_nonnegative(32);
    p.require_nonnegative(33);
    droop_ = fflag_ && (ddn_ > 0.0 || dup_ > 0.0);
  }

  void declare(Layout& l) override {
    yf_ = tfltr_ > 0.0 ? l.state(refflag_ ? "Vf" : "Qf", "regulated quantity, filtered", "p.u.") : -1;
    xq_ = l.state("xQ", "reactive power / voltage regulator, integrator", "p.u.");
    qll_ = tfv_ > 0.0 ? l.state("Qll", "lead-lag state", "p.u.") : -1;
    qext_ = l.algebraic("Qext", "reactive power reference to the electrical control", "p.u.");
    l.output(signal::qext, Var::z(qext_));
    pe_ = l.input(signal::pe);
    qe_ = l.input(signal::qe);
    ref_ = l.parameter(refflag_ ? "Vref" : "Qref", refflag_ ? "regulated voltage reference" : "reactive power reference",
                       "p.u.");
    vfrz_k_ = vfrz_ > 0.0 ? l.limiter("Vfrz", LimiterKind::below) : -1;
    db_ = dbd1_ < dbd2_ ? l.limiter("dbd", LimiterKind::windup) : -1;
    e_lim_ = l.limiter("elim", LimiterKind::windup);
    q_sum_ = l.limiter("Qpi", LimiterKind::windup);
    q_int_ = l.limiter("Qpi_int", LimiterKind::pi_non_windup);
    if (!fflag_) return;
    pf_ = tp_ > 0.0 ? l.state("Pf", "active power, filtered", "p.u.") : -1;
    xp_ = l.state("xP", "active power regulator, integrator", "p.u.");
    plag_ = tlag_ > 0.0 ? l.state("Plag", "active power reference, lagged", "p.u.") : -1;
    if (droop_) freq_.declare(l);
    pref_ = l.algebraic("Pref", "active power reference to the electrical control", "p.u.");
    l.output(signal::pref, Var::z(pref_));
    plant_pref_ = l.parameter("Plant_pref", "the plant's active power reference", "p.u.");
    if (droop_) fref_ = l.parameter("Fref", "frequency reference, deviation from nominal", "p.u.");
    fdb_ = droop_ && fdbd1_ < fdbd2_ ? l.limiter("fdbd", LimiterKind::windup) : -1;
    sign_ = droop_ && fdb_ < 0 && ddn_ != dup_ ? l.limiter("droop", LimiterKind::below) : -1;
    fe_lim_ = l.limiter("felim", LimiterKind::windup);
    p_sum_ = l.limiter("Ppi", LimiterKind::windup);
    p_int_ = l.limiter("Ppi_int", LimiterKind::pi_non_windup);
  }

  void initialize(InitContext& in) override {
    const Complex v = in.voltage(), s(in.signal(signal::pe), in.signal(signal::qe));
    const double y = measured(v.real(), v.imag(), s.real(), s.imag());
    if (yf_ >= 0) in.state(yf_, y);
    in.parameter(ref_, y);
    const double qext = in.signal(signal::qext);
    in.state(xq_, qext);
    if (qll_ >= 0) in.state(qll_, qext);
    in.algebraic(qext_, qext);
    if (!fflag_) return;
    const double pref = in.signal(signal::pref);
    if (pf_ >= 0) in.state(pf_, s.real());
    in.state(xp_, pref);
    if (plag_ >= 0) in.state(plag_, pref);
    if (droop_) {
      freq_.initialize(in);
      in.parameter(fref_, 0.0);
    }
    in.algebraic(pref_, pref);
    in.parameter(plant_pref_, s.real());
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& p = f.u(pe_);
    const T& q = f.u(qe_);
    // Reactive power / voltage loop.
    T yf = measured(f.vr(), f.vi(), p, q);
    if (yf_ >= 0) {
      f.der(yf_, (yf - f.x(yf_)) / tfltr_);
      yf = f.x(yf_);
    }
    const bool frozen = vfrz_k_ >= 0 && f.below(vfrz_k_, T(hypot(f.vr(), f.vi())), T(vfrz_));
    const T e = f.clamp(e_lim_, dead_band(f, db_, T(f.p(ref_) - yf), dbd1_, dbd2_), T(emin_), T(emax_));
    const T qpi = pi_non_windup(f, q_sum_, q_int_, xq_, e, kp_, ki_, T(qmin_), T(qmax_), frozen);
    T qext = qpi;
    if (qll_ >= 0) {
      f.der(qll_, (qpi - f.x(qll_)) / tfv_);
      qext = (tft_ / tfv_) * qpi + (1.0 - tft_ / tfv_) * f.x(qll_);
    }
    f.res(qext_, f.z(qext_) - qext);
    if (!fflag_) return;
    // Active power loop.
    T pf = p;
    if (pf_ >= 0) {
      f.der(pf_, (p - f.x(pf_)) / tp_);
      pf = f.x(pf_);
    }
    T droop(0.0);
    if (droop_) {
      freq_.equations(f);
      const T d = dead_band(f, fdb_, T(f.p(fref_) - freq_.deviation(f)), fdbd1_, fdbd2_);
      const bool up = fdb_ >= 0 ? f.mode(fdb_) == kModeHigh : (sign_ < 0 || !f.below(sign_, d, T(0.0)));
      droop = (up ? dup_ : ddn_) * d;
    }
    const T perr = f.clamp(fe_lim_, T(f.p(plant_pref_) - pf + droop), T(femin_), T(femax_));
    const T ppi = pi_non_windup(f, p_sum_, p_int_, xp_, perr, kpg_, kig_, T(pmin_), T(pmax_));
    T pref = ppi;
    if (plag_ >= 0) {
      f.der(plag_, (ppi - f.x(plag_)) / tlag_);
      pref = f.x(plag_);
    }
    f.res(pref_, f.z(pref_) - pref);
  }

 private:
  // The regulated quantity y (header comment).
  template <class T>
  T measured(const T& vr, const T& vi, const T& p, const T& q) const {
    if (!refflag_) return q;
    const T vm = hypot(vr, vi);
    if (!vcflag_) return vm + kc_ * q;
    const T v2 = vr * vr + vi * vi;
    const T ir = (p * vr + q * vi) / v2, ii = (p * vi - q * vr) / v2;  // conj(S/V)
    return hypot(T(vr - rc_ * ir + xc_ * ii), T(vi - rc_ * ii - xc_ * ir));
  }

  bool vcflag_ = false, refflag_ = false, fflag_ = false, droop_ = false;
  double tfltr_ = 0, kp_ = 0, ki_ = 0, tft_ = 0, tfv_ = 0, vfrz_ = 0, rc_ = 0, xc_ = 0, kc_ = 0, emax_ = 0, emin_ = 0;
  double dbd1_ = 0, dbd2_ = 0, qmax_ = 0, qmin_ = 0, kpg_ = 0, kig_ = 0, tp_ = 0, fdbd1_ = 0, fdbd2_ = 0;
  double femax_ = 0, femin_ = 0, pmax_ = 0, pmin_ = 0, tlag_ = 0, ddn_ = 0, dup_ = 0;
  BusFrequency freq_;
  int yf_ = -1, xq_ = 0, qll_ = -1, qext_ = 0, pe_ = 0, qe_ = 0, ref_ = 0, pf_ = -1, xp_ = -1, plag_ = -1;
  int pref_ = -1, plant_pref_ = -1, fref_ = -1;
  int vfrz_k_ = -1, db_ = -1, e_lim_ = 0, q_sum_ = 0, q_int_ = 0, fdb_ = -1, sign_ = -1, fe_lim_ = -1, p_sum_ = -1,
      p_int_ = -1;
};

}  // namespace

std::span<const ParameterSpec> repca1_parameters() { return kParameters; }

std::unique_ptr<Component> make_repca1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Repca1>(record, unit);
}

}  // namespace lsdae::psse
