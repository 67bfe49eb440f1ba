// runtime/sweep/stretch_queue.cpp -- see stretch_queue.h.
#include "sweep/stretch_queue.h"

#include <unordered_map>

namespace lsdae::sweep {

std::string deepest_stretch_key(const Scenario& scenario) {
  return scenario.stages.empty() ? std::string() : stretch_key(scenario, scenario.stages.size() - 1);
}

StretchQueue::StretchQueue(const std::vector<std::size_t>& order, const std::vector<std::string>& keys) {
  std::unordered_map<std::string, std::size_t> group_of_key;
  for (std::size_t k = 0; k < order.size(); ++k) {
    std::size_t g = groups_.size();
    if (k < keys.size() && !keys[k].empty()) {
      const auto [it, added] = group_of_key.emplace(keys[k], g);
      g = it->second;
    }
    if (g == groups_.size()) groups_.emplace_back();
    groups_[g].push_back(order[k]);
  }
  workers_on_.assign(groups_.size(), 0);
  left_ = order.size();
}

std::optional<std::size_t> StretchQueue::take(std::size_t worker) {
  if (left_ == 0) return std::nullopt;
  if (worker >= worker_group_.size()) worker_group_.resize(worker + 1, kNone);
  std::size_t& mine = worker_group_[worker];
  if (mine == kNone || groups_[mine].empty()) {
    if (mine != kNone) --workers_on_[mine];
    while (first_left_ < groups_.size() && groups_[first_left_].empty()) ++first_left_;
    std::size_t chosen = kNone;
    for (std::size_t g = first_left_; g < groups_.size() && chosen == kNone; ++g)
      if (!groups_[g].empty() && workers_on_[g] == 0) chosen = g;
    if (chosen == kNone) chosen = first_left_;  // every group left has a worker on it
    mine = chosen;
    ++workers_on_[mine];
  }
  const std::size_t next = groups_[mine].front();
  groups_[mine].pop_front();
  --left_;
  return next;
}

}  // namespace lsdae::sweep
