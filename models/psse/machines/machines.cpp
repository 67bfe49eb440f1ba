// models/psse/machines/machines.cpp -- the synchronous machine models lsdae
// implements (registry.h). One line per model.
#include "psse/core/registry.h"
#include "psse/machines/genrou.h"

namespace lsdae::psse {

std::span<const ModelEntry> machine_models() {
  static const ModelEntry table[] = {
      {"GENROU", Role::machine, &make_genrou, genrou_parameters(),
       "round-rotor machine, quadratic saturation on both axes (PSS/E GENROU)"},
  };
  return table;
}

}  // namespace lsdae::psse
