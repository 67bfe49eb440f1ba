// runtime/system/composite_instance.cpp -- see composite_instance.h: the
// instance's making, its mode machine passed on to every component, the event
// iteration across components, the continuous states and event indicators.
// The values' routing by component: composite_values.cpp; the components run
// in parallel: composite_parallel.cpp; directional derivatives:
// composite_directional.cpp; clocks: composite_clocks.cpp.
#include "system/composite_instance.h"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "lsdae/error.h"
#include "lsdae/values.h"
#include "system/composite_plan.h"

namespace lsdae::system {

namespace {
// Calls `call(instance, slice)` for every component with states, its slice
// of a vector over the system's states (components' states are contiguous,
// in component order), and returns the worst_of status.
template <typename T, typename Call>
CallStatus over_state_slices(const std::vector<std::unique_ptr<Instance>>& parts, const Composition& composition,
                             std::span<T> all, Call call) {
  CallStatus status = CallStatus::ok;
  for (std::size_t c = 0; c < parts.size(); ++c) {
    const ComponentPart& cp = composition.components[c];
    if (cp.state_count == 0) continue;
    status = worst_of(status, call(*parts[c], all.subspan(cp.first_state, cp.state_count)));
  }
  return status;
}
}  // namespace

void prepare_component(const ComponentPart& part, Instance& instance) {
  if (part.fmu->manifest().present()) instance.enable_dae_mode();
  const ModelDescription& md = part.fmu->model_description();
  for (const auto& [name, text] : part.parameters) {
    auto ref = md.find_element(name);  // checked by compose()
    const ValueReference vr = ref->variable->value_reference;
    instance.set_values({&vr, 1}, parse_value(*ref->variable, md, text));
  }
}

CompositeInstance::CompositeInstance(std::shared_ptr<const Model> model, const Composition& composition,
                                     std::string name, std::vector<std::unique_ptr<Instance>> parts)
    : Instance(std::move(name), model->model_description(), model->manifest(), model->display_name()),
      model_(std::move(model)),
      composition_(composition),
      parts_(std::move(parts)),
      kept_xdot_(composition.states.size(), 0.0),
      f_(composition.states.size(), 0.0),
      system_unknown_(composition.globals.size(), 0),
      seed_of_(composition.globals.size(), 0.0),
      known_local_(parts_.size()),
      known_seed_(parts_.size()) {
  set_dae_mode(true);  // the system is DAE-only; the components' switches are set at instantiation
  errors_.resize(parts_.size());
  task_seconds_.assign(parts_.size(), 0.0);
  by_differences_.assign(parts_.size(), 0);
  difference_.resize(parts_.size());
  state_index_.resize(parts_.size());
  nominal_.resize(parts_.size());
  for (std::uint32_t c = 0; c < parts_.size(); ++c) {
    const Fmu& fmu = *composition.components[c].fmu;
    if (fmu.directional_derivatives_available()) continue;
    by_differences_[c] = 1;
    for (std::size_t i = 0; i < fmu.states().size(); ++i) state_index_[c].emplace(fmu.states()[i], i);
    for (const Variable& v : fmu.model_description().variables)
      if (v.nominal) nominal_[c].emplace(v.value_reference, std::fabs(*v.nominal));
  }
  for (std::uint32_t c = 0; c < parts_.size(); ++c) {
    if (composition.components[c].state_count != 0) with_states_.push_back(c);
    if (composition.components[c].indicator_count != 0) with_indicators_.push_back(c);
  }
  for (ValueReference vr : composition.states) system_unknown_[vr] = 1;
  for (ValueReference vr : composition.derivatives) system_unknown_[vr] = 1;
  for (const auto& a : composition.manifest.algebraic_variables) system_unknown_[a.value_reference] = 1;
}

CompositeInstance::~CompositeInstance() = default;

bool CompositeInstance::provides_directional_derivatives() const {
  return model_->directional_derivatives_available();
}

std::string CompositeInstance::absence_message(const std::string& what) const {
  return "instance \"" + name() + "\": " + model_display_name() + " is a system of FMUs, and its composite "
         "instance passes no " + what + " on to its components → use them on the components' own FMUs";
}

void CompositeInstance::not_a_component_variable(ValueReference vr, const char* what) const {
  const std::string variable = vr < composition_.md.variables.size() ? composition_.md.variables[vr].name
                                                                      : "value reference " + std::to_string(vr);
  throw Error(ErrorKind::usage, "instance \"" + name() + "\": " + variable + " is " + what +
                                    " of the system, computed by lsdae → read it, do not set it");
}

void CompositeInstance::enter_initialization_mode(std::optional<double> tolerance, double start_time,
                                                  std::optional<double> stop_time) {
  require(ModeChange::enter_initialization, "enter_initialization_mode");
  for (auto& p : parts_) p->enter_initialization_mode(tolerance, start_time, stop_time);
  complete(ModeChange::enter_initialization);
}

void CompositeInstance::exit_initialization_mode() {
  require(ModeChange::exit_initialization, "exit_initialization_mode");
  copy_discrete_connections();
  for (auto& p : parts_) p->exit_initialization_mode();
  complete(ModeChange::exit_initialization);
}

void CompositeInstance::enter_event_mode() {
  require(ModeChange::enter_event, "enter_event_mode");
  for (auto& p : parts_) p->enter_event_mode();
  complete(ModeChange::enter_event);
}

bool CompositeInstance::copy_discrete_connections() {
  bool changed = false;
  for (const ResolvedConnection& c : composition_.discrete) {
    const Variable* to = composition_.md.find(c.to.global);
    Values from_value(to->type), to_value(to->type);
    ValueReference from_vr = c.from.local, to_vr = c.to.local;
    parts_[c.from.component]->get_values({&from_vr, 1}, from_value);
    parts_[c.to.component]->get_values({&to_vr, 1}, to_value);
    if (is_float(to->type) && (c.factor != 1.0 || c.offset != 0.0)) {
      from_value.reals[0] = c.factor * from_value.reals[0] + c.offset;
    }
    if (from_value.text(0) == to_value.text(0)) continue;
    parts_[c.to.component]->set_values({&to_vr, 1}, from_value);
    changed = true;
  }
  return changed;
}

DiscreteStatesUpdate CompositeInstance::update_discrete_states() {
  require("update_discrete_states", {InstanceState::event});
  propagate_clocks();
  DiscreteStatesUpdate out;
  for (auto& p : parts_) {
    const DiscreteStatesUpdate u = p->update_discrete_states();
    out.discrete_states_need_update |= u.discrete_states_need_update;
    out.terminate_simulation |= u.terminate_simulation;
    out.nominals_of_continuous_states_changed |= u.nominals_of_continuous_states_changed;
    out.values_of_continuous_states_changed |= u.values_of_continuous_states_changed;
    if (u.next_event_time && (!out.next_event_time || *u.next_event_time < *out.next_event_time))
      out.next_event_time = u.next_event_time;
  }
  std::fill(clock_driven_.begin(), clock_driven_.end(), 0);  // every clock is inactive after the update
  if (copy_discrete_connections()) out.discrete_states_need_update = true;
  return out;
}

void CompositeInstance::enter_continuous_time_mode() {
  require(ModeChange::enter_continuous_time, "enter_continuous_time_mode");
  for (auto& p : parts_) p->enter_continuous_time_mode();
  complete(ModeChange::enter_continuous_time);
}

CallStatus CompositeInstance::set_time(double time) {
  CallStatus status = CallStatus::ok;
  for (auto& p : parts_) status = worst_of(status, p->set_time(time));  // each marks its own call record
  return status;
}

CallStatus CompositeInstance::set_continuous_states(std::span<const double> x) {
  return over_state_slices(parts_, composition_, x,
                           [](Instance& part, auto slice) { return part.set_continuous_states(slice); });
}

CallStatus CompositeInstance::get_continuous_states(std::span<double> x) {
  return over_state_slices(parts_, composition_, x,
                           [](Instance& part, auto slice) { return part.get_continuous_states(slice); });
}

CallStatus CompositeInstance::get_continuous_state_derivatives(std::span<double> dx) {
  return for_components(with_states_, derivatives_work_, [&](std::uint32_t c) {
    const ComponentPart& cp = composition_.components[c];
    return parts_[c]->get_continuous_state_derivatives(dx.subspan(cp.first_state, cp.state_count));
  });
}

CallStatus CompositeInstance::get_nominals_of_continuous_states(std::span<double> nominals) {
  return over_state_slices(parts_, composition_, nominals,
                           [](Instance& part, auto slice) { return part.get_nominals_of_continuous_states(slice); });
}

CallStatus CompositeInstance::get_event_indicators(std::span<double> indicators) {
  return for_components(with_indicators_, indicators_work_, [&](std::uint32_t c) {
    const ComponentPart& cp = composition_.components[c];
    return parts_[c]->get_event_indicators(indicators.subspan(cp.first_indicator, cp.indicator_count));
  });
}

IntegratorStepResult CompositeInstance::completed_integrator_step(bool no_set_fmu_state_prior_to_current_point) {
  IntegratorStepResult out;
  for (std::size_t c = 0; c < parts_.size(); ++c) {
    if (!composition_.components[c].fmu->model_description().model_exchange->needs_completed_integrator_step)
      continue;
    const IntegratorStepResult r = parts_[c]->completed_integrator_step(no_set_fmu_state_prior_to_current_point);
    out.enter_event_mode |= r.enter_event_mode;
    out.terminate_simulation |= r.terminate_simulation;
  }
  return out;
}

std::size_t CompositeInstance::number_of_continuous_states() {
  std::size_t n = 0;
  for (auto& p : parts_) n += p->number_of_continuous_states();
  return n;
}

std::size_t CompositeInstance::number_of_event_indicators() {
  std::size_t n = 0;
  for (auto& p : parts_) n += p->number_of_event_indicators();
  return n;
}

void CompositeInstance::terminate() {
  // Every live component, whatever state the system is in (no check: the
  // simulation ends a system on any path).
  for (auto& p : parts_)
    if (p->state() != InstanceState::terminated && p->state() != InstanceState::failed) p->terminate();
  complete(ModeChange::terminate);
}

void CompositeInstance::reset() {
  // fmi3Reset takes a component back to its own defaults: the DAE switch
  // off, the FMU's start values instead of the system's parameters.
  for (std::size_t c = 0; c < parts_.size(); ++c) {
    parts_[c]->reset();
    prepare_component(composition_.components[c], *parts_[c]);
  }
  plans_.clear();
  std::fill(kept_xdot_.begin(), kept_xdot_.end(), 0.0);
  complete(ModeChange::reset);  // DAE mode stays on: the components' switches are on again
}

}  // namespace lsdae::system
