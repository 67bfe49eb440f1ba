// models/psse/exciters/esac1a.cpp -- ESAC1A, IEEE Std 421.5 type AC1A
// (PSS/E Model Library "ESAC1A"; IEEE Std 421.5-2005 §6.1, AC1C's
// predecessor in 421.5-2016; OpenIPSL's PSS/E-validated ESAC1A, ANDES and
// PowerSimulationsDynamics.jl -- whose AC1A test matches PSS/E's
// trajectories -- agree on the structure).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and ANDES agree):
//     TR  TB  TC  KA  TA  VAMAX  VAMIN  TE  KF  TF  KC  KD  KE  E1  SE(E1)
//     E2  SE(E2)  VRMAX  VRMIN
//
//     VA  = KA/(1 + sTA)(1 + sTC)/(1 + sTB)(Vref + VS − VC − VF),
//           non-windup limits VAMIN..VAMAX                  (ac_exciter.h)
//     VR  = VA clamped to VRMIN..VRMAX (windup)
//     TE dVE/dt = VR − VFE, VE >= 0;  VFE = KE VE + VE SE(VE) + KD IFD
//     EFD = VE·FEX(KC·IFD/VE);  VF = s KF/(1 + sTF) VFE
//
// Interpretations: VA's limits are non-windup and VR's a clamp, as 421.5-2005
// Figure 6-1 draws them (OpenIPSL, PSD alike); the UEL high-value and OEL
// low-value gates are inactive (no UEL/OEL model, exciter_common.h).
#include "psse/exciters/esac1a.h"

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
    ac_field::VRMAX,
    ac_field::VRMIN,
};

class Esac1a final : public Equations<Esac1a> {
 public:
  Esac1a(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    regulator_ = AcRegulator::from(p, {.tr = 0, .tb = 1, .tc = 2, .ka = 3, .ta = 4, .kf = 8, .tf = 9});
    p.require(p[5] > p[6], 5, "must exceed VAMIN");
    p.require(p[17] > p[18], 17, "must exceed VRMIN");
    vamax_ = p[5], vamin_ = p[6], vrmax_ = p[17], vrmin_ = p[18];
    exciter_ = AlternatorRectifier::from(p, {.te = 7, .kc = 10, .kd = 11, .ke = 12,
                                                .e1 = 13, .se1 = 14, .e2 = 15, .se2 = 16});
  }

  void declare(Layout& l) override {
    regulator_.declare(l, "VA");
    vr_ = l.limiter("VR", LimiterKind::windup);
    exciter_.declare(l);
  }

  void initialize(InitContext& in) override {
    const double vfe = exciter_.initialize(in, describe());
    regulator_.initialize(in, vfe, vfe);  // VR = VA = VFE at rest
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vfe = exciter_.vfe(f);
    const T va = regulator_(f, vfe, T(vamin_), T(vamax_));
    const T vr = f.clamp(vr_, va, T(vrmin_), T(vrmax_));
    exciter_(f, vr, vfe);
  }

 private:
  AcRegulator regulator_;
  AlternatorRectifier exciter_;
  double vamax_ = 0, vamin_ = 0, vrmax_ = 0, vrmin_ = 0;
  int vr_ = -1;
};

}  // namespace

std::span<const ParameterSpec> esac1a_parameters() { return kParameters; }

std::unique_ptr<Component> make_esac1a(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Esac1a>(record, unit);
}

}  // namespace lsdae::psse
