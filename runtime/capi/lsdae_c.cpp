// runtime/capi/lsdae_c.cpp -- the C interface (lsdae/lsdae.h) over lsdae::Simulation:
// open, set, initialize, advance, get, statistics, events, cancel. Every entry
// point catches every exception and turns it into a status and a message
// (capi/guarded.h). Options are read into the options table in capi/options.h;
// the model is opened by the run layer (run/open_model.h: an FMU, an unpacked
// folder, or a system of FMUs: .ssp, .ssd). The typed values and the variables
// are in lsdae_c_variables.cpp, a whole run in lsdae_c_run.cpp, the log and
// isolation in lsdae_c_isolation.cpp.
#include "lsdae/lsdae.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>

#include "capi/guarded.h"
#include "capi/handle.h"
#include "capi/options.h"
#include "capi/statistics.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/model_description.h"
#include "lsdae/simulation.h"
#include "run/open_model.h"
#include "run/run_loop.h"


// The C enums mirror lsdae::VariableType, Causality, Variability (FMI 3.0's order).
static_assert(static_cast<int>(lsdae::VariableType::clock) == LSDAE_TYPE_CLOCK);
static_assert(static_cast<int>(lsdae::VariableType::enumeration) == LSDAE_TYPE_ENUMERATION);
static_assert(static_cast<int>(lsdae::VariableType::boolean) == LSDAE_TYPE_BOOLEAN);
static_assert(static_cast<int>(lsdae::Causality::structural_parameter) == LSDAE_CAUSALITY_STRUCTURAL_PARAMETER);
static_assert(static_cast<int>(lsdae::Causality::local) == LSDAE_CAUSALITY_LOCAL);
static_assert(static_cast<int>(lsdae::Variability::continuous) == LSDAE_VARIABILITY_CONTINUOUS);
static_assert(static_cast<int>(lsdae::Variability::tunable) == LSDAE_VARIABILITY_TUNABLE);
static_assert(static_cast<int>(lsdae::LogLevel::off) == LSDAE_LOG_OFF);

static_assert(sizeof(lsdae::ValueReference) == sizeof(uint32_t), "lsdae_get_values passes uint32_t through");

namespace lsdae::capi {

lsdae_status to_status(lsdae::ErrorKind kind) {
  switch (kind) {
    case lsdae::ErrorKind::invalid: return LSDAE_ERR_INVALID;
    case lsdae::ErrorKind::usage: return LSDAE_ERR_USAGE;
    case lsdae::ErrorKind::archive: return LSDAE_ERR_ARCHIVE;
    case lsdae::ErrorKind::xml: return LSDAE_ERR_XML;
    case lsdae::ErrorKind::binary: return LSDAE_ERR_BINARY;
    case lsdae::ErrorKind::fmu_call: return LSDAE_ERR_FMU_CALL;
    case lsdae::ErrorKind::solver: return LSDAE_ERR_SOLVER;
    case lsdae::ErrorKind::structure: return LSDAE_ERR_STRUCTURE;
    case lsdae::ErrorKind::output: return LSDAE_ERR_OUTPUT;
    case lsdae::ErrorKind::fmu_crash: return LSDAE_ERR_FMU_CRASH;
    case lsdae::ErrorKind::timeout: return LSDAE_ERR_TIMEOUT;
    case lsdae::ErrorKind::interrupted: return LSDAE_ERR_INTERRUPTED;
    default: return LSDAE_ERR_INTERNAL;
  }
}

std::string& open_error() {
  thread_local std::string error;
  return error;
}

// The message of the last call on this thread that failed, whichever handle
// it went to: what lsdae_run_isolated's child hands back when its body
// returns an error status.
std::string& latest_error() {
  thread_local std::string error;
  return error;
}

lsdae_status null_handle() {
  open_error() = "lsdae: a NULL simulation handle was passed → call lsdae_open first";
  return LSDAE_ERR_USAGE;
}

}  // namespace lsdae::capi

using lsdae::capi::null_handle;

extern "C" {

const char* lsdae_version(void) { return LSDAE_VERSION_STRING; }

void lsdae_options_init(lsdae_options* options) {
  if (options == nullptr) return;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  options->start_time = options->stop_time = options->rtol = options->atol = options->output_interval = nan;
  options->threads = 0;
  options->jacobian = LSDAE_JACOBIAN_AUTO;
  options->max_steps = lsdae::SimulationOptions{}.max_steps;
  options->constraints = LSDAE_CONSTRAINTS_DEFAULT;
  options->projection_tolerance = nan;
  options->klu_ordering = nullptr;
  options->row_order = LSDAE_ROW_ORDER_DEFAULT;
  options->reselect = 1;
  options->max_step = nan;
  options->eliminate = 1;
  options->linear_solver = nullptr;
  options->coloring = 1;
  options->constant_entries = 1;
  options->klu_reanalyze = 0;
  options->jacobian_reuse = 1;
  options->newton_dcj = nan;
}

lsdae_status lsdae_open(const char* fmu_path, const lsdae_options* options, lsdae_simulation** simulation) {
  if (simulation == nullptr || fmu_path == nullptr) {
    lsdae::capi::open_error() = "lsdae_open: fmu_path and simulation must not be NULL";
    return LSDAE_ERR_USAGE;
  }
  *simulation = nullptr;
  return lsdae::capi::guarded(lsdae::capi::open_error(), [&] {
    auto handle = std::make_unique<lsdae_simulation>();
    handle->settings = lsdae::capi::settings_from(options, "lsdae_open: ");
    // An FMU, an unpacked FMU folder, or a system of FMUs (.ssp, .ssd).
    handle->sim = lsdae::Simulation::create(lsdae::run::open_model(fmu_path).model, handle->settings.simulation);
    *simulation = handle.release();
  });
}

void lsdae_free(lsdae_simulation* simulation) { delete simulation; }

lsdae_status lsdae_set(lsdae_simulation* s, const char* name, double value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] { s->sim->set(name != nullptr ? name : "", value); });
}

lsdae_status lsdae_set_text(lsdae_simulation* s, const char* name, const char* text) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (name == nullptr || text == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_set_text: name and text must not be NULL");
    s->sim->set(std::string(name), std::string(text));
  });
}

lsdae_status lsdae_set_input_file(lsdae_simulation* s, const char* csv_path) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (csv_path == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_set_input_file: csv_path must not be NULL");
    s->sim->set_input(csv_path);
    s->input_file = csv_path;
  });
}

lsdae_status lsdae_initialize(lsdae_simulation* s) {
  if (s == nullptr) return null_handle();
  // With LSDAE_JACOBIAN_CHECK the Jacobians are compared there (the run layer's one check; the verdict logged).
  return lsdae::capi::guarded(s->error, [&] { lsdae::run::initialize(*s->sim, s->settings.check_jacobian); });
}

lsdae_status lsdae_advance_to(lsdae_simulation* s, double t, double* reached) {
  if (s == nullptr) return null_handle();
  lsdae_status status = lsdae::capi::guarded(s->error, [&] { s->sim->advance_to(t); });
  if (reached != nullptr) *reached = s->sim->time();
  return status;
}

lsdae_status lsdae_get(lsdae_simulation* s, const char* name, double* value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (value == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get: value must not be NULL");
    *value = s->sim->get(name != nullptr ? name : "");
  });
}

lsdae_status lsdae_value_reference(lsdae_simulation* s, const char* name, uint32_t* vr) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (name == nullptr || vr == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_value_reference: name and vr must not be NULL");
    const lsdae::Model& fmu = s->sim->model();
    const lsdae::Variable* v = fmu.model_description().find(std::string(name));
    if (v == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_value_reference: " + fmu.display_name() +
                                                      ": no variable is named \"" + name +
                                                      "\" → `lsdae info` lists the model; names are case-sensitive");
    if (v->type != lsdae::VariableType::float64)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_value_reference: " + fmu.display_name() + ": \"" + name +
                                                      "\" is " + lsdae::to_string(v->type) +
                                                      " → lsdae_get_values reads Float64 variables only");
    *vr = v->value_reference;
  });
}

lsdae_status lsdae_get_values(lsdae_simulation* s, const uint32_t* vrs, size_t n, double* values) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (n == 0) return;
    if (vrs == nullptr || values == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_values: vrs and values must not be NULL when n = " +
                                                      std::to_string(n) + " → pass arrays of n elements");
    // Checked here: the FMU would answer a bad reference with fmi3Error and
    // a message that does not say which entry of vrs was wrong.
    const lsdae::ModelDescription& md = s->sim->model().model_description();
    for (size_t i = 0; i < n; ++i) {
      const lsdae::Variable* v = md.find(vrs[i]);
      if (v == nullptr || v->type != lsdae::VariableType::float64)
        throw lsdae::Error(lsdae::ErrorKind::usage,
                           "lsdae_get_values: vrs[" + std::to_string(i) + "] = " + std::to_string(vrs[i]) + " is " +
                               (v == nullptr ? std::string("no variable's value reference")
                                             : "\"" + v->name + "\", a " + lsdae::to_string(v->type) + " variable") +
                               " → take value references from lsdae_value_reference");
    }
    s->sim->get(std::span<const lsdae::ValueReference>(vrs, n), std::span<double>(values, n));
  });
}

double lsdae_time(const lsdae_simulation* s) { return s == nullptr ? std::nan("") : s->sim->time(); }
double lsdae_stop_time(const lsdae_simulation* s) { return s == nullptr ? std::nan("") : s->sim->stop_time(); }
double lsdae_output_interval(const lsdae_simulation* s) {
  return s == nullptr ? std::nan("") : s->sim->output_interval();
}
int lsdae_terminated(const lsdae_simulation* s) { return s != nullptr && s->sim->terminated() ? 1 : 0; }

lsdae_status lsdae_statistics(lsdae_simulation* s, lsdae_stats* out) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (out == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_statistics: stats must not be NULL");
    lsdae::run::RunStatistics stats;
    lsdae::run::take_simulation(stats, *s->sim);
    lsdae::capi::fill_stats(stats, *out);
  });
}

const char* lsdae_structure_report(lsdae_simulation* s) {
  if (s == nullptr) {
    null_handle();
    return nullptr;
  }
  std::string report;
  if (lsdae::capi::guarded(s->error, [&] { report = s->sim->structure_report(); }) != LSDAE_OK) return nullptr;
  s->structure_report = std::move(report);
  return s->structure_report.c_str();
}

lsdae_status lsdae_set_event_callback(lsdae_simulation* s, lsdae_event_callback callback, void* user) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    s->on_event = callback;
    s->on_event_user = user;
    if (callback == nullptr) {
      s->sim->observe_events(nullptr);
      return;
    }
    const lsdae::SimulationStats& st = s->sim->statistics();
    s->time_events = st.time_events;
    s->state_events = st.state_events;
    s->step_events = st.step_events;
    // Before the FMU handles an event its counter has already moved: that tells the kind.
    s->sim->observe_events([s](double t, lsdae::EventPhase phase) {
      if (phase != lsdae::EventPhase::before || s->on_event == nullptr) return;
      const lsdae::SimulationStats& now = s->sim->statistics();
      lsdae_event_kind kind = LSDAE_EVENT_STEP;
      if (now.time_events != s->time_events) kind = LSDAE_EVENT_TIME;
      else if (now.state_events != s->state_events) kind = LSDAE_EVENT_STATE;
      s->time_events = now.time_events;
      s->state_events = now.state_events;
      s->step_events = now.step_events;
      s->on_event(t, kind, s->on_event_user);
    });
  });
}

lsdae_status lsdae_cancel(lsdae_simulation* s) {
  if (s == nullptr) return null_handle();
  s->sim->cancel();
  return LSDAE_OK;
}

const char* lsdae_last_error(const lsdae_simulation* s) {
  return s == nullptr ? lsdae::capi::open_error().c_str() : s->error.c_str();
}

}  // extern "C"
