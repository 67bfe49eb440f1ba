// models/psse/governors/hygov.h -- HYGOV: hydro turbine-governor with a
// nonlinear penstock (PSS/E Model Library, HYGOV; PowerWorld's HYGOV).
// Equations in hygov.cpp.
//
// .dyr record (PSS/E order): R r Tr Tf Tg VELM GMAX GMIN TW At Dturb qNL.
//
// Variables (gov[<bus>_<id>].…): states e (filter output), c (desired gate),
// g (gate opening), q (turbine flow); algebraic Pm; input speed; parameter
// nref (speed reference).
#ifndef LSDAE_MODELS_PSSE_GOVERNORS_HYGOV_H
#define LSDAE_MODELS_PSSE_GOVERNORS_HYGOV_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> hygov_parameters();
std::unique_ptr<Component> make_hygov(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_GOVERNORS_HYGOV_H
