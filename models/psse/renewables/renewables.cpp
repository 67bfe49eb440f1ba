// models/psse/renewables/renewables.cpp -- the renewable models lsdae implements (registry.h).
// Add one line per model: {"NAME", Role::renewable, &make_name, name_parameters(), "summary"}.
#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ModelEntry> renewable_models() { return {}; }

}  // namespace lsdae::psse
