// models/psse/exciters/esac6a.h -- the ESAC6A excitation system (equations,
// sources and interpretations in esac6a.cpp; docs/psse-exciters.md).
#ifndef LSDAE_MODELS_PSSE_EXCITERS_ESAC6A_H
#define LSDAE_MODELS_PSSE_EXCITERS_ESAC6A_H

#include <memory>
#include <span>

#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ParameterSpec> esac6a_parameters();
std::unique_ptr<Component> make_esac6a(const DyrRecord& record, const UnitData& unit);

}  // namespace lsdae::psse

#endif  // LSDAE_MODELS_PSSE_EXCITERS_ESAC6A_H
