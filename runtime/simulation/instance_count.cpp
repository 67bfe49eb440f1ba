// runtime/simulation/instance_count.cpp -- see instance_count.h.
#include "simulation/instance_count.h"

#include <omp.h>

#include <algorithm>
#include <string>
#include <vector>

#include "lsdae/log.h"
#include "simulation/jacobian_constancy.h"
#include "structure/coloring_varying.h"

namespace lsdae::simulation {

std::size_t parallel_colours(const RunSettings& settings, const ModelDae& dae,
                             const structure::StructureOutcome& structure) {
  const SimulationOptions& options = settings.options;
  if (!structure.index1) return 1;
  if (options.uncolored_jacobian) return structure.index1->unknowns.size();
  const std::size_t all = structure.coloring ? structure.coloring->colors : structure.index1->unknowns.size();
  // The same condition as IntegrationSession::make() for the constant entries.
  if (!options.constant_jacobian_entries || !settings.use_directional) return all;
  const kernels::ConstantEntries constants =
      classify_jacobian_entries(dae, structure.analysis.system, *structure.index1, structure.iteration);
  std::vector<bool> constant(structure.iteration.nnz());
  for (std::size_t p = 0; p < constant.size(); ++p)
    constant[p] = constants.lifetime[p] != kernels::EntryLifetime::varying;
  const structure::VaryingColoring varying = structure::color_varying_columns(structure.iteration, constant);
  return varying.constant_entries > 0 ? varying.coloring.colors : all;
}

std::size_t instances_for(std::size_t requested, std::size_t colours, std::size_t cores) {
  if (requested <= 1) return 1;
  return std::max<std::size_t>(1, std::min({requested, cores, colours / kColoursPerInstance}));
}

std::size_t jacobian_instances(const RunSettings& settings, const ModelDae& dae,
                               const structure::StructureOutcome& structure) {
  const std::size_t requested = settings.threads;
  if (requested <= 1) return 1;
  const std::size_t colours = parallel_colours(settings, dae, structure);
  const auto cores = static_cast<std::size_t>(std::max(1, omp_get_num_procs()));
  const std::size_t instances = instances_for(requested, colours, cores);
  if (instances < requested)
    log_info(settings.model->display_name() + ": --threads " + std::to_string(requested) + ": " +
             std::to_string(instances) + " FMU instance(s) for the Jacobian (" + std::to_string(colours) +
             " colour(s) per Jacobian, an instance pays from " + std::to_string(kColoursPerInstance) +
             " each; " + std::to_string(cores) + " processor(s))");
  return instances;
}

void for_each_instance(std::size_t n, const std::function<void(std::size_t)>& task) {
  if (n <= 1) {
    if (n == 1) task(0);
    return;
  }
  std::vector<std::exception_ptr> failed(n);
#pragma omp parallel for num_threads(static_cast<int>(n)) schedule(static, 1)
  for (long i = 0; i < static_cast<long>(n); ++i) {
    try {
      task(static_cast<std::size_t>(i));
    } catch (...) {
      failed[static_cast<std::size_t>(i)] = std::current_exception();
    }
  }
  for (const auto& e : failed)
    if (e) std::rethrow_exception(e);
}

}  // namespace lsdae::simulation
