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
    {"TR", "s", "voltage transducer time constant"},
    {"TB", "s", "lead-lag denominator time constant"},
    {"TC", "s", "lead-lag numerator time constant"},
    {"KA", "p.u.", "regulator gain"},
    {"TA", "s", "regulator time constant"},
    {"VAMAX", "p.u.", "maximum regulator output"},
    {"VAMIN", "p.u.", "minimum regulator output"},
    {"KB", "p.u.", "second stage regulator gain"},
    {"VRMAX", "p.u.", "maximum exciter field voltage"},
    {"VRMIN", "p.u.", "minimum exciter field voltage"},
    {"TE", "s", "exciter time constant"},
    {"KL", "p.u.", "field current limiter gain"},
    {"KH", "p.u.", "exciter field current feedback gain"},
    {"KF", "p.u.", "rate feedback gain"},
    {"TF", "s", "rate feedback time constant"},
    {"KC", "p.u.", "rectifier loading factor"},
    {"KD", "p.u.", "demagnetizing factor"},
    {"KE", "p.u.", "exciter field constant"},
    {"VLR", "p.u.", "field current limit reference"},
    {"E1", "p.u.", "first saturation point"},
    {"SE(E1)", "", "saturation at E1"},
    {"E2", "p.u.", "second saturation point"},
    {"SE(E2)", "", "saturation at E2"},
};

class Exac2 final : public Equations<Exac2> {
 public:
  Exac2(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    for (std::size_t i : {0u, 1u, 2u}) p.require_nonnegative(i);
    p.require(p[1] > 0.0 || p[2] == 0.0, 2, "must be 0 when TB is 0 (a lead without a lag)");
    p.require_positive(3);
    p.require_nonnegative(4);
    p.require(p[5] > p[6], 5, "must exceed VAMIN");
    p.require_positive(7);
    p.require(p[8] > p[9], 8, "must exceed VRMIN");
    p.require_positive(10);
    p.require_nonnegative(14);
    p.require(p[13] == 0.0 || p[14] > 0.0, 14, "must be > 0 when KF is not 0");
    p.require_nonnegative(15);
    p.require_nonnegative(16);
    regulator_ = AcRegulator(p[0], p[1], p[2], p[3], p[4], p[13], p[14]);
    vamax_ = p[5], vamin_ = p[6], kb_ = p[7], vrmax_ = p[8], vrmin_ = p[9];
    kl_ = p[11], kh_ = p[12], vlr_ = p[18];
    exciter_ = AlternatorRectifier(p[10], p[17], p[16], p[15], QuadraticSaturation::through(p, 19, 20, 21, 22));
  }

  void declare(Layout& l) override {
    regulator_.declare(l, "VA");
    gate_.declare(l, "LV");
    vr_ = l.limiter("VR", LimiterKind::windup);
    exciter_.declare(l);
    efd_.declare_algebraic(l);
  }

  void initialize(InitContext& in) override {
    efd_.initialize(in, in.signal(signal::efd));
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
    efd_.set(f, exciter_(f, vr, vfe));
  }

 private:
  AcRegulator regulator_;
  AlternatorRectifier exciter_;
  Gate gate_;
  EfdOutput efd_;
  double vamax_ = 0, vamin_ = 0, kb_ = 0, vrmax_ = 0, vrmin_ = 0, kl_ = 0, kh_ = 0, vlr_ = 0;
  int vr_ = -1;
};

}  // namespace

std::span<const ParameterSpec> exac2_parameters() { return kParameters; }

std::unique_ptr<Component> make_exac2(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Exac2>(record, unit);
}

}  // namespace lsdae::psse
