// models/psse/exciters/esdc1a.h -- the ESDC1A excitation system (equations,
// sources and interpretations in esdc1a.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_ESDC1A_H
#define LSDAE_MODELS_PSSE_EXCITERS_ESDC1A_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> esdc1a_parameters();
std::unique_ptr<Component> make_esdc1a(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_ESDC1A_H
