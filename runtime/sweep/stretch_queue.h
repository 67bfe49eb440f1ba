// runtime/sweep/stretch_queue.h -- the order in which a sweep's worker
// processes take scenarios: a worker keeps to the scenarios that share its
// last scenario's deepest stretch (docs/sweeps.md, "Shared stretches").
//
// Why: a worker computes a shared stretch (for the PowerGrid FMU the
// fault-on run of one fault bus) once and starts every scenario of that
// stretch from its snapshot. Handed out one at a time in table order, the
// outages of one fault bus are spread over the workers, and each computes
// the bus's fault-on stretch again.
//
// Rule (groups in the order of their first scenario in the given order;
// scenarios in their given order within a group):
//   1. a worker takes the next scenario of the group it took from last;
//   2. otherwise the first group no other worker is on (its claim passes to
//      this worker);
//   3. otherwise (every group left is being worked on) the first group with
//      scenarios left: the workers then share it, as without the rule.
// Scenarios without stages form a group each, so a sweep without shared
// stretches is handed out in the given order, as before. The rows do not
// depend on the worker (a scenario restored from a snapshot gives the rows
// of a fresh run, bitwise: SimulationSnapshot tests); only the summary's
// order of arrival does, and the summary is written by index.
// Cost: O(scenarios) to build; a take is amortized O(workers).
#ifndef LSDAE_RUNTIME_SWEEP_STRETCH_QUEUE_H
#define LSDAE_RUNTIME_SWEEP_STRETCH_QUEUE_H

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "lsdae/sweep.h"

namespace lsdae::sweep {

// The key of the run a scenario shares up to the event of stage j
// (run_scenario.cpp): equal keys, equal runs up to that event.
std::string stretch_key(const Scenario& s, std::size_t j);
// The key of the deepest stretch a scenario shares (that of its last
// stage), or empty when it has no stages.
std::string deepest_stretch_key(const Scenario& scenario);

class StretchQueue {
 public:
  // `order`: scenario indices in the order to hand out; `keys[i]`: the
  // deepest stretch key of order[i] (empty: a group of its own).
  StretchQueue(const std::vector<std::size_t>& order, const std::vector<std::string>& keys);

  // The next scenario for `worker` (0-based), or nullopt when none is left.
  std::optional<std::size_t> take(std::size_t worker);
  std::size_t size() const { return left_; }
  bool empty() const { return left_ == 0; }

 private:
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::deque<std::size_t>> groups_;  // scenario indices, per group
  std::vector<std::size_t> workers_on_;          // per group: workers whose last group it is
  std::vector<std::size_t> worker_group_;        // per worker: its last group, or kNone
  std::size_t first_left_ = 0;                   // no group before it has scenarios left
  std::size_t left_ = 0;
};

}  // namespace lsdae::sweep

#endif  // LSDAE_RUNTIME_SWEEP_STRETCH_QUEUE_H
