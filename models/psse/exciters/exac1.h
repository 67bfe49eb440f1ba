// models/psse/exciters/exac1.h -- the EXAC1 excitation system (equations,
// sources and interpretations in exac1.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_EXAC1_H
#define LSDAE_MODELS_PSSE_EXCITERS_EXAC1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> exac1_parameters();
std::unique_ptr<Component> make_exac1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_EXAC1_H
