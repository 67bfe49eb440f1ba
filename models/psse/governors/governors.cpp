// models/psse/governors/governors.cpp -- the governor models lsdae implements (registry.h).
// Add one line per model: {"NAME", Role::governor, &make_name, name_parameters(), "summary"}.
#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ModelEntry> governor_models() { return {}; }

}  // namespace lsdae::psse
