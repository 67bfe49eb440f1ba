// models/psse/exciters/ieeet1.h -- the IEEET1 excitation system (equations,
// sources and interpretations in ieeet1.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_IEEET1_H
#define LSDAE_MODELS_PSSE_EXCITERS_IEEET1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> ieeet1_parameters();
std::unique_ptr<Component> make_ieeet1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_IEEET1_H
