// runtime/sweep/scenario_runner.cpp -- lsdae::sweep::ScenarioRunner
// (scenario_runner.h): Simulation::create once, Simulation::reset after.
#include "sweep/scenario_runner.h"

#include <algorithm>

#include "lsdae/error.h"
#include "lsdae/log.h"

namespace lsdae::sweep {

ScenarioRunner::ScenarioRunner(std::shared_ptr<const Model> model, SimulationOptions options, bool reuse)
    : model_(std::move(model)), options_(std::move(options)), reuse_(reuse) {
  if (!model_) throw Error(ErrorKind::usage, "ScenarioRunner: no model → open one with Fmu::open or System::create");
}

ScenarioRunner::ScenarioRunner(const SweepPlan& plan)
    : ScenarioRunner(plan.model(), plan.options().simulation, plan.options().reuse) {}

Simulation& ScenarioRunner::next(std::span<const std::pair<std::string, std::string>> sets) {
  ++scenarios_;
  bool made = false;
  if (simulation_ && reuse_) {
    try {
      simulation_->reset();
      ++reused_;
      made = true;
    } catch (const Error& e) {
      log_warning(model_->display_name() + ": the instances could not be reset for the next scenario (" + e.what() +
                  ") → a new instance is made");
      simulation_.reset();
      ++fresh_after_failed_reset_;
    }
  }
  if (!made) {
    stretches_.clear();   // their snapshots go with the old Simulation
    simulation_.reset();  // the old instances go before the new ones come (canBeInstantiatedOnlyOncePerProcess)
    simulation_ = Simulation::create(model_, options_);
  }
  for (const auto& [name, value] : sets) simulation_->set(name, value);
  return *simulation_;
}

const ScenarioRunner::Stretch* ScenarioRunner::stretch(const std::string& key) {
  for (std::size_t i = 0; i < stretches_.size(); ++i)
    if (stretches_[i].first == key) {
      std::rotate(stretches_.begin() + static_cast<std::ptrdiff_t>(i),
                  stretches_.begin() + static_cast<std::ptrdiff_t>(i) + 1, stretches_.end());
      return &stretches_.back().second;
    }
  return nullptr;
}

void ScenarioRunner::keep(const std::string& key, Stretch stretch) {
  if (stretches_.size() >= kMaxStretches) {
    simulation_->release_snapshot(stretches_.front().second.snapshot);
    stretches_.erase(stretches_.begin());
  }
  stretches_.emplace_back(key, std::move(stretch));
}

Simulation& ScenarioRunner::resume(const Stretch& stretch) {
  ++scenarios_;
  try {
    simulation_->reset();
  } catch (const Error&) {
    stretches_.clear();
    simulation_.reset();
    ++fresh_after_failed_reset_;
    throw;
  }
  ++reused_;
  ++resumed_;
  simulation_->restore(stretch.snapshot);
  return *simulation_;
}

}  // namespace lsdae::sweep
