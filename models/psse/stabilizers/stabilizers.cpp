// models/psse/stabilizers/stabilizers.cpp -- the stabilizer models lsdae implements (registry.h).
// Add one line per model: {"NAME", Role::stabilizer, &make_name, name_parameters(), "summary"}.
#include "psse/core/registry.h"
#include "psse/stabilizers/ieeest.h"

namespace lsdae::psse {

std::span<const ModelEntry> stabilizer_models() {
  static const ModelEntry table[] = {
      {"IEEEST", Role::stabilizer, &make_ieeest, ieeest_parameters(),
       "IEEE stabilizer: 4th-order filter, two lead-lags, washout, output limit and voltage switch (PSS/E IEEEST)"},
  };
  return table;
}

}  // namespace lsdae::psse
