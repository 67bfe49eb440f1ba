// models/psse/exciters/esst4b.h -- the ESST4B excitation system (equations,
// sources and interpretations in esst4b.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_ESST4B_H
#define LSDAE_MODELS_PSSE_EXCITERS_ESST4B_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> esst4b_parameters();
std::unique_ptr<Component> make_esst4b(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_ESST4B_H
