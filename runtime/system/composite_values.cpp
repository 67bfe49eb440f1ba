// runtime/system/composite_values.cpp -- the values of a system of FMUs
// (composite_instance.h, "set/get of values"): CompositeInstance's get_* and
// set_* split a list of system value references by component.
//
// Float64 lists are routed by a Plan, made on a list's first use and kept
// (kPlansKept, most recent first: ModelResidual passes the same lists at
// every evaluation): one bulk call per component, then the rows lsdae
// computes (state rows ẋ − f, connection and coupling rows) from the values
// read in the same calls. Cost of a kept plan: one comparison of the list,
// the components' calls, O(rows + operands) arithmetic; no allocation. Other
// types carry no rows: split per call (not on a hot path).
#include <algorithm>
#include <memory>
#include <unordered_map>

#include "lsdae/error.h"
#include "system/composite_instance.h"
#include "system/composite_plan.h"

namespace lsdae::system {

namespace {
constexpr std::size_t kPlansKept = 16;
using Kind = Global::Kind;

}  // namespace

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
      s = worst_of(s, parts_[c]->get_continuous_state_derivatives(
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
    status = worst_of(status, parts_[c]->set_float64(part.local, part.buffer));
  }
  return status;
}

// Other types: no rows, no kept values; split per call (not on a hot path).
const Global& CompositeInstance::component_global(ValueReference vr) const {
  if (vr >= composition_.globals.size()) not_a_component_variable(vr, "not a variable");
  const Global& g = composition_.globals[vr];
  if (g.kind != Kind::component) not_a_component_variable(vr, "a Float64 variable");
  return g;
}

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
      const Global& g = component_global(vrs[i]);
      if (g.component != c) continue;
      local.push_back(g.local);
      where.push_back(i);
    }
    if (local.empty()) continue;
    std::vector<T> buffer(local.size());
    status = worst_of(status, get(*parts_[c], local, buffer));
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
      const Global& g = component_global(vrs[i]);
      if (g.component != c) continue;
      local.push_back(g.local);
      buffer.push_back(values[i]);
    }
    if (!local.empty()) status = worst_of(status, set(*parts_[c], local, buffer));
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

}  // namespace lsdae::system
