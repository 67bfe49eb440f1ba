// models/psse/exciters/ieeet1.cpp -- IEEET1, the IEEE Type 1 excitation
// system of 1968 (PSS/E Model Library "IEEET1"; PowerWorld's IEEET1 diagram,
// which GridKit's IEEET1 README reproduces; OpenIPSL's PSS/E-validated
// IEEET1 and ANDES agree on the structure).
//
// .dyr record (PSS/E order; PowerSystems.jl's parser, GridKit and ANDES agree):
//     TR  KA  TA  VRMAX  VRMIN  KE  TE  KF  TF  SWITCH  E1  SE(E1)  E2  SE(E2)
//
// The DC exciter of dc_exciter.h without the lead-lag and with no lower
// limit on EFD:
//     VR = KA/(1 + sTA)(Vref + VS − VC − VF), non-windup VRMIN..VRMAX
//     TE dEFD/dt = VR − (KE + SE(EFD))·EFD,   VF = s KF/(1 + sTF) EFD
// Interpretations: the VR limits are non-windup (PowerWorld draws them on
// the TA block; OpenIPSL and ANDES read them so). SWITCH: none of the open
// sources models it (OpenIPSL and ANDES ignore it), so only SWITCH = 0 is
// accepted and another value is refused by name. KE = 0 / VRMAX = 0: PSS/E's
// rule (exciter_common.h) -- ACTIVSg2000's IEEET1 records all have KE = 0.
#include "psse/exciters/ieeet1.h"

#include "psse/exciters/dc_exciter.h"

namespace lsdae::psse {

namespace {

constexpr ParameterSpec kParameters[] = {
    {"TR", "s", "voltage transducer time constant"},
    {"KA", "p.u.", "regulator gain"},
    {"TA", "s", "regulator time constant"},
    {"VRMAX", "p.u.", "maximum regulator output (0: PSS/E's rule)"},
    {"VRMIN", "p.u.", "minimum regulator output"},
    {"KE", "p.u.", "exciter field constant (0: PSS/E's rule)"},
    {"TE", "s", "exciter time constant"},
    {"KF", "p.u.", "rate feedback gain"},
    {"TF", "s", "rate feedback time constant"},
    {"SWITCH", "", "not modeled; must be 0"},
    {"E1", "p.u.", "first saturation point"},
    {"SE(E1)", "", "saturation at E1"},
    {"E2", "p.u.", "second saturation point"},
    {"SE(E2)", "", "saturation at E2"},
};

}  // namespace

std::span<const ParameterSpec> ieeet1_parameters() { return kParameters; }

std::unique_ptr<Component> make_ieeet1(const DyrRecord& record, const UnitData&) {
  const Parameters p(record, kParameters);
  p.require_nonnegative(0);
  p.require_positive(1);
  p.require_nonnegative(2);
  p.require(p[3] == 0.0 || p[3] > p[4], 3, "must exceed VRMIN (or be 0 for PSS/E's rule)");
  p.require_positive(6);
  p.require_nonnegative(8);
  p.require(p[7] == 0.0 || p[8] > 0.0, 8, "must be > 0 when KF is not 0");
  p.require(p[9] == 0.0, 9, "SWITCH other than 0 is not modeled", "set it to 0, or substitute or skip the model");
  DcExciterData d;
  d.tr = p[0], d.ka = p[1], d.ta = p[2], d.vrmax = p[3], d.vrmin = p[4], d.ke = p[5], d.te = p[6];
  d.kf = p[7], d.tf = p[8], d.e2 = p[12], d.se2 = p[13];
  d.saturation = QuadraticSaturation::through(p, 10, 11, 12, 13);
  return make_dc_exciter(record, d);
}

}  // namespace lsdae::psse
