// models/psse/exciters/esst1a.cpp -- ESST1A, IEEE Std 421.5 type ST1A
// (PSS/E Model Library "ESST1A"; IEEE Std 421.5-2005 §7.1, ST1C's
// predecessor in 421.5-2016; OpenIPSL's PSS/E-validated ESST1A, ANDES and
// PowerSimulationsDynamics.jl agree on the structure).
//
// .dyr record (PSS/E order, the two ICONs first; PowerSystems.jl's parser and ANDES agree):
//     UEL  VOS  TR  VIMAX  VIMIN  TC  TB  TC1  TB1  KA  TA  VAMAX  VAMIN
//     VRMAX  VRMIN  KC  KF  TF  KLR  ILR
//
//     VC    = |VT| / (1 + sTR)
//     VI    = Vref + [VS if VOS = 1] − VC − VF, clamped to VIMIN..VIMAX (windup)
//     VA    = KA/(1 + sTA) (1 + sTC1)/(1 + sTB1) (1 + sTC)/(1 + sTB) VI,
//             non-windup limits VAMIN..VAMAX
//     VX    = VA + [VS if VOS = 2] − max(0, KLR·(IFD − ILR))   (field current limit)
//     EFD   = VX clamped to VT·VRMIN .. VT·VRMAX − KC·IFD (windup)
//     VF    = s KF/(1 + sTF) EFD
//
// Interpretations: UEL (1: summed at VI, 2: HV gate at VI, 3: HV gate at VA)
// is read and checked but inactive, as no UEL model exists (exciter_common.h);
// the OEL low-value gate likewise. VAMIN/VAMAX non-windup on the TA lag
// (421.5-2005 Figure 7-1; OpenIPSL, PSD and ANDES read them so); the rate
// feedback from EFD (421.5; OpenIPSL; PSD takes it before the output limit);
// the field current limiter max(0, ·) is a high-value gate with 0 (a switch,
// an event where IFD = ILR; not a limit: it normally rests at 0). Initialization: VA = Efd0 + max(0, KLR(IFD0 −
// ILR)) − [VS], VI = VA/KA, Vref = VC + VI − [VS].
#include "psse/exciters/esst1a.h"

#include <algorithm>

#include "psse/exciters/exciter_common.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"UEL", "", "UEL input: 1 summed, 2 HV gate at VI, 3 HV gate at VA (no UEL model: inactive)"},
    {"VOS", "", "stabilizer input: 1 at the voltage error, 2 after VA"},
    {"TR", "s", "voltage transducer time constant"},
    {"VIMAX", "p.u.", "maximum regulator input"},
    {"VIMIN", "p.u.", "minimum regulator input"},
    {"TC", "s", "first lead-lag numerator time constant"},
    {"TB", "s", "first lead-lag denominator time constant"},
    {"TC1", "s", "second lead-lag numerator time constant"},
    {"TB1", "s", "second lead-lag denominator time constant"},
    {"KA", "p.u.", "regulator gain"},
    {"TA", "s", "regulator time constant"},
    {"VAMAX", "p.u.", "maximum regulator output"},
    {"VAMIN", "p.u.", "minimum regulator output"},
    {"VRMAX", "p.u.", "maximum output, times VT"},
    {"VRMIN", "p.u.", "minimum output, times VT"},
    {"KC", "p.u.", "rectifier loading factor"},
    {"KF", "p.u.", "rate feedback gain"},
    {"TF", "s", "rate feedback time constant"},
    {"KLR", "p.u.", "field current limiter gain"},
    {"ILR", "p.u.", "field current limit"},
};

class Esst1a final : public Equations<Esst1a> {
 public:
  Esst1a(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    p.require(p[0] == 1.0 || p[0] == 2.0 || p[0] == 3.0, 0, "must be 1, 2 or 3");
    p.require(p[1] == 1.0 || p[1] == 2.0, 1, "must be 1 or 2");
    p.require_nonnegative(2);
    p.require(p[3] > p[4], 3, "must exceed VIMIN");
    for (std::size_t i : {5u, 6u, 7u, 8u}) p.require_nonnegative(i);
    p.require(p[6] > 0.0 || p[5] == 0.0, 5, "must be 0 when TB is 0 (a lead without a lag)");
    p.require(p[8] > 0.0 || p[7] == 0.0, 7, "must be 0 when TB1 is 0 (a lead without a lag)");
    p.require_positive(9);
    p.require_nonnegative(10);
    p.require(p[11] > p[12], 11, "must exceed VAMIN");
    p.require(p[13] > p[14], 13, "must exceed VRMIN");
    p.require_nonnegative(15);
    p.require_nonnegative(17);
    p.require(p[16] == 0.0 || p[17] > 0.0, 17, "must be > 0 when KF is not 0");
    p.require_nonnegative(18);
    vs_after_va_ = p[1] == 2.0;
    input_ = VoltageInput(p[2]);
    vimax_ = p[3], vimin_ = p[4];
    lead_lag_ = LeadLag(p[5], p[6]);
    lead_lag1_ = LeadLag(p[7], p[8]);
    regulator_ = NonWindupLag(p[9], p[10]);
    vamax_ = p[11], vamin_ = p[12], vrmax_ = p[13], vrmin_ = p[14], kc_ = p[15];
    feedback_ = Washout(p[16], p[17]);
    klr_ = p[18], ilr_ = p[19];
  }

  void declare(Layout& l) override {
    input_.declare(l);
    vi_ = l.limiter("VI", LimiterKind::windup);
    lead_lag_.declare(l, "VLL", "first lead-lag state");
    lead_lag1_.declare(l, "VLL1", "second lead-lag state");
    regulator_.declare(l, "VA", "regulator output");
    if (klr_ != 0.0) ilr_gate_.declare(l, "ILR");
    efd_limit_ = l.limiter("EFD", LimiterKind::windup);
    feedback_.declare(l, "VF", "rate feedback state");
    efd_.declare_algebraic(l);
    ifd_ = kc_ != 0.0 || klr_ != 0.0 ? l.input(signal::ifd) : -1;
  }

  void initialize(InitContext& in) override {
    const double efd = in.signal(signal::efd);
    const double vs = VoltageInput::stabilizer(in);
    const double ifd = ifd_ >= 0 ? in.signal(signal::ifd) : 0.0;
    efd_.initialize(in, efd);
    feedback_.initialize(in, efd);
    const double limiter = klr_ != 0.0 ? std::max(0.0, klr_ * (ifd - ilr_)) : 0.0;
    const double va = efd + limiter - (vs_after_va_ ? vs : 0.0);
    const double vi = lead_lag_.initialize(in, lead_lag1_.initialize(in, regulator_.initialize(in, va)));
    const double e = input_.initialize(in, vi + (vs_after_va_ ? vs : 0.0));  // Vref = VC + VI − [VS at VI]
    regulator_.settle(in, lead_lag1_.settle(in, lead_lag_.settle(in, e - (vs_after_va_ ? vs : 0.0))));
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vf = feedback_(f, efd_.value(f));
    const T error = input_.reference(f) + (vs_after_va_ ? T(0.0) : input_.vs(f)) - input_.sensed(f) - vf;
    const T vi = f.clamp(vi_, error, T(vimin_), T(vimax_));
    const T va = regulator_(f, lead_lag1_(f, lead_lag_(f, vi)), T(vamin_), T(vamax_));
    const T ifd = ifd_ >= 0 ? f.u(ifd_) : T(0.0);
    T vx = va + (vs_after_va_ ? input_.vs(f) : T(0.0));
    if (klr_ != 0.0) vx = vx - ilr_gate_.high(f, T(klr_ * (ifd - ilr_)), T(0.0));
    const T vt = voltage_magnitude(f);
    efd_.set(f, f.clamp(efd_limit_, vx, T(vt * vrmin_), T(vt * vrmax_ - kc_ * ifd)));
  }

 private:
  VoltageInput input_;
  LeadLag lead_lag_, lead_lag1_;
  NonWindupLag regulator_;
  Washout feedback_;
  EfdOutput efd_;
  bool vs_after_va_ = false;
  double vimax_ = 0, vimin_ = 0, vamax_ = 0, vamin_ = 0, vrmax_ = 0, vrmin_ = 0, kc_ = 0, klr_ = 0, ilr_ = 0;
  Gate ilr_gate_;
  int vi_ = -1, efd_limit_ = -1, ifd_ = -1;
};

}  // namespace

std::span<const ParameterSpec> esst1a_parameters() { return kParameters; }

std::unique_ptr<Component> make_esst1a(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Esst1a>(record, unit);
}

}  // namespace lsdae::psse
