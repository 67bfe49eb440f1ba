// runtime/simulation/instance_count.h -- how many FMU instances a run makes
// for --threads N, and running a task on each of them at once.
//
// Why: every instance is made, initialized and driven through every event
// (event_loop.h), so an instance that no thread can use costs its
// instantiation, its initialization and its event iterations for nothing
// (issue 30: case13659pegase with --threads 16 made 16 instances one after
// another, 2.3 s, for a Jacobian whose constant entries leave 3 colours).
//
// The count (jacobian_instances):
//     instances = max(1, min(N, colours, cores))
//   N        --threads (after usable_threads(): 1 for an FMU instantiable
//            only once per process);
//   colours  what one Jacobian evaluates in parallel: the colours of the
//            varying columns when the constant entries are taken once
//            (directional derivatives with --constant-entries, the default;
//            structure/coloring_varying.h), else every colour of the
//            iteration matrix's colouring, or one per unknown with
//            --uncolored-jacobian. Colours are what CompressedJacobian
//            (kernels/compressed_jacobian.h) hands to threads; a thread
//            without a colour would idle. The constant entries' own passes
//            (once per run, per-segment ones after events) use the same
//            instances. A linear elimination or a dummy-derivative
//            re-selection at run time may change the colours; the count
//            stays what create() decided (results do not depend on it).
//   cores    the processors this process may run on (omp_get_num_procs:
//            the affinity mask): threads beyond them only take turns.
// Results are bitwise independent of the count (each colour writes its own
// columns), so capping it changes times only.
//
// Cost: with N = 1 nothing is computed. Otherwise one classification of
// the Jacobian entries and one varying colouring, O(nnz) and a few colourings
// of the pattern, the same work IntegrationSession::make() does again.
//
// for_each_instance runs task(i) for i = 0 .. n-1 on up to n threads at once
// (instances are independent: FMI allows calls on different instances from
// different threads); an exception from a task is kept and the one of the
// lowest i rethrown after all have finished, so what is reported does not
// depend on the schedule. n = 1 runs on the caller's thread.
#ifndef LSDAE_RUNTIME_SIMULATION_INSTANCE_COUNT_H
#define LSDAE_RUNTIME_SIMULATION_INSTANCE_COUNT_H

#include <cstddef>
#include <exception>
#include <functional>

#include "simulation/model_dae.h"
#include "simulation/run_settings.h"
#include "structure/pipeline.h"

namespace lsdae::simulation {

// What a Jacobian of `structure` evaluates in parallel (see above).
std::size_t parallel_colours(const RunSettings& settings, const ModelDae& dae,
                             const structure::StructureOutcome& structure);

// The instances for settings.threads requested threads (see above); logs at
// info level why fewer than requested are made.
std::size_t jacobian_instances(const RunSettings& settings, const ModelDae& dae,
                               const structure::StructureOutcome& structure);

// Runs task(i) for every i < n, on up to n threads at once (see above).
void for_each_instance(std::size_t n, const std::function<void(std::size_t)>& task);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_INSTANCE_COUNT_H
