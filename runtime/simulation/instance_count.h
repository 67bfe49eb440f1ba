// runtime/simulation/instance_count.h -- how many FMU instances a run makes
// for --threads N, and running a task on each of them at once.
//
// Why: every instance is made, initialized and driven through every event
// (event_loop.h), so an instance that no thread can use costs its
// instantiation, its initialization and its event iterations for nothing
// (issue 30: case13659pegase with --threads 16 made 16 instances one after
// another, 2.3 s, for a Jacobian whose constant entries leave 3 colours; and
// with 2 instances, made at once, it was still 9 % slower than with 1).
//
// The count (jacobian_instances, instances_for):
//     instances = max(1, min(N, cores, floor(colours / kColoursPerInstance)))
//   N        --threads (after usable_threads(): 1 for an FMU instantiable
//            only once per process);
//   colours  what one Jacobian evaluates in parallel: the colours of the
//            varying columns when the constant entries are taken once
//            (directional derivatives with --constant-entries, the default;
//            structure/coloring_varying.h), else every colour of the
//            iteration matrix's colouring, or one per unknown with
//            --no-coloring. Colours are what CompressedJacobian
//            (kernels/compressed_jacobian.h) hands to threads. The constant
//            entries' own passes (once per run, per-segment ones after
//            events) use the same instances but do not count: they come once
//            per run or event, as the extra instance's own costs do. A linear
//            elimination or a dummy-derivative re-selection at run time may
//            change the colours; the count stays what create() decided
//            (results do not depend on it).
//   cores    the processors this process may run on (omp_get_num_procs:
//            the affinity mask): threads beyond them only take turns, so
//            --threads 16 on 2 cores never makes more than 2.
// What a thread costs, and why kColoursPerInstance = 64. An extra instance
// is instantiated and initialized (in parallel with instance 0, but sharing
// the memory bus: case13659pegase on the 2-core VM, +0.08 s instantiation,
// +0.04 s initialization), repeats every event iteration (event_loop.h; all
// instances at once, so the run waits for the slowest), and costs a
// hand-over per Jacobian (the OpenMP team wakes, the colours are dealt
// dynamically). It gains, with k instances, (1 - 1/k) of the varying
// colours' evaluations per Jacobian -- at most half of them with 2. Neither
// the Jacobians nor the events of a run are known before it runs, so the
// rule asks each instance to carry at least kColoursPerInstance colours per
// Jacobian, which keeps the gain per Jacobian many FMU evaluations above the
// hand-over and the per-event work. Reference numbers (2-core AMD EPYC VM,
// docs/performance/systems-and-threads.md, "Issue 30"): case13659pegase,
// 3 varying colours, 8 Jacobians, 2 events: 2 instances were 9 % slower
// than 1 (3.50 s against 3.21 s) -- now 1; PsseGrid ACTIVSg2000, 112 varying
// colours (56 per instance with 2), 118 Jacobians, 305 events: 2 instances
// not faster at idle (wall ratios 0.86-1.55) and 1.2-2x the CPU -- now 1;
// TransmissionLine N = 1280: every entry constant, 0 varying colours -- 1.
// 128 colours or more per Jacobian (e.g. --no-coloring, or a colouring of
// a dense-ish coupling) make 2 instances, 192 three, and so on.
// The rule is deterministic (counts only, no timing), so the instances a run
// makes are reproducible (the statistics' `threads`, the counters baseline).
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

// Colours an extra instance must carry per Jacobian to pay for itself (above).
inline constexpr std::size_t kColoursPerInstance = 64;

// The rule above for `requested` threads, `colours` evaluated in parallel per
// Jacobian and `cores` processors: a pure function (tests call it directly).
std::size_t instances_for(std::size_t requested, std::size_t colours, std::size_t cores);

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
