// runtime/simulation/instance_count.cpp -- see instance_count.h.
#include "simulation/instance_count.h"

#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "lsdae/log.h"
#include "simulation/jacobian_constancy.h"

namespace lsdae::simulation {

ParallelWork parallel_work(const RunSettings& settings, const ModelDae& dae,
                           const structure::StructureOutcome& structure) {
  const SimulationOptions& options = settings.options;
  if (!structure.index1) return {};
  ParallelWork work;
  work.evaluation_cost = structure.iteration.nnz();
  if (options.uncolored_jacobian) {
    work.colours = structure.index1->unknowns.size();
    return work;
  }
  const std::size_t all = structure.coloring ? structure.coloring->colors : structure.index1->unknowns.size();
  work.colours = all;
  // The same condition as IntegrationSession::make() for the constant entries.
  if (!options.constant_jacobian_entries || !settings.use_directional) return work;
  work.declared = std::make_shared<const DeclaredKinds>(
      declared_kinds(dae, structure.analysis.system, *structure.index1, structure.iteration));
  if (work.declared->varying.constant_entries > 0) work.colours = work.declared->varying.coloring.colors;
  return work;
}

std::size_t instances_for(std::size_t requested, const ParallelWork& work, std::size_t cores) {
  if (requested <= 1) return 1;
  if (work.colours * work.evaluation_cost < kJacobianWorkForThreads) return 1;  // the hand-over costs more
  return std::max<std::size_t>(1, std::min({requested, cores, work.colours / kColoursPerInstance}));
}

InstanceCount jacobian_instances(const RunSettings& settings, const ModelDae& dae,
                                 const structure::StructureOutcome& structure) {
  const std::size_t requested = settings.threads;
  if (requested <= 1) return {1, nullptr};
  ParallelWork work = parallel_work(settings, dae, structure);
  const auto cores = static_cast<std::size_t>(std::max(1, omp_get_num_procs()));
  const std::size_t instances = instances_for(requested, work, cores);
  if (instances < requested)
    log_info(settings.model->display_name() + ": --threads " + std::to_string(requested) + ": " +
             std::to_string(instances) + " FMU instance(s) for the Jacobian (" + std::to_string(work.colours) +
             " colour(s) per Jacobian of " + std::to_string(work.evaluation_cost) +
             " nonzeros; threads pay from " + std::to_string(kJacobianWorkForThreads) +
             " colours × nonzeros per Jacobian and " + std::to_string(kColoursPerInstance) +
             " colours per instance; " + std::to_string(cores) + " processor(s))");
  return {instances, std::move(work.declared)};
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
