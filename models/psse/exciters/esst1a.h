// models/psse/exciters/esst1a.h -- the ESST1A excitation system (equations,
// sources and interpretations in esst1a.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_ESST1A_H
#define LSDAE_MODELS_PSSE_EXCITERS_ESST1A_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> esst1a_parameters();
std::unique_ptr<Component> make_esst1a(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_ESST1A_H
