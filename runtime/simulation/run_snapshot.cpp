// runtime/simulation/run_snapshot.cpp -- see run_snapshot.h.
#include "simulation/run_snapshot.h"

namespace lsdae::simulation {

RunSnapshot::~RunSnapshot() {
  for (std::size_t i = 0; i < instances.size() && i < fmu_states.size(); ++i) {
    try {
      instances[i]->free_fmu_state(fmu_states[i]);
    } catch (const std::exception&) {  // a failed instance: its memory went with it
    }
  }
}

std::size_t RunSnapshotStore::add(std::unique_ptr<RunSnapshot> snapshot) {
  snapshots_.push_back(std::move(snapshot));
  return snapshots_.size() - 1;
}

const RunSnapshot* RunSnapshotStore::find(std::size_t id) const {
  return id < snapshots_.size() ? snapshots_[id].get() : nullptr;
}

void RunSnapshotStore::release(std::size_t id) {
  if (id < snapshots_.size()) snapshots_[id].reset();
}

std::size_t RunSnapshotStore::held() const {
  std::size_t n = 0;
  for (const auto& s : snapshots_) n += s != nullptr;
  return n;
}

}  // namespace lsdae::simulation
