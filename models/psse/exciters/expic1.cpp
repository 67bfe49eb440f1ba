// models/psse/exciters/expic1.cpp -- EXPIC1, the proportional/integral
// excitation system (PSS/E Model Library "EXPIC1"; PowerWorld's EXPIC1
// diagram, which GridKit's README transcribes; no other open implementation).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and GridKit agree):
//     TR  KA  TA1  VR1  VR2  TA2  TA3  TA4  VRMAX  VRMIN  KF  TF1  TF2
//     EFDMAX  EFDMIN  KE  TE  E1  SE(E1)  E2  SE(E2)  KP  KI  KC
//
//     VC   = |VT| / (1 + sTR)
//     VA   = KA (1 + sTA1)/s (Vref + VS − VC − VF), non-windup limits VR2..VR1
//            (a PI: KP = KA·TA1, KI = KA; core/blocks.h PiNonWindup)
//     VR   = (1 + sTA3)/((1 + sTA2)(1 + sTA4)) VA, clamped to VRMIN..VRMAX
//     VF   = s KF/((1 + sTF1)(1 + sTF2)) VR
//     VB   = VE·FEX(KC·IFD/VE), VE = |KP VT + j KI IT|  (VB = 1 when KP = KI = 0)
//     E0   = VB·VR, clamped to EFDMIN..EFDMAX
//     TE dEFD/dt = E0 − (KE + SE(EFD))·EFD   (TE = 0: EFD = E0, as the diagram says)
//
// Interpretations (one open diagram only, so each is named): VR's limits act
// on the output of the TA4 block (windup) and E0's on the product (windup),
// as drawn; the rate feedback is taken from VR, as GridKit transcribes the
// diagram; with TF1 = 0 the feedback is s KF/(1 + sTF2). Initialization: E0 =
// (KE + SE(Efd0))·Efd0 (or Efd0 when TE = 0), VR = VA = E0/VB, the PI's
// integrator at VA with a zero error: Vref = VC − VS.
#include "psse/exciters/expic1.h"

#include <cmath>

#include "psse/core/rectifier.h"
#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"TR", "s", "voltage transducer time constant"},
    {"KA", "p.u.", "PI regulator gain"},
    {"TA1", "s", "PI regulator lead time constant"},
    {"VR1", "p.u.", "maximum PI regulator output"},
    {"VR2", "p.u.", "minimum PI regulator output"},
    {"TA2", "s", "first regulator lag time constant"},
    {"TA3", "s", "regulator lead time constant"},
    {"TA4", "s", "second regulator lag time constant"},
    {"VRMAX", "p.u.", "maximum regulator output"},
    {"VRMIN", "p.u.", "minimum regulator output"},
    {"KF", "p.u.", "rate feedback gain"},
    {"TF1", "s", "first rate feedback time constant"},
    {"TF2", "s", "second rate feedback time constant"},
    {"EFDMAX", "p.u.", "maximum exciter input"},
    {"EFDMIN", "p.u.", "minimum exciter input"},
    {"KE", "p.u.", "exciter field constant"},
    {"TE", "s", "exciter time constant (0: EFD = E0)"},
    {"E1", "p.u.", "first saturation point"},
    {"SE(E1)", "", "saturation at E1"},
    {"E2", "p.u.", "second saturation point"},
    {"SE(E2)", "", "saturation at E2"},
    {"KP", "p.u.", "potential source gain"},
    {"KI", "p.u.", "current source gain"},
    {"KC", "p.u.", "rectifier loading factor"},
};

class Expic1 final : public Equations<Expic1> {
 public:
  Expic1(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    p.require_positive(1);
    p.require_nonnegative(2);
    p.require(p[3] > p[4], 3, "must exceed VR2");
    for (std::size_t i : {5u, 6u, 7u}) p.require_nonnegative(i);
    p.require(p[7] > 0.0 || p[6] == 0.0, 6, "must be 0 when TA4 is 0 (a lead without a lag)");
    p.require(p[8] > p[9], 8, "must exceed VRMIN");
    p.require_nonnegative(11);
    p.require_nonnegative(12);
    p.require(p[10] == 0.0 || p[11] > 0.0 || p[12] > 0.0, 10, "needs TF1 or TF2 > 0 (a pure derivative)");
    p.require(p[13] > p[14], 13, "must exceed EFDMIN");
    p.require_nonnegative(16);
    p.require_nonnegative(21);
    p.require_nonnegative(23);
    input_ = VoltageInput(p[0]);
    pi_ = PiNonWindup(p[1] * p[2], p[1]);
    vr1_ = p[3], vr2_ = p[4];
    lag_ = Lag(1.0, p[5]);
    lead_lag_ = LeadLag(p[6], p[7]);
    vrmax_ = p[8], vrmin_ = p[9];
    if (p[11] > 0.0) {
      washout_ = Washout(p[10], p[11]);
      feedback_lag_ = Lag(1.0, p[12]);
    } else {
      washout_ = Washout(p[10], p[12]);
    }
    efdmax_ = p[13], efdmin_ = p[14], ke_ = p[15], te_ = p[16];
    saturation_ = QuadraticSaturation::through(p, 17, 18, 19, 20);
    kp_ = p[21], ki_ = p[22];
    rectifier_ = RectifierRegulation(p[23]);
    kc_ = p[23];
  }

  void declare(Layout& l) override {
    input_.declare(l);
    pi_.declare(l, "VA", "PI regulator integrator");
    lag_.declare(l, "VR1", "first regulator lag state");
    lead_lag_.declare(l, "VR2", "regulator lead-lag state");
    vr_ = l.limiter("VR", LimiterKind::windup);
    washout_.declare(l, "VF1", "rate feedback state");
    // The feedback reads VR, which its own output moves without a state in
    // between when TA2 = TA4 = 0: VR is an algebraic variable, as a loop needs.
    vr_value_ = washout_.state() >= 0 ? l.algebraic("VR", "regulator output") : -1;
    if (washout_.state() >= 0) feedback_lag_.declare(l, "VF", "rate feedback lag state");
    const bool source = kp_ != 0.0 || ki_ != 0.0;
    if (source) rectifier_.declare(l, "FEX");
    e0_ = l.limiter("E0", LimiterKind::windup);
    if (te_ > 0.0) {
      efd_state_ = l.state("EFD", "field voltage (exciter output)");
      efd_.declare_state(l, efd_state_);
    } else {
      efd_.declare_algebraic(l);
    }
    ifd_ = source && kc_ != 0.0 ? l.input(signal::ifd) : -1;
    itr_ = ki_ != 0.0 ? l.input(signal::itr) : -1;
    iti_ = ki_ != 0.0 ? l.input(signal::iti) : -1;
  }

  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    if (!saturation_.note().empty()) in.note(saturation_.note());
    efd_.initialize(in, efd);
    if (efd_state_ >= 0) in.state(efd_state_, efd);
    const double e0 = te_ > 0.0 ? ke_ * efd + saturation_.times(efd) : efd;
    double vb = 1.0;
    if (kp_ != 0.0 || ki_ != 0.0) {
      const Complex it = itr_ >= 0 ? Complex(in.signal(signal::itr), in.signal(signal::iti)) : Complex();
      const double ve = std::abs(kp_ * in.voltage() + Complex(0.0, ki_) * it);
      const double ifd = ifd_ >= 0 ? in.signal(signal::ifd) : 0.0;
      vb = ve * RectifierRegulation::fex(ve > 0.0 ? kc_ * ifd / ve : 0.0);
    }
    if (!(vb > 0.0))
      throw ModelError(describe() + ": the power source gives VB = " + std::to_string(vb) +
                       " at the operating point, so no Efd can be delivered → check KP, KI, KC and the power flow");
    const double vr = e0 / vb;
    washout_.initialize(in, vr);
    if (vr_value_ >= 0) in.algebraic(vr_value_, vr);
    feedback_lag_.initialize(in, 0.0);
    const double va = lag_.initialize(in, lead_lag_.initialize(in, vr));
    input_.initialize(in, pi_.initialize(in, va));
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vf = vr_value_ >= 0 ? feedback_lag_(f, washout_(f, f.z(vr_value_))) : T(0.0);
    const T error = input_.reference(f) + input_.vs(f) - input_.sensed(f) - vf;
    const T va = pi_(f, error, T(vr2_), T(vr1_));
    const T vr = f.clamp(vr_, lead_lag_(f, lag_(f, va)), T(vrmin_), T(vrmax_));
    if (vr_value_ >= 0) f.res(vr_value_, f.z(vr_value_) - vr);
    T vb(1.0);
    if (kp_ != 0.0 || ki_ != 0.0) {
      T sr = kp_ * f.vr(), si = kp_ * f.vi();
      if (itr_ >= 0) {
        sr = sr - ki_ * f.u(iti_);
        si = si + ki_ * f.u(itr_);
      }
      vb = rectifier_(f, T(hypot(sr, si)), ifd_ >= 0 ? f.u(ifd_) : T(0.0));
    }
    const T e0 = f.clamp(e0_, T(vb * vr), T(efdmin_), T(efdmax_));
    if (efd_state_ >= 0) {
      const T& efd = f.x(efd_state_);
      f.der(efd_state_, (e0 - ke_ * efd - saturation_.times(efd)) / te_);
    } else {
      efd_.set(f, e0);
    }
  }

 private:
  VoltageInput input_;
  PiNonWindup pi_;
  Lag lag_, feedback_lag_;
  LeadLag lead_lag_;
  Washout washout_;
  QuadraticSaturation saturation_;
  RectifierRegulation rectifier_;
  EfdOutput efd_;
  double vr1_ = 0, vr2_ = 0, vrmax_ = 0, vrmin_ = 0, efdmax_ = 0, efdmin_ = 0, ke_ = 0, te_ = 0, kp_ = 0, ki_ = 0,
         kc_ = 0;
  int vr_ = -1, vr_value_ = -1, e0_ = -1, efd_state_ = -1, ifd_ = -1, itr_ = -1, iti_ = -1;
};

}  // namespace

std::span<const ParameterSpec> expic1_parameters() { return kParameters; }

std::unique_ptr<Component> make_expic1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Expic1>(record, unit);
}

}  // namespace lsdae::psse
