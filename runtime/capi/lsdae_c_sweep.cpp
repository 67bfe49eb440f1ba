// runtime/capi/lsdae_c_sweep.cpp -- the sweep part of the C interface
// (lsdae/lsdae.h): lsdae::capi::sweep (capi/sweep_entry.h; lsdae_sweep is its
// entry in the composition root, compose/) over lsdae::sweep::run_sweep,
// writing and resuming its summary with the CLI's sweep/summary_file.h, and
// the scenario runner (one scenario at a time on a reused model) over
// lsdae::sweep::ScenarioRunner and run_scenario. The model is opened by the
// run layer (run/open_model.h), the options read into the options table
// (capi/options.h), the contingency fields handed by name to the scenario
// source registered as "contingencies" (lsdae/sweep.h; the PowerGrid FMU's,
// which the composition root installs). Every entry point
// catches every exception (capi/guarded.h); messages and rows name the
// spec's and the options' fields, not the command line's flags (run/respell.h).
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "capi/guarded.h"
#include "capi/options.h"
#include "capi/sweep_entry.h"
#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/log.h"
#include "lsdae/lsdae.h"
#include "lsdae/sweep.h"
#include "run/model_files.h"
#include "run/open_model.h"
#include "run/respell.h"
#include "sweep/csv_line.h"
#include "sweep/scenario_runner.h"
#include "sweep/scenario_sources.h"
#include "sweep/summary_file.h"

struct lsdae_scenario_runner {
  std::shared_ptr<const lsdae::sweep::SweepPlan> plan;
  std::unique_ptr<lsdae::sweep::ScenarioRunner> runner;
  std::string header, error, message, csv_row;
};

namespace {

using lsdae::Error;
using lsdae::ErrorKind;

[[noreturn]] void refuse(const std::string& message) { throw Error(ErrorKind::usage, message); }

// An FMU (.fmu, unpacked folder) or a system of FMUs (.ssp, .ssd).
std::shared_ptr<const lsdae::Model> open_model(const char* function, const char* path) {
  if (path == nullptr) refuse(std::string(function) + ": model_path must not be NULL → pass an .fmu, .ssp or .ssd");
  return lsdae::run::open_model(path).model;
}

// What the sweep's messages call the command line's flags here: the spec's
// fields (run/respell.h), those of the contingency source included.
const lsdae::run::Respellings& sweep_words() {
  static const lsdae::run::Respellings words = [] {
    lsdae::run::Respellings w = lsdae::run::sweep_words(lsdae::run::Door::c);
    w.insert(w.end(), {{"--contingencies", "spec->contingencies"},
                       {"--case", "spec->case_file"},
                       {"--fault-on", "spec->fault_on"},
                       {"--clear-after", "spec->clear_after"},
                       {"--no-fault", "spec->no_fault"}});
    return w;
  }();
  return words;
}

std::string c_words(const std::string& message) { return lsdae::run::respell(message, lsdae::run::Door::c, sweep_words()); }

template <typename F>
lsdae_status guarded_sweep(std::string& error, F&& body) {
  return lsdae::capi::guarded(error, std::forward<F>(body), sweep_words());
}

std::vector<std::string> texts(const char* function, const char* field, const char* const* array, size_t count) {
  if (count > 0 && array == nullptr)
    refuse(std::string(function) + ": spec->" + field + " is NULL with a count of " + std::to_string(count) +
           " → pass the texts or a count of 0");
  std::vector<std::string> out;
  for (size_t i = 0; i < count; ++i) {
    if (array[i] == nullptr)
      refuse(std::string(function) + ": spec->" + field + "[" + std::to_string(i) + "] is NULL → pass a text");
    out.emplace_back(array[i]);
  }
  return out;
}

// The SweepOptions of a spec (metrics, conditions, common sets, settle, reuse).
lsdae::sweep::SweepOptions sweep_options(const char* function, const lsdae_options* options,
                                         const lsdae_sweep_spec* spec) {
  lsdae::sweep::SweepOptions o;
  const lsdae::run::RunSettings settings = lsdae::capi::settings_from(options, std::string(function) + ": ");
  o.simulation = settings.simulation;
  o.check_jacobian = settings.check_jacobian;
  if (spec == nullptr) return o;
  o.metrics = texts(function, "metrics", spec->metrics, spec->metric_count);
  o.stop_when = texts(function, "stop_when", spec->stop_when, spec->stop_when_count);
  for (const auto& assignment : texts(function, "sets", spec->sets, spec->set_count)) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
      refuse(std::string(function) + ": spec->sets: \"" + assignment + "\" is not name=value → e.g. \"k=2.5\"");
    o.sets.emplace_back(assignment.substr(0, eq), assignment.substr(eq + 1));
  }
  if (!std::isnan(spec->settle_tol) && spec->settle_tol != 0) {
    lsdae::sweep::Settle settle{spec->settle_tol, spec->settle_duration, std::nullopt};
    if (!std::isnan(spec->settle_from)) settle.from = spec->settle_from;
    o.settle = settle;
  }
  if (spec->no_reuse != 0 && spec->no_reuse != 1)
    refuse(std::string(function) + ": spec->no_reuse is " + std::to_string(spec->no_reuse) + " → give 0 or 1");
  o.reuse = spec->no_reuse == 0;
  o.jobs = spec->jobs == 0 ? 1 : spec->jobs;
  return o;
}

void check_common_sets(const lsdae::Model& model, const lsdae::sweep::SweepOptions& o) {
  std::vector<lsdae::sweep::Scenario> common{{"common", o.sets}};
  lsdae::sweep::check_names(model.model_description(), common, "spec->sets");
}

// The summary's messages in the words of the C interface (spec fields).
lsdae::sweep::SummaryWording summary_wording() {
  lsdae::sweep::SummaryWording w;
  w.file = "lsdae_sweep: spec->summary_csv";
  w.resume = "lsdae_sweep: spec->resume";
  w.continues = "spec->resume = 1 continues the sweep";
  w.same_metrics = "resume with the same spec->metrics";
  w.new_file = "give another spec->summary_csv";
  w.start_again = "set spec->resume = 0 to start it again";
  return w;
}

lsdae_scenario_status to_c(lsdae::sweep::Status status) {
  switch (status) {
    case lsdae::sweep::Status::ok: return LSDAE_SCENARIO_OK;
    case lsdae::sweep::Status::stopped_early: return LSDAE_SCENARIO_STOPPED_EARLY;
    case lsdae::sweep::Status::failed: break;
  }
  return LSDAE_SCENARIO_FAILED;
}

lsdae_status run_one(lsdae_scenario_runner* r, const char* function, const char* id,
                     std::vector<std::pair<std::string, std::string>> sets, lsdae_scenario_result* result,
                     double* metrics, size_t metric_capacity) {
  return guarded_sweep(r->error, [&] {
    if (result == nullptr) refuse(std::string(function) + ": result must not be NULL → pass an lsdae_scenario_result");
    const size_t count = r->plan->options().metrics.size();
    if (metric_capacity < count || (count > 0 && metrics == nullptr))
      refuse(std::string(function) + ": room for " + std::to_string(metric_capacity) + " metrics, the runner has " +
             std::to_string(count) + " → pass an array of lsdae_scenario_metric_count() doubles");
    const std::size_t reused_before = r->runner->reused();
    const lsdae::sweep::SummaryRow row =
        lsdae::sweep::run_scenario(*r->plan, lsdae::sweep::Scenario{id != nullptr ? id : "", std::move(sets)}, *r->runner);
    lsdae::sweep::SummaryRow c_row = row;
    c_row.message = c_words(row.message);
    r->message = c_row.message;
    r->csv_row = c_row.to_csv();
    result->status = to_c(row.status);
    result->message = r->message.c_str();
    result->reached_time = row.reached_time.value_or(std::numeric_limits<double>::quiet_NaN());
    result->steps = row.steps;
    result->wall_time = row.wall_time;
    result->reused = r->runner->reused() > reused_before ? 1 : 0;
    result->csv_row = r->csv_row.c_str();
    for (size_t m = 0; m < count; ++m)
      metrics[m] = m < row.metrics.size() && row.metrics[m] ? *row.metrics[m] : std::numeric_limits<double>::quiet_NaN();
  });
}

lsdae_status null_runner(const char* function) {
  lsdae::capi::open_error() = std::string(function) + ": a NULL runner was passed → call lsdae_scenario_runner_open first";
  lsdae::capi::latest_error() = lsdae::capi::open_error();
  return LSDAE_ERR_USAGE;
}

}  // namespace

extern "C" {

void lsdae_sweep_spec_init(lsdae_sweep_spec* spec) {
  if (spec == nullptr) return;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  *spec = lsdae_sweep_spec{};
  spec->seed = 1;
  spec->fault_on = spec->clear_after = nan;
  spec->settle_tol = spec->settle_duration = spec->settle_from = nan;
}

}  // extern "C"

lsdae_status lsdae::capi::sweep(const char* model_path, const lsdae_options* options, const lsdae_sweep_spec* spec,
                                size_t* failed, void (*install_plugins)()) {
  return guarded_sweep(lsdae::capi::open_error(), [&] {
    if (install_plugins != nullptr) install_plugins();
    if (model_path == nullptr || spec == nullptr || spec->summary_csv == nullptr)
      refuse("lsdae_sweep: model_path, spec and spec->summary_csv must not be NULL → pass them");
    if (spec->resume != 0 && spec->resume != 1)
      refuse("lsdae_sweep: spec->resume is " + std::to_string(spec->resume) +
             " → give 0 (a new summary) or 1 (continue it)");
    lsdae::sweep::SweepOptions o = sweep_options("lsdae_sweep", options, spec);
    auto model = open_model("lsdae_sweep", model_path);
    lsdae::sweep::ScenarioSourceSpec source;
    if (spec->scenarios_csv != nullptr) source.table = spec->scenarios_csv;
    source.grid = texts("lsdae_sweep", "grid", spec->grid, spec->grid_count);
    source.monte_carlo = static_cast<std::int64_t>(spec->monte_carlo);
    source.draws = texts("lsdae_sweep", "draws", spec->draws, spec->draw_count);
    source.seed = spec->seed;
    // The contingency fields: the options of the scenario source named
    // "contingencies" (the PowerGrid FMU's, installed by the composition
    // root: compose/model_plugins.h). Zero is "not given" only for a
    // zeroed spec of older code; NaN is the documented default.
    lsdae::sweep::ScenarioSourceArguments contingencies;
    if (spec->contingencies != nullptr) contingencies.emplace_back("contingencies", spec->contingencies);
    if (spec->case_file != nullptr) contingencies.emplace_back("case", spec->case_file);
    if (!std::isnan(spec->fault_on) && spec->contingencies != nullptr)
      contingencies.emplace_back("fault-on", lsdae::sweep::round_trip(spec->fault_on));
    if (!std::isnan(spec->clear_after) && spec->contingencies != nullptr)
      contingencies.emplace_back("clear-after", lsdae::sweep::round_trip(spec->clear_after));
    if (spec->no_fault != 0) contingencies.emplace_back("no-fault", "1");
    source.sources.emplace_back("contingencies", std::move(contingencies));
    lsdae::sweep::ScenarioList list = lsdae::sweep::make_scenarios(source, *model);
    for (const auto& note : list.skipped) lsdae::log_info("lsdae_sweep: " + list.skipped_by + ": skipped " + note);
    if (o.settle && !o.settle->from) o.settle->from = list.settle_from;
    o.outcome = list.outcome;
    check_common_sets(*model, o);
    auto plan = lsdae::sweep::SweepPlan::compile(model, o);
    // The summary as `lsdae sweep --summary` writes it (sweep/summary_file.h:
    // CSV or HDF5 by the name, a row on disk as each scenario finishes) and
    // resumes it; the messages name the spec's fields.
    const std::string path = spec->summary_csv;
    // A new summary (resume 0) replaces the file: never one the sweep reads
    // (runtime/common/output_clash.h, as `lsdae sweep --summary`).
    std::vector<lsdae::files::ReadPath> inputs = lsdae::run::model_files(*model, model_path, "the model being swept");
    if (spec->scenarios_csv != nullptr) inputs.push_back({spec->scenarios_csv, "the table of spec->scenarios_csv"});
    if (spec->contingencies != nullptr) inputs.push_back({spec->contingencies, "the table of spec->contingencies"});
    if (spec->case_file != nullptr) inputs.push_back({spec->case_file, "the case of spec->case_file"});
    if (const std::string clash = lsdae::files::output_over_input(
            {{"lsdae_sweep: spec->summary_csv", path, "spec->summary_csv = \"sweep-summary.csv\""}}, inputs);
        !clash.empty())
      refuse(clash);
    std::unique_ptr<lsdae::sweep::SummaryFile> summary =
        lsdae::sweep::open_summary(path, o.metrics, spec->resume == 1, model->display_name(), summary_wording());
    const std::vector<std::size_t> todo = lsdae::sweep::unfinished(list.scenarios, summary->finished());
    if (!summary->finished().empty())
      lsdae::log_info("lsdae_sweep: resuming: " + lsdae::count_of(list.scenarios.size() - todo.size(), "scenario") +
                      " already in " + path + ", " + std::to_string(todo.size()) + " to run");
    std::size_t failures = 0;
    std::string write_error;  // the first row that could not be written: the sweep goes on, the call fails
    if (!todo.empty())
      lsdae::sweep::run_sweep(*plan, list.scenarios, [&](std::size_t, const lsdae::sweep::SummaryRow& row) {
        if (row.status == lsdae::sweep::Status::failed) ++failures;
        if (!write_error.empty()) return;
        try {
          lsdae::sweep::SummaryRow c_row = row;
          c_row.message = c_words(row.message);
          summary->append(c_row);
        } catch (const Error& e) {
          write_error = e.what();
        }
      }, todo);
    if (!write_error.empty()) throw Error(ErrorKind::output, write_error);
    if (failed != nullptr) *failed = failures;
  });
}

extern "C" {

lsdae_status lsdae_scenario_runner_open(const char* model_path, const lsdae_options* options,
                                        const lsdae_sweep_spec* spec, lsdae_scenario_runner** runner) {
  if (runner == nullptr) {
    lsdae::capi::open_error() = "lsdae_scenario_runner_open: runner must not be NULL → pass the address of a pointer";
    return LSDAE_ERR_USAGE;
  }
  *runner = nullptr;
  return guarded_sweep(lsdae::capi::open_error(), [&] {
    lsdae::sweep::SweepOptions o = sweep_options("lsdae_scenario_runner_open", options, spec);
    o.isolate = false;
    auto model = open_model("lsdae_scenario_runner_open", model_path);
    check_common_sets(*model, o);
    auto handle = std::make_unique<lsdae_scenario_runner>();
    handle->plan = lsdae::sweep::SweepPlan::compile(model, o);
    handle->runner = std::make_unique<lsdae::sweep::ScenarioRunner>(*handle->plan);
    handle->header = lsdae::sweep::csv_record(handle->plan->header());
    *runner = handle.release();
  });
}

lsdae_status lsdae_scenario_run(lsdae_scenario_runner* runner, const char* id, size_t n, const char* const* names,
                                const char* const* values, lsdae_scenario_result* result, double* metrics,
                                size_t metric_capacity) {
  if (runner == nullptr) return null_runner("lsdae_scenario_run");
  std::vector<std::pair<std::string, std::string>> sets;
  const lsdae_status status = guarded_sweep(runner->error, [&] {
    if (n > 0 && (names == nullptr || values == nullptr))
      refuse("lsdae_scenario_run: names and texts must not be NULL when n = " + std::to_string(n) + " → pass both");
    for (size_t i = 0; i < n; ++i) {
      if (names[i] == nullptr || values[i] == nullptr)
        refuse("lsdae_scenario_run: names[" + std::to_string(i) + "] or texts[" + std::to_string(i) +
               "] is NULL → pass a name and a text for each of the n values");
      sets.emplace_back(names[i], values[i]);
    }
  });
  if (status != LSDAE_OK) return status;
  return run_one(runner, "lsdae_scenario_run", id, std::move(sets), result, metrics, metric_capacity);
}

lsdae_status lsdae_scenario_run_values(lsdae_scenario_runner* runner, const char* id, size_t n,
                                       const char* const* names, const double* values, lsdae_scenario_result* result,
                                       double* metrics, size_t metric_capacity) {
  if (runner == nullptr) return null_runner("lsdae_scenario_run_values");
  std::vector<std::pair<std::string, std::string>> sets;
  const lsdae_status status = guarded_sweep(runner->error, [&] {
    if (n > 0 && (names == nullptr || values == nullptr))
      refuse("lsdae_scenario_run_values: names and values must not be NULL when n = " + std::to_string(n) +
             " → pass both");
    for (size_t i = 0; i < n; ++i) {
      if (names[i] == nullptr)
        refuse("lsdae_scenario_run_values: names[" + std::to_string(i) + "] is NULL → pass a name for each value");
      // The shortest text that reads back to the same double: the value the scenario gets is values[i] exactly.
      sets.emplace_back(names[i], std::isfinite(values[i]) ? lsdae::sweep::round_trip(values[i])
                                                            : std::to_string(values[i]));
    }
  });
  if (status != LSDAE_OK) return status;
  return run_one(runner, "lsdae_scenario_run_values", id, std::move(sets), result, metrics, metric_capacity);
}

size_t lsdae_scenario_metric_count(const lsdae_scenario_runner* runner) {
  return runner == nullptr ? 0 : runner->plan->options().metrics.size();
}

const char* lsdae_scenario_runner_header(const lsdae_scenario_runner* runner) {
  return runner == nullptr ? "" : runner->header.c_str();
}

const char* lsdae_scenario_runner_error(const lsdae_scenario_runner* runner) {
  return runner == nullptr ? lsdae::capi::open_error().c_str() : runner->error.c_str();
}

void lsdae_scenario_runner_close(lsdae_scenario_runner* runner) { delete runner; }

}  // extern "C"
