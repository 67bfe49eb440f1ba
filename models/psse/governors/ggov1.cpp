// models/psse/governors/ggov1.cpp -- GGOV1 (ggov1.h).
//
// Per unit on the turbine base Trate (MW; MBASE when Trate = 0): the machine's
// pe and pm (MBASE) are converted with MBASE/Trate. Δω is the speed deviation,
// ω = 1 + Δω the speed, Pm the mechanical POWER (machine_frame.h). With
// fsr the fuel stroke reference (the low-value select output):
//
//   Droop and supervisory control
//     Tpelec dPelec/dt = pe − Pelec                   (Pelec = pe when Tpelec = 0)
//     dxMW/dt = Kimw (Pmwset − Pelec),  xMW non-windup in [−1.1 R, 1.1 R]   (Kimw > 0)
//     y = Pelec | 0 | fsrp | stroke   for Rselect = 1 | 0 | −1 | −2
//     err = clamp(Pref + xMW − dband(Δω) − R y,  minerr, maxerr)
//   PID governor
//     Tdgov dxD/dt = err − xD,   D = Kdgov (err − xD)/Tdgov                 (Kdgov > 0)
//     fsrn = Kpgov err + xI + D
//     dxI/dt = (Kigov/Kpgov)(fsr − xI)       (Kpgov > 0: the integral tracks fsr)
//     dxI/dt = Kigov err                     (Kpgov = 0: a plain integral)
//   Temperature (load) limiter
//     wf = stroke ω^Flag                       fuel flow
//     Tsb dxTS/dt = wf ω^min(Dm,0) − xTS,   temperature lead-lag (1 + s Tsa)/(1 + s Tsb)
//     Tfload dtexm/dt = xTS + Tsa/Tsb (wf ω^min(Dm,0) − xTS) − texm
//     fsrt = min(Kpload (Ldref/Kturb + Wfnl − texm) + xLL, 1)
//     dxLL/dt = (Kiload/Kpload)(fsr − xLL)   (Kpload > 0), Kiload (Ldref/Kturb + Wfnl − texm) (Kpload = 0)
//   Acceleration limiter
//     Ta dxA/dt = Δω − xA,   a = (Δω − xA)/Ta                             (Ka > 0, Ta > 0)
//     fsra = fsrp + Ka DELT (Aset − a)
//   Low-value select, valve, turbine
//     fsr = clamp(min(fsrn, fsrt, fsra), Vmin, Vmax)
//     dstroke/dt = clamp((fsr − stroke)/Tact, Rclose, Ropen)
//     Tb dxTB/dt = Kturb (wf − Wfnl) − xTB,   Pt = xTB + Tc/Tb (Kturb (wf − Wfnl) − xTB)
//     Pm = Pt − Dm Δω (Dm > 0),  Pt (Dm <= 0);   Pm(MBASE) = Pm Trate/MBASE
//
// Sources: PowerWorld's GGOV1 block diagram and notes (reproduced in GridKit's
// GGOV1 README and transcribed in GridPACK's ggov1.cpp, both read), the PSS/E
// parameter list and meanings (OpenIPSL's GGOV1 documentation, PowerSystems.jl's
// .dyr map), IEC 61970-302 GovCT1/GovCT2 (Dynawo's GovCt2) for the fsrt cap.
//
// Interpretations (docs/psse-governors.md, "GGOV1"):
//  * Integrators with reset. PowerWorld's (and PSLF's) diagram feeds the
//    governor integrator Kigov/Kpgov and the load limiter integrator
//    Kiload/Kpload from fsr − (own output), so that the path the low-value
//    select does not pass on tracks fsr instead of winding up; with the
//    governor in control it is exactly Kpgov + Kigov/s. The notes "if Kpgov = 0
//    the integrator moves in parallel with the proportional path", "if
//    Kpload = 0 Kiload/s is fed by the input to Kpload" give the plain forms.
//    (OpenIPSL's reading of PSS/E's GGOV1 uses plain integrators throughout;
//    the two agree while the governor path is selected, as at rest.)
//  * The acceleration limiter adds Ka·DELT·(Aset − a) to fsr "of the previous
//    time step" (DELT, the time step of PSS/E's fixed-step integration). As a
//    DAE this is the state fsrp with DELT dfsrp/dt = fsr − fsrp: forward Euler
//    at step DELT reproduces PSS/E's one-step delay, and while the limiter is
//    in control dfsrp/dt = Ka (Aset − a), independent of DELT. DELT defaults
//    to half a cycle (PSS/E's customary step) and is the FMU parameter DELT.
//    Rselect = −1 (droop on the requested stroke) uses fsrp for the same
//    reason (fsr depends on err).
//  * Rselect: 1 electrical power, 0 none (isochronous), −1 governor output
//    (requested stroke fsr), −2 fuel valve stroke (true stroke), as the PSS/E
//    parameter list says (GridPACK swaps −1 and −2).
//  * db is a dead band without step on the speed deviation (PowerWorld's
//    dashed block on the speed input; PSS/E calls db the "speed governor
//    deadband"). OpenIPSL and GridPACK apply it to the whole error.
//  * The temperature path sees the fuel flow wf times ω^Dm when Dm < 0
//    (maximum power capability falling with speed); Dm > 0 is a damping on
//    the power output (GridPACK's transcription of PowerWorld).
//  * fsrt is capped at 1.0 (PowerWorld, GridPACK, OpenIPSL, IEC GovCT1/2).
//  * Rup/Rdown (rate limits on the load limit) are not represented (neither
//    does PowerWorld); a value other than the customary ±99 is noted at
//    initialization. Teng > 0 (a transport delay) is refused with a message.
//  * Ka > 0 with Ta = 0 (a pure derivative) disables the acceleration limiter
//    with a note, as PowerWorld does (GridPACK: "Ta <= 0 → Ka = 0").
//
// Initialization (Δω = 0, ω = 1): Pm_t = Pm/base, stroke = fsr = Pm_t/Kturb + Wfnl
// (the damping Dm Δω is 0), xTB = Kturb (stroke − Wfnl) = Pm_t,
// xTS = texm = stroke, xI = xLL = fsrp = fsr, xD = xA = xMW = 0, Pelec = pe,
// Pmwset = Pelec, Pref = R y. A fuel stroke outside [Vmin, Vmax] is reported by
// the framework (limiter "fsr"); a load limit (fsrt) or an acceleration limit
// below the governor's request at the operating point is noted here (the gates
// are LimiterKind::select, whose second input is normal operation).
#include "psse/governors/ggov1.h"

#include <cmath>
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
    {"Rselect", "", "droop feedback: 1 electrical power, 0 none, -1 requested stroke, -2 valve stroke"},
    {"Flag", "", "fuel flow: 0 independent of speed, 1 proportional to speed"},
    {"R", "p.u.", "permanent droop"},
    {"Tpelec", "s", "electrical power transducer time constant"},
    {"maxerr", "p.u.", "maximum speed error"},
    {"minerr", "p.u.", "minimum speed error"},
    {"Kpgov", "p.u.", "governor proportional gain"},
    {"Kigov", "p.u./s", "governor integral gain"},
    {"Kdgov", "p.u.", "governor derivative gain"},
    {"Tdgov", "s", "governor derivative time constant"},
    {"Vmax", "p.u.", "maximum valve position"},
    {"Vmin", "p.u.", "minimum valve position"},
    {"Tact", "s", "actuator time constant"},
    {"Kturb", "p.u.", "turbine gain"},
    {"Wfnl", "p.u.", "no-load fuel flow"},
    {"Tb", "s", "turbine lag time constant"},
    {"Tc", "s", "turbine lead time constant"},
    {"Teng", "s", "transport lag (diesel engine)"},
    {"Tfload", "s", "load limiter time constant"},
    {"Kpload", "p.u.", "load limiter proportional gain"},
    {"Kiload", "p.u./s", "load limiter integral gain"},
    {"Ldref", "p.u.", "load limiter reference"},
    {"Dm", "p.u.", "speed sensitivity (damping if > 0, exponent if < 0)"},
    {"Ropen", "p.u./s", "maximum valve opening rate"},
    {"Rclose", "p.u./s", "maximum valve closing rate"},
    {"Kimw", "p.u./s", "power controller (reset) gain"},
    {"Aset", "p.u./s", "acceleration limiter setpoint"},
    {"Ka", "p.u.", "acceleration limiter gain"},
    {"Ta", "s", "acceleration limiter time constant"},
    {"Trate", "MW", "turbine rating (0: MBASE)"},
    {"db", "p.u.", "speed governor dead band"},
    {"Tsa", "s", "temperature detection lead time constant"},
    {"Tsb", "s", "temperature detection lag time constant"},
    {"Rup", "p.u./s", "maximum rate of load limit increase"},
    {"Rdown", "p.u./s", "maximum rate of load limit decrease"},
};

enum P : std::size_t {
  kRselect, kFlag, kR, kTpelec, kMaxerr, kMinerr, kKpgov, kKigov, kKdgov, kTdgov, kVmax, kVmin, kTact, kKturb,
  kWfnl, kTb, kTc, kTeng, kTfload, kKpload, kKiload, kLdref, kDm, kRopen, kRclose, kKimw, kAset, kKa, kTa,
  kTrate, kDb, kTsa, kTsb, kRup, kRdown
};

class Ggov1 final : public Equations<Ggov1> {
 public:
  Ggov1(const DyrRecord& record, const UnitData& unit)
      : Equations({record.model, Role::governor, InitStage::outer_control, record.bus, record.id, record.where()}) {
    const Parameters p(record, kParameters);
    const double rs = p[kRselect];
    p.require(rs == 1.0 || rs == 0.0 || rs == -1.0 || rs == -2.0, kRselect, "must be 1, 0, -1 or -2");
    p.require(p[kFlag] == 0.0 || p[kFlag] == 1.0, kFlag, "must be 0 or 1");
    for (std::size_t i : {kR, kTpelec, kKpgov, kKigov, kKdgov, kTdgov, kTb, kTc, kTfload, kKpload, kKiload, kKimw,
                          kKa, kTa, kTrate, kDb, kTsa, kTsb})
      p.require_nonnegative(i);
    p.require(p[kMaxerr] >= p[kMinerr], kMaxerr, "must be at least minerr");
    p.require(p[kMaxerr] >= 0.0 && p[kMinerr] <= 0.0, kMaxerr, "the range [minerr, maxerr] must contain 0");
    p.require(p[kKpgov] > 0.0 || p[kKigov] > 0.0, kKigov,
              "Kpgov and Kigov are both 0: nothing holds the valve → give one a positive value");
    p.require(p[kKdgov] == 0.0 || p[kTdgov] > 0.0, kTdgov, "must be > 0 when Kdgov > 0 (a pure derivative)");
    p.require(p[kVmax] >= p[kVmin], kVmax, "must be at least Vmin");
    p.require_positive(kTact);
    p.require_positive(kKturb);
    p.require(true, kWfnl, "must be a finite number");
    p.require(p[kTb] > 0.0 || p[kTc] == 0.0, kTc, "must be 0 when Tb is 0 (a lead without a lag)");
    p.require(p[kTeng] == 0.0, kTeng, "a transport delay is not supported",
              "set Teng to 0, or substitute or skip the model");
    p.require(p[kTsb] > 0.0 || p[kTsa] == 0.0, kTsa, "must be 0 when Tsb is 0 (a lead without a lag)");
    p.require(p[kRopen] > p[kRclose], kRopen, "must exceed Rclose");
    for (std::size_t i : {kLdref, kDm, kAset, kRup, kRdown}) p.require(true, i, "must be a finite number");
    if (!(unit.mbase > 0.0))
      throw ModelError(p.where() + ": the generator's MBASE is " + number(unit.mbase) +
                       " MVA → give the generator record a positive MBASE");
    for (std::size_t i = 0; i < kParameters_size; ++i) v_[i] = p[i];
    rselect_ = static_cast<int>(rs);
    base_ = (p[kTrate] > 0.0 ? p[kTrate] : unit.mbase) / unit.mbase;  // turbine base / MBASE
    accel_ = p[kKa] > 0.0 && p[kTa] > 0.0;
    if (p[kKa] > 0.0 && !accel_)
      notes_ += "Ka > 0 with Ta = 0 (a pure derivative): the acceleration limiter is disabled. ";
    if (p[kRup] < 99.0 || p[kRdown] > -99.0)
      notes_ += "Rup = " + number(p[kRup]) + ", Rdown = " + number(p[kRdown]) +
                ": the rate limits of the load limit are not represented. ";
    if (!(unit.frequency > 0.0))
      throw ModelError(p.where() + ": the base frequency is " + number(unit.frequency) +
                       " Hz → give the case a positive base frequency");
    delt_ = 0.5 / unit.frequency;
  }

  void declare(Layout& l) override {
    const bool needs_pe = rselect_ == 1 || v_[kKimw] > 0.0;
    auto opt = [&](bool on, const char* name, const char* what) { return on ? l.state(name, what, "") : -1; };
    pelec_ = opt(needs_pe && v_[kTpelec] > 0.0, "Pelec", "measured electrical power, p.u. on Trate");
    xd_ = opt(v_[kKdgov] > 0.0, "xD", "governor derivative state");
    xi_ = l.state("xI", "governor integral state", "");
    stroke_ = l.state("stroke", "valve stroke (actuator)", "");
    xtb_ = opt(v_[kTb] > 0.0, "xTB", "turbine lead-lag state");
    xts_ = opt(v_[kTsb] > 0.0, "xTS", "temperature detection lead-lag state");
    texm_ = opt(v_[kTfload] > 0.0, "texm", "measured exhaust temperature (load limiter lag)");
    xll_ = l.state("xLL", "load limiter integral state", "");
    xmw_ = opt(v_[kKimw] > 0.0, "xMW", "supervisory load controller state");
    xa_ = opt(accel_, "xA", "acceleration (speed derivative) state");
    fsrp_ = opt(accel_ || rselect_ == -1, "fsrp", "fuel stroke reference one PSS/E time step (DELT) earlier");
    pm_ = l.algebraic("Pm", "mechanical power, p.u. on MBASE");
    speed_ = l.input(signal::speed);
    pe_ = needs_pe ? l.input(signal::pe) : -1;
    l.output(signal::pm, Var::z(pm_));
    pref_ = l.parameter("Pref", "load reference, p.u. on Trate times R");
    pmwset_ = v_[kKimw] > 0.0 ? l.parameter("Pmwset", "supervisory load controller setpoint, p.u. on Trate") : -1;
    delt_p_ = fsrp_ >= 0 ? l.parameter("DELT", "PSS/E time step of the one-step delay of fsr", "s") : -1;
    dband_ = v_[kDb] > 0.0 ? l.limiter("db", LimiterKind::select) : -1;
    err_ = l.limiter("err", LimiterKind::windup);
    mw_ = xmw_ >= 0 ? l.limiter("xMW", LimiterKind::non_windup, xmw_) : -1;
    // The cap 1.0 on the load limit: a windup limit on the select's output (equations()), so
    // that a fuel request above it at the operating point is reported by the framework (and
    // widened, system.h SystemInput::hold_initial_limits).
    cap_ = l.limiter("fsrt", LimiterKind::windup);
    lvs_t_ = l.limiter("lvs_t", LimiterKind::select);
    lvs_a_ = accel_ ? l.limiter("lvs_a", LimiterKind::select) : -1;
    fsr_ = l.limiter("fsr", LimiterKind::windup);
    rate_ = l.limiter("rate", LimiterKind::windup);
  }

  void initialize(InitContext& in) override {
    if (!notes_.empty()) in.note(notes_);
    const double pm = in.signal(signal::pm) / base_;
    const double fsr = pm / v_[kKturb] + v_[kWfnl];
    double pe = 0.0;
    if (pe_ >= 0) pe = in.signal(signal::pe) / base_;
    if (pelec_ >= 0) in.state(pelec_, pe);
    if (xd_ >= 0) in.state(xd_, 0.0);
    in.state(xi_, fsr);
    in.state(stroke_, fsr);
    if (xtb_ >= 0) in.state(xtb_, pm);
    if (xts_ >= 0) in.state(xts_, fsr);
    if (texm_ >= 0) in.state(texm_, fsr);
    in.state(xll_, fsr);
    if (xmw_ >= 0) in.state(xmw_, 0.0);
    if (xa_ >= 0) in.state(xa_, 0.0);
    if (fsrp_ >= 0) in.state(fsrp_, fsr);
    in.algebraic(pm_, in.signal(signal::pm));
    const double y = rselect_ == 1 ? pe : (rselect_ == 0 ? 0.0 : fsr);
    in.parameter(pref_, v_[kR] * y);
    if (pmwset_ >= 0) in.parameter(pmwset_, pe);
    if (delt_p_ >= 0) in.parameter(delt_p_, delt_);
    // The limiters that would take the valve from the governor at the operating point.
    // (A request above the cap 1.0 is the limiter fsrt's, reported by the framework.)
    const double fsrt = v_[kKpload] * (v_[kLdref] / v_[kKturb] + v_[kWfnl] - fsr) + fsr;
    if (fsrt < fsr - 1e-9)
      in.note("the load limit fsrt = " + number(fsrt) + " is below the governor's fuel request " +
              number(fsr) + " at the operating point (Pm above Ldref on Trate): the "
              "load limiter is in control and the unit is not at rest");
    if (accel_ && v_[kAset] < 0.0)
      in.note("Aset = " + number(v_[kAset]) + " < 0: the acceleration limiter is in control at rest");
    if (v_[kKpload] == 0.0 && v_[kKiload] > 0.0) {
      const double drive = v_[kLdref] / v_[kKturb] + v_[kWfnl] - fsr;
      if (std::fabs(drive) > 1e-12)
        in.note("Kpload = 0: the load limiter integral is driven by " + number(drive) +
                " at the operating point (Ldref/Kturb + Wfnl differs from the fuel flow), so it is not at rest");
    }
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T& dw = f.u(speed_);
    const T w = 1.0 + dw;
    // Droop and supervisory control.
    T pelec = T(0.0);
    if (pe_ >= 0) {
      const T pe = f.u(pe_) / base_;
      pelec = pe;
      if (pelec_ >= 0) {
        pelec = f.x(pelec_);
        f.der(pelec_, (pe - pelec) / v_[kTpelec]);
      }
    }
    T xmw = T(0.0);
    if (xmw_ >= 0) {
      xmw = f.x(xmw_);
      const double lim = 1.1 * v_[kR];
      f.der(xmw_, f.hold(mw_, xmw, v_[kKimw] * (f.p(pmwset_) - pelec), T(-lim), T(lim)));
    }
    const T& stroke = f.x(stroke_);
    T y = T(0.0);
    if (rselect_ == 1) y = pelec;
    else if (rselect_ == -1) y = f.x(fsrp_);
    else if (rselect_ == -2) y = stroke;
    const T speed_in = dband_ >= 0 ? f.dead_band(dband_, dw, v_[kDb]) : dw;
    const T err = f.clamp(err_, f.p(pref_) + xmw - speed_in - v_[kR] * y, T(v_[kMinerr]), T(v_[kMaxerr]));
    // PID governor.
    T d = T(0.0);
    if (xd_ >= 0) {
      const T& xd = f.x(xd_);
      f.der(xd_, (err - xd) / v_[kTdgov]);
      d = v_[kKdgov] * (err - xd) / v_[kTdgov];
    }
    const T& xi = f.x(xi_);
    const T fsrn = v_[kKpgov] * err + xi + d;
    // Temperature (load) limiter.
    const T wf = v_[kFlag] == 1.0 ? stroke * w : stroke;
    const T tin = v_[kDm] < 0.0 ? wf * pow(w, v_[kDm]) : wf;
    T tdet = tin;
    if (xts_ >= 0) {
      const T& x = f.x(xts_);
      f.der(xts_, (tin - x) / v_[kTsb]);
      tdet = x + (v_[kTsa] / v_[kTsb]) * (tin - x);
    }
    T texm = tdet;
    if (texm_ >= 0) {
      texm = f.x(texm_);
      f.der(texm_, (tdet - texm) / v_[kTfload]);
    }
    const T& xll = f.x(xll_);
    const T lerr = v_[kLdref] / v_[kKturb] + v_[kWfnl] - texm;
    const T fsrt = v_[kKpload] > 0.0 ? v_[kKpload] * lerr + xll : xll;
    // Low-value select (with the acceleration limiter), valve position limits. The cap 1.0 on
    // the load limit, min(fsrn, min(fsrt, 1)) = min(min(fsrn, fsrt), 1), is applied after the
    // select: so it is outside its limit at the operating point only when it takes the valve.
    T low = f.clamp(cap_, f.low_select(lvs_t_, fsrn, fsrt), T(-kUnbounded), T(1.0));
    if (accel_) {
      const T& xa = f.x(xa_);
      f.der(xa_, (dw - xa) / v_[kTa]);
      const T fsra = f.x(fsrp_) + v_[kKa] * f.p(delt_p_) * (v_[kAset] - (dw - xa) / v_[kTa]);
      low = f.low_select(lvs_a_, low, fsra);
    }
    const T fsr = f.clamp(fsr_, low, T(v_[kVmin]), T(v_[kVmax]));
    if (fsrp_ >= 0) f.der(fsrp_, (fsr - f.x(fsrp_)) / f.p(delt_p_));
    f.der(xi_, v_[kKpgov] > 0.0 ? (v_[kKigov] / v_[kKpgov]) * (fsr - xi) : v_[kKigov] * err);
    f.der(xll_, v_[kKpload] > 0.0 ? (v_[kKiload] / v_[kKpload]) * (fsr - xll) : v_[kKiload] * lerr);
    // Actuator and turbine.
    f.der(stroke_, f.clamp(rate_, (fsr - stroke) / v_[kTact], T(v_[kRclose]), T(v_[kRopen])));
    const T tu = v_[kKturb] * (wf - v_[kWfnl]);
    T pt = tu;
    if (xtb_ >= 0) {
      const T& x = f.x(xtb_);
      f.der(xtb_, (tu - x) / v_[kTb]);
      pt = x + (v_[kTc] / v_[kTb]) * (tu - x);
    }
    const T pmech = v_[kDm] > 0.0 ? pt - v_[kDm] * dw : pt;
    f.res(pm_, f.z(pm_) - base_ * pmech);
  }

 private:
  static constexpr std::size_t kParameters_size = sizeof(kParameters) / sizeof(kParameters[0]);
  double v_[kParameters_size] = {};
  int rselect_ = 1;
  bool accel_ = false;
  double base_ = 1.0, delt_ = 0.0;
  std::string notes_;
  int pelec_ = -1, xd_ = -1, xi_ = 0, stroke_ = 0, xtb_ = -1, xts_ = -1, texm_ = -1, xll_ = 0, xmw_ = -1, xa_ = -1,
      fsrp_ = -1;
  int pm_ = 0, speed_ = 0, pe_ = -1, pref_ = 0, pmwset_ = -1, delt_p_ = -1;
  int dband_ = -1, err_ = 0, mw_ = -1, cap_ = 0, lvs_t_ = 0, lvs_a_ = -1, fsr_ = 0, rate_ = 0;
};

}  // namespace

std::span<const ParameterSpec> ggov1_parameters() { return kParameters; }

std::unique_ptr<Component> make_ggov1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Ggov1>(record, unit);
}

}  // namespace lsdae::psse
