// models/psse/exciters/dc_exciter.h -- the DC commutator exciter that
// IEEET1, ESDC1A and ESDC2A share (each model's file gives its record, its
// source and what differs):
//
//     VC    = |VT| / (1 + sTR)
//     e     = Vref + VS − VC − VF
//     VLL   = (1 + sTC)/(1 + sTB) e                       (IEEET1: none)
//     VR    = KA/(1 + sTA) VLL, non-windup limits VRMIN <= VR <= VRMAX
//             (ESDC2A: VT·VRMIN <= VR <= VT·VRMAX, the regulator fed from the
//             terminal; TA = 0: KA·VLL clamped)
//     TE dEFD/dt = VR − VFE,   VFE = KE·EFD + EFD·SE(EFD)
//             (ESDC1A, ESDC2A: EFD >= 0, a non-windup lower limit)
//     VF    = s KF/(1 + sTF) EFD
//
// SE is PSS/E's quadratic saturation through (E1, SE(E1)), (E2, SE(E2))
// (core/saturation.h); KE = 0 and VRMAX = 0 follow PSS/E's rule
// (exciter_common.h). Initialization: EFD = Efd0, VR = VFE(Efd0), VLL = e =
// VR/KA, the washout at Efd0, Vref = VC + VR/KA − VS.
#ifndef LSDAE_MODELS_PSSE_EXCITERS_DC_EXCITER_H
#define LSDAE_MODELS_PSSE_EXCITERS_DC_EXCITER_H

#include <memory>

#include "psse/core/saturation.h"
#include "psse/io/dyr_record.h"
#include "psse/core/component.h"
#include "psse/core/parameters.h"

namespace lsdae::psse {

struct DcExciterData {
  double tr = 0, ka = 0, ta = 0, tb = 0, tc = 0, vrmax = 0, vrmin = 0, ke = 0, te = 0, kf = 0, tf = 0;
  double e2 = 0, se2 = 0;  // for the VRMAX = 0 rule
  QuadraticSaturation saturation;
  bool limits_times_vt = false;  // ESDC2A
  bool efd_nonnegative = false;  // ESDC1A, ESDC2A
};

std::unique_ptr<Component> make_dc_exciter(const DyrRecord& record, const DcExciterData& data);

// ESDC1A's record, checked (esdc1a.cpp; ESDC2A reads the same record).
DcExciterData read_dc1a_record(const Parameters& p);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_DC_EXCITER_H
