// runtime/system/composite_instance.cpp -- see composite_instance.h.
#include "system/composite_instance.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <unordered_map>

#include <omp.h>

#include "lsdae/error.h"
#include "lsdae/values.h"

namespace lsdae::system {

namespace {
constexpr std::size_t kPlansKept = 16;
using Kind = Global::Kind;

CallStatus worst(CallStatus a, CallStatus b) { return a == CallStatus::discard ? a : b; }

// Calls `call(instance, slice)` for every component with states, its slice
// of a vector over the system's states (components' states are contiguous,
// in component order), and returns the worst status.
template <typename T, typename Call>
CallStatus over_state_slices(const std::vector<std::unique_ptr<Instance>>& parts, const Composition& composition,
                             std::span<T> all, Call call) {
  CallStatus status = CallStatus::ok;
  for (std::size_t c = 0; c < parts.size(); ++c) {
    const ComponentPart& cp = composition.components[c];
    if (cp.state_count == 0) continue;
    status = worst(status, call(*parts[c], all.subspan(cp.first_state, cp.state_count)));
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

// One list of system value references, split by component.
struct CompositeInstance::Plan {
  std::vector<ValueReference> key;
  bool for_set = false;
  struct Part {
    std::vector<ValueReference> local;  // the component's value references
    std::vector<std::size_t> slot;      // where each value goes in `slots` (get) / comes from in values (set)
    std::vector<double> buffer;
  };
  std::vector<Part> parts;             // per component
  std::vector<std::uint32_t> called;   // components with something to get or set
  std::vector<double> slots;           // get: [0, n) the requested values, then the rows' operands
  struct Row {
    Kind kind;
    std::size_t position;  // in the caller's values
    std::size_t a = 0, b = 0;  // slots (connection: to, from; potential: p_1, p_k; flows: [a, a + b) of flow_slots)
    double factor = 1.0, offset = 0.0;
    std::size_t state = 0;
  };
  std::vector<Row> rows;
  std::vector<std::size_t> flow_slots;
  std::vector<std::pair<std::size_t, std::size_t>> kept;  // (position, system state): ẋ of a component computing it
  std::vector<std::uint32_t> need_f;                      // components whose f the rows read
  std::vector<std::uint32_t> tasks;                       // get: `called` ∪ `need_f`, ascending
  std::vector<std::uint8_t> reads_f;                      // per component: in need_f
  WorkEstimate work;                                      // the components' time per get
};

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

CallStatus CompositeInstance::run_components(std::span<const std::uint32_t> components, WorkEstimate& work,
                                             CallStatus (*call)(void*, std::uint32_t), void* task) {
  using Clock = std::chrono::steady_clock;
  const std::size_t n = components.size();
  // Each task is timed on its own thread; the sum is the call's sequential work.
  auto timed = [&](std::uint32_t c) {
    const auto start = Clock::now();
    const CallStatus s = call(task, c);
    task_seconds_[c] = std::chrono::duration<double>(Clock::now() - start).count();
    return s;
  };
  auto learn = [&] {
    double seconds = 0.0;
    for (std::uint32_t c : components) seconds += task_seconds_[c];
    work.add(seconds);
  };
  if (threads_ <= 1 || n < 2 || omp_in_parallel() != 0) {  // one thread: nothing to learn
    CallStatus status = CallStatus::ok;
    for (std::uint32_t c : components) status = worst(status, call(task, c));
    return status;
  }
  if (parallel_work_ > 0.0 && work.least() < parallel_work_) {
    CallStatus status = CallStatus::ok;
    for (std::uint32_t c : components) status = worst(status, timed(c));
    learn();
    return status;
  }
  // Exceptions may not leave an OpenMP region: each is kept by component.
  bool discard = false, failed = false;
  const int threads = static_cast<int>(std::min(threads_, n));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1) reduction(|| : discard, failed)
  for (std::size_t k = 0; k < n; ++k) {
    const std::uint32_t c = components[k];
    try {
      discard = timed(c) == CallStatus::discard || discard;
    } catch (...) {
      errors_[c] = std::current_exception();
      task_seconds_[c] = 0.0;
      failed = true;
    }
  }
  if (failed)
    for (std::uint32_t c : components)
      if (errors_[c]) {
        std::exception_ptr first = errors_[c];
        for (auto& e : errors_) e = nullptr;
        std::rethrow_exception(first);
      }
  learn();
  return discard ? CallStatus::discard : CallStatus::ok;
}

CompositeInstance::Plan& CompositeInstance::plan_for(std::span<const ValueReference> vrs, bool for_set) {
  for (std::size_t k = 0; k < plans_.size(); ++k) {
    Plan& p = *plans_[k];
    if (p.for_set != for_set || p.key.size() != vrs.size() || !std::equal(vrs.begin(), vrs.end(), p.key.begin()))
      continue;
    if (k != 0) std::rotate(plans_.begin(), plans_.begin() + static_cast<std::ptrdiff_t>(k),
                            plans_.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    return *plans_.front();
  }
  auto plan = std::make_unique<Plan>();
  Plan& p = *plan;
  p.key.assign(vrs.begin(), vrs.end());
  p.for_set = for_set;
  p.parts.resize(parts_.size());
  std::size_t next_slot = vrs.size();
  std::unordered_map<ValueReference, std::size_t> operand_slot;
  auto operand = [&](const Endpoint& e) {
    auto [it, fresh] = operand_slot.emplace(e.global, next_slot);
    if (fresh) {
      p.parts[e.component].local.push_back(e.local);
      p.parts[e.component].slot.push_back(next_slot++);
    }
    return it->second;
  };
  std::vector<std::uint8_t> need_f(parts_.size(), 0);
  for (std::size_t i = 0; i < vrs.size(); ++i) {
    if (vrs[i] >= composition_.globals.size())
      throw Error(ErrorKind::usage, "instance \"" + name() + "\": value reference " + std::to_string(vrs[i]) +
                                        " is not one of the system's (" +
                                        std::to_string(composition_.globals.size()) + ") → use a name");
    const Global& g = composition_.globals[vrs[i]];
    Plan::Row row{g.kind, i};
    switch (g.kind) {
      case Kind::component:
        p.parts[g.component].local.push_back(g.local);
        p.parts[g.component].slot.push_back(i);
        continue;
      case Kind::kept_derivative:  // read: the component's own ẋ = f; set: kept for the state row
        p.kept.emplace_back(i, g.state);
        if (!for_set) need_f[g.component] = 1;
        continue;
      case Kind::state_row:
        if (for_set) not_a_component_variable(vrs[i], "a residual");
        row.state = g.state;
        need_f[g.component] = 1;
        break;
      case Kind::connection_row: {
        if (for_set) not_a_component_variable(vrs[i], "a connection's residual");
        const ResolvedConnection& c = composition_.continuous[g.index];
        row.a = operand(c.to);
        row.b = operand(c.from);
        row.factor = c.factor;
        row.offset = c.offset;
        break;
      }
      case Kind::potential_row: {
        if (for_set) not_a_component_variable(vrs[i], "a coupling's residual");
        const ResolvedCoupling& c = composition_.couplings[g.index];
        row.a = operand(c.potentials[0]);
        row.b = operand(c.potentials[g.port]);
        break;
      }
      case Kind::flow_row: {
        if (for_set) not_a_component_variable(vrs[i], "a coupling's residual");
        const ResolvedCoupling& c = composition_.couplings[g.index];
        row.a = p.flow_slots.size();
        row.b = c.flows.size();
        for (const Endpoint& f : c.flows) p.flow_slots.push_back(operand(f));
        break;
      }
    }
    p.rows.push_back(row);
  }
  p.reads_f.assign(parts_.size(), 0);
  for (std::uint32_t c = 0; c < parts_.size(); ++c) {
    if (!p.parts[c].local.empty()) p.called.push_back(c);
    p.parts[c].buffer.resize(p.parts[c].local.size());
    if (need_f[c] != 0) p.need_f.push_back(c);
    if (need_f[c] != 0 && composition_.components[c].state_count != 0) p.reads_f[c] = 1;
    if (!p.parts[c].local.empty() || p.reads_f[c] != 0) p.tasks.push_back(c);
  }
  p.slots.resize(next_slot);
  if (plans_.size() == kPlansKept) plans_.pop_back();  // the least recently used
  plans_.push_back(std::move(plan));
  std::rotate(plans_.begin(), plans_.end() - 1, plans_.end());
  return p;
}

CallStatus CompositeInstance::get_float64(std::span<const ValueReference> vrs, std::span<double> values) {
  require_count("get_float64", vrs, values.size());
  Plan& p = plan_for(vrs, false);
  // Per component: its values, then its f when the rows read it (each task
  // writes its own slots and its own slice of f_ only).
  const CallStatus status = for_components(p.tasks, p.work, [&](std::uint32_t c) {
    CallStatus s = CallStatus::ok;
    Plan::Part& part = p.parts[c];
    if (!part.local.empty()) {
      s = parts_[c]->get_float64(part.local, part.buffer);
      for (std::size_t k = 0; k < part.local.size(); ++k) p.slots[part.slot[k]] = part.buffer[k];
    }
    if (p.reads_f[c] != 0) {
      const ComponentPart& cp = composition_.components[c];
      s = worst(s, parts_[c]->get_continuous_state_derivatives(
                       std::span<double>(f_).subspan(cp.first_state, cp.state_count)));
    }
    return s;
  });
  std::copy(p.slots.begin(), p.slots.begin() + static_cast<std::ptrdiff_t>(vrs.size()), values.begin());
  for (const auto& [position, state] : p.kept) values[position] = f_[state];
  for (const Plan::Row& r : p.rows) {
    switch (r.kind) {
      case Kind::state_row: values[r.position] = kept_xdot_[r.state] - f_[r.state]; break;
      case Kind::connection_row: values[r.position] = p.slots[r.a] - r.factor * p.slots[r.b] - r.offset; break;
      case Kind::potential_row: values[r.position] = p.slots[r.a] - p.slots[r.b]; break;
      case Kind::flow_row: {
        double sum = 0.0;
        for (std::size_t k = r.a; k < r.a + r.b; ++k) sum += p.slots[p.flow_slots[k]];
        values[r.position] = sum;
        break;
      }
      default: break;
    }
  }
  return status;
}

CallStatus CompositeInstance::set_float64(std::span<const ValueReference> vrs, std::span<const double> values) {
  require_count("set_float64", vrs, values.size());
  Plan& p = plan_for(vrs, true);
  for (const auto& [position, state] : p.kept) kept_xdot_[state] = values[position];
  CallStatus status = CallStatus::ok;
  for (std::uint32_t c : p.called) {
    Plan::Part& part = p.parts[c];
    for (std::size_t k = 0; k < part.local.size(); ++k) part.buffer[k] = values[part.slot[k]];
    status = worst(status, parts_[c]->set_float64(part.local, part.buffer));
  }
  return status;
}

// Other types: no rows, no kept values; split per call (not on a hot path).
template <typename T, typename Get>
CallStatus CompositeInstance::get_passthrough(std::span<const ValueReference> vrs, std::span<T> values, Get get) {
  require_count("get", vrs, values.size());
  CallStatus status = CallStatus::ok;
  std::vector<ValueReference> local;
  std::vector<std::size_t> where;
  for (std::uint32_t c = 0; c < parts_.size(); ++c) {
    local.clear();
    where.clear();
    for (std::size_t i = 0; i < vrs.size(); ++i) {
      if (vrs[i] >= composition_.globals.size()) not_a_component_variable(vrs[i], "not a variable");
      const Global& g = composition_.globals[vrs[i]];
      if (g.kind != Kind::component) not_a_component_variable(vrs[i], "a Float64 variable");
      if (g.component != c) continue;
      local.push_back(g.local);
      where.push_back(i);
    }
    if (local.empty()) continue;
    std::vector<T> buffer(local.size());
    status = worst(status, get(*parts_[c], local, buffer));
    for (std::size_t k = 0; k < local.size(); ++k) values[where[k]] = buffer[k];
  }
  return status;
}

template <typename T, typename Set>
CallStatus CompositeInstance::set_passthrough(std::span<const ValueReference> vrs, std::span<const T> values,
                                              Set set) {
  require_count("set", vrs, values.size());
  CallStatus status = CallStatus::ok;
  std::vector<ValueReference> local;
  std::vector<T> buffer;
  for (std::uint32_t c = 0; c < parts_.size(); ++c) {
    local.clear();
    buffer.clear();
    for (std::size_t i = 0; i < vrs.size(); ++i) {
      if (vrs[i] >= composition_.globals.size()) not_a_component_variable(vrs[i], "not a variable");
      const Global& g = composition_.globals[vrs[i]];
      if (g.kind != Kind::component) not_a_component_variable(vrs[i], "a Float64 variable");
      if (g.component != c) continue;
      local.push_back(g.local);
      buffer.push_back(values[i]);
    }
    if (!local.empty()) status = worst(status, set(*parts_[c], local, buffer));
  }
  return status;
}

// std::vector<bool> has no span: Booleans travel through a byte buffer.
CallStatus CompositeInstance::get_boolean(std::span<const ValueReference> vrs, std::span<bool> values) {
  std::vector<std::uint8_t> bytes(values.size());
  const CallStatus s = get_passthrough<std::uint8_t>(
      vrs, std::span<std::uint8_t>(bytes), [](Instance& in, std::span<const ValueReference> l, std::span<std::uint8_t> b) {
        std::unique_ptr<bool[]> tmp(new bool[b.size()]);
        const CallStatus st = in.get_boolean(l, std::span<bool>(tmp.get(), b.size()));
        for (std::size_t k = 0; k < b.size(); ++k) b[k] = tmp[k] ? 1 : 0;
        return st;
      });
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = bytes[k] != 0;
  return s;
}
CallStatus CompositeInstance::set_boolean(std::span<const ValueReference> vrs, std::span<const bool> values) {
  std::vector<std::uint8_t> bytes(values.begin(), values.end());
  return set_passthrough<std::uint8_t>(vrs, std::span<const std::uint8_t>(bytes),
                                       [](Instance& in, std::span<const ValueReference> l, std::span<const std::uint8_t> b) {
                                         std::unique_ptr<bool[]> tmp(new bool[b.size()]);
                                         for (std::size_t k = 0; k < b.size(); ++k) tmp[k] = b[k] != 0;
                                         return in.set_boolean(l, std::span<const bool>(tmp.get(), b.size()));
                                       });
}

#define LSDAE_COMPOSITE_TYPED(NAME, T)                                                                          \
  CallStatus CompositeInstance::get_##NAME(std::span<const ValueReference> vrs, std::span<T> values) {          \
    return get_passthrough<T>(vrs, values, [](Instance& in, std::span<const ValueReference> l, std::span<T> b) { \
      return in.get_##NAME(l, b);                                                                               \
    });                                                                                                         \
  }                                                                                                             \
  CallStatus CompositeInstance::set_##NAME(std::span<const ValueReference> vrs, std::span<const T> values) {    \
    return set_passthrough<T>(vrs, values,                                                                      \
                              [](Instance& in, std::span<const ValueReference> l, std::span<const T> b) {       \
                                return in.set_##NAME(l, b);                                                     \
                              });                                                                               \
  }
LSDAE_COMPOSITE_TYPED(int32, std::int32_t)
LSDAE_COMPOSITE_TYPED(int64, std::int64_t)
LSDAE_COMPOSITE_TYPED(float32, float)
LSDAE_COMPOSITE_TYPED(int8, std::int8_t)
LSDAE_COMPOSITE_TYPED(uint8, std::uint8_t)
LSDAE_COMPOSITE_TYPED(int16, std::int16_t)
LSDAE_COMPOSITE_TYPED(uint16, std::uint16_t)
LSDAE_COMPOSITE_TYPED(uint32, std::uint32_t)
LSDAE_COMPOSITE_TYPED(uint64, std::uint64_t)
LSDAE_COMPOSITE_TYPED(enumeration, std::int64_t)
#undef LSDAE_COMPOSITE_TYPED

CallStatus CompositeInstance::get_string(std::span<const ValueReference> vrs, std::vector<std::string>& values) {
  values.assign(vrs.size(), std::string());
  return get_passthrough<std::string>(
      vrs, std::span<std::string>(values), [](Instance& in, std::span<const ValueReference> l, std::span<std::string> b) {
        std::vector<std::string> got;
        const CallStatus st = in.get_string(l, got);
        std::copy(got.begin(), got.end(), b.begin());
        return st;
      });
}
CallStatus CompositeInstance::set_string(std::span<const ValueReference> vrs, std::span<const std::string> values) {
  return set_passthrough<std::string>(
      vrs, values, [](Instance& in, std::span<const ValueReference> l, std::span<const std::string> b) {
        return in.set_string(l, b);
      });
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
  for (auto& p : parts_) status = worst(status, p->set_time(time));  // each marks its own call record
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
