// models/psse/renewables/renewables.cpp -- the renewable models lsdae implements (registry.h).
// One line per model. REGCA1 is its unit's generator model (Role::machine: the
// unit's one machine), the WECC controls around it have roles of their own.
#include "psse/core/registry.h"
#include "psse/renewables/reecb1.h"
#include "psse/renewables/regca1.h"
#include "psse/renewables/repca1.h"

namespace lsdae::psse {

std::span<const ModelEntry> renewable_models() {
  static const ModelEntry table[] = {
      {"REGCA1", Role::machine, &make_regca1, regca1_parameters(),
       "WECC renewable generator/converter: a current source with LVACM, LVPL and HV management (REGC_A)"},
      {"REECB1", Role::electrical_control, &make_reecb1, reecb1_parameters(),
       "WECC renewable electrical control B: current commands, dip logic, Q/V regulators, P/Q priority (REEC_B)"},
      {"REPCA1", Role::plant_control, &make_repca1, repca1_parameters(),
       "WECC renewable plant controller A: Q/V loop with droop, P loop with frequency droop (REPC_A)"},
  };
  return table;
}

}  // namespace lsdae::psse
