// compose/model_plugins.cpp -- see model_plugins.h.
#include "compose/model_plugins.h"

#include <mutex>

#include "powergrid/scenarios/contingency_source.h"
#include "psse/scenarios/psse_contingencies.h"

namespace lsdae::compose {

void install_model_plugins() {
  static std::once_flag once;
  std::call_once(once, [] {
    powergrid::register_powergrid_scenario_sources();
    psse::register_psse_scenario_sources();
  });
}

}  // namespace lsdae::compose
