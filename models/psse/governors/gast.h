// models/psse/governors/gast.h -- GAST: gas turbine-governor (PSS/E Model
// Library, GAST; PowerWorld's GAST_PTI). Equations in gast.cpp.
//
// .dyr record (PSS/E order): R T1 T2 T3 AT KT VMAX VMIN Dturb.
//
// Variables (gov[<bus>_<id>].…): states Pv (fuel valve), Pt (turbine power),
// Tx (exhaust temperature, load-limit feedback); algebraic Pm; input speed;
// parameter Pref.
#ifndef LSDAE_MODELS_PSSE_GOVERNORS_GAST_H
#define LSDAE_MODELS_PSSE_GOVERNORS_GAST_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> gast_parameters();
std::unique_ptr<Component> make_gast(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_GOVERNORS_GAST_H
