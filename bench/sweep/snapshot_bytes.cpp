// bench/sweep/snapshot_bytes.cpp -- the bytes a sweep's snapshots hold
// (Simulation::snapshot_bytes, snapshots_bytes; runtime/simulation/
// run_snapshot.h) on a PowerGrid FMU built with fault_buses=all
// trip_branches=all fmu_state=serialize: the run paused before the fault
// (1 s), a snapshot; restored, the fault bus set, paused before the
// clearing (1.1 s), a second one -- the two stretches `lsdae sweep` shares
// (docs/sweeps.md, "Shared stretches"). Prints each snapshot's own bytes,
// the bytes of both held (what they share counted once), and what each
// would hold with its own copy of the Jacobian entries' kinds and the
// varying colouring, as before they were shared (what the two share less
// the run-long constants, two doubles per entry). Not a test: a
// count on a large FMU (tests/runtime/sweep/snapshot_test.cpp asserts it on
// case39). docs/performance/sweeps.md has the figures and the command.
//
//   snapshot_bytes <PowerGrid.fmu> <fault bus>
#include <cstdio>
#include <exception>
#include <string>

#include "lsdae/error.h"
#include "lsdae/fmu.h"
#include "lsdae/simulation.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: snapshot_bytes <PowerGrid.fmu> <fault bus>\n");
    return 2;
  }
  try {
    lsdae::SimulationOptions o;
    o.stop_time = 10;
    o.output_interval = 0.05;
    auto sim = lsdae::Simulation::create(lsdae::Fmu::open(argv[1]), o);
    sim->set("fault.bus", argv[2]);
    sim->set("trip.branch", "0");
    sim->pause_before_event_at(1.0);
    sim->initialize();
    while (!sim->paused_at_event()) sim->advance_to(sim->stop_time());
    const auto pre_fault = sim->snapshot();
    sim->reset();
    sim->restore(pre_fault);
    sim->pause_before_event_at(1.1);
    while (!sim->paused_at_event() || sim->time() < 1.1) sim->advance_to(sim->stop_time());
    const auto fault_on = sim->snapshot();
    const lsdae::SimulationStats& s = sim->statistics();
    const std::size_t own_pre = sim->snapshot_bytes(pre_fault), own_on = sim->snapshot_bytes(fault_on);
    const std::size_t held = sim->snapshots_bytes();
    // What they share less the run-long constants (two doubles per entry):
    // the kinds and the colouring, which each snapshot copied before.
    const std::size_t shared = held - own_pre - own_on;
    const std::size_t constants = 2 * s.jacobian_nonzeros * sizeof(double);
    const std::size_t copies = shared > constants ? shared - constants : 0;
    std::printf("unknowns %zu, Jacobian entries %zu, varying colours %zu\n", s.unknowns, s.jacobian_nonzeros,
                s.varying_colors);
    std::printf("own bytes: pre-fault snapshot %zu, fault-on snapshot %zu\n", own_pre, own_on);
    std::printf("both held: %zu (shared by them: %zu; the kinds and the colouring of it: about %zu)\n", held, shared,
                copies);
    std::printf("with own copies of the kinds and the varying colouring: about %zu per snapshot\n",
                own_pre + copies);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "snapshot_bytes: %s\n", e.what());
    return 1;
  }
  return 0;
}
