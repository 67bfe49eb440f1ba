// runtime/simulation/run_snapshot.cpp -- see run_snapshot.h.
#include "simulation/run_snapshot.h"

#include <set>
#include <string>

namespace lsdae::simulation {

RunSnapshot::~RunSnapshot() {
  for (std::size_t i = 0; i < instances.size() && i < fmu_states.size(); ++i) {
    try {
      instances[i]->free_fmu_state(fmu_states[i]);
    } catch (const std::exception&) {  // a failed instance: its memory went with it
    }
  }
}

namespace {
// A string held in a set: its node (three pointers and a colour) and its
// characters beyond the small-string buffer.
std::size_t snapshot_string_bytes(const std::string& s) {
  return 4 * sizeof(void*) + sizeof(std::string) + (s.capacity() > 15 ? s.capacity() + 1 : 0);
}
}  // namespace

std::size_t RunSnapshot::own_bytes() const {
  std::size_t n = sizeof(RunSnapshot) + instances.capacity() * sizeof(Instance*) +
                  fmu_states.capacity() * sizeof(Instance::SavedState) +
                  (y.capacity() + yp.capacity()) * sizeof(double);
  for (const std::string& s : learned.reported_claims) n += snapshot_string_bytes(s);
  for (const std::string& s : learned.wrong_unknowns) n += snapshot_string_bytes(s);
  n += learned.hidden_dependencies.capacity() * sizeof(learned.hidden_dependencies[0]);
  for (const auto& [row, unknown] : learned.hidden_dependencies)
    n += (row.capacity() > 15 ? row.capacity() + 1 : 0) + (unknown.capacity() > 15 ? unknown.capacity() + 1 : 0);
  return n;
}

std::vector<SharedPart> shared_parts(const SessionLearned& learned) {
  std::vector<SharedPart> parts;
  if (learned.kinds)
    parts.push_back({learned.kinds.get(), sizeof(kernels::ConstantEntries) +
                                              learned.kinds->lifetime.capacity() * sizeof(kernels::EntryLifetime) +
                                              (learned.kinds->derivative_part.capacity() + 7) / 8});
  if (learned.varying_coloring) {
    const structure::Coloring& c = learned.varying_coloring->coloring;
    const std::size_t words = c.color.capacity() + c.group_ptr.capacity() + c.group_columns.capacity();
    parts.push_back({learned.varying_coloring.get(), sizeof(structure::VaryingColoring) + words * sizeof(std::size_t)});
  }
  if (const auto& constants = learned.run_constants) {
    const std::size_t values = constants->a.capacity() + constants->b.capacity();
    parts.push_back({constants.get(), sizeof(*constants) + values * sizeof(double)});
  }
  if (const auto& mask = learned.error_test)
    parts.push_back({mask.get(), sizeof(*mask) + mask->capacity() * sizeof(double)});
  return parts;
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

std::size_t RunSnapshotStore::bytes() const {
  std::size_t n = 0;
  std::set<const void*> counted;
  for (const auto& s : snapshots_) {
    if (s == nullptr) continue;
    n += s->own_bytes();
    for (const SharedPart& part : shared_parts(s->learned))
      if (counted.insert(part.object).second) n += part.bytes;
  }
  return n;
}

}  // namespace lsdae::simulation
