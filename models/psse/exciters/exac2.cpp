// models/psse/exciters/exac2.cpp -- EXAC2, the IEEE Type AC2 excitation
// system of 1981 (PSS/E Model Library "EXAC2"; PowerWorld's EXAC2 diagram as
// ANDES and OpenIPSL reproduce it; GridKit's README has the same blocks).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser, GridKit and ANDES agree):
//     TR  TB  TC  KA  TA  VAMAX  VAMIN  KB  VRMAX  VRMIN  TE  KL  KH  KF  TF
//     KC  KD  KE  VLR  E1  SE(E1)  E2  SE(E2)
//
//     VA  = KA/(1 + sTA)(1 + sTC)/(1 + sTB)(Vref + VS − VC − VF),
//           non-windup limits VAMIN..VAMAX                  (ac_exciter.h)
//     VL  = KL·(VLR − VFE)                     (exciter field current limiter)
//     VR  = KB·min(VA − KH·VFE, VL), clamped to VRMIN..VRMAX (windup)
//     TE dVE/dt = VR − VFE, VE >= 0;  VFE = KE VE + VE SE(VE) + KD IFD
//     EFD = VE·FEX(KC·IFD/VE);  VF = s KF/(1 + sTF) VFE
//
// Interpretations: the signs of the KH and KL paths follow ANDES and
// OpenIPSL (both subtract VFE; GridKit's README adds it, which would make
// the limiter act at low field current); the low-value gate is a switch
// (core/blocks.h Gate) whose change is a state event. A record whose limiter
// path VL is below the regulator's at the operating point cannot start at
// rest: it is named in the initialization report.
#include "psse/exciters/exac2.h"

#include "psse/exciters/ac_exciter.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    ac_field::TR,
    ac_field::TB,
    ac_field::TC,
    ac_field::KA,
    ac_field::TA,
    ac_field::VAMAX,
    ac_field::VAMIN,
    {"KB", "p.u.", "second stage regulator gain"},
    ac_field::VRMAX,
    ac_field::VRMIN,
    ac_field::TE,
    {"KL", "p.u.", "field current limiter gain"},
    {"KH", "p.u.", "exciter field current feedback gain"},
    ac_field::KF,
    ac_field::TF,
    ac_field::KC,
    ac_field::KD,
    ac_field::KE,
    {"VLR", "p.u.", "field current limit reference"},
    ac_field::E1,
    ac_field::SE1,
    ac_field::E2,
    ac_field::SE2,
};

class Exac2 final : public Equations<Exac2> {
 public:
  Exac2(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    regulator_ = AcRegulator::from(p, {.tr = 0, .tb = 1, .tc = 2, .ka = 3, .ta = 4, .kf = 13, .tf = 14});
    p.require(p[5] > p[6], 5, "must exceed VAMIN");
    p.require_positive(7);
    p.require(p[8] > p[9], 8, "must exceed VRMIN");
    vamax_ = p[5], vamin_ = p[6], kb_ = p[7], vrmax_ = p[8], vrmin_ = p[9];
    kl_ = p[11], kh_ = p[12], vlr_ = p[18];
    exciter_ = AlternatorRectifier::from(p, {.te = 10, .kc = 15, .kd = 16, .ke = 17,
                                                .e1 = 19, .se1 = 20, .e2 = 21, .se2 = 22});
  }

  void declare(Layout& l) override {
    regulator_.declare(l, "VA");
    gate_.declare(l, "LV");
    vr_ = l.limiter("VR", LimiterKind::windup);
    exciter_.declare(l);
  }

  void initialize(InitContext& in) override {
    const double vfe = exciter_.initialize(in, describe());
    const double gate = vfe / kb_;  // VR = VFE at rest
    const double vl = kl_ * (vlr_ - vfe);
    if (vl < gate)
      in.note("the field current limiter VL = " + std::to_string(vl) + " is below the regulator path " +
              std::to_string(gate) + " at the operating point: the low-value gate starts on VL");
    regulator_.initialize(in, gate + kh_ * vfe, vfe);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vfe = exciter_.vfe(f);
    const T va = regulator_(f, vfe, T(vamin_), T(vamax_));
    const T gate = gate_.low(f, T(va - kh_ * vfe), T(kl_ * (vlr_ - vfe)));
    const T vr = f.clamp(vr_, T(kb_ * gate), T(vrmin_), T(vrmax_));
    exciter_(f, vr, vfe);
  }

 private:
  AcRegulator regulator_;
  AlternatorRectifier exciter_;
  Gate gate_;
  double vamax_ = 0, vamin_ = 0, kb_ = 0, vrmax_ = 0, vrmin_ = 0, kl_ = 0, kh_ = 0, vlr_ = 0;
  int vr_ = -1;
};

}  // namespace

std::span<const ParameterSpec> exac2_parameters() { return kParameters; }

std::unique_ptr<Component> make_exac2(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Exac2>(record, unit);
}

}  // namespace lsdae::psse
