// models/psse/exciters/esst4b.cpp -- ESST4B, IEEE Std 421.5 type ST4B
// (PSS/E Model Library "ESST4B"; IEEE Std 421.5-2005 §7.4, ST4C's
// predecessor in 421.5-2016; OpenIPSL's PSS/E-validated ESST4B and ANDES
// agree on the structure).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and ANDES agree):
//     TR  KPR  KIR  VRMAX  VRMIN  TA  KPM  KIM  VMMAX  VMMIN  KG  KP  KI
//     VBMAX  KC  XL  THETAP
//
//     VC    = |VT| / (1 + sTR)
//     VR    = (KPR + KIR/s)(Vref + VS − VC), non-windup limits VRMIN..VRMAX
//     VA    = VR / (1 + sTA)
//     VM    = (KPM + KIM/s)(VA − KG·EFD), non-windup limits VMMIN..VMMAX
//     VE    = |KP e^{jθP} VT + j (KI + KP e^{jθP} XL) IT|   (the power source)
//     VB    = min(VE·FEX(KC·IFD/VE), VBMAX)
//     EFD   = VB·VM
//
// VT, IT: the terminal voltage and current phasors (IT from the machine,
// signals itr/iti on MBASE, read only when KI or XL is not 0); THETAP in
// degrees (PSS/E; ANDES converts it so). Interpretations: the PI limits are
// non-windup PI limits (421.5-2005 Figure 7-4; core/blocks.h PiNonWindup);
// VBMAX caps the power source's output (a low-value gate, a switch: it is
// no limit on a state, and a source above VBMAX at rest is a normal operating
// point, not one to report); the OEL low-value gate is inactive (no OEL model, exciter_common.h).
// Initialization: VB and VE from the operating point, VM = Efd0/VB; with
// KIM != 0 the inner loop's input is 0, so VA = KG·Efd0 and the integrator
// holds VM, else VA = VM/KPM + KG·Efd0; VR = VA; with KIR != 0 the outer
// error is 0 (Vref = VC − VS), else it is VR/KPR.
#include "psse/exciters/esst4b.h"

#include <cmath>
#include <numbers>

#include "psse/core/rectifier.h"
#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"TR", "s", "voltage transducer time constant"},
    {"KPR", "p.u.", "voltage regulator proportional gain"},
    {"KIR", "p.u.", "voltage regulator integral gain"},
    {"VRMAX", "p.u.", "maximum voltage regulator output"},
    {"VRMIN", "p.u.", "minimum voltage regulator output"},
    {"TA", "s", "voltage regulator time constant"},
    {"KPM", "p.u.", "current regulator proportional gain"},
    {"KIM", "p.u.", "current regulator integral gain"},
    {"VMMAX", "p.u.", "maximum current regulator output"},
    {"VMMIN", "p.u.", "minimum current regulator output"},
    {"KG", "p.u.", "field voltage feedback gain"},
    {"KP", "p.u.", "potential circuit gain"},
    {"KI", "p.u.", "potential circuit current gain"},
    {"VBMAX", "p.u.", "maximum power source output"},
    {"KC", "p.u.", "rectifier loading factor"},
    {"XL", "p.u.", "potential source reactance"},
    {"THETAP", "deg", "potential circuit phase angle"},
};

class Esst4b final : public Equations<Esst4b> {
 public:
  Esst4b(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    p.require(p[1] != 0.0 || p[2] != 0.0, 2, "KPR and KIR cannot both be 0");
    p.require(p[3] > p[4], 3, "must exceed VRMIN");
    p.require_nonnegative(5);
    p.require(p[6] != 0.0 || p[7] != 0.0, 7, "KPM and KIM cannot both be 0");
    p.require(p[8] > p[9], 8, "must exceed VMMIN");
    p.require_nonnegative(11);
    p.require(p[11] != 0.0 || p[12] != 0.0, 11, "KP and KI cannot both be 0 (no power source)");
    p.require_positive(13);
    p.require_nonnegative(14);
    input_ = VoltageInput(p[0]);
    voltage_regulator_ = PiNonWindup(p[1], p[2]);
    vrmax_ = p[3], vrmin_ = p[4];
    lag_ = Lag(1.0, p[5]);
    current_regulator_ = PiNonWindup(p[6], p[7]);
    vmmax_ = p[8], vmmin_ = p[9], kg_ = p[10];
    kp_ = std::polar(p[11], p[16] * std::numbers::pi / 180.0);
    ki_ = p[12], vbmax_ = p[13], xl_ = p[15];
    rectifier_ = RectifierRegulation(p[14]);
    kc_ = p[14];
  }

  void declare(Layout& l) override {
    input_.declare(l);
    voltage_regulator_.declare(l, "VR", "voltage regulator integrator");
    lag_.declare(l, "VA", "voltage regulator output");
    current_regulator_.declare(l, "VM", "current regulator integrator");
    rectifier_.declare(l, "FEX");
    vb_gate_.declare(l, "VB");
    efd_.declare_algebraic(l);
    ifd_ = kc_ != 0.0 ? l.input(signal::ifd) : -1;
    const bool current = ki_ != 0.0 || (xl_ != 0.0 && kp_ != 0.0);
    itr_ = current ? l.input(signal::itr) : -1;
    iti_ = current ? l.input(signal::iti) : -1;
  }

  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    efd_.initialize(in, efd);
    const Complex v = in.voltage();
    const Complex it = itr_ >= 0 ? Complex(in.signal(signal::itr), in.signal(signal::iti)) : Complex();
    const double ve = std::abs(kp_ * v + Complex(0.0, 1.0) * (ki_ + kp_ * xl_) * it);
    const double ifd = ifd_ >= 0 ? in.signal(signal::ifd) : 0.0;
    const double vb = std::min(ve * RectifierRegulation::fex(ve > 0.0 ? kc_ * ifd / ve : 0.0), vbmax_);
    if (!(vb > 0.0))
      throw ModelError(describe() + ": the power source gives VB = " + std::to_string(vb) +
                       " at the operating point, so no Efd can be delivered → check KP, KI, KC and the power flow");
    const double vm = efd / vb;
    const double va = current_regulator_.initialize(in, vm) + kg_ * efd;  // its input is 0 when KIM != 0
    lag_.initialize(in, va);
    input_.initialize(in, voltage_regulator_.initialize(in, va));
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T error = input_.reference(f) + input_.vs(f) - input_.sensed(f);
    const T vr = voltage_regulator_(f, error, T(vrmin_), T(vrmax_));
    const T va = lag_(f, vr);
    const T& efd = efd_.value(f);
    const T vm = current_regulator_(f, va - kg_ * efd, T(vmmin_), T(vmmax_));
    // KP e^{jθ} VT + j (KI + KP e^{jθ} XL) IT, component by component.
    T sr = kp_.real() * f.vr() - kp_.imag() * f.vi();
    T si = kp_.real() * f.vi() + kp_.imag() * f.vr();
    if (itr_ >= 0) {
      const T& ir = f.u(itr_);
      const T& ii = f.u(iti_);
      const double gr = -kp_.imag() * xl_, gi = ki_ + kp_.real() * xl_;  // j (KI + KP XL) = gr + j gi
      sr = sr + gr * ir - gi * ii;
      si = si + gr * ii + gi * ir;
    }
    const T ve = hypot(sr, si);
    const T ifd = ifd_ >= 0 ? f.u(ifd_) : T(0.0);
    const T vb = vb_gate_.low(f, rectifier_(f, ve, ifd), T(vbmax_));
    efd_.set(f, vb * vm);
  }

 private:
  VoltageInput input_;
  PiNonWindup voltage_regulator_, current_regulator_;
  Lag lag_;
  RectifierRegulation rectifier_;
  EfdOutput efd_;
  Complex kp_;
  double vrmax_ = 0, vrmin_ = 0, vmmax_ = 0, vmmin_ = 0, kg_ = 0, ki_ = 0, vbmax_ = 0, xl_ = 0, kc_ = 0;
  Gate vb_gate_;
  int ifd_ = -1, itr_ = -1, iti_ = -1;
};

}  // namespace

std::span<const ParameterSpec> esst4b_parameters() { return kParameters; }

std::unique_ptr<Component> make_esst4b(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Esst4b>(record, unit);
}

}  // namespace lsdae::psse
