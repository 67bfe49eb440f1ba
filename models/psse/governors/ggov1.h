// models/psse/governors/ggov1.h -- GGOV1: GE general governor-turbine model
// (PSS/E Model Library, GGOV1; PowerWorld's GGOV1 diagram, which follows
// GE PSLF's; IEEE PES-TR1 (2013) §3.4). Equations and every interpretation
// in ggov1.cpp; docs/psse-governors.md.
//
// .dyr record (PSS/E order): ICONs Rselect Flag, then R Tpelec maxerr minerr
// Kpgov Kigov Kdgov Tdgov Vmax Vmin Tact Kturb Wfnl Tb Tc Teng Tfload Kpload
// Kiload Ldref Dm Ropen Rclose Kimw Aset Ka Ta Trate db Tsa Tsb Rup Rdown.
//
// Variables (gov[<bus>_<id>].…): states (only those its data needs) Pelec,
// xD, xI, stroke, xTB, xTS, texm, xLL, xMW, xA, fsrp; algebraic Pm; inputs
// speed and (Rselect = 1 or Kimw > 0) pe; parameters Pref, Pmwset (Kimw > 0),
// DELT (acceleration limiter, Rselect = −1).
#ifndef LSDAE_MODELS_PSSE_GOVERNORS_GGOV1_H
#define LSDAE_MODELS_PSSE_GOVERNORS_GGOV1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> ggov1_parameters();
std::unique_ptr<Component> make_ggov1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_GOVERNORS_GGOV1_H
