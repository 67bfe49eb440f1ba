// models/psse/exciters/exac1.cpp -- EXAC1, the IEEE Type AC1 excitation
// system of 1981 (PSS/E Model Library "EXAC1"; PowerWorld's EXAC1 diagram,
// which GridKit's EXAC1 README and ANDES reproduce; OpenIPSL's EXAC1 and
// PowerSimulationsDynamics.jl agree on the structure).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser, GridKit and ANDES agree):
//     TR  TB  TC  KA  TA  VRMAX  VRMIN  TE  KF  TF  KC  KD  KE  E1  SE(E1)  E2  SE(E2)
//
//     VR  = KA/(1 + sTA)(1 + sTC)/(1 + sTB)(Vref + VS − VC − VF),
//           non-windup limits VRMIN..VRMAX                  (ac_exciter.h)
//     TE dVE/dt = VR − VFE, VE >= 0;  VFE = KE VE + VE SE(VE) + KD IFD
//     EFD = VE·FEX(KC·IFD/VE);  VF = s KF/(1 + sTF) VFE
//
// The 1981 AC1 has one regulator limit, on the TA block (non-windup, as
// PowerWorld draws it and PSD, OpenIPSL and ANDES read it), and no gates.
#include "psse/exciters/exac1.h"

#include "psse/exciters/ac_exciter.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    ac_field::TR,
    ac_field::TB,
    ac_field::TC,
    ac_field::KA,
    ac_field::TA,
    {"VRMAX", "p.u.", "maximum regulator output"},
    {"VRMIN", "p.u.", "minimum regulator output"},
    ac_field::TE,
    ac_field::KF,
    ac_field::TF,
    ac_field::KC,
    ac_field::KD,
    ac_field::KE,
    ac_field::E1,
    ac_field::SE1,
    ac_field::E2,
    ac_field::SE2,
};

class Exac1 final : public Equations<Exac1> {
 public:
  Exac1(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    regulator_ = AcRegulator::from(p, {.tr = 0, .tb = 1, .tc = 2, .ka = 3, .ta = 4, .kf = 8, .tf = 9});
    p.require(p[5] > p[6], 5, "must exceed VRMIN");
    vrmax_ = p[5], vrmin_ = p[6];
    exciter_ = AlternatorRectifier::from(p, {.te = 7, .kc = 10, .kd = 11, .ke = 12,
                                                .e1 = 13, .se1 = 14, .e2 = 15, .se2 = 16});
  }

  void declare(Layout& l) override {
    regulator_.declare(l, "VR");
    exciter_.declare(l);
  }

  void initialize(InitContext& in) override {
    const double vfe = exciter_.initialize(in, describe());
    regulator_.initialize(in, vfe, vfe);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vfe = exciter_.vfe(f);
    exciter_(f, regulator_(f, vfe, T(vrmin_), T(vrmax_)), vfe);
  }

 private:
  AcRegulator regulator_;
  AlternatorRectifier exciter_;
  double vrmax_ = 0, vrmin_ = 0;
};

}  // namespace

std::span<const ParameterSpec> exac1_parameters() { return kParameters; }

std::unique_ptr<Component> make_exac1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Exac1>(record, unit);
}

}  // namespace lsdae::psse
