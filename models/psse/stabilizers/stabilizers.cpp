// models/psse/stabilizers/stabilizers.cpp -- the stabilizer models lsdae implements (registry.h).
// Add one line per model: {"NAME", Role::stabilizer, &make_name, name_parameters(), "summary"}.
#include "psse/core/registry.h"

namespace lsdae::psse {

std::span<const ModelEntry> stabilizer_models() { return {}; }

}  // namespace lsdae::psse
