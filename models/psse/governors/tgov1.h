// models/psse/governors/tgov1.h -- TGOV1: steam turbine-governor (PSS/E
// Model Library, TGOV1; PowerWorld's TGOV1 block diagram). Equations and
// interpretations in tgov1.cpp and docs/psse-governors.md.
//
// .dyr record (PSS/E order): R T1 VMAX VMIN T2 T3 Dt.
//
// Variables (gov[<bus>_<id>].…): states Pv (valve position), x2 (reheater
// lead-lag); algebraic Pm (the mechanical power, written to the unit's
// signal pm); input speed; parameter Pref.
#ifndef LSDAE_MODELS_PSSE_GOVERNORS_TGOV1_H
#define LSDAE_MODELS_PSSE_GOVERNORS_TGOV1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> tgov1_parameters();
std::unique_ptr<Component> make_tgov1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_GOVERNORS_TGOV1_H
