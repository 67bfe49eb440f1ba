// models/psse/exciters/esdc1a.cpp -- ESDC1A, IEEE Std 421.5 type DC1A
// (PSS/E Model Library "ESDC1A"; IEEE Std 421.5-2005 §5.1, kept in
// 421.5-2016 as DC1C's predecessor; OpenIPSL's PSS/E-validated ESDC1A and
// ANDES agree on the structure).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser and ANDES agree):
//     TR  KA  TA  TB  TC  VRMAX  VRMIN  KE  TE  KF  TF1  SWITCH  E1  SE(E1)  E2  SE(E2)
//
// The DC exciter of dc_exciter.h, with the lead-lag (TC, TB) and EFD >= 0:
//     VR = KA/(1 + sTA) (1 + sTC)/(1 + sTB) (Vref + VS − VC − VF), non-windup
//     TE dEFD/dt = VR − (KE + SE(EFD))·EFD, EFD >= 0 (non-windup)
//     VF = s KF/(1 + sTF1) EFD
// Interpretations: EFD >= 0 as OpenIPSL's PSS/E model applies it (421.5-2005
// leaves the exciter's lower limit open; the CIM's "exclim" flag names the
// ambiguity). SWITCH, KE = 0, VRMAX = 0: as IEEET1 (ieeet1.cpp). The UEL
// high-value gate is inactive (no UEL model, exciter_common.h).
#include "psse/exciters/esdc1a.h"

#include "psse/exciters/dc_exciter.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"TR", "s", "voltage transducer time constant"},
    {"KA", "p.u.", "regulator gain"},
    {"TA", "s", "regulator time constant"},
    {"TB", "s", "lead-lag denominator time constant"},
    {"TC", "s", "lead-lag numerator time constant"},
    {"VRMAX", "p.u.", "maximum regulator output (0: PSS/E's rule)"},
    {"VRMIN", "p.u.", "minimum regulator output"},
    {"KE", "p.u.", "exciter field constant (0: PSS/E's rule)"},
    {"TE", "s", "exciter time constant"},
    {"KF", "p.u.", "rate feedback gain"},
    {"TF1", "s", "rate feedback time constant"},
    {"SWITCH", "", "not modeled; must be 0"},
    {"E1", "p.u.", "first saturation point"},
    {"SE(E1)", "", "saturation at E1"},
    {"E2", "p.u.", "second saturation point"},
    {"SE(E2)", "", "saturation at E2"},
};

}  // namespace

std::span<const ParameterSpec> esdc1a_parameters() { return kParameters; }

// Shared with ESDC2A (esdc2a.cpp): the same record, read the same way.
DcExciterData read_dc1a_record(const Parameters& p) {
  p.require_nonnegative(0);
  p.require_positive(1);
  p.require_nonnegative(2);
  p.require_nonnegative(3);
  p.require_nonnegative(4);
  p.require(p[3] > 0.0 || p[4] == 0.0, 4, "must be 0 when TB is 0 (a lead without a lag)");
  p.require(p[5] == 0.0 || p[5] > p[6], 5, "must exceed VRMIN (or be 0 for PSS/E's rule)");
  p.require_positive(8);
  p.require_nonnegative(10);
  p.require(p[9] == 0.0 || p[10] > 0.0, 10, "must be > 0 when KF is not 0");
  p.require(p[11] == 0.0, 11, "SWITCH other than 0 is not modeled", "set it to 0, or substitute or skip the model");
  DcExciterData d;
  d.tr = p[0], d.ka = p[1], d.ta = p[2], d.tb = p[3], d.tc = p[4], d.vrmax = p[5], d.vrmin = p[6];
  d.ke = p[7], d.te = p[8], d.kf = p[9], d.tf = p[10], d.e2 = p[14], d.se2 = p[15];
  d.saturation = QuadraticSaturation::through(p, 12, 13, 14, 15);
  d.efd_nonnegative = true;
  return d;
}

std::unique_ptr<Component> make_esdc1a(const DyrRecord& record, const UnitData&) {
  return make_dc_exciter(record, read_dc1a_record(Parameters(record, kParameters)));
}

}  // namespace lsdae::psse
