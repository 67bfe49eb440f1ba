// runtime/simulation/run_snapshot.h -- a run's state just before an event,
// kept to start other runs there (Simulation::snapshot / restore,
// lsdae/simulation.h; docs/simulation/events.md, "Snapshots").
//
// What a snapshot holds, and why that is the whole state: at an event lsdae
// restarts IDA (IDAReInit, IDACalcIC; KLU factors afresh with the kept
// analysis: ida/klu_symbolic_reuse.h), so nothing of IDA's history -- its
// step sizes, order, divided differences, the LU factors -- reaches the
// steps after the event. Paused just before the event is handled, a run is
// therefore: every instance's FMU state (Instance::get_fmu_state, with
// lsdae's mode machine), the point (t, y, y') IDA reached, the event loop's
// state (the pending event, the next time event, the counters), the
// counters of the run so far, and what the session learned for its
// integrator (session_learned.h: the claims' verdicts, the entries' kinds,
// the run-long constant entries). A run restored from it, with a new
// integrator over the same structure made from that, does the same
// arithmetic from the event on as the run it was taken from
// (tests/runtime/sweep/snapshot_test.cpp compares rows and counters bit for
// bit); only KLU's analysis counters differ (a new integrator adopts or
// makes an analysis where the original re-factored at the restart).
//
// Owner: ModelEvaluation keeps the snapshots of its instances
// (RunSnapshotStore), so they live as long as the instances do, across
// Simulation::reset(); each frees its FMU states when it goes.
// Cost: the FMU states (the FMU's own size, O(variables) for kit FMUs),
// 2 doubles per IDA unknown, the counters and the claims' verdicts; what the
// session learned of the Jacobian (kinds, varying colouring, run-long
// constants: O(entries)) is shared by the snapshots of a run
// (session_learned.h). own_bytes() and RunSnapshotStore::bytes() count it.
#ifndef LSDAE_RUNTIME_SIMULATION_RUN_SNAPSHOT_H
#define LSDAE_RUNTIME_SIMULATION_RUN_SNAPSHOT_H

#include <cstddef>
#include <memory>
#include <vector>

#include "lsdae/instance.h"
#include "lsdae/simulation.h"
#include "simulation/event_loop.h"
#include "simulation/ida/ida_statistics.h"
#include "simulation/session_learned.h"

namespace lsdae::simulation {

struct RunSnapshot {
  RunSnapshot() = default;
  RunSnapshot(const RunSnapshot&) = delete;
  RunSnapshot& operator=(const RunSnapshot&) = delete;
  ~RunSnapshot();  // frees the FMU states (errors ignored: the instance may have failed)

  std::vector<Instance*> instances;             // whose FMU states these are
  std::vector<Instance::SavedState> fmu_states;  // one per instance
  double t = 0;
  std::vector<double> y, yp;
  IntegratorStats integrator;  // the session's counters at t
  SessionLearned learned;      // the claims' verdicts and constant entries the session had (session_learned.h)
  EventLoop::Saved events;
  SimulationStats stats;

  // The bytes this snapshot holds of its own (Simulation::snapshot_bytes):
  // the object, the vectors by capacity, the verdicts' strings and set
  // nodes; not the FMU states (the FMU's memory) and not what it shares.
  std::size_t own_bytes() const;
};

// The objects a snapshot shares with the other snapshots of its run, with
// their bytes (the vectors by capacity; a vector<bool> by its bits).
struct SharedPart {
  const void* object;
  std::size_t bytes;
};
std::vector<SharedPart> shared_parts(const SessionLearned& learned);

// Snapshots by id (Simulation::SnapshotId = the index); released ids stay empty.
class RunSnapshotStore {
 public:
  std::size_t add(std::unique_ptr<RunSnapshot> snapshot);
  // nullptr for an id never given or released.
  const RunSnapshot* find(std::size_t id) const;
  void release(std::size_t id);
  void clear() { snapshots_.clear(); }
  std::size_t held() const;
  // Every held snapshot's own_bytes() plus each object they share once.
  std::size_t bytes() const;

 private:
  std::vector<std::unique_ptr<RunSnapshot>> snapshots_;
};

}  // namespace lsdae::simulation

#endif  // LSDAE_RUNTIME_SIMULATION_RUN_SNAPSHOT_H
