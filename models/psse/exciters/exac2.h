// models/psse/exciters/exac2.h -- the EXAC2 excitation system (equations,
// sources and interpretations in exac2.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_EXAC2_H
#define LSDAE_MODELS_PSSE_EXCITERS_EXAC2_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> exac2_parameters();
std::unique_ptr<Component> make_exac2(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_EXAC2_H
