// runtime/sweep/scenario_runner.cpp -- lsdae::sweep::ScenarioRunner
// (scenario_runner.h): Simulation::create once, Simulation::reset after.
#include "sweep/scenario_runner.h"

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
    simulation_.reset();  // the old instances go before the new ones come (canBeInstantiatedOnlyOncePerProcess)
    simulation_ = Simulation::create(model_, options_);
  }
  for (const auto& [name, value] : sets) simulation_->set(name, value);
  return *simulation_;
}

}  // namespace lsdae::sweep
