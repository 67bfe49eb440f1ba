// models/psse/exciters/exciters.cpp -- the exciter models lsdae implements (registry.h).
// Add one line per model: {"NAME", Role::exciter, &make_name, name_parameters(), "summary"}.
#include "psse/core/registry.h"
#include "psse/exciters/esac1a.h"
#include "psse/exciters/esac6a.h"
#include "psse/exciters/esdc1a.h"
#include "psse/exciters/esdc2a.h"
#include "psse/exciters/esst1a.h"
#include "psse/exciters/esst4b.h"
#include "psse/exciters/exac1.h"
#include "psse/exciters/exac2.h"
#include "psse/exciters/expic1.h"
#include "psse/exciters/exst1.h"
#include "psse/exciters/ieeet1.h"
#include "psse/exciters/scrx.h"
#include "psse/exciters/sexs.h"

namespace lsdae::psse {

std::span<const ModelEntry> exciter_models() {
  static const ModelEntry table[] = {
      {"SEXS", Role::exciter, &make_sexs, sexs_parameters(),
       "simplified excitation system: lead-lag and a limited exciter lag (PSS/E SEXS)"},
      {"SCRX", Role::exciter, &make_scrx, scrx_parameters(),
       "bus-fed or solid-fed static exciter (PSS/E SCRX)"},
      {"IEEET1", Role::exciter, &make_ieeet1, ieeet1_parameters(), "IEEE Type 1 DC exciter of 1968 (PSS/E IEEET1)"},
      {"ESDC1A", Role::exciter, &make_esdc1a, esdc1a_parameters(), "DC commutator exciter, IEEE 421.5 DC1A"},
      {"ESDC2A", Role::exciter, &make_esdc2a, esdc2a_parameters(),
       "DC commutator exciter with terminal-fed regulator, IEEE 421.5 DC2A"},
      {"EXST1", Role::exciter, &make_exst1, exst1_parameters(), "IEEE Type ST1 static exciter of 1981 (PSS/E EXST1)"},
      {"ESST1A", Role::exciter, &make_esst1a, esst1a_parameters(), "potential-source static exciter, IEEE 421.5 ST1A"},
      {"ESST4B", Role::exciter, &make_esst4b, esst4b_parameters(),
       "static exciter with PI voltage and current regulators, IEEE 421.5 ST4B"},
      {"ESAC1A", Role::exciter, &make_esac1a, esac1a_parameters(), "alternator-rectifier exciter, IEEE 421.5 AC1A"},
      {"ESAC6A", Role::exciter, &make_esac6a, esac6a_parameters(),
       "alternator-rectifier exciter with terminal-fed regulator, IEEE 421.5 AC6A"},
      {"EXAC1", Role::exciter, &make_exac1, exac1_parameters(), "IEEE Type AC1 exciter of 1981 (PSS/E EXAC1)"},
      {"EXAC2", Role::exciter, &make_exac2, exac2_parameters(),
       "IEEE Type AC2 exciter of 1981 with field current limiter (PSS/E EXAC2)"},
      {"EXPIC1", Role::exciter, &make_expic1, expic1_parameters(), "proportional/integral exciter (PSS/E EXPIC1)"},
  };
  return table;
}

}  // namespace lsdae::psse
