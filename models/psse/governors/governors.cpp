// models/psse/governors/governors.cpp -- the governor models lsdae implements (registry.h).
// Add one line per model: {"NAME", Role::governor, &make_name, name_parameters(), "summary"}.
#include "psse/core/registry.h"
#include "psse/governors/gast.h"
#include "psse/governors/ggov1.h"
#include "psse/governors/hygov.h"
#include "psse/governors/ieeeg1.h"
#include "psse/governors/tgov1.h"

namespace lsdae::psse {

std::span<const ModelEntry> governor_models() {
  static const ModelEntry table[] = {
      {"TGOV1", Role::governor, &make_tgov1, tgov1_parameters(),
       "steam turbine-governor: droop, valve lag with non-windup limits, reheater lead-lag (PSS/E TGOV1)"},
      {"GAST", Role::governor, &make_gast, gast_parameters(),
       "gas turbine-governor with a load limit through a low-value gate (PSS/E GAST)"},
      {"HYGOV", Role::governor, &make_hygov, hygov_parameters(),
       "hydro turbine-governor, non-windup PI with gate velocity limit, nonlinear penstock (PSS/E HYGOV)"},
      {"IEEEG1", Role::governor, &make_ieeeg1, ieeeg1_parameters(),
       "IEEE type 1 steam turbine-governor, four turbine stages, one shaft (PSS/E IEEEG1)"},
      {"GGOV1", Role::governor, &make_ggov1, ggov1_parameters(),
       "GE general governor-turbine: PID, load and acceleration limiters, low-value select (PSS/E GGOV1, "
       "PowerWorld's diagram)"},
  };
  return table;
}

}  // namespace lsdae::psse
