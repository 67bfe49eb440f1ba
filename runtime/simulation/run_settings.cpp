// runtime/simulation/run_settings.cpp -- see run_settings.h.
#include "simulation/run_settings.h"

#include <algorithm>
#include <string>

#include "common/format.h"
#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::simulation {

KluOrdering RunSettings::klu_ordering() const {
  return options.klu_ordering == "colamd"  ? KluOrdering::colamd
         : options.klu_ordering == "metis" ? KluOrdering::metis
                                           : KluOrdering::amd;
}

RunSettings make_run_settings(std::shared_ptr<const Model> model, const SimulationOptions& options) {
  RunSettings s;
  s.model = std::move(model);
  s.options = options;
  const DefaultExperiment& e = s.model->model_description().default_experiment;
  s.t_start = options.start_time.value_or(e.start_time.value_or(0.0));
  s.t_stop = options.stop_time.value_or(e.stop_time.value_or(s.t_start + 1.0));
  if (!(s.t_stop > s.t_start))
    throw Error(ErrorKind::usage, "simulate: stop time " + format_number(s.t_stop) + " is not after start time " +
                                      format_number(s.t_start) + " → set --stop");
  s.rtol = options.rtol.value_or(e.tolerance.value_or(1e-6));
  s.atol = options.atol.value_or(s.rtol);
  s.interval = options.output_interval.value_or(e.step_size.value_or((s.t_stop - s.t_start) / 500.0));
  if (!(s.rtol > 0) || !(s.atol > 0))
    throw Error(ErrorKind::usage, "simulate: tolerances must be positive (rtol " + format_number(s.rtol) + ", atol " +
                                      format_number(s.atol) + ") → set --rtol/--atol");
  if (!(s.interval > 0))
    throw Error(ErrorKind::usage, "simulate: output interval " + format_number(s.interval) + " is not positive → set --output-interval");
  if (options.threads == 0) throw Error(ErrorKind::usage, "simulate: --threads must be at least 1");
  if (options.klu_ordering != "amd" && options.klu_ordering != "colamd" && options.klu_ordering != "metis")
    throw Error(ErrorKind::usage, "simulate: KLU ordering \"" + options.klu_ordering +
                                      "\" is not one of amd, colamd, metis");
  s.pipeline.best_ordering = true;
  s.pipeline.match_rows = options.match_rows;  // the fewest colours: fewer evaluations per Jacobian for the whole run
  s.pipeline.method = options.constraints == ConstraintMethod::dummy_derivatives
                          ? structure::ReductionMethod::dummy_derivatives
                          : structure::ReductionMethod::projection;
  return s;
}

std::size_t usable_threads(const RunSettings& settings) {
  const ModelDescription& md = settings.model->model_description();
  std::size_t threads = settings.options.threads;
  if (md.model_exchange && md.model_exchange->can_be_instantiated_only_once_per_process && threads > 1) {
    log_warning(settings.model->display_name() + ": canBeInstantiatedOnlyOncePerProcess: using 1 thread instead of " +
                std::to_string(threads));
    threads = 1;
  }
  return threads;
}

bool choose_directional(const RunSettings& settings, const ModelDae& dae) {
  const Model& model = *settings.model;
  const bool directional = model.directional_derivatives_available();
  bool use = false;
  switch (settings.options.jacobian) {
    case JacobianMode::automatic: use = directional; break;
    case JacobianMode::finite_differences: use = false; break;
    case JacobianMode::directional:
    case JacobianMode::check:
      if (!directional) {
        const std::string why = model.directional_derivatives_note();
        throw Error(ErrorKind::usage, model.display_name() + ": " +
                                          (why.empty() ? "the FMU does not provide directional derivatives" : why) +
                                          " → use --jacobian fd");
      }
      use = true;
      break;
  }
  if (use && dae.any_synthesized()) {
    // Rows lsdae synthesizes (d/dt of a constraint the FMU gives without its
    // derivative) have no directional derivatives: the IDA Jacobian is made
    // by finite differences of the residual (model_residual.h).
    if (settings.options.jacobian != JacobianMode::automatic)
      throw Error(ErrorKind::usage, model.display_name() +
                                        ": lsdae synthesizes derivatives of constraints this FMU does not provide, "
                                        "and those rows have no directional derivatives → use --jacobian fd or auto");
    use = false;
  }
  return use;
}

void log_dae_notes(const RunSettings& settings, const ModelDae& dae) {
  const std::string& name = settings.model->display_name();
  for (const auto& note : dae.input.notes) log_info(name + ": " + note);
  for (const auto& s : dae.synthesis) {
    // A synthesized second derivative (constraint_synthesis.h) is a finite
    // difference with an error of about 1e-11 of its terms' size over the
    // model's time scale squared; measured on the Cartesian pendulum, IDA
    // integrates at rtol = atol = 1e-10 and fails to converge at 1e-11
    // (docs/algorithms.md).
    constexpr double kSynthesizedTolerance = 1e-10;
    if (!s.two_levels() || std::min(settings.rtol, settings.atol) >= kSynthesizedTolerance) continue;
    log_warning(name + ": the tolerances (rtol " + format_number(settings.rtol) + ", atol " +
                format_number(settings.atol) + ") ask for more than lsdae's synthesized d2/dt2(" + s.name +
                ") resolves: it is a finite difference of the FMU's " + s.name +
                ", accurate to about 1e-11 of the size of its terms, and tolerances below " +
                format_number(kSynthesizedTolerance) +
                " may fail to converge or give no more accuracy → use --rtol and --atol of at least " +
                format_number(kSynthesizedTolerance) + ", or export the derivative formulations of " + s.name);
  }
}

}  // namespace lsdae::simulation
