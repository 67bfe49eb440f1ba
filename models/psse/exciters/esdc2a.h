// models/psse/exciters/esdc2a.h -- the ESDC2A excitation system (equations,
// sources and interpretations in esdc2a.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_ESDC2A_H
#define LSDAE_MODELS_PSSE_EXCITERS_ESDC2A_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> esdc2a_parameters();
std::unique_ptr<Component> make_esdc2a(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_ESDC2A_H
