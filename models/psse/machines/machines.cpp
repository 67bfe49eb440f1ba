// models/psse/machines/machines.cpp -- the synchronous machine models lsdae
// implements (registry.h). One line per model.
#include "psse/core/registry.h"
#include "psse/machines/gencls.h"
#include "psse/machines/genrou.h"
#include "psse/machines/gensal.h"

namespace lsdae::psse {

std::span<const ModelEntry> machine_models() {
  static const ModelEntry table[] = {
      {"GENCLS", Role::machine, &make_gencls, gencls_parameters(),
       "classical machine: constant EMF behind ZSORCE; H = 0 is an infinite bus (PSS/E GENCLS)"},
      {"GENROU", Role::machine, &make_genrou, genrou_parameters(),
       "round-rotor machine, quadratic saturation on both axes (PSS/E GENROU)"},
      {"GENSAL", Role::machine, &make_gensal, gensal_parameters(),
       "salient-pole machine, quadratic saturation of E'q on the d axis (PSS/E GENSAL)"},
  };
  return table;
}

}  // namespace lsdae::psse
