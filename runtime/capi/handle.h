// runtime/capi/handle.h -- what the source files of the C interface
// (lsdae/lsdae.h) share: the simulation handle and the reply to a NULL one.
#ifndef LSDAE_CAPI_HANDLE_H
#define LSDAE_CAPI_HANDLE_H

#include <memory>
#include <string>

#include "lsdae/lsdae.h"
#include "lsdae/simulation.h"
#include "run/options.h"

struct lsdae_simulation {
  std::unique_ptr<lsdae::Simulation> sim;
  lsdae::run::RunSettings settings;  // what lsdae_open was given (the --jacobian check of lsdae_run)
  std::string error;
  std::string structure_report;  // returned by lsdae_structure_report
  std::string input_file;        // lsdae_set_input_file's table: no output of lsdae_run may name it
  // lsdae_set_event_callback; the event counters seen at the last event tell its kind.
  lsdae_event_callback on_event = nullptr;
  void* on_event_user = nullptr;
  long time_events = 0, state_events = 0, step_events = 0;
};

namespace lsdae::capi {

// The message of lsdae_last_error(NULL) for a NULL handle, and LSDAE_ERR_USAGE.
lsdae_status null_handle();

}  // namespace lsdae::capi

#endif  // LSDAE_CAPI_HANDLE_H
