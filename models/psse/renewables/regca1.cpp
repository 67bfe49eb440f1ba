// models/psse/renewables/regca1.cpp -- REGCA1 (regca1.h).
//
// Per unit on MBASE; V = |Vr + jVi| the terminal voltage, θ its angle.
//     Tg dIp/dt = Ipcmd − Ip, with dIp/dt <= Rrpwr and, with LVPLSW = 1,
//                 Ip <= LVPL(Vf) (non-windup),
//     Tg dIq/dt = Iqcmd − Iq, with dIq/dt <= Iqrmax if Q0 > 0, >= Iqrmin if Q0 < 0,
//     Tfltr dVf/dt = V − Vf                                     (LVPLSW = 1)
//     LVPL(Vf)  = Lvpl1 (clamp(Vf, Zerox, Brkpt) − Zerox)/(Brkpt − Zerox)
//     Glv(V)    = (clamp(V, Lvpnt0, Lvpnt1) − Lvpnt0)/(Lvpnt1 − Lvpnt0)   (LVACM)
//     Ipout     = Glv(V) Ip
//     Iqout     = max(Iq − Khv max(V − Volim, 0), Iolim)         (HVRCM)
//     I         = (Ipout − j Iqout) e^{jθ} V/max(V, 0.01)        injected, × MBASE/SBASE
// so that P = V Ipout and Q = V Iqout (V >= 0.01). Every kink is a limiter
// (a state event): the rate limits, the LVPL limit on Ip and Iolim are limits
// (reported when they start engaged), the breakpoints of the LVPL and LVACM
// characteristics and of the HV term are switches (`below`: being on a flat
// part of a characteristic is normal operation).
//
// Sources, read side by side (the PSS/E Model Library itself is not public):
// the WECC "Second Generation Wind Turbine Models" and "Solar PV Power Plant
// Modeling and Validation Guideline" (REGC_A), PowerWorld's REGC_A diagram as
// reproduced by PowerSimulationsDynamics.jl (docs, component models,
// "Converter"), ANDES's REGCA1 (model reference and source), OpenIPSL's
// REGCA1 (written against the PSS/E Model Library); parameter order checked
// against PowerSystems.jl's .dyr map. Where they differ, lsdae follows:
//  * rate limits Rrpwr, Iqrmax, Iqrmin in p.u./s on dIp/dt, dIq/dt (the
//    documents' unit, and ANDES). OpenIPSL and PowerSimulationsDynamics.jl
//    limit Ipcmd − Ip before dividing by Tg, i.e. Rrpwr/Tg p.u./s.
//  * Iqrmax active only when the initial Q > 0, Iqrmin only when Q < 0 (ANDES
//    and PowerSimulationsDynamics.jl agree; PSD also activates Iqrmax at Q = 0).
//  * LVPL as a non-windup upper limit on the state Ip (the WECC diagram's
//    limit on the lag; ANDES). OpenIPSL clamps the output only (windup); PSD
//    clamps the output and stops the state above the limit. While held, Ip
//    follows LVPL(Vf) as Vf moves (dIp/dt = dLVPL/dt) and is released when
//    the unlimited rate falls below the limit's rate.
//  * LVPL beyond Brkpt stays at Lvpl1 (OpenIPSL, PSD); ANDES lifts the limit
//    there. Both coincide when Ip <= Lvpl1 (Lvpl1 = 1.22 > Imax in WECC data).
//  * the HV reactive current management as in ANDES and the WECC text: it
//    reduces the capacitive current above Volim, Iqout = Iq − Khv(V − Volim),
//    never below Iolim (< 0, the most inductive current). OpenIPSL and PSD add
//    Khv(V − Volim) to the injected Q (with Khv = 0, as in WECC240 and PSD's
//    tests, all agree). PSS/E solves this management iteratively in its
//    network solution (Accel is that iteration's acceleration factor); the
//    DAE holds the relation exactly, so Accel is read and not used.
//  * a pure current injection: the generator record's ZSORCE is not used
//    (PSS/E's Norton source of a converter model carries no current of its
//    own; PSD's RENA case sets it to 9999 for that reason).
//  * V/max(V, 0.01): a guard of lsdae's (a limiter) that keeps the current
//    finite and the Jacobian regular in a bolted fault at the terminal.
//
// Initialization at (V, P0 + jQ0): Ip = P0/(V Glv(V)), Iq = Q0/V +
// Khv max(V − Volim, 0), Vf = V, and the commands Ipcmd = Ip, Iqcmd = Iq are
// what the electrical control must deliver (set as signals). A voltage below
// Lvpnt0 with P0 ≠ 0, or an initial current beyond LVPL or Iolim, is
// reported (ModelError / the framework's limiter report).
#include "psse/renewables/regca1.h"

#include <cmath>
#include <string>

#include "psse/core/blocks.h"
#include "psse/core/signals.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"LVPLSW", "", "low-voltage power logic: 1 enabled, 0 disabled (ICON)"},
    {"Tg", "s", "converter time constant"},
    {"Rrpwr", "p.u./s", "LVPL ramp rate limit on the active current's increase"},
    {"Brkpt", "p.u.", "LVPL characteristic voltage 2 (breakpoint)"},
    {"Zerox", "p.u.", "LVPL characteristic voltage 1 (zero crossing)"},
    {"Lvpl1", "p.u.", "LVPL gain: the active current limit at Brkpt"},
    {"Volim", "p.u.", "voltage limit of the high-voltage reactive current management"},
    {"Lvpnt1", "p.u.", "high voltage point of the low-voltage active current management"},
    {"Lvpnt0", "p.u.", "low voltage point of the low-voltage active current management"},
    {"Iolim", "p.u.", "current limit of the high-voltage reactive current management (< 0)"},
    {"Tfltr", "s", "voltage filter time constant of the LVPL"},
    {"Khv", "", "overvoltage compensation gain of the high-voltage reactive current management"},
    {"Iqrmax", "p.u./s", "upper limit on the rate of change of the reactive current"},
    {"Iqrmin", "p.u./s", "lower limit on the rate of change of the reactive current"},
    {"Accel", "", "acceleration factor of PSS/E's iterative HV management (not used)"},
};

constexpr double kVoltageFloor = 0.01;  // of the current's direction, p.u.

class Regca1 final : public Equations<Regca1> {
 public:
  Regca1(const DyrRecord& record, const UnitData& unit)
      : Equations({record.model, Role::machine, InitStage::network_device, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    p.require(p[0] == 0.0 || p[0] == 1.0, 0, "must be 0 or 1");
    lvplsw_ = p[0] == 1.0;
    p.require_positive(1);
    p.require_positive(2);
    tg_ = p[1], rrpwr_ = p[2], brkpt_ = p[3], zerox_ = p[4], lvpl1_ = p[5], volim_ = p[6];
    lvpnt1_ = p[7], lvpnt0_ = p[8], iolim_ = p[9], tfltr_ = p[10], khv_ = p[11], iqrmax_ = p[12], iqrmin_ = p[13];
    if (lvplsw_) {
      p.require(brkpt_ > zerox_, 3, "must exceed Zerox");
      p.require_nonnegative(5);
      p.require(tfltr_ > 0.0, 10, "must be > 0 with LVPLSW = 1 (the LVPL limit moves with the filtered voltage)");
    }
    p.require_nonnegative(8);
    p.require(lvpnt1_ > lvpnt0_, 7, "must exceed Lvpnt0");
    p.require(iolim_ <= 0.0, 9, "must be <= 0 (the most inductive current)");
    p.require_nonnegative(11);
    p.require_positive(12);
    p.require(iqrmin_ < 0.0, 13, "must be < 0");
    p.require(std::isfinite(p[14]), 14, "must be a number");
    if (!(unit.mbase > 0.0))
      throw ModelError(p.where() + ": the generator's MBASE is " + std::to_string(unit.mbase) +
                       " MVA → give the generator record a positive MBASE");
    base_ratio_ = unit.mbase / unit.system_base;
  }

  void declare(Layout& l) override {
    ip_ = l.state("Ip", "active current, lagging Ipcmd", "p.u.");
    iq_ = l.state("Iq", "reactive current, lagging Iqcmd (> 0 injects Q)", "p.u.");
    vf_ = lvplsw_ ? l.state("Vf", "terminal voltage filtered for the LVPL", "p.u.") : -1;
    ipcmd_ = l.input(signal::ipcmd);
    iqcmd_ = l.input(signal::iqcmd);
    pe_ = qe_ = -1;
    if (l.consumed(signal::pe)) {
      pe_ = l.algebraic("Pe", "active power at the terminal, p.u. on MBASE");
      l.output(signal::pe, Var::z(pe_));
    }
    if (l.consumed(signal::qe)) {
      qe_ = l.algebraic("Qe", "reactive power at the terminal, p.u. on MBASE");
      l.output(signal::qe, Var::z(qe_));
    }
    floor_ = l.limiter("Vfloor", LimiterKind::windup);
    lvacm0_ = l.limiter("Lvpnt0", LimiterKind::below);  // the breakpoints of the characteristics
    lvacm1_ = l.limiter("Lvpnt1", LimiterKind::below);
    ip_rate_ = l.limiter("Rrpwr", LimiterKind::windup);
    iq_rate_ = l.limiter("Iqr", LimiterKind::windup);
    lvpl0_ = lvplsw_ ? l.limiter("Zerox", LimiterKind::below) : -1;
    lvpl1_k_ = lvplsw_ ? l.limiter("Brkpt", LimiterKind::below) : -1;
    lvpl_ = lvplsw_ ? l.limiter("LVPL", LimiterKind::non_windup, ip_) : -1;
    hv_ = khv_ > 0.0 ? l.limiter("Volim", LimiterKind::below) : -1;
    iolim_k_ = l.limiter("Iolim", LimiterKind::windup);
  }

  void initialize(InitContext& in) override {
    const Complex v = in.voltage();
    const Complex s = in.injection() / base_ratio_;  // MBASE
    const double vm = std::abs(v);
    if (!(vm > kVoltageFloor))
      throw ModelError(describe() + ": initial terminal voltage " + std::to_string(vm) +
                       " p.u. → the converter needs a live terminal; check the power flow");
    const double g = (std::min(std::max(vm, lvpnt0_), lvpnt1_) - lvpnt0_) / (lvpnt1_ - lvpnt0_);
    if (g == 0.0 && s.real() != 0.0)
      throw ModelError(describe() + ": initial voltage " + std::to_string(vm) + " p.u. is below Lvpnt0 = " +
                       std::to_string(lvpnt0_) + ", where the converter injects no active current, but P = " +
                       std::to_string(s.real()) + " p.u. → check the power flow or Lvpnt0");
    const double ip = g > 0.0 ? s.real() / (vm * g) : 0.0;
    const double iq = s.imag() / vm + khv_ * std::max(vm - volim_, 0.0);
    if (g < 1.0) in.note("initial voltage below Lvpnt1: the active current management reduces Ip at rest");
    in.state(ip_, ip);
    in.state(iq_, iq);
    if (vf_ >= 0) in.state(vf_, vm);
    in.set_signal(signal::ipcmd, ip);
    in.set_signal(signal::iqcmd, iq);
    if (pe_ >= 0) in.algebraic(pe_, s.real());
    if (qe_ >= 0) in.algebraic(qe_, s.imag());
    // Iqrmax is active for a unit injecting Q at rest, Iqrmin for one absorbing.
    iqr_hi_ = s.imag() > 0.0 ? iqrmax_ : kUnbounded;
    iqr_lo_ = s.imag() < 0.0 ? iqrmin_ : -kUnbounded;
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vm = hypot(f.vr(), f.vi());
    const T vd = f.clamp(floor_, vm, T(kVoltageFloor), T(kUnbounded));
    const T& ip = f.x(ip_);
    const T& iq = f.x(iq_);
    // Active current: rate limit, then the LVPL limit on the state.
    const T rate = rate_limit(f, ip_rate_, T((f.u(ipcmd_) - ip) / tg_), -kUnbounded, rrpwr_);
    if (lvplsw_) {
      const T& vf = f.x(vf_);
      const T dvf = (vm - vf) / tfltr_;
      f.der(vf_, dvf);
      double slope = 0.0;
      const T limit = ramp(f, lvpl0_, lvpl1_k_, vf, zerox_, brkpt_, 0.0, lvpl1_, &slope);
      const T dlimit = slope * dvf;
      f.der(ip_, f.hold(lvpl_, ip, T(rate - dlimit), T(-kUnbounded), limit) + dlimit);
    } else {
      f.der(ip_, rate);
    }
    f.der(iq_, rate_limit(f, iq_rate_, T((f.u(iqcmd_) - iq) / tg_), iqr_lo_, iqr_hi_));
    // Network interface.
    const T ipout = ramp(f, lvacm0_, lvacm1_, vm, lvpnt0_, lvpnt1_, 0.0, 1.0) * ip;
    const T over = hv_ >= 0 && !f.below(hv_, vm, T(volim_)) ? T(khv_ * (vm - volim_)) : T(0.0);
    const T iqout = f.clamp(iolim_k_, T(iq - over), T(iolim_), T(kUnbounded));
    const T ir = (ipout * f.vr() + iqout * f.vi()) / vd;
    const T ii = (ipout * f.vi() - iqout * f.vr()) / vd;
    f.inject(base_ratio_ * ir, base_ratio_ * ii);
    if (pe_ >= 0) f.res(pe_, f.z(pe_) - (f.vr() * ir + f.vi() * ii));
    if (qe_ >= 0) f.res(qe_, f.z(qe_) - (f.vi() * ir - f.vr() * ii));
  }

 private:
  bool lvplsw_ = false;
  double tg_ = 0, rrpwr_ = 0, brkpt_ = 0, zerox_ = 0, lvpl1_ = 0, volim_ = 0, lvpnt1_ = 0, lvpnt0_ = 0;
  double iolim_ = 0, tfltr_ = 0, khv_ = 0, iqrmax_ = 0, iqrmin_ = 0, base_ratio_ = 1;
  double iqr_hi_ = kUnbounded, iqr_lo_ = -kUnbounded;
  int ip_ = 0, iq_ = 0, vf_ = -1, ipcmd_ = 0, iqcmd_ = 0, pe_ = -1, qe_ = -1;
  int floor_ = 0, lvacm0_ = 0, lvacm1_ = 0, ip_rate_ = 0, iq_rate_ = 0, lvpl0_ = -1, lvpl1_k_ = -1, lvpl_ = -1;
  int hv_ = -1, iolim_k_ = 0;
};

}  // namespace

std::span<const ParameterSpec> regca1_parameters() { return kParameters; }

std::unique_ptr<Component> make_regca1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Regca1>(record, unit);
}

}  // namespace lsdae::psse
