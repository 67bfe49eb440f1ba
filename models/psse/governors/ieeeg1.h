// models/psse/governors/ieeeg1.h -- IEEEG1: IEEE type 1 speed-governing
// model for steam turbines (PSS/E Model Library, IEEEG1; IEEE Committee
// Report 1973/1991 "Dynamic models for steam and hydro turbines"; PowerWorld's
// IEEEG1). Equations in ieeeg1.cpp.
//
// .dyr record (PSS/E order): ICONs JBUS M, then K T1 T2 T3 Uo Uc PMAX PMIN T4
// K1 K2 T5 K3 K4 T6 K5 K6 T7 K7 K8.
//
// Variables (gov[<bus>_<id>].…): states xLL (speed lead-lag, when T1 > 0),
// GV (valve position), x1..x4 (turbine stages whose time constant is > 0);
// algebraic Pm; input speed; parameter Pref (P0).
#ifndef LSDAE_MODELS_PSSE_GOVERNORS_IEEEG1_H
#define LSDAE_MODELS_PSSE_GOVERNORS_IEEEG1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> ieeeg1_parameters();
std::unique_ptr<Component> make_ieeeg1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_GOVERNORS_IEEEG1_H
