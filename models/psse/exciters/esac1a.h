// models/psse/exciters/esac1a.h -- the ESAC1A excitation system (equations,
// sources and interpretations in esac1a.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_ESAC1A_H
#define LSDAE_MODELS_PSSE_EXCITERS_ESAC1A_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> esac1a_parameters();
std::unique_ptr<Component> make_esac1a(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_ESAC1A_H
