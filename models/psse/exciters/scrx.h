// models/psse/exciters/scrx.h -- the SCRX excitation system (equations,
// sources and interpretations in scrx.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_SCRX_H
#define LSDAE_MODELS_PSSE_EXCITERS_SCRX_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> scrx_parameters();
std::unique_ptr<Component> make_scrx(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_SCRX_H
