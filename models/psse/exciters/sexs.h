// models/psse/exciters/sexs.h -- the SEXS excitation system (equations,
// sources and interpretations in sexs.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_SEXS_H
#define LSDAE_MODELS_PSSE_EXCITERS_SEXS_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> sexs_parameters();
std::unique_ptr<Component> make_sexs(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_SEXS_H
