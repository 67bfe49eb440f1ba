// runtime/capi/options.cpp -- see options.h.
#include "capi/options.h"

#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "common/format.h"
#include "lsdae/error.h"

namespace lsdae::capi {
namespace {

// An enum field as the int a C caller stored: C allows any int there, while
// loading an out-of-range value as the C++ enum type is undefined behaviour.
template <typename E>
int c_enum(const E& field) {
  static_assert(sizeof(E) == sizeof(int), "a C enum is an int");
  int value = 0;
  std::memcpy(&value, &field, sizeof value);
  return value;
}

[[noreturn]] void bad_option(const std::string& field, const std::string& seen, const std::string& what,
                                    const std::string& todo) {
  throw Error(ErrorKind::usage, "lsdae_open: options." + field + " is " + seen + ", " + what + " → " + todo);
}

}  // namespace

SimulationOptions to_simulation_options(const lsdae_options* options) {
  SimulationOptions o;
  if (options == nullptr) return o;
  auto opt = [](double v) { return std::isnan(v) ? std::optional<double>() : std::optional<double>(v); };
  o.start_time = opt(options->start_time);
  o.stop_time = opt(options->stop_time);
  o.rtol = opt(options->rtol);
  o.atol = opt(options->atol);
  o.output_interval = opt(options->output_interval);
  if (options->threads < 0)
    bad_option("threads", std::to_string(options->threads), "negative",
               "use a positive count, or 0 for the default (1)");
  if (options->threads > 0) o.threads = static_cast<std::size_t>(options->threads);
  // As `--max-steps` on the command line: a count of at least 1; 0 and
  // negative values are refused rather than quietly meaning "the default".
  if (options->max_steps <= 0)
    bad_option("max_steps", std::to_string(options->max_steps), "not a positive count of steps",
               "use at least 1, e.g. " + std::to_string(SimulationOptions{}.max_steps) +
                   " (the default lsdae_options_init sets)");
  o.max_steps = options->max_steps;
  // As before the other options existed: any other value means automatic.
  const int jacobian = c_enum(options->jacobian);
  o.jacobian = jacobian == LSDAE_JACOBIAN_FINITE_DIFFERENCES ? JacobianMode::finite_differences
               : jacobian == LSDAE_JACOBIAN_DIRECTIONAL      ? JacobianMode::directional
                                                             : JacobianMode::automatic;

  switch (const int constraints = c_enum(options->constraints)) {
    case LSDAE_CONSTRAINTS_DEFAULT:
    case LSDAE_CONSTRAINTS_DUMMY_DERIVATIVES: o.constraints = ConstraintMethod::dummy_derivatives; break;
    case LSDAE_CONSTRAINTS_PROJECTION: o.constraints = ConstraintMethod::projection; break;
    default:
      bad_option("constraints", std::to_string(constraints),
                 "not an lsdae_constraint_method",
                 "use LSDAE_CONSTRAINTS_DEFAULT, LSDAE_CONSTRAINTS_DUMMY_DERIVATIVES or LSDAE_CONSTRAINTS_PROJECTION");
  }

  const double tol = options->projection_tolerance;
  if (!std::isnan(tol)) {
    if (!(tol > 0) || std::isinf(tol))
      bad_option("projection_tolerance", format_number(tol), "not a positive finite number",
                 "use a positive tolerance, or NaN for the default (10·atol)");
    o.projection_tolerance = tol;
  }

  if (options->klu_ordering != nullptr) {
    const std::string ordering = options->klu_ordering;
    if (ordering != "amd" && ordering != "colamd" && ordering != "metis")
      bad_option("klu_ordering", "\"" + ordering + "\"", "not one of amd, colamd, metis",
                 "use one of them, or NULL for the default (amd)");
    o.klu_ordering = ordering;
  }

  switch (const int row_order = c_enum(options->row_order)) {
    case LSDAE_ROW_ORDER_DEFAULT:
    case LSDAE_ROW_ORDER_MATCHED: o.match_rows = true; break;
    case LSDAE_ROW_ORDER_DECLARED: o.match_rows = false; break;
    default:
      bad_option("row_order", std::to_string(row_order), "not an lsdae_row_order",
                 "use LSDAE_ROW_ORDER_DEFAULT, LSDAE_ROW_ORDER_MATCHED or LSDAE_ROW_ORDER_DECLARED");
  }

  if (options->reselect != 0 && options->reselect != 1)
    bad_option("reselect", std::to_string(options->reselect), "not 0 or 1",
               "use 1 (re-select dummy derivatives, the default) or 0 (keep the initial choice)");
  o.reselect = options->reselect == 1;

  const double max_step = options->max_step;
  if (max_step < 0)
    bad_option("max_step", format_number(max_step), "negative", "use a positive step size, or 0 for no limit");
  o.max_step = (std::isnan(max_step) || std::isinf(max_step)) ? 0.0 : max_step;

  if (options->eliminate != 0 && options->eliminate != 1)
    bad_option("eliminate", std::to_string(options->eliminate), "not 0 or 1",
               "use 1 (eliminate linear algebraic unknowns where the cost model allows) or 0 (off, the default)");
  o.eliminate_linear = options->eliminate == 1;
  return o;
}

}  // namespace lsdae::capi
