// runtime/capi/lsdae_c.cpp -- the C interface (lsdae/lsdae.h) over lsdae::Simulation.
// Every entry point catches every exception and turns it into a status and a message.
#include "lsdae/lsdae.h"

#include <cmath>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include "lsdae/error.h"
#include "lsdae/simulation.h"

struct lsdae_simulation {
  std::unique_ptr<lsdae::Simulation> sim;
  std::string error;
};

namespace {

thread_local std::string g_open_error;

lsdae_status to_status(lsdae::ErrorKind kind) {
  switch (kind) {
    case lsdae::ErrorKind::invalid: return LSDAE_ERR_INVALID;
    case lsdae::ErrorKind::usage: return LSDAE_ERR_USAGE;
    case lsdae::ErrorKind::archive: return LSDAE_ERR_ARCHIVE;
    case lsdae::ErrorKind::xml: return LSDAE_ERR_XML;
    case lsdae::ErrorKind::binary: return LSDAE_ERR_BINARY;
    case lsdae::ErrorKind::fmu_call: return LSDAE_ERR_FMU_CALL;
    case lsdae::ErrorKind::solver: return LSDAE_ERR_SOLVER;
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

void lsdae_options_init(lsdae_options* options) {
  if (options == nullptr) return;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  options->start_time = options->stop_time = options->rtol = options->atol = options->output_interval = nan;
  options->threads = 0;
  options->jacobian = LSDAE_JACOBIAN_AUTO;
  options->max_steps = 0;
}

lsdae_status lsdae_open(const char* fmu_path, const lsdae_options* options, lsdae_simulation** simulation) {
  if (simulation == nullptr || fmu_path == nullptr) {
    g_open_error = "lsdae_open: fmu_path and simulation must not be NULL";
    return LSDAE_ERR_USAGE;
  }
  *simulation = nullptr;
  return guarded(g_open_error, [&] {
    lsdae::SimulationOptions o;
    if (options != nullptr) {
      auto opt = [](double v) { return std::isnan(v) ? std::optional<double>() : std::optional<double>(v); };
      o.start_time = opt(options->start_time);
      o.stop_time = opt(options->stop_time);
      o.rtol = opt(options->rtol);
      o.atol = opt(options->atol);
      o.output_interval = opt(options->output_interval);
      if (options->threads < 0) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_open: threads must not be negative");
      if (options->threads > 0) o.threads = static_cast<std::size_t>(options->threads);
      if (options->max_steps > 0) o.max_steps = options->max_steps;
      o.jacobian = options->jacobian == LSDAE_JACOBIAN_FINITE_DIFFERENCES ? lsdae::JacobianMode::finite_differences
                   : options->jacobian == LSDAE_JACOBIAN_DIRECTIONAL      ? lsdae::JacobianMode::directional
                                                                          : lsdae::JacobianMode::automatic;
    }
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

double lsdae_time(const lsdae_simulation* s) { return s == nullptr ? std::nan("") : s->sim->time(); }
double lsdae_stop_time(const lsdae_simulation* s) { return s == nullptr ? std::nan("") : s->sim->stop_time(); }
double lsdae_output_interval(const lsdae_simulation* s) {
  return s == nullptr ? std::nan("") : s->sim->output_interval();
}

lsdae_status lsdae_statistics(lsdae_simulation* s, lsdae_stats* out) {
  if (s == nullptr) return null_handle();
  return guarded(s->error, [&] {
    if (out == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_statistics: stats must not be NULL");
    const lsdae::SimulationStats& st = s->sim->statistics();
    *out = lsdae_stats{st.unknowns, st.differential, st.algebraic, st.jacobian_nonzeros, st.colors, st.threads,
                       st.steps, st.residual_calls, st.jacobian_evaluations, st.jacobian_residual_calls,
                       st.directional_calls, st.nonlinear_iterations, st.error_test_failures, st.klu_lnz, st.klu_unz,
                       st.time_structure, st.time_initialize, st.time_integrate, st.reached_time};
  });
}

const char* lsdae_last_error(const lsdae_simulation* s) {
  return s == nullptr ? g_open_error.c_str() : s->error.c_str();
}

}  // extern "C"
