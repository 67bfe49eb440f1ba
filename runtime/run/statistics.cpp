// runtime/run/statistics.cpp -- the statistics field table and its JSON
// writer (statistics.h). The rows are in the order of the JSON document.
#include "run/statistics.h"

#include <sstream>

#include "lsdae/version.h"
#include "run/json_writer.h"

namespace lsdae::run {

namespace {

using Get = std::function<FieldValue(const RunStatistics&)>;

// Top-level fields present always; the simulation's fields when there is one.
bool always(const RunStatistics&) { return true; }
bool simulated(const RunStatistics& s) { return s.simulated; }

template <typename T>
FieldValue integer(T v) {
  return static_cast<std::int64_t>(v);
}

std::vector<StatisticField> make_fields() {
  std::vector<StatisticField> f;
  auto top = [&](std::string key, FieldType type, std::string meaning, Get get, std::function<bool(const RunStatistics&)> present = always) {
    f.push_back({"", std::move(key), "", type, false, std::move(meaning), std::move(get), std::move(present)});
  };
  // A field of the simulation (SimulationStats), in `group`, with its flat name.
  auto sim = [&](std::string group, std::string key, std::string flat, FieldType type, bool in_c, std::string meaning,
                 Get get) {
    f.push_back({std::move(group), std::move(key), std::move(flat), type, in_c, std::move(meaning), std::move(get), simulated});
  };
  const FieldType I = FieldType::integer, R = FieldType::real, T = FieldType::text, B = FieldType::boolean;
  top("fmu", T, "the model's name (the FMU's file name, or the system's)", [](const auto& s) { return s.model; });
  top("command_line", FieldType::text_list, "the lsdae program's command line (empty from C and Python)",
      [](const auto& s) { return s.command_line; });
  f.push_back({"versions", "lsdae", "", T, false, "lsdae's version", [](const auto&) { return FieldValue(std::string(LSDAE_VERSION_STRING)); }, always});
  top("completed", B, "the run reached its end: no error, not interrupted",
      [](const auto& s) { return s.error.empty() && !s.interrupted; });
  top("interrupted", B, "a stop request (a signal, a cancel) ended the run", [](const auto& s) { return s.interrupted; });
  top("error", T, "the failure that ended the run (only when there was one)", [](const auto& s) { return s.error; },
      [](const RunStatistics& s) { return !s.error.empty(); });
  top("rows_written", I, "result rows written", [](const auto& s) { return integer(s.rows); });
  top("wall_time_s", R, "wall time of the whole run, seconds", [](const auto& s) { return s.wall_time; });
  top("start_time", R, "the run's start time", [](const auto& s) { return s.start_time; }, simulated);
  top("stop_time", R, "the run's stop time", [](const auto& s) { return s.stop_time; }, simulated);
  sim("", "reached_time", "reached_time", R, true, "the last time reached", [](const auto& s) { return s.simulation.reached_time; });
#define S(member) [](const RunStatistics& s) { return integer(s.simulation.member); }
#define D(member) [](const RunStatistics& s) { return FieldValue(static_cast<double>(s.simulation.member)); }
#define X(member) [](const RunStatistics& s) { return FieldValue(s.simulation.member); }
  sim("model", "unknowns", "unknowns", I, true, "unknowns IDA integrates", S(unknowns));
  sim("model", "differential", "differential", I, true, "differential unknowns", S(differential));
  sim("model", "algebraic", "algebraic", I, true, "algebraic unknowns", S(algebraic));
  sim("model", "structural_index", "structural_index", I, true, "the DAE's structural index", S(structural_index));
  sim("model", "eliminated", "eliminated", I, true, "algebraic unknowns eliminated before IDA (eliminate auto)", S(eliminated));
  sim("jacobian", "method", "jacobian_method", T, false, "\"finite differences\" or \"directional\"", X(jacobian_method));
  sim("jacobian", "nonzeros", "jacobian_nonzeros", I, true, "nonzeros of the iteration matrix", S(jacobian_nonzeros));
  sim("jacobian", "colors", "colors", I, true, "colours of the Jacobian, all entries", S(colors));
  sim("jacobian", "varying_colors", "varying_colors", I, true, "colours evaluated per Jacobian", S(varying_colors));
  sim("jacobian", "constant_entries", "constant_entries", I, true, "entries the FMU declares constant, evaluated once", S(constant_entries));
  sim("jacobian", "threads", "threads", I, true, "threads (and FMU instances) for Jacobians", S(threads));
  sim("counters", "steps", "steps", I, true, "IDA steps", S(steps));
  sim("counters", "residual_calls", "residual_calls", I, true, "residual evaluations by IDA", S(residual_calls));
  sim("counters", "jacobian_evaluations", "jacobian_evaluations", I, true, "Jacobian evaluations", S(jacobian_evaluations));
  sim("counters", "jacobian_reforms", "jacobian_reforms", I, true, "Jacobians re-formed for a new cj from the last one (no model call)", S(jacobian_reforms));
  sim("counters", "jacobian_residual_calls", "jacobian_residual_calls", I, true, "residual evaluations for finite-difference Jacobians (evaluations × colours)", S(jacobian_residual_calls));
  sim("counters", "directional_calls", "directional_calls", I, true, "directional-derivative calls", S(directional_calls));
  sim("counters", "nonlinear_iterations", "nonlinear_iterations", I, true, "Newton iterations", S(nonlinear_iterations));
  sim("counters", "nonlinear_convergence_failures", "nonlinear_convergence_failures", I, true, "Newton convergence failures", S(nonlinear_convergence_failures));
  sim("counters", "error_test_failures", "error_test_failures", I, true, "local error test failures", S(error_test_failures));
  sim("counters", "linear_solver_setups", "linear_solver_setups", I, true, "linear solver setups", S(linear_solver_setups));
  sim("counters", "constant_evaluations", "constant_evaluations", I, true, "times the constant Jacobian entries were evaluated", S(constant_evaluations));
  sim("counters", "constant_calls", "constant_calls", I, true, "FMU calls spent on them (in the call counters above)", S(constant_calls));
  sim("counters", "synthesis_evaluations", "synthesis_evaluations", I, true, "FMU evaluations for constraint derivatives lsdae synthesizes (outside residual_calls)", S(synthesis_evaluations));
  sim("counters", "klu_symbolic_analyses", "klu_symbolic_analyses", I, true, "KLU symbolic analyses", S(klu_symbolic_analyses));
  sim("counters", "klu_restart_factorizations", "klu_restart_factorizations", I, true, "full KLU factorizations at events with the analysis kept", S(klu_restart_factorizations));
  sim("counters", "klu_analyses_carried_over", "klu_analyses_carried_over", I, true, "KLU analyses taken over from the previous run of a reset model", S(klu_analyses_carried_over));
  sim("counters", "time_events", "time_events", I, true, "time events", S(time_events));
  sim("counters", "state_events", "state_events", I, true, "state events", S(state_events));
  sim("counters", "step_events", "step_events", I, true, "step events", S(step_events));
  sim("counters", "reselections", "reselections", I, true, "dummy-derivative re-selections", S(reselections));
  sim("counters", "projections", "projections", I, true, "projections onto the constraints", S(projections));
  sim("counters", "projection_rejections", "projection_rejections", I, true, "steps taken again, smaller, for a too large projection", S(projection_rejections));
  sim("counters", "events_continued", "events_continued", I, true, "state events after which IDA went on from its history (no restart)", S(events_continued));
  sim("counters", "root_function_calls", "root_function_calls", I, true, "event-indicator evaluations (IDA's root finding and lsdae's scan inside steps)", S(root_function_calls));
  sim("counters", "first_step_retries", "first_step_retries", I, true, "first steps tried again a thousand times smaller", S(first_step_retries));
  sim("", "dummy_derivatives", "dummy_derivatives", T, false, "the dummy derivatives at the end, comma-separated", X(dummy_derivatives));
  sim("", "largest_projection", "largest_projection", R, true, "the largest projection correction in IDA's error norm", D(largest_projection));
  sim("", "largest_drift", "largest_drift", R, true, "the largest constraint drift (projection, none), in its own units", D(largest_drift));
  sim("", "largest_drift_constraint", "largest_drift_constraint", T, false, "where the drift was largest", X(largest_drift_constraint));
  sim("", "terminated_by_fmu", "terminated_by_fmu", B, true, "the FMU asked to terminate", X(terminated_by_fmu));
  sim("klu", "ordering", "klu_ordering", T, false, "KLU's fill-reducing ordering", X(klu_ordering));
  sim("klu", "lnz", "klu_lnz", I, true, "nonzeros of L", S(klu_lnz));
  sim("klu", "unz", "klu_unz", I, true, "nonzeros of U", S(klu_unz));
  sim("klu", "index_bits", "klu_index_bits", I, false, "KLU's index width: 32, or 64 where n or nnz exceed int32 (SUNDIALS' solver)", S(klu_index_bits));
  sim("klu", "fill_ratio", "klu_fill_ratio", R, true, "(lnz + unz) / Jacobian nonzeros", [](const RunStatistics& s) {
    const SimulationStats& st = s.simulation;
    return FieldValue(st.jacobian_nonzeros == 0 ? 0.0
                                                : static_cast<double>(st.klu_lnz + st.klu_unz) /
                                                      static_cast<double>(st.jacobian_nonzeros));
  });
  sim("time_s", "structure", "time_structure", R, true, "seconds: structural analysis", D(time_structure));
  sim("time_s", "instantiate", "time_instantiate", R, true, "seconds: loading the binary, instantiating", D(time_instantiate));
  sim("time_s", "initialize", "time_initialize", R, true, "seconds: initialization", D(time_initialize));
  sim("time_s", "integrate", "time_integrate", R, true, "seconds: integration", D(time_integrate));
#undef S
#undef D
#undef X
  auto with_results = [](const RunStatistics& s) { return s.simulated && s.results.has_value(); };
  f.push_back({"time_s", "write_results", "", R, false, "seconds: writing result rows (formatting and I/O)",
               [](const RunStatistics& s) { return FieldValue(s.results->write_seconds); }, with_results});
  f.push_back({"results", "format", "", T, false, "the result file's format",
               [](const RunStatistics& s) { return FieldValue(s.results->format); }, with_results});
  f.push_back({"results", "", "", FieldType::writer_counts, false,
               "what the writer did (HDF5: chunks, chunks_compressed, chunks_raw_writer_behind, chunks_raw_incompressible)",
               [](const RunStatistics&) { return FieldValue(std::int64_t{0}); }, with_results});
  return f;
}

bool is_present(const StatisticField& field, const RunStatistics& s) { return field.present(s); }

void write_value(JsonWriter& j, const FieldValue& v) {
  if (const auto* text = std::get_if<std::string>(&v)) j.value(*text);
  else if (const auto* flag = std::get_if<bool>(&v)) j.value(*flag);
  else if (const auto* n = std::get_if<std::int64_t>(&v)) j.value(*n);
  else if (const auto* x = std::get_if<double>(&v)) j.value(*x);
  else {
    j.begin_array();
    for (const auto& word : std::get<std::vector<std::string>>(v)) j.value(word);
    j.end_array();
  }
}

}  // namespace

void take_simulation(RunStatistics& stats, Simulation& sim) {
  stats.simulated = true;
  stats.start_time = sim.start_time();
  stats.stop_time = sim.stop_time();
  stats.simulation = sim.statistics();
}

const std::vector<StatisticField>& statistic_fields() {
  static const std::vector<StatisticField> fields = make_fields();
  return fields;
}

const StatisticField* find_statistic(const std::string& flat) {
  for (const auto& f : statistic_fields())
    if (!flat.empty() && f.flat == flat) return &f;
  return nullptr;
}

std::string statistics_json(const RunStatistics& stats) {
  std::ostringstream out;
  JsonWriter j(out);
  j.begin_object();
  std::string open;  // the group whose object is open ("" none)
  for (const StatisticField& field : statistic_fields()) {
    if (!is_present(field, stats)) continue;
    if (field.group != open) {
      if (!open.empty()) j.end_object();
      open = field.group;
      if (!open.empty()) j.key(open).begin_object();
    }
    if (field.type == FieldType::writer_counts) {
      for (const auto& [name, count] : stats.results->writer) j.field(name, count);
      continue;
    }
    j.key(field.key);
    write_value(j, field.value(stats));
  }
  if (!open.empty()) j.end_object();
  j.end_object();
  out << '\n';
  return out.str();
}

std::vector<std::pair<std::string, FieldValue>> flat_statistics(const RunStatistics& stats) {
  std::vector<std::pair<std::string, FieldValue>> out;
  for (const StatisticField& field : statistic_fields())
    if (!field.flat.empty()) out.emplace_back(field.flat, field.value(stats));
  return out;
}

}  // namespace lsdae::run
