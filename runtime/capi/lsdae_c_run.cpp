// runtime/capi/lsdae_c_run.cpp -- a whole run from C (lsdae/lsdae.h:
// lsdae_run, lsdae_output, lsdae_statistics_json) through the run layer's
// run_to_files (run/run_to_files.h): the loop, the files and the statistics
// of `lsdae simulate`, so the same run gives the same files.
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "capi/guarded.h"
#include "capi/handle.h"
#include "capi/options.h"
#include "lsdae/error.h"
#include "lsdae/lsdae.h"
#include "run/model_files.h"
#include "run/output_plan.h"
#include "run/run_to_files.h"
#include "run/statistics.h"
#include "simulation/output_channels.h"

using lsdae::capi::null_handle;

extern "C" {

void lsdae_output_init(lsdae_output* output) {
  if (output == nullptr) return;
  *output = lsdae_output{};
  output->hdf5_deflate = 1;
  output->output_first = std::numeric_limits<double>::quiet_NaN();
}

lsdae_status lsdae_run(lsdae_simulation* s, const lsdae_output* output) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    const auto t0 = std::chrono::steady_clock::now();
    lsdae::run::GivenOptions given = lsdae::capi::given_output(output);
    const lsdae::run::RunSettings settings = lsdae::run::settings_from(
        given, lsdae::run::Door::c, lsdae::run::category::output | lsdae::run::category::results, "lsdae_run: ");
    std::vector<std::string> patterns;
    if (output != nullptr) {
      if (output->output_var_count > 0 && output->output_vars == nullptr)
        throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_run: output.output_vars is NULL with a count of " +
                                                        std::to_string(output->output_var_count) +
                                                        " → pass the names or a count of 0");
      for (size_t i = 0; i < output->output_var_count; ++i) {
        if (output->output_vars[i] == nullptr)
          throw lsdae::Error(lsdae::ErrorKind::usage,
                             "lsdae_run: output.output_vars[" + std::to_string(i) + "] is NULL → pass a name or glob");
        for (auto& p : lsdae::simulation::split_output_patterns(output->output_vars[i])) patterns.push_back(std::move(p));
      }
    }
    lsdae::run::FileRunSpec spec;
    if (output != nullptr && output->result_file != nullptr) spec.results = output->result_file;
    if (output != nullptr && output->statistics_file != nullptr) spec.statistics = output->statistics_file;
    const lsdae::Model& model = s->sim->model();
    // Neither file may be the model's or the input table, nor both one file (run/model_files.h).
    lsdae::run::check_run_outputs(
        model, {"lsdae_run: output.result_file", spec.results, "output.result_file = \"result.csv\""},
        {"lsdae_run: output.statistics_file", spec.statistics, "output.statistics_file = \"stats.json\""},
        {{s->input_file, "the table of lsdae_set_input_file"}});
    if (!spec.results.empty()) spec.format = lsdae::results::result_format_for(spec.results, settings.results.format);
    spec.options = settings.results;
    spec.channels = lsdae::simulation::select_output_channels(model, patterns, settings.results.all, settings.results.roles);
    spec.model_name = model.display_name();
    spec.wall = [t0] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    const lsdae::run::OutputPlan plan = lsdae::run::plan_output(*s->sim, settings.output, s->settings.check_jacobian);
    lsdae::run::run_to_files(*s->sim, plan, spec);
  });
}

lsdae_status lsdae_statistics_json(lsdae_simulation* s, char* buffer, size_t size, size_t* needed) {
  if (s == nullptr) return null_handle();
  return lsdae::capi::guarded(s->error, [&] {
    lsdae::run::RunStatistics stats;
    stats.model = s->sim->model().display_name();
    lsdae::run::take_simulation(stats, *s->sim);
    const std::string json = lsdae::run::statistics_json(stats);
    if (needed != nullptr) *needed = json.size() + 1;
    if (size == 0 && buffer == nullptr) return;  // a size query
    if (buffer == nullptr || size < json.size() + 1)
      throw lsdae::Error(lsdae::ErrorKind::usage, "lsdae_statistics_json: the statistics need " +
                                                      std::to_string(json.size() + 1) + " bytes, the buffer has " +
                                                      std::to_string(size) + " → pass a larger buffer (*needed says how large)");
    std::memcpy(buffer, json.c_str(), json.size() + 1);
  });
}

}  // extern "C"
