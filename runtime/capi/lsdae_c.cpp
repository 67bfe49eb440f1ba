// runtime/capi/lsdae_c.cpp -- the C interface (lsdae/lsdae.h) over lsdae::Simulation.
// Every entry point catches every exception and turns it into a status and a message.
// Options are translated and validated in capi/options.h.
#include "lsdae/lsdae.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <cstring>
#include <fstream>
#include <string>

#include "capi/guarded.h"
#include "capi/options.h"
#include "lsdae/error.h"
#include "lsdae/log.h"
#include "lsdae/model_description.h"
#include "lsdae/simulation.h"
#include "lsdae/supervise.h"

struct lsdae_simulation {
  std::unique_ptr<lsdae::Simulation> sim;
  std::string error;
  std::string structure_report;  // returned by lsdae_structure_report
  // lsdae_set_event_callback; the event counters seen at the last event tell its kind.
  lsdae_event_callback on_event = nullptr;
  void* on_event_user = nullptr;
  long time_events = 0, state_events = 0, step_events = 0;
};

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

}  // namespace lsdae::capi

namespace {

thread_local const lsdae::RunContext* g_run_context = nullptr;  // inside lsdae_run_isolated's body

// The error kind an lsdae_status stands for (none for LSDAE_OK and for a
// value that is no status).
std::optional<lsdae::ErrorKind> kind_of(int status) {
  for (int k = 0; k <= static_cast<int>(lsdae::ErrorKind::timeout); ++k) {
    const auto kind = static_cast<lsdae::ErrorKind>(k);
    if (lsdae::capi::to_status(kind) == status) return kind;
  }
  return std::nullopt;
}

// The variable `name` names, or the array variable whose element it names ("A[2,3]").
const lsdae::Variable* variable_named(const lsdae::ModelDescription& md, const std::string& name) {
  if (const lsdae::Variable* v = md.find(name)) return v;
  const auto open = name.rfind('[');
  if (open == std::string::npos || open == 0 || name.back() != ']') return nullptr;
  const lsdae::Variable* v = md.find(name.substr(0, open));
  return v != nullptr && v->is_array() ? v : nullptr;
}

// The typed function for a variable of this type (for a mismatch's message).
const char* typed_functions(lsdae::VariableType type) {
  switch (type) {
    case lsdae::VariableType::float32:
    case lsdae::VariableType::float64: return "lsdae_set / lsdae_get";
    case lsdae::VariableType::boolean: return "lsdae_set_boolean / lsdae_get_boolean";
    case lsdae::VariableType::string: return "lsdae_set_text / lsdae_get_text";
    case lsdae::VariableType::binary: return "lsdae_set_binary / lsdae_get_binary";
    case lsdae::VariableType::uint64: return "lsdae_set_uint64 / lsdae_get_uint64";
    case lsdae::VariableType::clock: return "none: Clocks have no value to set or get";
    default: return "lsdae_set_int64 / lsdae_get_int64";
  }
}

// The variable, checked to be of one of the `accepted` types.
const lsdae::Variable& typed_variable(lsdae_simulation* s, const char* function, const char* name,
                                      std::initializer_list<lsdae::VariableType> accepted, const char* accepted_text) {
  if (name == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": name must not be NULL");
  const lsdae::Fmu& fmu = s->sim->fmu();
  const lsdae::Variable* v = variable_named(fmu.model_description(), name);
  if (v == nullptr)
    throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": " + fmu.display_name() +
                                                    ": no variable is named \"" + name +
                                                    "\" → `lsdae info --variables` lists them; names are case-sensitive");
  for (lsdae::VariableType t : accepted)
    if (v->type == t) return *v;
  throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": \"" + name + "\" is " +
                                                  lsdae::to_string(v->type) + ", not " + accepted_text + " → use " +
                                                  typed_functions(v->type));
}

constexpr std::initializer_list<lsdae::VariableType> kIntegerTypes = {
    lsdae::VariableType::int8,  lsdae::VariableType::uint8,  lsdae::VariableType::int16, lsdae::VariableType::uint16,
    lsdae::VariableType::int32, lsdae::VariableType::uint32, lsdae::VariableType::int64, lsdae::VariableType::uint64};

// The one value of a scalar (or element) read with get_values.
lsdae::Values one_value(lsdae_simulation* s, const char* function, const char* name) {
  lsdae::Values v = s->sim->get_values(std::string(name));
  if (v.size() != 1)
    throw lsdae::Error(lsdae::ErrorKind::usage, std::string(function) + ": \"" + name + "\" is an array of " +
                                                    std::to_string(v.size()) + " elements → name one: " + name + "[1]");
  return v;
}

std::string to_hex(const uint8_t* data, size_t size) {
  static const char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * size);
  for (size_t i = 0; i < size; ++i) {
    hex.push_back(digits[data[i] >> 4]);
    hex.push_back(digits[data[i] & 15]);
  }
  return hex;
}

// The log callback, process-wide (lsdae_set_log_callback).
std::mutex g_log_mutex;
lsdae_log_callback g_log_callback = nullptr;
void* g_log_user = nullptr;

lsdae_status null_handle() {
  lsdae::capi::open_error() = "lsdae: a NULL simulation handle was passed → call lsdae_open first";
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
  options->eliminate = 0;
}

lsdae_status lsdae_open(const char* fmu_path, const lsdae_options* options, lsdae_simulation** simulation) {
  if (simulation == nullptr || fmu_path == nullptr) {
    lsdae::capi::open_error() = "lsdae_open: fmu_path and simulation must not be NULL";
    return LSDAE_ERR_USAGE;
  }
  *simulation = nullptr;
  return lsdae::capi::guarded(lsdae::capi::open_error(), [&] {
    const lsdae::SimulationOptions o = lsdae::capi::to_simulation_options(options);
    auto handle = std::make_unique<lsdae_simulation>();
    handle->sim = lsdae::Simulation::create(lsdae::Fmu::open(fmu_path), o);
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
  });
}

lsdae_status lsdae_get_int64(lsdae_simulation* s, const char* name, int64_t* value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
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
  return lsdae::capi::guarded(s->error, [&] {
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
  return lsdae::capi::guarded(s->error, [&] { s->sim->initialize(); });
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
  return lsdae::capi::guarded(s->error, [&] {
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
  return lsdae::capi::guarded(s->error, [&] {
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
    out->varying_colors = st.varying_colors;
    out->constant_entries = st.constant_entries;
    out->constant_evaluations = st.constant_evaluations;
    out->constant_calls = st.constant_calls;
    out->klu_symbolic_analyses = st.klu_symbolic_analyses;
    out->klu_restart_factorizations = st.klu_restart_factorizations;
    out->synthesis_evaluations = st.synthesis_evaluations;
    out->projection_rejections = st.projection_rejections;
    out->eliminated = st.eliminated;
    out->klu_analyses_carried_over = st.klu_analyses_carried_over;
    out->first_step_retries = st.first_step_retries;
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

size_t lsdae_variable_count(const lsdae_simulation* s) {
  return s == nullptr ? 0 : s->sim->fmu().model_description().variables.size();
}

lsdae_status lsdae_variable_at(lsdae_simulation* s, size_t index, lsdae_variable* out) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (out == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_at: variable must not be NULL");
    const auto& variables = s->sim->fmu().model_description().variables;
    if (index >= variables.size())
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_at: index " + std::to_string(index) +
                                                      " is past the last variable → use 0 .. " +
                                                      std::to_string(variables.size()) +
                                                      " - 1 (lsdae_variable_count)");
    const lsdae::Variable& v = variables[index];
    out->name = v.name.c_str();
    out->value_reference = v.value_reference;
    out->type = static_cast<lsdae_type>(v.type);
    out->causality = static_cast<lsdae_causality>(v.causality);
    out->variability = static_cast<lsdae_variability>(v.variability);
    out->unit = v.unit.c_str();
    out->description = v.description.c_str();
    out->start = v.start_text ? v.start_text->c_str() : nullptr;
    out->elements = v.element_count();
  });
}

lsdae_status lsdae_variable_index(lsdae_simulation* s, const char* name, size_t* index) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    if (name == nullptr || index == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_index: name and index must not be NULL");
    const lsdae::Fmu& fmu = s->sim->fmu();
    const auto& variables = fmu.model_description().variables;
    const lsdae::Variable* v = fmu.model_description().find(std::string(name));
    if (v == nullptr)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_variable_index: " + fmu.display_name() +
                                                      ": no variable is named \"" + name +
                                                      "\" → `lsdae info --variables` lists them; names are case-sensitive");
    *index = static_cast<size_t>(v - variables.data());
  });
}

const char* lsdae_type_name(lsdae_type type) {
  if (static_cast<int>(type) < 0 || static_cast<int>(type) > LSDAE_TYPE_CLOCK) return "";
  return lsdae::to_string(static_cast<lsdae::VariableType>(type));
}

lsdae_status lsdae_set_int64(lsdae_simulation* s, const char* name, int64_t value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_int64", name,
                   {lsdae::VariableType::int8, lsdae::VariableType::uint8, lsdae::VariableType::int16,
                    lsdae::VariableType::uint16, lsdae::VariableType::int32, lsdae::VariableType::uint32,
                    lsdae::VariableType::int64, lsdae::VariableType::uint64, lsdae::VariableType::enumeration,
                    lsdae::VariableType::boolean},
                   "an integer, Enumeration or Boolean");
    s->sim->set(std::string(name), std::to_string(value));  // range-checked for the type
  });
}

lsdae_status lsdae_set_uint64(lsdae_simulation* s, const char* name, uint64_t value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_uint64", name, kIntegerTypes, "an integer type");
    s->sim->set(std::string(name), std::to_string(value));
  });
}

lsdae_status lsdae_get_uint64(lsdae_simulation* s, const char* name, uint64_t* value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_get_uint64", name, kIntegerTypes, "an integer type");
    if (value == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_uint64: value must not be NULL");
    const lsdae::Values v = one_value(s, "lsdae_get_uint64", name);
    if (lsdae::storage_of(v.type) == lsdae::ValueStorage::unsigned_integer) {
      *value = v.unsigned_integers[0];
      return;
    }
    if (v.integers[0] < 0)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_uint64: \"") + name + "\" = " +
                                                      std::to_string(v.integers[0]) +
                                                      " is negative → read it with lsdae_get_int64");
    *value = static_cast<uint64_t>(v.integers[0]);
  });
}

lsdae_status lsdae_set_boolean(lsdae_simulation* s, const char* name, int value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_boolean", name, {lsdae::VariableType::boolean}, "Boolean");
    if (value != 0 && value != 1)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_set_boolean: \"") + name + "\" given " +
                                                      std::to_string(value) + " → give 0 (false) or 1 (true)");
    s->sim->set(std::string(name), std::string(value == 1 ? "true" : "false"));
  });
}

lsdae_status lsdae_get_boolean(lsdae_simulation* s, const char* name, int* value) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_get_boolean", name, {lsdae::VariableType::boolean}, "Boolean");
    if (value == nullptr) throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_get_boolean: value must not be NULL");
    *value = one_value(s, "lsdae_get_boolean", name).integers[0] != 0 ? 1 : 0;
  });
}

lsdae_status lsdae_set_binary(lsdae_simulation* s, const char* name, const uint8_t* data, size_t size) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_set_binary", name, {lsdae::VariableType::binary}, "Binary");
    if (data == nullptr && size > 0)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_set_binary: data is NULL with size " + std::to_string(size) +
                                                      " → pass the bytes (NULL only with size 0)");
    s->sim->set(std::string(name), to_hex(data, size));
  });
}

lsdae_status lsdae_get_binary(lsdae_simulation* s, const char* name, uint8_t* buffer, size_t size, size_t* needed) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    typed_variable(s, "lsdae_get_binary", name, {lsdae::VariableType::binary}, "Binary");
    const std::string hex = one_value(s, "lsdae_get_binary", name).texts[0];
    const size_t bytes = hex.size() / 2;
    if (needed != nullptr) *needed = bytes;
    if (size == 0 && buffer == nullptr) return;  // a size query
    if (buffer == nullptr || size < bytes)
      throw lsdae::Error(lsdae::ErrorKind::usage, std::string("lsdae_get_binary: \"") + name + "\" has " +
                                                      std::to_string(bytes) + " bytes, the buffer " +
                                                      std::to_string(size) + " → pass a larger buffer (*needed says how large)");
    for (size_t i = 0; i < bytes; ++i)
      buffer[i] = static_cast<uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
  });
}

lsdae_status lsdae_set_log_callback(lsdae_log_callback callback, void* user, lsdae_log_level threshold) {
  const int level = static_cast<int>(threshold);
  if (level < LSDAE_LOG_DEBUG || level > LSDAE_LOG_OFF) {
    lsdae::capi::open_error() = "lsdae_set_log_callback: threshold " + std::to_string(level) +
                   " is not an lsdae_log_level → use LSDAE_LOG_DEBUG ... LSDAE_LOG_OFF";
    return LSDAE_ERR_USAGE;
  }
  {
    std::lock_guard<std::mutex> lock(g_log_mutex);
    g_log_callback = callback;
    g_log_user = user;
  }
  lsdae::Logger& logger = lsdae::Logger::instance();
  logger.set_threshold(static_cast<lsdae::LogLevel>(level));
  if (callback == nullptr) {
    logger.set_sink(nullptr);
    return LSDAE_OK;
  }
  logger.set_sink([](lsdae::LogLevel lvl, const std::string& text) {
    lsdae_log_callback cb;
    void* u;
    {
      std::lock_guard<std::mutex> lock(g_log_mutex);
      cb = g_log_callback;
      u = g_log_user;
    }
    if (cb == nullptr) return;
    // FMU messages arrive as "[<instance>] <category>: <message>" (lsdae/log.h).
    if (text.size() > 2 && text[0] == '[') {
      const auto close = text.find("] ");
      if (close != std::string::npos) {
        const std::string instance = text.substr(1, close - 1);
        cb(static_cast<lsdae_log_level>(lvl), instance.c_str(), text.c_str() + close + 2, u);
        return;
      }
    }
    cb(static_cast<lsdae_log_level>(lvl), nullptr, text.c_str(), u);
  });
  return LSDAE_OK;
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

void lsdae_isolation_init(lsdae_isolation* isolation) {
  if (isolation == nullptr) return;
  isolation->timeout = isolation->call_timeout = std::numeric_limits<double>::quiet_NaN();
}

lsdae_status lsdae_run_isolated(int (*body)(void* user), void* user, const lsdae_isolation* isolation) {
  if (body == nullptr) {
    lsdae::capi::open_error() = "lsdae_run_isolated: body must not be NULL";
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
      lsdae::capi::open_error() = e.what();
      return LSDAE_ERR_USAGE;
    }
  }
  lsdae::RunOutcome outcome;
  lsdae_status status = lsdae::capi::guarded(lsdae::capi::open_error(), [&] {
    outcome = lsdae::run_isolated(
        [&](lsdae::RunContext& context) {
          g_run_context = &context;
          lsdae::capi::latest_error().clear();
          const int returned = body(user);
          // An error status with the message of the call that failed: the
          // message goes back to the caller through the outcome (this is
          // the child; its memory does not come back).
          if (returned != LSDAE_OK && !lsdae::capi::latest_error().empty())
            if (const auto kind = kind_of(returned)) throw lsdae::Error(*kind, lsdae::capi::latest_error());
          return returned;
        },
        options);
  });
  if (status != LSDAE_OK) return status;
  if (outcome.ok()) {
    if (outcome.exit_code != LSDAE_OK && !kind_of(outcome.exit_code)) {
      lsdae::capi::open_error() = "lsdae_run_isolated: body returned " + std::to_string(outcome.exit_code) +
                     ", not an lsdae_status → return LSDAE_OK or an error status";
      return LSDAE_ERR_INTERNAL;
    }
    lsdae::capi::open_error().clear();
    return static_cast<lsdae_status>(outcome.exit_code);
  }
  lsdae::capi::open_error() = outcome.message;
  return lsdae::capi::to_status(outcome.kind());
}

int lsdae_stop_requested(void) { return g_run_context != nullptr && g_run_context->stop_requested() ? 1 : 0; }

}  // extern "C"
