// models/psse/exciters/esac6a.cpp -- ESAC6A, IEEE Std 421.5 type AC6A
// (PSS/E Model Library "ESAC6A"; IEEE Std 421.5-2005 §6.6, AC6C's
// predecessor in 421.5-2016; PowerWorld's ESAC6A diagram, which GridKit's
// README transcribes).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and GridKit agree):
//     TR  KA  TA  TK  TB  TC  VAMAX  VAMIN  VRMAX  VRMIN  TE  VFELIM  KH
//     VHMAX  TH  TJ  KC  KD  KE  E1  SE(E1)  E2  SE(E2)
//
//     VC  = |VT| / (1 + sTR)
//     VA  = KA (1 + sTK)/(1 + sTA) (Vref + VS − VC), clamped to VAMIN..VAMAX
//     VH  = KH (1 + sTJ)/(1 + sTH) (VFE − VFELIM), limited to 0..VHMAX
//     VR  = (1 + sTC)/(1 + sTB) VA − VH, clamped to VT·VRMIN..VT·VRMAX
//     TE dVE/dt = VR − VFE, VE >= 0;  VFE = KE VE + VE SE(VE) + KD IFD
//     EFD = VE·FEX(KC·IFD/VE)                               (ac_exciter.h)
//
// Interpretations: AC6A has no rate feedback; its regulator is supplied from
// the terminals, hence VT on VR's limits (421.5-2005). The VA, VH and VR
// limits act on the blocks' outputs (windup): 421.5-2005 defines no
// non-windup limit for a lead-lag block, and GridKit reads them as clamps
// too -- except VH's lower bound 0, where the limiter normally rests: a
// high-value gate with 0 (a switch), so that it is not reported as a limit
// at initialization. VH follows 421.5 (KH times the lead-lag of VFE − VFELIM, limited
// to 0..VHMAX, subtracted at VR); GridKit's README instead adds VFELIM to
// VFE, which would change the exciter's steady state. With KH = 0 (every
// ACTIVSg2000 record) the VH path is absent.
#include "psse/exciters/esac6a.h"

#include <algorithm>

#include "psse/exciters/ac_exciter.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    ac_field::TR,
    ac_field::KA,
    {"TA", "s", "regulator denominator time constant"},
    {"TK", "s", "regulator numerator time constant"},
    ac_field::TB,
    ac_field::TC,
    ac_field::VAMAX,
    ac_field::VAMIN,
    {"VRMAX", "p.u.", "maximum exciter field voltage, times VT"},
    {"VRMIN", "p.u.", "minimum exciter field voltage, times VT"},
    ac_field::TE,
    {"VFELIM", "p.u.", "exciter field current limit reference"},
    {"KH", "p.u.", "exciter field current limiter gain"},
    {"VHMAX", "p.u.", "maximum field current limiter signal"},
    {"TH", "s", "field current limiter denominator time constant"},
    {"TJ", "s", "field current limiter numerator time constant"},
    ac_field::KC,
    ac_field::KD,
    ac_field::KE,
    ac_field::E1,
    ac_field::SE1,
    ac_field::E2,
    ac_field::SE2,
};

class Esac6a final : public Equations<Esac6a> {
 public:
  Esac6a(const DyrRecord& record, const UnitData&) : Equations(exciter_info(record)) {
    const Parameters p(record, kParameters);
    p.require_nonnegative(0);
    p.require_positive(1);
    for (std::size_t i : {2u, 3u, 4u, 5u}) p.require_nonnegative(i);
    p.require(p[2] > 0.0 || p[3] == 0.0, 3, "must be 0 when TA is 0 (a lead without a lag)");
    p.require(p[4] > 0.0 || p[5] == 0.0, 5, "must be 0 when TB is 0 (a lead without a lag)");
    p.require(p[6] > p[7], 6, "must exceed VAMIN");
    p.require(p[8] > p[9], 8, "must exceed VRMIN");
    p.require_nonnegative(12);
    p.require(p[12] == 0.0 || p[13] > 0.0, 13, "must be > 0 when KH is not 0");
    p.require_nonnegative(14);
    p.require_nonnegative(15);
    p.require(p[14] > 0.0 || p[15] == 0.0, 15, "must be 0 when TH is 0 (a lead without a lag)");
    input_ = VoltageInput(p[0]);
    regulator_ = LeadLag(p[3], p[2], p[1]);
    vamax_ = p[6], vamin_ = p[7];
    lead_lag_ = LeadLag(p[5], p[4]);
    vrmax_ = p[8], vrmin_ = p[9];
    vfelim_ = p[11], kh_ = p[12], vhmax_ = p[13];
    limiter_ = LeadLag(p[15], p[14], p[12]);
    exciter_ = AlternatorRectifier::from(p, {.te = 10, .kc = 16, .kd = 17, .ke = 18,
                                                .e1 = 19, .se1 = 20, .e2 = 21, .se2 = 22});
  }

  void declare(Layout& l) override {
    input_.declare(l);
    regulator_.declare(l, "VA", "regulator lead-lag state");
    va_ = l.limiter("VA", LimiterKind::windup);
    lead_lag_.declare(l, "VLL", "lead-lag state");
    if (kh_ != 0.0) {
      limiter_.declare(l, "VH", "field current limiter lead-lag state");
      vh_gate_.declare(l, "VH_positive");
      vh_ = l.limiter("VH", LimiterKind::windup);
    }
    vr_ = l.limiter("VR", LimiterKind::windup);
    exciter_.declare(l);
  }

  void initialize(InitContext& in) override {
    const double vfe = exciter_.initialize(in, describe());
    double vh = 0.0;
    if (kh_ != 0.0) {
      limiter_.initialize(in, kh_ * (vfe - vfelim_));
      vh = std::clamp(kh_ * (vfe - vfelim_), 0.0, vhmax_);
    }
    const double va = lead_lag_.initialize(in, vfe + vh);  // VR = VFE at rest
    input_.initialize(in, regulator_.initialize(in, va));
  }

  template <class T>
  void equations(Frame<T>& f) const {
    const T vfe = exciter_.vfe(f);
    const T error = input_.reference(f) + input_.vs(f) - input_.sensed(f);
    const T va = f.clamp(va_, regulator_(f, error), T(vamin_), T(vamax_));
    T vh(0.0);
    if (kh_ != 0.0)
      vh = f.clamp(vh_, vh_gate_.high(f, limiter_(f, T(vfe - vfelim_)), T(0.0)), T(-kUnbounded), T(vhmax_));
    const T vt = voltage_magnitude(f);
    const T vr = f.clamp(vr_, T(lead_lag_(f, va) - vh), T(vt * vrmin_), T(vt * vrmax_));
    exciter_(f, vr, vfe);
  }

 private:
  VoltageInput input_;
  LeadLag regulator_, lead_lag_, limiter_;
  AlternatorRectifier exciter_;
  double vamax_ = 0, vamin_ = 0, vrmax_ = 0, vrmin_ = 0, vfelim_ = 0, kh_ = 0, vhmax_ = 0;
  Gate vh_gate_;
  int va_ = -1, vh_ = -1, vr_ = -1;
};

}  // namespace

std::span<const ParameterSpec> esac6a_parameters() { return kParameters; }

std::unique_ptr<Component> make_esac6a(const DyrRecord& record, const UnitData& unit) {
  return std::make_unique<Esac6a>(record, unit);
}

}  // namespace lsdae::psse
