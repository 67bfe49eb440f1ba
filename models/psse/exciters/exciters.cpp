// models/psse/exciters/exciters.cpp -- the exciter models lsdae implements (registry.h).
// Add one line per model: {"NAME", Role::exciter, &make_name, name_parameters(), "summary"}.
#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ModelEntry> exciter_models() { return {}; }

}  // namespace lsdae::psse
