// runtime/capi/statistics.cpp -- see statistics.h.
#include "capi/statistics.h"

#include <cstdint>
#include <type_traits>
#include <variant>

#include "lsdae/error.h"

namespace lsdae::capi {

namespace {

// The value of a field as the member's type.
template <typename T>
T as(const run::FieldValue& v) {
  if (const auto* n = std::get_if<std::int64_t>(&v)) return static_cast<T>(*n);
  if (const auto* x = std::get_if<double>(&v)) return static_cast<T>(*x);
  if (const auto* b = std::get_if<bool>(&v)) return static_cast<T>(*b ? 1 : 0);
  throw Error(ErrorKind::internal, "lsdae_statistics: a text statistic has no member in lsdae_stats");
}

}  // namespace

#define LSDAE_STATS_MEMBER(name)                                                              \
  StatsMember {                                                                               \
    #name, [](lsdae_stats& out, const run::FieldValue& v) { out.name = as<decltype(out.name)>(v); } \
  }

const std::vector<StatsMember>& c_members() {
  static const std::vector<StatsMember> members = {
      LSDAE_STATS_MEMBER(unknowns), LSDAE_STATS_MEMBER(differential), LSDAE_STATS_MEMBER(algebraic),
      LSDAE_STATS_MEMBER(jacobian_nonzeros), LSDAE_STATS_MEMBER(colors), LSDAE_STATS_MEMBER(threads),
      LSDAE_STATS_MEMBER(steps), LSDAE_STATS_MEMBER(residual_calls), LSDAE_STATS_MEMBER(jacobian_evaluations),
      LSDAE_STATS_MEMBER(jacobian_residual_calls), LSDAE_STATS_MEMBER(directional_calls),
      LSDAE_STATS_MEMBER(nonlinear_iterations), LSDAE_STATS_MEMBER(error_test_failures), LSDAE_STATS_MEMBER(klu_lnz),
      LSDAE_STATS_MEMBER(klu_unz), LSDAE_STATS_MEMBER(time_structure), LSDAE_STATS_MEMBER(time_initialize),
      LSDAE_STATS_MEMBER(time_integrate), LSDAE_STATS_MEMBER(reached_time), LSDAE_STATS_MEMBER(time_events),
      LSDAE_STATS_MEMBER(state_events), LSDAE_STATS_MEMBER(step_events), LSDAE_STATS_MEMBER(reselections),
      LSDAE_STATS_MEMBER(projections), LSDAE_STATS_MEMBER(nonlinear_convergence_failures),
      LSDAE_STATS_MEMBER(linear_solver_setups), LSDAE_STATS_MEMBER(time_instantiate),
      LSDAE_STATS_MEMBER(varying_colors), LSDAE_STATS_MEMBER(constant_entries),
      LSDAE_STATS_MEMBER(constant_evaluations), LSDAE_STATS_MEMBER(constant_calls),
      LSDAE_STATS_MEMBER(klu_symbolic_analyses), LSDAE_STATS_MEMBER(klu_restart_factorizations),
      LSDAE_STATS_MEMBER(synthesis_evaluations), LSDAE_STATS_MEMBER(projection_rejections),
      LSDAE_STATS_MEMBER(eliminated), LSDAE_STATS_MEMBER(klu_analyses_carried_over),
      LSDAE_STATS_MEMBER(first_step_retries), LSDAE_STATS_MEMBER(structural_index),
      LSDAE_STATS_MEMBER(largest_projection), LSDAE_STATS_MEMBER(largest_drift),
      LSDAE_STATS_MEMBER(terminated_by_fmu), LSDAE_STATS_MEMBER(klu_fill_ratio),
      LSDAE_STATS_MEMBER(jacobian_reforms), LSDAE_STATS_MEMBER(events_continued),
      LSDAE_STATS_MEMBER(root_function_calls),
  };
  return members;
}

#undef LSDAE_STATS_MEMBER

void fill_stats(const run::RunStatistics& stats, lsdae_stats& out) {
  out = lsdae_stats{};
  for (const StatsMember& member : c_members()) {
    const run::StatisticField* field = run::find_statistic(member.name);
    if (field == nullptr)
      throw Error(ErrorKind::internal, "lsdae_statistics: lsdae_stats." + member.name + " has no statistic of that name");
    member.assign(out, field->value(stats));
  }
}

}  // namespace lsdae::capi
