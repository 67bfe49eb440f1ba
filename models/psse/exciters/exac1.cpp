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
    {"TR", "s", "voltage transducer time constant"},
    {"TB", "s", "lead-lag denominator time constant"},
    {"TC", "s", "lead-lag numerator time constant"},
    {"KA", "p.u.", "regulator gain"},
    {"TA", "s", "regulator time constant"},
    {"VRMAX", "p.u.", "maximum regulator output"},
    {"VRMIN", "p.u.", "minimum regulator output"},
    {"TE", "s", "exciter time constant"},
    {"KF", "p.u.", "rate feedback gain"},
    {"TF", "s", "rate feedback time constant"},
    {"KC", "p.u.", "rectifier loading factor"},
    {"KD", "p.u.", "demagnetizing factor"},
    {"KE", "p.u.", "exciter field constant"},
    {"E1", "p.u.", "first saturation point"},
    {"SE(E1)", "", "saturation at E1"},
    {"E2", "p.u.", "second saturation point"},
    {"SE(E2)", "", "saturation at E2"},
};

class Exac1 final : public Equations<Exac1> {
 public:
  Exac1(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    for (std::size_t i : {0u, 1u, 2u}) p.require_nonnegative(i);
    p.require(p[1] > 0.0 || p[2] == 0.0, 2, "must be 0 when TB is 0 (a lead without a lag)");
    p.require_positive(3);
    p.require_nonnegative(4);
    p.require(p[5] > p[6], 5, "must exceed VRMIN");
    p.require_positive(7);
    p.require_nonnegative(9);
    p.require(p[8] == 0.0 || p[9] > 0.0, 9, "must be > 0 when KF is not 0");
    p.require_nonnegative(10);
    p.require_nonnegative(11);
    regulator_ = AcRegulator(p[0], p[1], p[2], p[3], p[4], p[8], p[9]);
    vrmax_ = p[5], vrmin_ = p[6];
    exciter_ = AlternatorRectifier(p[7], p[12], p[11], p[10], QuadraticSaturation::through(p, 13, 14, 15, 16));
  }

  void declare(Layout& l) override {
    regulator_.declare(l, "VR");
    exciter_.declare(l);
    efd_.declare_algebraic(l);
  }

  void initialize(InitContext& in) override {
    efd_.initialize(in, in.signal(signal::efd));
    const double vfe = exciter_.initialize(in, describe());
    regulator_.initialize(in, vfe, vfe);
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vfe = exciter_.vfe(f);
    efd_.set(f, exciter_(f, regulator_(f, vfe, T(vrmin_), T(vrmax_)), vfe));
  }

 private:
  AcRegulator regulator_;
  AlternatorRectifier exciter_;
  EfdOutput efd_;
  double vrmax_ = 0, vrmin_ = 0;
};

}  // namespace

std::span<const ParameterSpec> exac1_parameters() { return kParameters; }

std::unique_ptr<Component> make_exac1(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Exac1>(record, unit);
}

}  // namespace lsdae::psse
