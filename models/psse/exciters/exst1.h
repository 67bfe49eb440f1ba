// models/psse/exciters/exst1.h -- the EXST1 excitation system (equations,
// sources and interpretations in exst1.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_EXST1_H
#define LSDAE_MODELS_PSSE_EXCITERS_EXST1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> exst1_parameters();
std::unique_ptr<Component> make_exst1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_EXST1_H
