// models/psse/exciters/expic1.h -- the EXPIC1 excitation system (equations,
// sources and interpretations in expic1.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_EXPIC1_H
#define LSDAE_MODELS_PSSE_EXCITERS_EXPIC1_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> expic1_parameters();
std::unique_ptr<Component> make_expic1(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_EXPIC1_H
