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
//     instances = 1                                   if colours × nonzeros < kJacobianWorkForThreads
//               = max(1, min(N, cores, floor(colours / kColoursPerInstance)))   otherwise
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
//   nonzeros the iteration matrix's: what one colour's evaluation costs.
//            Each colour sets the whole point on its instance and reads
//            every row (ModelResidual::apply, then one residual or one
//            directional derivative), so a colour costs about in proportion
//            to the residual's size -- TransmissionLine, one thread: 1.8 µs
//            a colour at N = 160 (2 086 nonzeros), 10 µs at N = 1280
//            (16 646). colours × nonzeros is the Jacobian's work.
//   cores    the processors this process may run on (omp_get_num_procs:
//            the affinity mask): threads beyond them only take turns, so
//            --threads 16 on 2 cores never makes more than 2.
// What a thread costs, and why these thresholds. An extra instance is
// instantiated and initialized (in parallel with instance 0, but sharing
// the memory bus: case13659pegase on the 2-core VM, +0.08 s instantiation,
// +0.04 s initialization), repeats every event iteration (event_loop.h; all
// instances at once, so the run waits for the slowest), and costs a
// hand-over per Jacobian: the OpenMP team wakes, the colours are dealt
// dynamically, and the Jacobian waits for the last thread -- on a shared
// host, for a thread the scheduler runs late. That cost comes once per
// Jacobian whatever the instances, while k instances gain (1 - 1/k) of the
// Jacobian's work, so what must be large is the whole Jacobian's work
// (colours × nonzeros), not each instance's share: once it is, more
// instances only need colours to deal (kColoursPerInstance).
// kJacobianWorkForThreads = 50 million, measured (bench/threads.py,
// --no-coloring, --threads 2 against 1, interleaved; 2-core AMD EPYC VM
// shared with other sessions, docs/performance/systems-and-threads.md,
// "A cost per colour"): TransmissionLine N = 160, 320, 640 (1.7, 6.7 and
// 26.7 million) lost, medians 2.3x, 1.7x and 1.12-1.27x, when the host
// was busy (load 3.5-5.5), and gained 0.81-0.92 at load 1.9; N = 1280 (106.6 million) gained 0.79-0.88 at load 1.9-3.4 (0.55
// before, 0.18 with 16 instances on 16 cores) and lost medians of 1.08-1.13
// at load 5. No threshold keeps --threads 2 from losing on a host whose
// cores are all busy; this one admits the Jacobians whose hand-over costs
// about a tenth there and gains where a core is free. Below it: case13659pegase (3
// varying colours × 236 372 nonzeros: 0.7 million; 2 instances were 9 %
// slower), PsseGrid ACTIVSg2000 (112 × 127 184 = 14 million; 2 instances
// not faster at idle, up to 2x the CPU), every TransmissionLine with its
// colouring (no varying colour, or 3-4 by finite differences). Just above:
// thirteen line sections of 160 in a system, --no-coloring (4 198 × 12 555
// = 52.7 million; system/threads_test). kColoursPerInstance = 64 keeps the dealing coarse
// enough (and ACTIVSg2000 at 1 on its own: 112 colours).
// The rule is deterministic (counts only, no timing), so the instances a run
// makes are reproducible (the statistics' `threads`, the counters baseline).
// Results are bitwise independent of the count (each colour writes its own
// columns), so capping it changes times only.
//
// Cost: with N = 1 nothing is computed. Otherwise one classification of
// the Jacobian entries and one varying colouring, O(nnz) and a few colourings
// of the pattern, which IntegrationSession::make() then takes
// (InstanceCount::declared, IntegrationSession::take_declared) instead of
// computing them again: asking for threads costs no extra classification.
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
#include <memory>

#include "simulation/jacobian_constancy.h"
#include "simulation/model_dae.h"
#include "simulation/run_settings.h"
#include "structure/pipeline.h"

namespace lsdae::simulation {

// The work a Jacobian must make (colours × nonzeros of the iteration matrix)
// before a second instance pays, and the colours each instance must carry
// (above).
inline constexpr std::size_t kJacobianWorkForThreads = 50'000'000;
inline constexpr std::size_t kColoursPerInstance = 64;

// What a Jacobian of a run evaluates in parallel (see above).
struct ParallelWork {
  std::size_t colours = 1;          // colour evaluations per Jacobian
  std::size_t evaluation_cost = 0;  // the iteration matrix's nonzeros: what one evaluation costs
  // The declared kinds and varying colouring, where counting took them
  // (constant entries with directional derivatives): for the session's
  // first make() (IntegrationSession::take_declared), which then does not
  // compute them again.
  std::shared_ptr<const DeclaredKinds> declared;
};
ParallelWork parallel_work(const RunSettings& settings, const ModelDae& dae,
                           const structure::StructureOutcome& structure);

// The rule above for `requested` threads, `work` per Jacobian and `cores`
// processors: a pure function (tests call it directly).
std::size_t instances_for(std::size_t requested, const ParallelWork& work, std::size_t cores);

// The instances for settings.threads requested threads (see above); logs at
// info level why fewer than requested are made. `declared`: parallel_work's.
struct InstanceCount {
  std::size_t instances = 1;
  std::shared_ptr<const DeclaredKinds> declared;
};
InstanceCount jacobian_instances(const RunSettings& settings, const ModelDae& dae,
                                 const structure::StructureOutcome& structure);

// Runs task(i) for every i < n, on up to n threads at once (see above).
void for_each_instance(std::size_t n, const std::function<void(std::size_t)>& task);

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_INSTANCE_COUNT_H
