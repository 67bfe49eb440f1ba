// runtime/capi/options.cpp -- see options.h.
#include "capi/options.h"

#include <cmath>
#include <cstring>
#include <string>

namespace lsdae::capi {

namespace {

// An enum field as the int a C caller stored: C allows any int there, while
// loading an out-of-range value as the C++ enum type is undefined behaviour.
template <typename E>
std::int64_t c_enum(const E& field) {
  static_assert(sizeof(E) == sizeof(int), "a C enum is an int");
  int value = 0;
  std::memcpy(&value, &field, sizeof value);
  return value;
}

void real(run::GivenOptions& out, const char* key, double value) {
  if (!std::isnan(value)) out.push_back({key, value, ""});
}

void integer(run::GivenOptions& out, const char* key, std::int64_t value) { out.push_back({key, value, ""}); }

void text(run::GivenOptions& out, const char* key, const char* value) {
  if (value != nullptr) out.push_back({key, std::string(value), ""});
}

}  // namespace

run::GivenOptions given_options(const lsdae_options* o) {
  run::GivenOptions out;
  if (o == nullptr) return out;
  real(out, "start_time", o->start_time);
  real(out, "stop_time", o->stop_time);
  real(out, "rtol", o->rtol);
  real(out, "atol", o->atol);
  real(out, "output_interval", o->output_interval);
  if (o->threads != 0) integer(out, "threads", o->threads);  // 0: the default
  integer(out, "jacobian", c_enum(o->jacobian));
  integer(out, "max_steps", o->max_steps);
  integer(out, "constraints", c_enum(o->constraints));
  real(out, "projection_tolerance", o->projection_tolerance);
  text(out, "klu_ordering", o->klu_ordering);
  integer(out, "row_order", c_enum(o->row_order));
  integer(out, "reselect", o->reselect);
  // 0, NaN and +inf: no limit.
  if (!std::isnan(o->max_step) && o->max_step != HUGE_VAL) real(out, "max_step", o->max_step);
  integer(out, "eliminate", o->eliminate);
  text(out, "linear_solver", o->linear_solver);
  integer(out, "coloring", o->coloring);
  integer(out, "constant_entries", o->constant_entries);
  integer(out, "klu_reanalyze", o->klu_reanalyze);
  integer(out, "jacobian_reuse", o->jacobian_reuse);
  real(out, "newton_dcj", o->newton_dcj);
  return out;
}

run::GivenOptions given_output(const lsdae_output* o) {
  run::GivenOptions out;
  if (o == nullptr) return out;
  text(out, "format", o->format);
  integer(out, "csv_units", o->csv_units);
  integer(out, "csv_events", o->csv_events);
  integer(out, "hdf5_deflate", o->hdf5_deflate);
  integer(out, "hdf5_compress_all", o->hdf5_compress_all);
  text(out, "output_roles", o->output_roles);
  integer(out, "all", o->all);
  integer(out, "output_steps", o->output_steps);
  text(out, "output_times", o->output_times);
  text(out, "output_grid", o->output_grid);
  real(out, "output_first", o->output_first);
  if (o->output_per_decade != 0) integer(out, "output_per_decade", o->output_per_decade);
  if (o->output_every != 0) integer(out, "output_every", o->output_every);
  if (o->max_rows != 0) integer(out, "max_rows", o->max_rows);
  return out;
}

run::RunSettings settings_from(const lsdae_options* options, const std::string& where) {
  return run::settings_from(given_options(options), run::Door::c, run::category::simulation, where);
}

SimulationOptions to_simulation_options(const lsdae_options* options) {
  return settings_from(options, "lsdae_open: ").simulation;
}

}  // namespace lsdae::capi
