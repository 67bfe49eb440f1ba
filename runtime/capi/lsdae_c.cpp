// runtime/capi/lsdae_c.cpp -- the C interface (lsdae/lsdae.h) over lsdae::Simulation.
// Every entry point catches every exception and turns it into a status and a message.
// Options are translated and validated in capi/options.h.
#include "lsdae/lsdae.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <cstring>
#include <string>

#include "capi/options.h"
#include "lsdae/error.h"
#include "lsdae/model_description.h"
#include "lsdae/simulation.h"
#include "lsdae/supervise.h"

struct lsdae_simulation {
  std::unique_ptr<lsdae::Simulation> sim;
  std::string error;
  std::string structure_report;  // returned by lsdae_structure_report
};

static_assert(sizeof(lsdae::ValueReference) == sizeof(uint32_t), "lsdae_get_values passes uint32_t through");

namespace {

thread_local std::string g_open_error;
thread_local const lsdae::RunContext* g_run_context = nullptr;  // inside lsdae_run_isolated's body

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

template <typename F>
lsdae_status guarded(std::string& error, F&& body) {
  try {
    body();
    error.clear();
    return LSDAE_OK;
  } catch (const lsdae::Error& e) {
    error = e.what();
    return to_status(e.kind());
  } catch (const std::bad_alloc&) {
    error = "lsdae: out of memory";
    return LSDAE_ERR_INTERNAL;
  } catch (const std::exception& e) {
    error = std::string("lsdae: internal error: ") + e.what();
    return LSDAE_ERR_INTERNAL;
  } catch (...) {
    error = "lsdae: internal error (unknown exception)";
    return LSDAE_ERR_INTERNAL;
  }
}

lsdae_status null_handle() {
  g_open_error = "lsdae: a NULL simulation handle was passed → call lsdae_open first";
  return LSDAE_ERR_USAGE;
}

}  // namespace

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
}

lsdae_status lsdae_open(const char* fmu_path, const lsdae_options* options, lsdae_simulation** simulation) {
  if (simulation == nullptr || fmu_path == nullptr) {
    g_open_error = "lsdae_open: fmu_path and simulation must not be NULL";
    return LSDAE_ERR_USAGE;
  }
  *simulation = nullptr;
  return guarded(g_open_error, [&] {
    const lsdae::SimulationOptions o = lsdae::capi::to_simulation_options(options);
    auto handle = std::make_unique<lsdae_simulation>();
    handle->sim = lsdae::Simulation::create(lsdae::Fmu::open(fmu_path), o);
    *simulation = handle.release();
  });
}

void lsdae_free(lsdae_simulation* simulation) { delete simulation; }

lsdae_status lsdae_set(lsdae_simulation* s, const char* name, double value) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] { s->sim->set(name != nullptr ? name : "", value); });
}

lsdae_status lsdae_set_text(lsdae_simulation* s, const char* name, const char* text) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] {
    if (name == nullptr || text == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_set_text: name and text must not be NULL");
    s->sim->set(std::string(name), std::string(text));
  });
}

lsdae_status lsdae_set_input_file(lsdae_simulation* s, const char* csv_path) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] {
    if (csv_path == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_set_input_file: csv_path must not be NULL");
    s->sim->set_input(csv_path);
  });
}

lsdae_status lsdae_get_int64(lsdae_simulation* s, const char* name, int64_t* value) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] {
    if (name == nullptr || value == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_int64: name and value must not be NULL");
    lsdae::Values v = s->sim->get_values(std::string(name));
    if (v.size() != 1)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_int64: \"") + name + "\" is an array of " +
                                                      std::to_string(v.size()) + " elements → name one: " + name + "[1]");
    switch (lsdae::storage_of(v.type)) {
      case lsdae::ValueStorage::integer: *value = v.integers[0]; return;
      case lsdae::ValueStorage::unsigned_integer:
        if (v.unsigned_integers[0] > static_cast<std::uint64_t>(INT64_MAX))
          throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_int64: \"") + name + "\" = " +
                                                          std::to_string(v.unsigned_integers[0]) +
                                                          " does not fit an int64 → use lsdae_get_text");
        *value = static_cast<int64_t>(v.unsigned_integers[0]);
        return;
      default:
        throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_int64: \"") + name + "\" is " +
                                                        lsdae::to_string(v.type) + " → use lsdae_get or lsdae_get_text");
    }
  });
}

lsdae_status lsdae_get_text(lsdae_simulation* s, const char* name, char* buffer, size_t size, size_t* needed) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] {
    if (name == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_text: name must not be NULL");
    lsdae::Values v = s->sim->get_values(std::string(name));
    std::string text;
    for (std::size_t k = 0; k < v.size(); ++k) text += (k == 0 ? "" : " ") + v.text(k);
    if (needed != nullptr) *needed = text.size() + 1;
    if (size == 0 && buffer == nullptr) return;  // a size query
    if (buffer == nullptr || size < text.size() + 1)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_text: \"" + std::string(name) + "\" needs " +
                                                      std::to_string(text.size() + 1) + " bytes, the buffer has " +
                                                      std::to_string(size) + " → pass a larger buffer (*needed says how large)");
    std::memcpy(buffer, text.c_str(), text.size() + 1);
  });
}

lsdae_status lsdae_initialize(lsdae_simulation* s) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] { s->sim->initialize(); });
}

lsdae_status lsdae_advance_to(lsdae_simulation* s, double t, double* reached) {
  if (s == nullptr) return null_handle();
  lsdae_status status = guarded(s->error, [&] { s->sim->advance_to(t); });
  if (reached != nullptr) *reached = s->sim->time();
  return status;
}

lsdae_status lsdae_get(lsdae_simulation* s, const char* name, double* value) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] {
    if (value == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get: value must not be NULL");
    *value = s->sim->get(name != nullptr ? name : "");
  });
}

lsdae_status lsdae_value_reference(lsdae_simulation* s, const char* name, uint32_t* vr) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] {
    if (name == nullptr || vr == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_value_reference: name and vr must not be NULL");
    const lsdae::Fmu& fmu = s->sim->fmu();
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
  return guarded(s->error, [&] {
    if (n == 0) return;
    if (vrs == nullptr || values == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_values: vrs and values must not be NULL when n = " +
                                                      std::to_string(n) + " → pass arrays of n elements");
    // Checked here: the FMU would answer a bad reference with fmi3Error and
    // a message that does not say which entry of vrs was wrong.
    const lsdae::ModelDescription& md = s->sim->fmu().model_description();
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
  return guarded(s->error, [&] {
    if (out == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_statistics: stats must not be NULL");
    const lsdae::SimulationStats& st = s->sim->statistics();
    *out = lsdae_stats{};
    out->unknowns = st.unknowns;
    out->differential = st.differential;
    out->algebraic = st.algebraic;
    out->jacobian_nonzeros = st.jacobian_nonzeros;
    out->colors = st.colors;
    out->threads = st.threads;
    out->steps = st.steps;
    out->residual_calls = st.residual_calls;
    out->jacobian_evaluations = st.jacobian_evaluations;
    out->jacobian_residual_calls = st.jacobian_residual_calls;
    out->directional_calls = st.directional_calls;
    out->nonlinear_iterations = st.nonlinear_iterations;
    out->error_test_failures = st.error_test_failures;
    out->klu_lnz = st.klu_lnz;
    out->klu_unz = st.klu_unz;
    out->time_structure = st.time_structure;
    out->time_initialize = st.time_initialize;
    out->time_integrate = st.time_integrate;
    out->reached_time = st.reached_time;
    out->time_events = st.time_events;
    out->state_events = st.state_events;
    out->step_events = st.step_events;
    out->reselections = st.reselections;
    out->projections = st.projections;
    out->nonlinear_convergence_failures = st.nonlinear_convergence_failures;
    out->linear_solver_setups = st.linear_solver_setups;
    out->time_instantiate = st.time_instantiate;
  });
}

const char* lsdae_structure_report(lsdae_simulation* s) {
  if (s == nullptr) {
    null_handle();
    return nullptr;
  }
  std::string report;
  if (guarded(s->error, [&] { report = s->sim->structure_report(); }) != LSDAE_OK) return nullptr;
  s->structure_report = std::move(report);
  return s->structure_report.c_str();
}

const char* lsdae_last_error(const lsdae_simulation* s) {
  return s == nullptr ? g_open_error.c_str() : s->error.c_str();
}

void lsdae_isolation_init(lsdae_isolation* isolation) {
  if (isolation == nullptr) return;
  isolation->timeout = isolation->call_timeout = std::numeric_limits<double>::quiet_NaN();
}

lsdae_status lsdae_run_isolated(int (*body)(void* user), void* user, const lsdae_isolation* isolation) {
  if (body == nullptr) {
    g_open_error = "lsdae_run_isolated: body must not be NULL";
    return LSDAE_ERR_USAGE;
  }
  lsdae::IsolationOptions options;
  if (isolation != nullptr) {
    auto seconds = [](const char* field, double value, double fallback) {
      if (std::isnan(value)) return fallback;
      if (value < 0 || std::isinf(value))
        throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_run_isolated: isolation.") + field + " is " +
                                                        std::to_string(value) +
                                                        ", not a number of seconds → give 0 (no limit) or more, or NaN");
      return value;
    };
    try {
      options.timeout = seconds("timeout", isolation->timeout, 0.0);
      options.call_timeout = seconds("call_timeout", isolation->call_timeout, options.call_timeout);
    } catch (const lsdae::Error& e) {
      g_open_error = e.what();
      return LSDAE_ERR_USAGE;
    }
  }
  lsdae::RunOutcome outcome;
  lsdae_status status = guarded(g_open_error, [&] {
    outcome = lsdae::run_isolated(
        [&](lsdae::RunContext& context) {
          g_run_context = &context;
          return body(user);
        },
        options);
  });
  if (status != LSDAE_OK) return status;
  if (outcome.ok()) {
    if (outcome.exit_code < 0 || outcome.exit_code > 127) {
      g_open_error = "lsdae_run_isolated: body returned " + std::to_string(outcome.exit_code) +
                     ", not an lsdae_status → return LSDAE_OK or an error status";
      return LSDAE_ERR_INTERNAL;
    }
    g_open_error.clear();
    return static_cast<lsdae_status>(outcome.exit_code);
  }
  g_open_error = outcome.message;
  return to_status(outcome.kind());
}

int lsdae_stop_requested(void) { return g_run_context != nullptr && g_run_context->stop_requested() ? 1 : 0; }

}  // extern "C"
