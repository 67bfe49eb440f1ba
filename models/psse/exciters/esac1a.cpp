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
    {"TR", "s", "voltage transducer time constant"},
    {"TB", "s", "lead-lag denominator time constant"},
    {"TC", "s", "lead-lag numerator time constant"},
    {"KA", "p.u.", "regulator gain"},
    {"TA", "s", "regulator time constant"},
    {"VAMAX", "p.u.", "maximum regulator output"},
    {"VAMIN", "p.u.", "minimum regulator output"},
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
    {"VRMAX", "p.u.", "maximum exciter field voltage"},
    {"VRMIN", "p.u.", "minimum exciter field voltage"},
};

class Esac1a final : public Equations<Esac1a> {
 public:
  Esac1a(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    for (std::size_t i : {0u, 1u, 2u}) p.require_nonnegative(i);
    p.require(p[1] > 0.0 || p[2] == 0.0, 2, "must be 0 when TB is 0 (a lead without a lag)");
    p.require_positive(3);
    p.require_nonnegative(4);
    p.require(p[5] > p[6], 5, "must exceed VAMIN");
    p.require_positive(7);
    p.require_nonnegative(9);
    p.require(p[8] == 0.0 || p[9] > 0.0, 9, "must be > 0 when KF is not 0");
    p.require_nonnegative(10);
    p.require_nonnegative(11);
    p.require(p[17] > p[18], 17, "must exceed VRMIN");
    regulator_ = AcRegulator(p[0], p[1], p[2], p[3], p[4], p[8], p[9]);
    vamax_ = p[5], vamin_ = p[6], vrmax_ = p[17], vrmin_ = p[18];
    exciter_ = AlternatorRectifier(p[7], p[12], p[11], p[10], QuadraticSaturation::through(p, 13, 14, 15, 16));
  }

  void declare(Layout& l) override {
    regulator_.declare(l, "VA");
    vr_ = l.limiter("VR", LimiterKind::windup);
    exciter_.declare(l);
    efd_.declare_algebraic(l);
  }

  void initialize(InitContext& in) override {
    efd_.initialize(in, in.signal(signal::efd));
    const double vfe = exciter_.initialize(in, describe());
    regulator_.initialize(in, vfe, vfe);  // VR = VA = VFE at rest
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vfe = exciter_.vfe(f);
    const T va = regulator_(f, vfe, T(vamin_), T(vamax_));
    const T vr = f.clamp(vr_, va, T(vrmin_), T(vrmax_));
    efd_.set(f, exciter_(f, vr, vfe));
  }

 private:
  AcRegulator regulator_;
  AlternatorRectifier exciter_;
  EfdOutput efd_;
  double vamax_ = 0, vamin_ = 0, vrmax_ = 0, vrmin_ = 0;
  int vr_ = -1;
};

}  // namespace

std::span<const ParameterSpec> esac1a_parameters() { return kParameters; }

std::unique_ptr<Component> make_esac1a(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Esac1a>(record, unit);
}

}  // namespace lsdae::psse
